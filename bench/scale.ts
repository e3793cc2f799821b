/**
 * `npm run bench scale`: one stack of 100, then 1,000 mixed resources (`BENCH_SCALE_SIZES`, multiples of 10)
 * through the native plugin (a Python program, bench/programs/scale-py), with the real CLI and its file
 * backend against an emulator at `--speed immediate` (revisions deploy at once: the figures are the engine's,
 * the plugin's and the emulator's own cost) and MinIO for the export destinations. The mix, in units of ten
 * (`MIX`): 2 Deployments, 2 Assistants (one on each deployment's agent server), 2 TracingProjects, a Dataset, an
 * ExportDestination, a ScheduledExport (of the unit's first project into it) and a ServiceKey.
 *
 * Against the floor: in the same run, the same program, SDK and resources on a second stack whose resources ask
 * for the plugin version `<version>-floor` (`scale:providerVersion`): the provider that does nothing
 * (bench/floor/main.ts, a native plugin built and installed like ours, `scripts/dev-plugin.sh floor`), whose every
 * call answers at once. What the floor takes is what the engine, its checkpoints, the language host and the Python
 * program cost; ours over it is the ratio printed. Each command runs on ours, then at once on the floor, so the
 * machine's load is much the same for both.
 *
 * For each size, on a fresh emulator: `preview` of the new stack, `up`, `refresh` and `destroy` (each
 * `--skip-preview`: one pass), then the same four with `PULUMI_SKIP_CHECKPOINTS=true` (the engine then writes
 * the state once at the end instead of after every step; `BENCH_SCALE_CHECKPOINTS=yes` or `no` runs only one set).
 * Each command: wall time, the plugin's peak memory (VmHWM) and CPU, the CPU of the CLI itself (the engine,
 * which writes the checkpoints) and of the rest of its process tree (language host, Python program), the
 * emulator's CPU (this process, the sampling's own taken off), the API calls it received, and the load when it
 * started (2 cores are often shared). Then the state's bytes per resource (`pulumi stack export` after the first
 * `up`, over the program's resources), and how each figure grows from the first size to the last (10 from 100 to
 * 1,000 is linear). `BENCH_SCALE_PARALLEL` passes `--parallel` to every command (the engine's default: 4 per
 * core).
 *
 * What it showed (docs/testing.md has the figures): `up` and `destroy` grow as the square of the stack because
 * the file backend writes the whole state, JSON-encoded, after every step, one write at a time (most of the
 * engine's CPU), for the floor as for ours; without those checkpoints they grow linearly, as `preview` and
 * `refresh` do.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { startMinio, type MinioServer } from "../tests/helpers/minio";
import { createPythonProject, type PulumiProject } from "../tests/helpers/project";
import { loadText, printTable, timedPulumi, type TreeFigures } from "./util";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "100,1000").split(",").map(Number);
const PARALLEL = process.env.BENCH_SCALE_PARALLEL;
/** With the engine's checkpoints (`yes`, as users run it), without (`no`: `PULUMI_SKIP_CHECKPOINTS=true`), or both. */
const CHECKPOINTS = (process.env.BENCH_SCALE_CHECKPOINTS ?? "yes,no").split(",");
/** The emulator's API key (also bench/chaos.ts). */
export const API_KEY = "bench-key";
/** Each unit of ten resources: what the output states. */
const MIX = "per 10: 2 Deployment, 2 Assistant (on their agent servers), 2 TracingProject, 1 Dataset, 1 ExportDestination, 1 ScheduledExport, 1 ServiceKey";
const COMMANDS: Array<{ name: string; args: string[] }> = [
    { name: "preview", args: ["preview"] },
    { name: "up", args: ["up", "--yes", "--skip-preview"] },
    { name: "refresh", args: ["refresh", "--yes", "--skip-preview"] },
    { name: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
];
const MODES: Array<{ name: string; env: NodeJS.ProcessEnv }> = [
    { name: "yes", env: {} },
    { name: "no", env: { PULUMI_SKIP_CHECKPOINTS: "true" } },
].filter((m) => CHECKPOINTS.includes(m.name));

type Figures = TreeFigures & { s: number; emulatorCpuS: number; calls: number; load: string };

/** The version the floor is installed under (scripts/dev-plugin.sh floor). */
const FLOOR_VERSION = `${(require("../package.json") as { version: string }).version}-floor`;

/** One of the two providers a size runs: ours, or the floor. */
interface Side {
    name: "ours" | "floor";
    stack: string;
    /** What the provider process's command line contains (its installed path: plugins/resource-langsmith-v<version>/...). */
    marker: string;
}

const SIDES: Array<Omit<Side, "stack">> = [
    { name: "ours", marker: "pulumi-resource-langsmith" },
    { name: "floor", marker: `resource-langsmith-v${FLOOR_VERSION}/` },
];

/** A command's figures for ours and the floor. */
interface Pair {
    command: string;
    checkpoints: string;
    ours: Figures;
    floor: Figures;
}

interface SizeResult {
    size: number;
    pairs: Pair[];
    stateBytes: Record<Side["name"], number>;
}

/**
 * `stack` of a program of units of ten resources (bench/programs/scale-py, or chaos-py: `namespace` is its name),
 * initialised with `units` of them against `em` (served by the plugin of `providerVersion` instead of the SDK's:
 * the floor's) and MinIO for the export destinations (also for bench/chaos.ts).
 */
export async function initUnitsStack(
    project: PulumiProject,
    stack: string,
    em: Emulator,
    minio: MinioServer,
    o: { namespace: "scale" | "chaos"; units: number; providerVersion?: string },
): Promise<void> {
    const n = o.namespace;
    await project.initStack(
        stack,
        {
            ...(o.providerVersion ? { [`${n}:providerVersion`]: o.providerVersion } : {}),
            "langsmith:controlPlaneUrl": em.url,
            "langsmith:endpoint": em.url,
            "langsmith:workspaceId": randomUUID(),
            [`${n}:units`]: String(o.units),
            [`${n}:integrationId`]: randomUUID(),
            [`${n}:bucket`]: "exports",
            [`${n}:endpointUrl`]: minio.endpoint,
            [`${n}:accessKeyId`]: minio.users.writeDelete.accessKeyId,
            [`${n}:startTime`]: new Date(em.clock.now()).toISOString(),
        },
        { "langsmith:apiKey": API_KEY, [`${n}:secretAccessKey`]: minio.users.writeDelete.secretAccessKey },
    );
}

/** `args` on `side`'s stack, with its figures; the emulator's request log cleared first. */
async function measure(project: PulumiProject, em: Emulator, side: Side, args: string[], env: NodeJS.ProcessEnv): Promise<Figures> {
    const load = loadText();
    em.admin.requests = [];
    const cpu = process.cpuUsage();
    const all = [...args, "--stack", side.stack, ...(PARALLEL ? ["--parallel", PARALLEL] : [])];
    const r = await timedPulumi(project, all, side.marker, env);
    const used = process.cpuUsage(cpu);
    const calls = em.admin.requests.filter((q) => !q.path.startsWith("/__admin")).length;
    return { ...r, emulatorCpuS: (used.user + used.system) / 1e6 - r.samplerCpuS, calls, load };
}

/** The state's bytes per resource of the program, checking that it holds `size` of them. */
async function stateBytes(project: PulumiProject, side: Side, size: number): Promise<number> {
    const exported = (await project.pulumi(["stack", "export", "--stack", side.stack])).stdout;
    const ours = (JSON.parse(exported).deployment.resources as Array<{ type: string }>).filter((x) => x.type.startsWith("langsmith:index:"));
    if (ours.length !== size) throw new Error(`${side.name}: expected ${size} resources in the state, found ${ours.length}`);
    return Buffer.byteLength(exported) / size;
}

async function runSize(project: PulumiProject, minio: MinioServer, size: number): Promise<SizeResult> {
    const em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
    try {
        const id = randomUUID().slice(0, 8);
        const sides = SIDES.map((s) => ({ ...s, stack: `scale-${s.name}-${size}-${id}` }));
        for (const side of sides)
            await initUnitsStack(project, side.stack, em, minio, {
                namespace: "scale",
                units: size / 10,
                providerVersion: side.name === "floor" ? FLOOR_VERSION : undefined,
            });
        const pairs: Pair[] = [];
        const bytes = { ours: 0, floor: 0 };
        for (const mode of MODES)
            for (const command of COMMANDS) {
                const [ours, floor] = [
                    await measure(project, em, sides[0], command.args, mode.env),
                    await measure(project, em, sides[1], command.args, mode.env),
                ];
                pairs.push({ command: command.name, checkpoints: mode.name, ours, floor });
                const ratio = (ours.s / floor.s).toFixed(2);
                console.log(
                    `  ${size}: ${command.name}, checkpoints ${mode.name}: ours ${ours.s.toFixed(1)} s, floor ${floor.s.toFixed(1)} s, ${ratio}x (load ${ours.load} at its start)`,
                );
                if (command.name === "up" && !bytes.ours) for (const side of sides) bytes[side.name] = await stateBytes(project, side, size);
            }
        for (const side of sides) await project.pulumi(["stack", "rm", "--yes", "--stack", side.stack]);
        return { size, pairs, stateBytes: bytes };
    } finally {
        await em.close();
    }
}

/** The ratios, then where the time goes (each process's CPU, the emulator's calls), then how the figures grow. */
function printResults(results: SizeResult[]): void {
    const ratios = [["resources", "command", "checkpoints", "ours s", "floor s", "ours / floor", "load at start"]];
    for (const r of results)
        for (const p of r.pairs)
            ratios.push([String(r.size), p.command, p.checkpoints, p.ours.s.toFixed(1), p.floor.s.toFixed(1), (p.ours.s / p.floor.s).toFixed(2), p.ours.load]);
    printTable(ratios);
    console.log("\nCPU seconds, ours / floor (plugin, engine: the CLI itself, program: language host and Python), the emulator's, its API calls:");
    const cpu = [["resources", "command", "checkpoints", "plugin", "engine", "program", "emulator", "API calls", "per resource", "plugin peak MB"]];
    const both = (p: Pair, f: (x: Figures) => number, digits = 1) => `${f(p.ours).toFixed(digits)} / ${f(p.floor).toFixed(digits)}`;
    for (const r of results)
        for (const p of r.pairs)
            cpu.push([
                String(r.size),
                p.command,
                p.checkpoints,
                both(p, (x) => x.markerCpuS),
                both(p, (x) => x.rootCpuS),
                both(p, (x) => x.otherCpuS),
                p.ours.emulatorCpuS.toFixed(1),
                String(p.ours.calls),
                (p.ours.calls / r.size).toFixed(1),
                both(p, (x) => x.peakMb, 0),
            ]);
    printTable(cpu);
    const [first, last] = [results[0], results[results.length - 1]];
    const growth = [["figure", ...results.map((r) => String(r.size)), `growth ${first.size} -> ${last.size} (${last.size / first.size} = linear)`]];
    const add = (label: string, f: (r: SizeResult) => number, digits: number) =>
        growth.push([label, ...results.map((r) => f(r).toFixed(digits)), (f(last) / f(first)).toFixed(1)]);
    for (const p of first.pairs) {
        const at = (r: SizeResult) => r.pairs.find((q) => q.command === p.command && q.checkpoints === p.checkpoints)!;
        add(`${p.command}, checkpoints ${p.checkpoints}: ours wall s`, (r) => at(r).ours.s, 1);
        add(`${p.command}, checkpoints ${p.checkpoints}: floor wall s`, (r) => at(r).floor.s, 1);
    }
    add("ours: plugin peak MB (any command)", (r) => Math.max(...r.pairs.map((p) => p.ours.peakMb)), 0);
    add("ours: state bytes per resource", (r) => r.stateBytes.ours, 0);
    add("floor: state bytes per resource", (r) => r.stateBytes.floor, 0);
    console.log();
    printTable(growth);
}

export async function scaleBench(): Promise<void> {
    if (SIZES.some((n) => !Number.isInteger(n) || n <= 0 || n % 10 !== 0)) throw new Error(`BENCH_SCALE_SIZES: multiples of 10, not ${SIZES.join(",")}`);
    if (!MODES.length) throw new Error(`BENCH_SCALE_CHECKPOINTS: yes, no or both, not ${CHECKPOINTS.join(",")}`);
    console.log(
        `\n== one stack of ${SIZES.join(", then ")} mixed resources through the native plugin (Python), real CLI, emulator --speed immediate, against the provider that does nothing ==`,
    );
    console.log(`  mix ${MIX}; --parallel ${PARALLEL ?? "the engine's default (4 per core)"}; load ${loadText()} at the start`);
    // The floor, installed as ours is (its build is npm run build's).
    execFileSync("bash", [join(__dirname, "..", "scripts", "dev-plugin.sh"), "floor"], { stdio: "inherit" });
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
