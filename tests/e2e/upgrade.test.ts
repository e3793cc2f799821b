/**
 * Upgrades users can follow: a stack made with the previous release's artifacts (tests/fixtures/release-0.1.0:
 * the npm tarball and the Python SDK of 0.1.0, never regenerated) previews with no change and no replacement
 * under this checkout's, in both front doors, with the real CLI against one emulator and one MinIO:
 *
 * - TypeScript (dynamic resources): programs/upgrade-ts with `pulumi-langsmith` installed from the 0.1.0
 *   tarball, `pulumi up`; then `npm install` of this checkout's packed package: `pulumi preview
 *   --expect-no-changes --diff` passes and shows every resource unchanged (the state's serialized providers
 *   require the package, so the preview runs this version's code); refresh changes nothing; destroy.
 * - The native plugin: programs/upgrade-py with the 0.1.0 SDK and the 0.1.0 plugin (the tarball's
 *   `dist/provider/plugin/main.js`, installed as `langsmith` 0.1.0 with `pulumi plugin install --file` into
 *   a PULUMI_HOME of this test's own), `pulumi up`; then this checkout's SDK and plugin (installed the same
 *   way as its own version). The SDK asks the engine for the plugin of the version in its installed metadata
 *   (hence sitePackages below), so every resource moves from the default provider `default_0_1_0` to this
 *   version's. The engine shows nothing of that move: the preview says every resource is unchanged,
 *   `--expect-no-changes` passes, and only this version's plugin runs (its launcher notes each start); the
 *   `up --expect-no-changes` after it writes nothing to the service and leaves the state on the new provider.
 *
 * No command finds a plugin on PATH (the checkout's bin/ is left out of it: no "from $PATH" anywhere), no
 * preview writes to the service, and after a refresh every resource has the id and (at least) the outputs it had
 * under 0.1.0 (a refresh shows changed inputs only: a renamed output would pass it unseen).
 *
 * Its nine engine commands (issue 50: more than eight, each says why) are two stacks', one per front door, each made
 * by the previous release and so its own: `up` with 0.1.0, the preview under this version, `refresh` and `destroy`;
 * the native plugin's adds the `up --expect-no-changes` that moves it onto this version's provider.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { startMinio, type MinioServer } from "../helpers/minio";
import { PulumiProject, packPackage } from "../helpers/project";

const ROOT = resolve(__dirname, "../..");
const RELEASE = join(__dirname, "../fixtures/release-0.1.0");
const OLD_TARBALL = join(RELEASE, "pulumi-langsmith-0.1.0.tgz");
const OLD_PYTHON_SDK = join(RELEASE, "pulumi_langsmith-0.1.0-python.tar.gz");
const CURRENT = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const OPENAI_KEY = `sk-upgrade-${randomUUID()}`;
/** The package.json of a program of 0.1.0 (the TypeScript one; the 0.1.0 plugin runs from its install too). */
const OLD_PROGRAM = {
    name: "upgrade-ts",
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": "3.259.0", "pulumi-langsmith": `file:${OLD_TARBALL}` },
};
const INSTALL = ["--prefer-offline", "--omit=optional", "--no-audit", "--no-fund", "--loglevel=error"];

