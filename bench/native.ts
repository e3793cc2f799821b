/**
 * `npm run bench native`: 100 Deployments (`BENCH_DEPLOYMENTS`) through the native plugin (a Python
 * program, bench/programs/deployments-py) and through the dynamic resources (a TypeScript program,
 * bench/programs/deployments), side by side, with the real CLI against the emulator (revisions deploy at
 * once, so the figures are the provider's own cost): wall time of `up`, `refresh` and `destroy`, the
 * state's bytes per Deployment, and the peak memory (VmHWM) of the provider process (the plugin
 * `pulumi-resource-langsmith`, or Pulumi's dynamic-provider host that runs the dynamic resources).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { createProject, createPythonProject, type PulumiProject } from "../tests/helpers/project";
import { printTable } from "./util";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 100);
const API_KEY = "bench-key";

/** Peak resident memory (VmHWM, MB) of the processes whose command line contains `marker`, sampled until stopped. */
function peakMemory(marker: string): { stop(): number } {
    const peaks = new Map<string, number>();
    const sample = () => {
        for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
            try {
                if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) continue;
                const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
                peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kb));
            } catch {
                // the process ended between listing and reading
            }
        }
    };
    const timer = setInterval(sample, 100);
    return {
        stop() {
            clearInterval(timer);
            return Math.max(0, ...peaks.values()) / 1024;
        },
    };
}

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
        const memory = peakMemory(f.marker);
        const r = await f.project.pulumi([...args, "--stack", stack]);
        return { s: r.ms / 1000, mb: memory.stop() };
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
    try {
        const rows = [["front door", "up s", "refresh s", "destroy s", "state bytes/Deployment", "provider peak MB"]];
        for (const f of fronts) rows.push(await run(em, f));
        printTable(rows);
    } finally {
        await em.close();
        for (const f of fronts) f.project.remove();
    }
}
