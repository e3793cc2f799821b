/**
 * `npm run bench scale`: one stack of 100, then 1,000 mixed resources (`BENCH_SCALE_SIZES`, multiples of 10)
 * through the native plugin (a Python program, bench/programs/scale-py), with the real CLI and its file
 * backend against an emulator at `--speed immediate` (revisions deploy at once: the figures are the engine's,
 * the plugin's and the emulator's own cost) and MinIO for the export destinations. The mix, in units of ten
 * (`MIX`): 2 Deployments, 2 Assistants (one on each deployment's agent server), 2 TracingProjects, a Dataset, an
 * ExportDestination, a ScheduledExport (of the unit's first project into it) and a ServiceKey.
 *
 * For each size, on a fresh emulator: `preview` of the new stack, `up`, `refresh` and `destroy` (each
 * `--skip-preview`: one pass), then `up` and `destroy` again with `PULUMI_SKIP_CHECKPOINTS=true` (the engine
 * then writes the state once at the end instead of after every step: what is left is the program's, the
 * plugin's and the emulator's time; `BENCH_SCALE_SKIP_CHECKPOINTS=0` leaves these two out). Each command: wall
 * time, the plugin's peak memory (VmHWM) and CPU, the CPU of the CLI itself (the engine, which writes the
 * checkpoints) and of the rest of its process tree (language host, Python program), the emulator's CPU (this
 * process, the sampling's own taken off), the API calls it received, and the load when it started (2 cores
 * are often shared). Then the state's bytes per resource (`pulumi stack export` after `up`, over the program's
 * resources), and how each figure grows from the first size to the last (10 from 100 to 1,000 is linear).
 * `BENCH_SCALE_PARALLEL` passes `--parallel` to every command (the engine's default: 4 per core).
 *
 * What it showed (docs/testing.md has the figures): `up` and `destroy` grow as the square of the stack because
 * the file backend writes the whole state, JSON-encoded, after every step, one write at a time (most of the
 * engine's CPU); without those checkpoints they grow linearly, as `preview` and `refresh` do.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { startMinio, type MinioServer } from "../tests/helpers/minio";
import { createPythonProject, type PulumiProject } from "../tests/helpers/project";
import { loadText, printTable, timedPulumi, type TreeFigures } from "./util";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "100,1000").split(",").map(Number);
const PARALLEL = process.env.BENCH_SCALE_PARALLEL;
const SKIPPED_CHECKPOINTS = process.env.BENCH_SCALE_SKIP_CHECKPOINTS !== "0";
const API_KEY = "bench-key";
const MARKER = "pulumi-resource-langsmith";
/** Each unit of ten resources: what the output states. */
const MIX = "per 10: 2 Deployment, 2 Assistant (on their agent servers), 2 TracingProject, 1 Dataset, 1 ExportDestination, 1 ScheduledExport, 1 ServiceKey";
const NO_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };
const COMMANDS: Array<{ name: string; args: string[]; env?: NodeJS.ProcessEnv }> = [
    { name: "preview", args: ["preview"] },
    { name: "up", args: ["up", "--yes", "--skip-preview"] },
    { name: "refresh", args: ["refresh", "--yes", "--skip-preview"] },
    { name: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
    ...(SKIPPED_CHECKPOINTS
        ? [
              { name: "up, no checkpoints", args: ["up", "--yes", "--skip-preview"], env: NO_CHECKPOINTS },
              { name: "destroy, no checkpoints", args: ["destroy", "--yes", "--skip-preview"], env: NO_CHECKPOINTS },
          ]
        : []),
];

type Figures = TreeFigures & { s: number; emulatorCpuS: number; calls: number; load: string };

interface SizeResult {
    size: number;
    commands: Record<string, Figures>;
    stateBytes: number;
}

/** `command` on `stack`, with its figures; the emulator's request log cleared first. */
async function measure(project: PulumiProject, em: Emulator, stack: string, command: (typeof COMMANDS)[number]): Promise<Figures> {
    const load = loadText();
    em.admin.requests = [];
    const cpu = process.cpuUsage();
    const args = [...command.args, "--stack", stack, ...(PARALLEL ? ["--parallel", PARALLEL] : [])];
    const r = await timedPulumi(project, args, MARKER, command.env);
    const used = process.cpuUsage(cpu);
    const calls = em.admin.requests.filter((q) => !q.path.startsWith("/__admin")).length;
    return { ...r, emulatorCpuS: (used.user + used.system) / 1e6 - r.samplerCpuS, calls, load };
}

async function runSize(project: PulumiProject, minio: MinioServer, size: number): Promise<SizeResult> {
    const em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
    try {
        const stack = `scale-${size}-${randomUUID().slice(0, 8)}`;
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:endpoint": em.url,
                "langsmith:workspaceId": randomUUID(),
                "scale:units": String(size / 10),
                "scale:integrationId": randomUUID(),
                "scale:bucket": "exports",
                "scale:endpointUrl": minio.endpoint,
                "scale:accessKeyId": minio.users.writeDelete.accessKeyId,
                "scale:startTime": new Date(em.clock.now()).toISOString(),
            },
            { "langsmith:apiKey": API_KEY, "scale:secretAccessKey": minio.users.writeDelete.secretAccessKey },
        );
        const commands: Record<string, Figures> = {};
        let stateBytes = 0;
        for (const command of COMMANDS) {
            const f = (commands[command.name] = await measure(project, em, stack, command));
            console.log(`  ${size}: ${command.name} ${f.s.toFixed(1)} s (load ${f.load} at its start)`);
            if (command.name === "up") {
                const exported = (await project.pulumi(["stack", "export", "--stack", stack])).stdout;
                const ours = (JSON.parse(exported).deployment.resources as Array<{ type: string }>).filter((x) => x.type.startsWith("langsmith:index:"));
                if (ours.length !== size) throw new Error(`expected ${size} resources in the state, found ${ours.length}`);
                stateBytes = Buffer.byteLength(exported) / size;
            }
        }
        await project.pulumi(["stack", "rm", "--yes", "--stack", stack]);
        return { size, commands, stateBytes };
    } finally {
        await em.close();
    }
}

