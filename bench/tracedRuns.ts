/**
 * `npm run bench traced`: runs traced by the official langsmith clients into the emulator (issue 28), each
 * figure printed beside what it is judged against, because the tracing area must hold up to what real
 * applications send before users point their tracing at it:
 *
 * 1. Ingest: 10,000 runs (2,500 traces of a `@traceable` chain with three children, bench/tracers/) from
 *    the official Python client (0.15.1, default transport: multipart, zstd as /info allows) into an
 *    emulator started in this process, timed from the first run created to `client.flush()` returning,
 *    and checked on the emulator's side (every run stored and ended). Beside it: the same with compression
 *    off, and the JS client (0.12.0). The clients run in processes of their own; this process only serves.
 * 2. Export: a one-off bulk export (HTTP, into MinIO) of the project holding those runs, rows per second,
 *    beside the same number of generated runs exported the same way; median of three after a warm-up.
 * 3. Memory: the built emulator (`dist/emulator/main.js`: `npm run build` after changing it) in a process
 *    of its own with `--state-dir`, holding 100,000 runs traced by the Python client: RSS and V8 heap
 *    after a forced GC, beside the same process empty, and beside the same runs sent uncompressed (what
 *    the allocator keeps of the decompressed bodies differs); the size of `traced-runs.jsonl`; the time to
 *    start again on that state directory (replay), beside a start on an empty one.
 *
 * BENCH_TRACES (default 2,500) and BENCH_STORED_TRACES (default 25,000) change the sizes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { BulkExportClient } from "../provider/api/bulkExport";
import { HttpClient } from "../provider/api/client";
import { projectRuns, type TracingProject } from "../emulator/bulkExport/projects";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { exportRow } from "../emulator/tracing/exportable";
import { EMULATOR_MAIN } from "../scripts/lib/emulator";
import { type MinioServer, startMinio } from "../tests/helpers/minio";
import { printTable } from "./util";

const TRACES = Number(process.env.BENCH_TRACES ?? 2_500);
const STORED_TRACES = Number(process.env.BENCH_STORED_TRACES ?? 25_000);
const RUNS_PER_TRACE = 4;
const API_KEY = "lsv2_sk_bench_traced";
const WORKSPACE = "28282828-0000-4000-8000-000000000028";
const ROOT = join(__dirname, "..");
const PYTHON = process.env.PULUMI_LANGSMITH_PYTHON ?? "python3";

type Row = [figure: string, measured: string, beside: string, ratio: string, aim: string];

const n = (x: number) => Math.round(x).toLocaleString("en");
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const s = (seconds: number) => `${seconds.toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- the tracing clients, each in a process of its own ----

interface Traced {
    runs: number;
    seconds: number;
    transport: string;
}

/** Runs a tracer (bench/tracers/) to its end, without blocking this process's event loop; answers its JSON line. */
function trace(client: "python" | "js", url: string, project: string, traces: number, env: NodeJS.ProcessEnv = {}): Promise<Traced> {
    const args = [url, API_KEY, project, String(traces)];
    const [command, argv] =
        client === "python"
            ? [PYTHON, [join(__dirname, "tracers", "trace_runs.py"), ...args]]
            : [process.execPath, ["-r", "ts-node/register/transpile-only", join(__dirname, "tracers", "traceRuns.ts"), ...args]];
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, LANGSMITH_TRACING: "true", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    return new Promise((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (code) => {
            const line = out.trim().split("\n").pop() ?? "";
            if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as Traced);
            else reject(new Error(`${client} tracer exited with ${code}: ${err.slice(-2000)}`));
        });
    });
}

// ---- 1. ingest into the emulator in this process ----

interface Ingest extends Traced {
    /** CPU time this process (the emulator) spent while the client traced. */
    cpuSeconds: number;
    sessionId: string;
}

function sessionNamed(em: Emulator, name: string): string {
    const p = [...em.bulkExport.model.projects.values()].find((x) => x.session?.name === name);
    if (!p) throw new Error(`no project ${name} in the emulator`);
    return p.session_id;
}

/** One client's traces into `em`, checked there: every run stored and ended. */
async function ingest(em: Emulator, client: "python" | "js", project: string, env?: NodeJS.ProcessEnv): Promise<Ingest> {
    const cpu = process.cpuUsage();
    const traced = await trace(client, em.url, project, TRACES, env);
    const used = process.cpuUsage(cpu);
    const sessionId = sessionNamed(em, project);
    const runs = em.bulkExport.model.traced.of(sessionId);
    const ended = runs.filter((r) => r.end_time !== undefined && r.name !== undefined).length;
    if (runs.length !== traced.runs || ended !== traced.runs) {
        throw new Error(`${project}: the client made ${traced.runs} runs, the emulator holds ${runs.length} (${ended} ended)`);
    }
    return { ...traced, cpuSeconds: (used.user + used.system) / 1e6, sessionId };
}

