/**
 * `npm run bench native`: 100 Deployments (`BENCH_DEPLOYMENTS`) through the native plugin (a Python
 * program, bench/programs/deployments-py) and through the dynamic resources (a TypeScript program,
 * bench/programs/deployments), side by side, with the real CLI against the emulator (revisions deploy at
 * once, so the figures are the provider's own cost): wall time of `up`, `refresh` and `destroy`, the
 * state's bytes per Deployment, and the peak memory (VmHWM) of the provider process (the plugin
 * `pulumi-resource-langsmith`, or Pulumi's dynamic-provider host that runs the dynamic resources), found under
 * the CLI's own process tree (bench/util.ts `timedPulumi`).
 *
 * With BENCH_PLUGIN_ARCHIVE=<a linux-amd64 archive of `npm run release`>, the Python program also runs a third
 * time, with that archive installed (`pulumi plugin install --file`) into a PULUMI_HOME of its own: the
 * self-contained executable a user runs, beside the checkout's build (scripts/dev-plugin.sh). And a table
 * says how long each takes from its start to the port line the engine waits for (median of 5 starts).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { CHECKOUT_PULUMI_HOME, createProject, createPythonProject, type PulumiProject } from "../tests/helpers/project";
import { printTable, timedPulumi } from "./util";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 100);
const API_KEY = "bench-key";

interface Front {
    label: string;
    project: PulumiProject;
    /** What the provider process's command line contains. */
    marker: string;
    type: string;
}

async function run(em: Emulator, f: Front): Promise<string[]> {
    const stack = `bench-${randomUUID().slice(0, 8)}`;
    await f.project.initStack(
        stack,
        {
            "langsmith:controlPlaneUrl": em.url,
            "langsmith:workspaceId": randomUUID(),
            "deployments:count": String(COUNT),
            "deployments:integrationId": randomUUID(),
        },
        { "langsmith:apiKey": API_KEY, "deployments:openaiApiKey": "sk-bench" },
    );
    const timed = async (args: string[]) => {
        const r = await timedPulumi(f.project, [...args, "--stack", stack], f.marker);
        return { s: r.s, mb: r.peakMb };
    };
    const up = await timed(["up", "--yes", "--skip-preview"]);
    const exported = await f.project.exportStack(stack);
    const deployments = exported.deployment.resources.filter((r: { type: string }) => r.type === f.type);
    const bytes = deployments.reduce((n: number, r: unknown) => n + JSON.stringify(r).length, 0) / deployments.length;
    const refresh = await timed(["refresh", "--yes", "--skip-preview"]);
    const destroy = await timed(["destroy", "--yes", "--skip-preview"]);
    const mb = Math.max(up.mb, refresh.mb, destroy.mb);
    return [f.label, up.s.toFixed(1), refresh.s.toFixed(1), destroy.s.toFixed(1), bytes.toFixed(0), mb.toFixed(0)];
}

/** Milliseconds from the start of `cmd args` to the first line it prints (the plugin's port), then it is stopped. */
function untilPortLine(cmd: string, args: string[]): Promise<number> {
    return new Promise((resolve, reject) => {
        const started = process.hrtime.bigint();
        const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
        child.on("error", reject);
        child.on("exit", (code) => reject(new Error(`${cmd} exited ${code} before its port line`)));
        child.stdout.once("data", () => {
            resolve(Number(process.hrtime.bigint() - started) / 1e6);
            child.removeAllListeners("exit");
            child.kill();
        });
    });
}

/** Median start-up (ms, of 5) of the checkout's plugin as its tests run it, and of the archive's executable once installed in `home`. */
async function startupTable(home: string): Promise<void> {
    const median = async (cmd: string, args: string[]) => {
        const ms: number[] = [];
        for (let i = 0; i < 5; i++) ms.push(await untilPortLine(cmd, args));
        return ms.sort((a, b) => a - b)[2].toFixed(0);
    };
    const installed = (h: string) => join(h, "plugins", `resource-langsmith-v${pluginVersion()}`, "pulumi-resource-langsmith");
    printTable([
        ["plugin start-up to its port line (median of 5)", "ms"],
        ["node dist/provider/plugin/main.js", await median(process.execPath, [join(__dirname, "../dist/provider/plugin/main.js")])],
        ["the checkout's installed plugin (a script that runs the same)", await median(installed(CHECKOUT_PULUMI_HOME), [])],
        ["the release archive's executable (Node.js SEA)", await median(installed(home), [])],
    ]);
}

const pluginVersion = (): string => (JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as { version: string }).version;

/** The Python program with the release archive installed in a PULUMI_HOME of its own (BENCH_PLUGIN_ARCHIVE). */
async function archiveFront(archive: string, home: string): Promise<Front> {
    const project = createPythonProject(join(__dirname, "programs", "deployments-py"));
    project.useEnv({ PULUMI_HOME: home });
    await project.pulumi(["plugin", "install", "resource", "langsmith", pluginVersion(), "--file", archive]);
    return { label: "native plugin (Python), release archive", project, marker: "pulumi-resource-langsmith", type: "langsmith:index:Deployment" };
}

export async function nativeBench(): Promise<void> {
    console.log(`\n== ${COUNT} Deployments: the native plugin (Python) and the dynamic resources (TypeScript), real CLI, emulator over HTTP ==`);
    const em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
    const programs = join(__dirname, "programs");
    const fronts: Front[] = [
        {
            label: "native plugin (Python)",
            project: createPythonProject(join(programs, "deployments-py")),
            marker: "pulumi-resource-langsmith",
            type: "langsmith:index:Deployment",
        },
        {
            label: "dynamic resources (TypeScript)",
            project: createProject(join(programs, "deployments")),
            marker: "dynamic-provider",
            type: "pulumi-nodejs:dynamic/langsmith:Deployment",
        },
    ];
    const archive = process.env.BENCH_PLUGIN_ARCHIVE;
    const home = mkdtempSync(join(tmpdir(), "bench-pulumi-home-"));
    try {
        if (archive) fronts.splice(1, 0, await archiveFront(archive, home));
        const rows = [["front door", "up s", "refresh s", "destroy s", "state bytes/Deployment", "provider peak MB"]];
        for (const f of fronts) rows.push(await run(em, f));
        printTable(rows);
        if (archive) await startupTable(home);
    } finally {
        await em.close();
        for (const f of fronts) f.project.remove();
        rmSync(home, { recursive: true, force: true });
    }
}