function printResults(results: SizeResult[]): void {
    const rows = [
        ["resources", "command", "wall s", "plugin peak MB", "plugin CPU s", "engine CPU s", "program CPU s", "emulator CPU s", "API calls", "load at start"],
    ];
    for (const r of results)
        for (const { name } of COMMANDS) {
            const c = r.commands[name];
            const cpu = [c.markerCpuS, c.rootCpuS, c.otherCpuS, c.emulatorCpuS].map((x) => x.toFixed(1));
            rows.push([String(r.size), name, c.s.toFixed(1), c.peakMb.toFixed(0), ...cpu, String(c.calls), c.load]);
        }
    printTable(rows);
    const [first, last] = [results[0], results[results.length - 1]];
    const growth = [["figure", ...results.map((r) => String(r.size)), `growth ${first.size} -> ${last.size} (${last.size / first.size} = linear)`]];
    const add = (label: string, f: (r: SizeResult) => number, digits: number) =>
        growth.push([label, ...results.map((r) => f(r).toFixed(digits)), (f(last) / f(first)).toFixed(1)]);
    for (const { name } of COMMANDS) add(`${name} wall s`, (r) => r.commands[name].s, 1);
    add("plugin peak MB (any command)", (r) => Math.max(...Object.values(r.commands).map((c) => c.peakMb)), 0);
    add("plugin CPU s (up)", (r) => r.commands.up.markerCpuS, 1);
    add("engine CPU s (up)", (r) => r.commands.up.rootCpuS, 1);
    add("emulator CPU s (up)", (r) => r.commands.up.emulatorCpuS, 1);
    add("state bytes per resource", (r) => r.stateBytes, 0);
    add("state bytes in all", (r) => r.stateBytes * r.size, 0);
    printTable(growth);
}

export async function scaleBench(): Promise<void> {
    if (SIZES.some((n) => !Number.isInteger(n) || n <= 0 || n % 10 !== 0)) throw new Error(`BENCH_SCALE_SIZES: multiples of 10, not ${SIZES.join(",")}`);
    console.log(`\n== one stack of ${SIZES.join(", then ")} mixed resources through the native plugin (Python), real CLI, emulator --speed immediate ==`);
    console.log(`  mix ${MIX}; --parallel ${PARALLEL ?? "the engine's default (4 per core)"}; load ${loadText()} at the start`);
    const minio = await startMinio();
    const project = createPythonProject(join(__dirname, "programs", "scale-py"));
    const results: SizeResult[] = [];
    try {
        for (const size of SIZES) results.push(await runSize(project, minio, size));
    } finally {
        project.remove();
        await minio.stop();
    }
    printResults(results);
}