const rate = (i: Traced) => i.runs / i.seconds;
const ingestCell = (i: Ingest) => `${n(rate(i))} runs/s (${s(i.seconds)}; emulator CPU ${s(i.cpuSeconds)})`;

async function ingestFigures(em: Emulator): Promise<{ rows: Row[]; sessionId: string }> {
    const zstd = await ingest(em, "python", "bench-python-zstd");
    const plain = await ingest(em, "python", "bench-python-plain", { LANGSMITH_DISABLE_RUN_COMPRESSION: "true" });
    const js = await ingest(em, "js", "bench-js");
    const runs = n(zstd.runs);
    const rows: Row[] = [
        [`ingest ${runs} runs, Python client (${zstd.transport})`, ingestCell(zstd), "", "", ">= 2,000 runs/s"],
        [
            `  same, compression off (${plain.transport})`,
            ingestCell(plain),
            `${zstd.transport}: ${n(rate(zstd))} runs/s`,
            (rate(plain) / rate(zstd)).toFixed(2),
            "",
        ],
        [
            `  same, JS client 0.12.0 (${js.transport})`,
            ingestCell(js),
            `Python, ${zstd.transport}: ${n(rate(zstd))} runs/s`,
            (rate(js) / rate(zstd)).toFixed(2),
            "",
        ],
    ];
    return { rows, sessionId: zstd.sessionId };
}

// ---- 2. their export, beside generated runs ----

interface Exported {
    rows: number;
    seconds: number;
}

/** A destination in MinIO, through the provider's client, as a user makes one. */
async function destinationOf(em: Emulator, minio: MinioServer): Promise<{ client: BulkExportClient; id: string }> {
    const client = new BulkExportClient(new HttpClient({ baseUrl: em.url, apiKey: API_KEY, tenantId: WORKSPACE, apiKeyHeader: "X-API-Key" }));
    const { destination } = await client.createDestination({
        display_name: "bench-traced",
        config: { bucket_name: "bench", prefix: "traced", endpoint_url: minio.endpoint },
        credentials: { access_key_id: minio.users.writeDelete.accessKeyId, secret_access_key: minio.users.writeDelete.secretAccessKey },
    });
    return { client, id: destination.id };
}

/** One one-off export of [start, end) of a project, created over HTTP; its end seen in the model (polled every 2 ms). */
async function exportOnce(em: Emulator, dest: { client: BulkExportClient; id: string }, sessionId: string, range: [string, string]): Promise<Exported> {
    const started = performance.now();
    const { export: e } = await dest.client.createExport({
        bulk_export_destination_id: dest.id,
        session_id: sessionId,
        start_time: range[0],
        end_time: range[1],
    });
    const model = em.bulkExport.model;
    while (model.exports.get(e.id)?.status !== "Completed") {
        const status = model.exports.get(e.id)?.status;
        if (status === "Failed" || status === "Cancelled" || status === "TimedOut") throw new Error(`export ${e.id} ${status}`);
        await new Promise((r) => setTimeout(r, 2));
    }
    const seconds = (performance.now() - started) / 1000;
    return { rows: model.runsOf(e.id).reduce((k, r) => k + r.metadata.result.rows_written, 0), seconds };
}

/** The start times of a project's traced runs, as an export range: first start to just after the last. */
function tracedRange(em: Emulator, sessionId: string): [string, string] {
    const starts = em.bulkExport.model.traced.of(sessionId).map((r) => Date.parse(r.start_time!));
    const [first, last] = starts.reduce(([lo, hi], t) => [Math.min(lo, t), Math.max(hi, t)], [Infinity, -Infinity]);
    return [new Date(first).toISOString(), new Date(last + 1000).toISOString()];
}

/** Mean characters of JSON per row the Parquet writer is fed (every field): traced rows as exported, generated ones as made. */
function jsonPerRow(em: Emulator, tracedId: string, generated: TracingProject): [number, number] {
    const avg = (xs: string[]) => xs.reduce((k, x) => k + x.length, 0) / xs.length;
    const traced = em.bulkExport.model.traced.of(tracedId).map((r) => JSON.stringify(exportRow(r, "longlived")));
    const made = [...projectRuns(generated, WORKSPACE, Date.parse(generated.start), Date.parse(generated.end))].map((r) => JSON.stringify(r));
    return [avg(traced), avg(made)];
}

