/**
 * `npm run stack`: the main job, a Pulumi stack against the local emulator, run by the real `pulumi` CLI
 * exactly as a user runs it. Starts the emulator, installs the quickstart program with the packed package
 * (as a user would) in a temporary directory with a local file backend, then streams Pulumi's own output:
 *   pulumi stack init, pulumi config set (the API key with --secret), pulumi up,
 *   pulumi preview --refresh --expect-no-changes (the CI drift check), pulumi destroy.
 * Then the emulator stops and the temporary directory is removed: nothing is left behind.
 *
 * `--keep` skips the destroy and keeps the emulator and the stack until Ctrl-C, printing the commands to
 * use the stack from another shell; Ctrl-C then destroys the stack and removes everything (the emulator
 * keeps its objects in memory, so a stack outliving it would point at nothing).
 */
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../emulator/controlPlane/revisions";
import { startEmulator } from "../emulator/server";
import { PASSPHRASE, createProject } from "./lib/project";

const STACK = "dev";

async function main() {
    const keep = process.argv.includes("--keep");
    const apiKey = `lsv2_local_${randomUUID().slice(0, 8)}`;
    // Phases at a fifth of the emulator's defaults: a github revision takes about a second.
    const em = await startEmulator({ apiKeys: [apiKey], timing: { phaseMs: scaledTiming(1 / 5).phaseMs } });
    console.log(`emulator listening on ${em.url}`);
    console.log("installing examples/quickstart with the packed package ...");
    const project = createProject("quickstart");
    const stream = { stream: true };
    const step = async (args: string[]) => {
        console.log(`\n$ pulumi ${args.join(" ")}`);
        return project.pulumi(args, stream);
    };
    let failed = false;
    try {
        console.log(`\n$ pulumi stack init ${STACK}; pulumi config set ...`);
        await project.initStack(
            STACK,
            { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID() },
            { "langsmith:apiKey": apiKey, "quickstart:agentSecret": "sk-local-example" },
        );
        await step(["up", "--yes", "--stack", STACK]);
        await step(["preview", "--refresh", "--expect-no-changes", "--stack", STACK]);
        if (keep) await waitForCtrlC(project.dir, project.env.PULUMI_BACKEND_URL!);
        await step(["destroy", "--yes", "--stack", STACK]);
    } catch (e) {
        failed = true;
        console.error(`\nnpm run stack failed: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    } finally {
        await em.close();
        project.remove();
    }
    if (failed) process.exitCode = 1;
    else console.log(`\nDone: the stack was destroyed, the emulator stopped, and ${project.dir} (stack, state, packages) removed.`);
}

/** Prints how to use the kept stack, then waits for Ctrl-C (or SIGTERM); the caller then tears down. */
async function waitForCtrlC(dir: string, backendUrl: string): Promise<void> {
    console.log(`
The stack and the emulator stay up until you press Ctrl-C. From another shell:

  source scripts/env.sh
  cd ${dir}
  export PULUMI_BACKEND_URL=${backendUrl} PULUMI_CONFIG_PASSPHRASE=${PASSPHRASE}
  pulumi stack output            # or: pulumi up, pulumi refresh, pulumi preview --refresh --expect-no-changes

Ctrl-C here destroys the stack, stops the emulator and removes ${dir}.`);
    await new Promise<void>((r) => {
        process.once("SIGINT", r);
        process.once("SIGTERM", r);
    });
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
