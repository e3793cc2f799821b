#!/usr/bin/env node
// Runs Pulumi operations on the program in the current directory (its index.ts) through the Automation
// API's inline mode, with the real Pulumi engine and a local file backend. Used by `npm run stack` and by
// the e2e tests. Why inline: the Node.js language host cannot be built here (see scripts/setup.sh); in
// inline mode this process is the language host, and everything else (engine, state, dynamic-provider
// plugin) is the real thing. Every module is resolved from the program's directory, so the program runs
// against the packages installed there, as a user's would.
//
//   node scripts/run-program.js '<json>'     (cwd: the program's directory)
//   json: { project, stack, backendUrl, passphrase?, config?: {k: v}, secretConfig?: {k: v}, env?: {k: v},
//           ops: [{ op: "up"|"preview"|"refresh"|"destroy"|"export"|"outputs"|"cancel", refresh?, expectNoChanges?,
//                   allowFailure? }] }
// Prints one line `@@RESULT <json>` per operation on stdout; the engine's own output goes to stderr.
"use strict";
const path = require("node:path");
const { execFileSync } = require("node:child_process");

const dir = process.cwd();
const load = (m) => require(require.resolve(m, { paths: [dir] }));

async function main() {
    const spec = JSON.parse(process.argv[2] ?? "{}");
    const auto = load("@pulumi/pulumi/automation");
    load("ts-node").register({ transpileOnly: true, compilerOptions: { module: "commonjs" } });
    // The program is evaluated afresh for every operation: its own modules leave the require cache
    // (they register resources when evaluated), installed packages stay.
    const program = async () => {
        for (const f of Object.keys(require.cache)) {
            if (f.startsWith(dir + path.sep) && !f.includes(`${path.sep}node_modules${path.sep}`)) delete require.cache[f];
        }
        return load(path.join(dir, "index.ts"));
    };
    const envVars = {
        PULUMI_BACKEND_URL: spec.backendUrl,
        PULUMI_CONFIG_PASSPHRASE: spec.passphrase ?? "pulumi-langsmith-local",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        ...spec.env,
    };
    const stack = await auto.LocalWorkspace.createOrSelectStack(
        { projectName: spec.project ?? path.basename(dir), stackName: spec.stack ?? "dev", program },
        { envVars },
    );
    for (const [k, v] of Object.entries(spec.config ?? {})) await stack.setConfig(k, { value: String(v) });
    for (const [k, v] of Object.entries(spec.secretConfig ?? {})) await stack.setConfig(k, { value: String(v), secret: true });

    const onOutput = (s) => process.stderr.write(s);
    let failed = false;
    for (const o of spec.ops ?? []) {
        const started = Date.now();
        const result = { op: o.op, ok: true };
        try {
            switch (o.op) {
                case "up": {
                    const r = await stack.up({ onOutput, refresh: o.refresh });
                    result.summary = summary(r.summary);
                    result.outputs = plainOutputs(r.outputs);
                    break;
                }
                case "preview": {
                    const r = await stack.preview({ onOutput, refresh: o.refresh, expectNoChanges: o.expectNoChanges, diff: true });
                    result.changeSummary = r.changeSummary;
                    result.stdout = r.stdout;
                    break;
                }
                case "refresh": {
                    const r = await stack.refresh({ onOutput, expectNoChanges: o.expectNoChanges });
                    result.summary = summary(r.summary);
                    result.stdout = r.stdout;
                    break;
                }
                case "destroy": {
                    const r = await stack.destroy({ onOutput });
                    result.summary = summary(r.summary);
                    break;
                }
                case "export":
                    // What is stored, as `pulumi stack export` shows it (the Automation API's exportStack
                    // adds --show-secrets, which would defeat the point of looking).
                    result.deployment = JSON.parse(
                        execFileSync("pulumi", ["stack", "export", "--stack", spec.stack ?? "dev"], {
                            cwd: stack.workspace.workDir,
                            env: { ...process.env, ...envVars },
                            encoding: "utf8",
                            maxBuffer: 64 * 1024 * 1024,
                        }),
                    );
                    break;
                case "outputs":
                    result.outputs = plainOutputs(await stack.outputs());
                    break;
                case "cancel":
                    await stack.cancel();
                    break;
                default:
                    throw new Error(`unknown op ${o.op}`);
            }
        } catch (e) {
            result.ok = false;
            result.error = String(e && e.message ? e.message : e);
            if (e && e.commandResult) {
                result.stdout = e.commandResult.stdout;
                result.stderr = e.commandResult.stderr;
            }
        }
        result.ms = Date.now() - started;
        process.stdout.write("@@RESULT " + JSON.stringify(result) + "\n");
        if (!result.ok && !o.allowFailure) {
            failed = true;
            break;
        }
    }
    process.exitCode = failed ? 1 : 0;
}

/** An update summary without the stack config the Automation API reads back decrypted. */
function summary(s) {
    const { config, environment, ...rest } = s ?? {};
    return rest;
}

/** Stack outputs without Pulumi's wrapper; secret outputs stay hidden. */
function plainOutputs(outputs) {
    return Object.fromEntries(Object.entries(outputs ?? {}).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]));
}

main().catch((e) => {
    process.stderr.write(`run-program: ${e && e.stack ? e.stack : e}\n`);
    process.exit(2);
});