async function exportFigures(em: Emulator, minio: MinioServer, tracedId: string): Promise<Row[]> {
    const count = em.bulkExport.model.traced.of(tracedId).length;
    const range: [string, string] = ["2026-11-02T00:00:00Z", "2026-11-02T12:00:00Z"];
    const generated = em.bulkExport.model.addProject({ tenant_id: WORKSPACE, start: range[0], end: range[1], count, seed: 28 });
    const dest = await destinationOf(em, minio);
    await exportOnce(em, dest, generated.session_id, range); // warm-up: DuckDB and the S3 client start
    const traced: Exported[] = [];
    const made: Exported[] = [];
    for (let round = 0; round < 3; round++) {
        made.push(await exportOnce(em, dest, generated.session_id, range));
        traced.push(await exportOnce(em, dest, tracedId, tracedRange(em, tracedId)));
    }
    for (const e of [...traced, ...made]) if (e.rows !== count) throw new Error(`an export wrote ${e.rows} rows of ${count}`);
    const [tracedJson, madeJson] = jsonPerRow(em, tracedId, generated);
    const [t, g] = [median(traced.map((e) => e.seconds)), median(made.map((e) => e.seconds))];
    const cell = (seconds: number, json: number) => `${n(count / seconds)} rows/s (${s(seconds)}, ${n(json)} B of JSON a row)`;
    return [
        [
            `export those ${n(count)} traced runs (v1, all fields)`,
            cell(t, tracedJson),
            `${n(count)} generated runs: ${cell(g, madeJson)}`,
            (g / t).toFixed(2),
            ">= 0.80 (within 20 %)",
        ],
    ];
}

// ---- 3. memory of an emulator process holding the stored runs ----

/** Loaded before the emulator (`--import`): on SIGUSR2, a full GC, then its memory as one stderr line. */
const PROBE = `data:text/javascript,${encodeURIComponent(
    'process.on("SIGUSR2", () => { globalThis.gc(); setTimeout(() => { globalThis.gc(); process.stderr.write("bench-memory " + JSON.stringify(process.memoryUsage()) + "\\n"); }, 200); });',
)}`;

/** What PROBE reports (process.memoryUsage(), bytes). */
interface Memory {
    rss: number;
    heapUsed: number;
    heapTotal: number;
}

const memCell = (m: Memory) => `RSS ${mb(m.rss)} (V8 heap ${Math.round(m.heapUsed / 2 ** 20)} of ${mb(m.heapTotal)})`;

interface EmulatorChild {
    child: ChildProcess;
    url: string;
    /** Spawn to the line announcing its URL. */
    startSeconds: number;
    /** RSS and heap used after a forced GC. */
    settled(): Promise<Memory>;
    /** VmHWM: the peak resident memory so far. */
    peak(): number;
    stop(): Promise<void>;
}

/** The built emulator in a process of its own on `stateDir`, its memory readable (PROBE). */
async function startChild(stateDir: string): Promise<EmulatorChild> {
    const started = performance.now();
    const args = ["--expose-gc", "--import", PROBE, EMULATOR_MAIN, "--port", "0", "--quiet", "--state-dir", stateDir];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const memory: Array<(line: string) => void> = [];
    createInterface({ input: child.stderr! }).on("line", (line) => {
        if (line.startsWith("bench-memory ")) memory.shift()?.(line.slice(13));
        else process.stderr.write(`${line}\n`);
    });
    const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
    });
    const startSeconds = (performance.now() - started) / 1000;
    const status = () => readFileSync(`/proc/${child.pid}/status`, "utf8");
    return {
        child,
        url: JSON.parse(line).url,
        startSeconds,
        settled: () =>
            new Promise((resolve) => {
                memory.push((json) => resolve(JSON.parse(json)));
                child.kill("SIGUSR2");
            }),
        peak: () => Number(/VmHWM:\s+(\d+)/.exec(status())![1]) * 1024,
        stop: () =>
            new Promise<void>((resolve) => {
                if (child.exitCode !== null || child.signalCode !== null) return resolve();
                child.once("exit", () => resolve());
                child.kill("SIGTERM");
            }),
    };
}

/** `run_count` of the project of that name, as a client reads it (the key's workspace). */
async function runCount(url: string, name: string): Promise<number> {
    const res = await fetch(`${url}/api/v1/sessions?name=${encodeURIComponent(name)}`, { headers: { "x-api-key": API_KEY } });
    const [session] = (await res.json()) as Array<{ run_count: number }>;
    return session?.run_count ?? 0;
}