describe("e2e: a stack made by release 0.1.0 previews with no change under this version, in both front doors", function () {
    this.timeout(6 * 60_000);
    let em: Emulator;
    let minio: MinioServer;
    let work: string;
    /** What every command runs with: a PULUMI_HOME of its own, a PATH without this checkout's bin/. */
    let base: NodeJS.ProcessEnv;

    before(async () => {
        packPackage(); // builds dist/ (the current plugin runs from it) and packs it, once
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, agentServer: { stepMs: 20 } });
        minio = await startMinio();
        work = mkdtempSync(join(tmpdir(), "pulumi-langsmith-upgrade-"));
        const path = (process.env.PATH ?? "")
            .split(delimiter)
            .filter((d) => resolve(d) !== join(ROOT, "bin"))
            .join(delimiter);
        // A plugin the engine lacks fails the command instead of being downloaded.
        base = {
            PULUMI_HOME: join(work, "pulumi-home"),
            PATH: path,
            PULUMI_NODEJS_TRANSPILE_ONLY: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        };
        assert.throws(() => execFileSync("which", ["pulumi-resource-langsmith"], { env: base }), "a langsmith plugin is on the test's PATH");
        // 0.1.0 installed once, as a program installs it: the TypeScript program's node_modules are a copy, the
        // 0.1.0 plugin runs from here.
        mkdirSync(join(work, "old"));
        writeFileSync(join(work, "old/package.json"), JSON.stringify(OLD_PROGRAM, null, 2));
        execFileSync("npm", ["install", ...INSTALL], { cwd: join(work, "old"), stdio: "inherit" });
        installPlugin("0.1.0", join(work, "old/node_modules/pulumi-langsmith/dist/provider/plugin/main.js"));
        installPlugin(CURRENT, join(ROOT, "dist/provider/plugin/main.js"));
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
        if (work) rmSync(work, { recursive: true, force: true });
    });

    /** A copy of programs/<name> in the work directory with a stack against the emulator and MinIO, named apart. */
    async function stackOf(name: string, extra: (dir: string) => void, env: () => NodeJS.ProcessEnv) {
        const dir = join(work, name);
        cpSync(join(__dirname, "programs", name), dir, { recursive: true });
        extra(dir);
        mkdirSync(join(dir, ".state"));
        const project = new PulumiProject(dir, join(dir, ".state"));
        const stack = `up-${randomUUID().slice(0, 8)}`;
        const workspace = randomUUID();
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack], { env: env() });
        const o = { env: env() };
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:endpoint": em.url,
                "langsmith:workspaceId": workspace,
                [`${name}:suffix`]: randomUUID().slice(0, 8),
                [`${name}:integrationId`]: randomUUID(),
                [`${name}:bucket`]: "exports",
                [`${name}:s3Endpoint`]: minio.endpoint,
                [`${name}:s3AccessKeyId`]: minio.users.writeDelete.accessKeyId,
            },
            { "langsmith:apiKey": API_KEY, [`${name}:openaiApiKey`]: OPENAI_KEY, [`${name}:s3SecretAccessKey`]: minio.users.writeDelete.secretAccessKey },
            o,
        );
        return { project, stack, workspace, cli };
    }

    /** Where the plugins' launchers note each start (installPlugin). */
    const starts = () => join(work, "plugin-starts");
    /** The versions of the langsmith plugins the engine started since the last call. */
    function started(): string[] {
        const seen = existsSync(starts()) ? readFileSync(starts(), "utf8").split("\n").filter(Boolean) : [];
        rmSync(starts(), { force: true });
        return [...new Set(seen)].sort();
    }

    /** The requests of a workspace that were not reads, since `from` (an index into the emulator's request log). */
    const writesSince = (from: number) => em.admin.requests.slice(from).filter((r) => r.method !== "GET");

    /** Each resource's id and the names of its outputs, by URN (but the providers and the stack itself). */
    async function resourcesOf(project: PulumiProject, stack: string): Promise<Record<string, { id: string; outputs: string[] }>> {
        const state = await project.exportStack(stack);
        const out: Record<string, { id: string; outputs: string[] }> = {};
        for (const r of state.deployment.resources ?? [])
            if (!/^pulumi:(providers|pulumi):/.test(r.type)) out[r.urn] = { id: r.id, outputs: Object.keys(r.outputs ?? {}) };
        return out;
    }

    /**
     * The preview after the upgrade: it passes --expect-no-changes, shows every resource and the stack unchanged
     * and nothing else (no update, replacement, creation or deletion), and writes nothing to the service.
     */
    async function previewUnchanged(s: { cli: (...a: string[]) => Promise<{ stdout: string }> }, resources: number) {
        const from = em.admin.requests.length;
        const pv = await s.cli("preview", "--expect-no-changes", "--diff");
        assert.doesNotMatch(pv.stdout, /\((update|replace|create|delete)/, "a change previewed");
        assert.match(pv.stdout, new RegExp(`Resources:\\s*\\n\\s*${resources + 1} unchanged\\s*$`), "the summary: all unchanged, nothing else");
        assert.deepEqual(writesSince(from), [], "the preview wrote to the service");
    }

    /**
     * The outputs 0.2.0 no longer holds, by resource type: figures that traffic, other resources or the service's clock
     * change, which look-ups read instead (CHANGELOG.md 0.2.0, "A clean stack's refresh changes nothing").
     */
    const DROPPED: Record<string, string[]> = {
        TracingProject: ["runCount", "lastRunStartTime"],
        Dataset: ["exampleCount", "modifiedAt"],
        Prompt: ["latestCommitHash", "numCommits"],
        Evaluator: ["feedbackKeys"],
        Cron: ["nextRunDate", "updatedAt"],
        ScheduledExport: ["spawnedCount", "spawnedStatuses", "lastWindowEnd"],
    };

    /**
     * Refresh with the new version finds nothing to change and keeps every id and output; no secret is in the
     * state in plain text; then destroy removes everything from the service.
     */
    async function refreshAndDestroy(
        s: { project: PulumiProject; stack: string; workspace: string; cli: (...a: string[]) => Promise<unknown> },
        made: Record<string, { id: string; outputs: string[] }>,
    ) {
        await s.cli("refresh", "--yes", "--expect-no-changes");
        // A refresh shows changes of inputs only: an output the new version no longer reads (renamed, dropped)
        // shows here, but those 0.2.0 dropped on purpose (DROPPED). New outputs are allowed.
        const now = await resourcesOf(s.project, s.stack);
        for (const [urn, before] of Object.entries(made)) {
            assert.equal(now[urn]?.id, before.id, `refresh changed the id of ${urn}`);
            const dropped = DROPPED[urn.split(":").at(-3) ?? ""] ?? [];
            assert.deepEqual(
                before.outputs.filter((o) => !now[urn].outputs.includes(o) && !dropped.includes(o)),
                [],
                `outputs of ${urn} lost under this version`,
            );
        }
        const stored = await s.project.storedText(s.stack);
        for (const secret of [API_KEY, OPENAI_KEY, minio.users.writeDelete.secretAccessKey])
            assert.ok(!stored.includes(secret), "a secret in the state in plain text");
        await s.cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual(await resourcesOf(s.project, s.stack), {});
        assert.equal(em.controlPlane.allDeployments().filter((d) => d.tenant_id === s.workspace && d.status !== "AWAITING_DELETE").length, 0);
        const printed = s.project.transcript.join("\n");
        assert.doesNotMatch(printed, /from \$PATH/, "a plugin found on PATH");
        assert.ok(!printed.includes(API_KEY) && !printed.includes(OPENAI_KEY), "a secret in a command's output");
    }

    it("TypeScript: up with the 0.1.0 package, then npm install of this one: preview --expect-no-changes --diff passes, all unchanged; refresh and destroy", async () => {
        const s = await stackOf(
            "upgrade-ts",
            (dir) => {
                for (const f of ["package.json", "package-lock.json"]) cpSync(join(work, "old", f), join(dir, f));
                execFileSync("cp", ["-al", join(work, "old/node_modules"), join(dir, "node_modules")]);
            },
            () => base,
        );
        const installed = () => JSON.parse(readFileSync(join(s.project.dir, "node_modules/pulumi-langsmith/package.json"), "utf8")).version;
        assert.equal(installed(), "0.1.0");
        await s.cli("up", "--yes", "--skip-preview");
        assert.equal((await s.project.outputs(s.stack)).checkFirstRun, "interrupted");
        const made = await resourcesOf(s.project, s.stack);
        assert.equal(Object.keys(made).length, 8, "every resource of the program is in the stack");

        execFileSync("npm", ["install", ...INSTALL, `pulumi-langsmith@file:${packPackage()}`], { cwd: s.project.dir, stdio: "inherit" });
        assert.equal(installed(), CURRENT);
        await previewUnchanged(s, Object.keys(made).length);
        await refreshAndDestroy(s, made);
    });

    it("the native plugin: up with the 0.1.0 SDK and plugin, then this version's: preview --expect-no-changes passes, all unchanged; up moves to the new provider writing nothing; refresh and destroy", async () => {
        mkdirSync(join(work, "sdk-0.1.0"));
        execFileSync("tar", ["xzf", OLD_PYTHON_SDK, "-C", join(work, "sdk-0.1.0")]);
        const oldSdk = sitePackages(join(work, "sdk-0.1.0/python"), "old");
        const currentSdk = sitePackages(join(ROOT, "sdk/python"), "current");
        assert.deepEqual([oldSdk.version, currentSdk.version], ["0.1.0", CURRENT]);
        let pythonPath = oldSdk.dir;
        const s = await stackOf(
            "upgrade-py",
            () => undefined,
            () => ({ ...base, PYTHONPATH: pythonPath }),
        );
        await s.cli("up", "--yes", "--skip-preview");
        assert.equal((await s.project.outputs(s.stack)).checkFirstRun, "interrupted");
        const made = await resourcesOf(s.project, s.stack);
        assert.equal(Object.keys(made).length, 8, "every resource of the program is in the stack");
        assert.deepEqual(providerUrns(await s.project.exportStack(s.stack)), ["default_0_1_0"], "made by the 0.1.0 SDK and plugin");
        assert.deepEqual(started(), ["0.1.0"]);

        pythonPath = currentSdk.dir;
        await previewUnchanged(s, Object.keys(made).length);
        assert.deepEqual(started(), [CURRENT], "the preview ran this version's plugin, and only it");
        const from = em.admin.requests.length;
        await s.cli("up", "--yes", "--expect-no-changes");
        assert.deepEqual(started(), [CURRENT]);
        assert.deepEqual(writesSince(from), [], "the up wrote to the service");
        // The default provider's name carries the version and, since 0.2.0, the schema's pluginDownloadURL.
        const providers = providerUrns(await s.project.exportStack(s.stack));
        assert.equal(providers.length, 1, "one provider");
        assert.ok(providers[0].startsWith(`default_${CURRENT.replace(/\./g, "_")}`), `moved to this version's provider (${providers[0]})`);
        await refreshAndDestroy(s, made);
        assert.deepEqual(providerUrns(await s.project.exportStack(s.stack)), [], "destroy leaves no provider");
    });

    /**
     * A directory for PYTHONPATH holding the SDK at `source` (sdk/python's layout) as an install leaves it: the
     * package and its `.dist-info/METADATA`, which is where the SDK reads the plugin version it asks the engine
     * for (importlib.metadata, ahead of the virtualenv's own install on sys.path). Answers the directory and
     * that version (pyproject.toml's).
     */
    function sitePackages(source: string, name: string): { dir: string; version: string } {
        const version = /^\s*version = "([^"]+)"/m.exec(readFileSync(join(source, "pyproject.toml"), "utf8"))![1];
        const dir = join(work, `site-${name}`);
        cpSync(join(source, "pulumi_langsmith"), join(dir, "pulumi_langsmith"), { recursive: true, filter: (f) => !f.includes("__pycache__") });
        mkdirSync(join(dir, `pulumi_langsmith-${version}.dist-info`));
        writeFileSync(join(dir, `pulumi_langsmith-${version}.dist-info/METADATA`), `Metadata-Version: 2.1\nName: pulumi_langsmith\nVersion: ${version}\n`);
        return { dir, version };
    }

    /** `pulumi plugin install resource langsmith <version> --file`: a script that runs `main` with this Node.js. */
    function installPlugin(version: string, main: string): void {
        const dir = join(work, `plugin-archive-${version}`);
        mkdirSync(dir);
        const launcher = join(dir, "pulumi-resource-langsmith");
        // Each start noted, so that the test knows which plugin the engine ran.
        writeFileSync(
            launcher,
            `#!/bin/sh\necho ${version} >> ${JSON.stringify(starts())}\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} "$@"\n`,
        );
        chmodSync(launcher, 0o755);
        const archive = join(work, `pulumi-resource-langsmith-v${version}.tar.gz`);
        execFileSync("tar", ["czf", archive, "-C", dir, "pulumi-resource-langsmith"]);
        execFileSync("pulumi", ["plugin", "install", "resource", "langsmith", version, "--file", archive], {
            env: { ...process.env, ...base },
            stdio: "inherit",
        });
    }
});

/** The names of the langsmith providers a stack holds (`default_0_1_0`). */
function providerUrns(state: any): string[] {
    return (state.deployment.resources ?? []).filter((r: any) => r.type === "pulumi:providers:langsmith").map((r: any) => r.urn.split("::").pop());
}