/** A fresh emulator process on `stateDir` fed STORED_TRACES traces by the Python client (checked over HTTP), then stopped. */
async function holdRuns(stateDir: string, env: NodeJS.ProcessEnv = {}) {
    const em = await startChild(stateDir);
    try {
        const idle = await em.settled();
        const traced = await trace("python", em.url, "bench-stored", STORED_TRACES, env);
        const count = await runCount(em.url, "bench-stored");
        if (count !== traced.runs) throw new Error(`the emulator holds ${n(count)} runs of the ${n(traced.runs)} traced`);
        return { traced, idle, held: await em.settled(), peak: em.peak(), startSeconds: em.startSeconds };
    } finally {
        await em.stop();
    }
}

/** The emulator started again on `stateDir`: time to listen, memory once replayed, and the runs it holds. */
async function restart(stateDir: string, runs: number) {
    const em = await startChild(stateDir);
    try {
        const memory = await em.settled();
        const count = await runCount(em.url, "bench-stored");
        if (count !== runs) throw new Error(`after a restart the emulator holds ${n(count)} runs of ${n(runs)}`);
        return { startSeconds: em.startSeconds, memory, peak: em.peak() };
    } finally {
        await em.stop();
    }
}

/** A temporary state directory for `f`, removed after. */
async function withStateDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), "bench-traced-"));
    try {
        return await f(dir);
    } finally {
        await rm(dir, { recursive: true, force: true });
    }
}

async function memoryFigures(): Promise<Row[]> {
    const plain = await withStateDir((dir) => holdRuns(dir, { LANGSMITH_DISABLE_RUN_COMPRESSION: "true" }));
    const { zstd, log, again } = await withStateDir(async (dir) => {
        const zstd = await holdRuns(dir);
        const log = (await stat(join(dir, "traced-runs.jsonl"))).size;
        return { zstd, log, again: await restart(dir, zstd.traced.runs) };
    });
    const runs = n(zstd.traced.runs);
    return [
        [
            `emulator process holding ${runs} traced runs (${zstd.traced.transport})`,
            `${memCell(zstd.held)}; peak ${mb(zstd.peak)}`,
            `same process empty: ${memCell(zstd.idle)}`,
            "",
            "RSS < 500 MB",
        ],
        [
            `  same, runs sent uncompressed (${plain.traced.transport})`,
            `${memCell(plain.held)}; peak ${mb(plain.peak)}`,
            `sent with zstd: RSS ${mb(zstd.held.rss)}`,
            (plain.held.rss / zstd.held.rss).toFixed(2),
            "",
        ],
        [
            `  their ingest (Python, ${zstd.traced.transport}, --state-dir)`,
            `${n(rate(zstd.traced))} runs/s (${s(zstd.traced.seconds)})`,
            `uncompressed: ${n(rate(plain.traced))} runs/s`,
            (rate(zstd.traced) / rate(plain.traced)).toFixed(2),
            "",
        ],
        [`  traced-runs.jsonl`, `${mb(log)} (${n(log / zstd.traced.runs)} B/run)`, "", "", ""],
        [
            `  restart on that state dir (replay)`,
            `${s(again.startSeconds)}; then ${memCell(again.memory)}; peak ${mb(again.peak)}`,
            `start on an empty one: ${s(zstd.startSeconds)}`,
            (again.startSeconds / zstd.startSeconds).toFixed(1),
            "",
        ],
    ];
}

// ---- the table ----

export async function tracedRunsBench(): Promise<void> {
    const runs = n(TRACES * RUNS_PER_TRACE);
    console.log(`\n== runs traced by the official clients: ingest of ${runs}, their export, memory with ${n(STORED_TRACES * RUNS_PER_TRACE)} stored ==`);
    const minio = await startMinio({ buckets: ["bench"] });
    const em = await startEmulator({ port: 0, apiKeys: [API_KEY], keyWorkspaceId: WORKSPACE, bulkExport: { awsEndpoint: minio.endpoint } });
    const rows: Row[] = [["figure", "measured", "beside it", "ratio", "aim (issue 28)"]];
    try {
        const ingested = await ingestFigures(em);
        rows.push(...ingested.rows);
        rows.push(...(await exportFigures(em, minio, ingested.sessionId)));
    } finally {
        await em.close();
        await minio.stop();
    }
    rows.push(...(await memoryFigures()));
    printTable(rows);
    console.log(
        `ingest: ${n(TRACES)} traces of 4 runs (chain > retriever, llm, tool), first run created to flush() returned; emulator in this process, each client in its own`,
    );
    console.log(
        "export: one-off, v1, every field, into MinIO, creation to Completed seen, median of 3 after a warm-up; ratio = generated seconds / traced seconds",
    );
    console.log(
        `memory: dist/emulator/main.js --state-dir in its own process, ${n(STORED_TRACES)} traces from the Python client; after a forced GC (--expose-gc); peak = VmHWM`,
    );
}
