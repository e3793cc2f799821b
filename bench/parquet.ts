/**
 * Bulk-export throughput: generated runs (emulator/bulkExport/generator) written as Parquet by the
 * emulator's writer (emulator/bulkExport/parquet, DuckDB) and put into a real MinIO bucket at the layout of
 * docs/service.md 2.9, one file per batch, day by day: the emulator's export path without its HTTP and state. Prints
 * rows per second, where the time went and the peak RSS of the process (DuckDB's native memory included).
 * Aim (issue 7): >= 100k rows/s and < 500 MB for 1 million runs.
 *
 * The writer was chosen with the same generator and 200,000 runs of every field, snappy, batches of
 * 50,000, on this project's 2-core machine (a throwaway script; rows/s of the whole path, generator
 * included, peak RSS): DuckDB through NDJSON 36.9k rows/s (873 MB without a memory limit),
 * hyparquet-writer 18.9k (625 MB), parquet-wasm + apache-arrow 16.3k (825 MB), @dsnp/parquetjs about
 * 6k (100,000 runs: 6.1k, 693 MB); the generator alone with the conversion to columns 36.8k.
 *
 * BENCH_ROWS (default 1,000,000) and BENCH_BATCH (rows per file, default 50,000) change the size.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { generateRuns } from "../emulator/bulkExport/generator";
import { dayPartitions, fileKey } from "../emulator/bulkExport/layout";
import { ParquetWriter, type ParquetFileOptions } from "../emulator/bulkExport/parquet";
import { startMinio, type MinioServer } from "../tests/helpers/minio";
import { printTable } from "./util";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 50_000);
const START = "2026-11-01T00:00:00Z";
const END = "2026-11-04T00:00:00Z";

interface Figures {
    seconds: number;
    /** Main thread: generating runs and serializing them into the file being filled. */
    fill: number;
    /** Main thread waiting for the previous file's conversion and upload. */
    wait: number;
    files: number;
    mb: number;
}

/**
 * One export of ROWS runs, cut by day and by BATCH: the JavaScript thread fills file k+1 while DuckDB
 * converts file k and it is uploaded (at most one conversion + upload in flight, as an export run would).
 */
async function exportOnce(minio: MinioServer, writer: ParquetWriter, exportId: string, opts: ParquetFileOptions): Promise<Figures> {
    const s3 = minio.client(minio.users.writeOnly);
    const config = { bucket_name: "bench", prefix: "exports" };
    const placement = { exportId, tenantId: "11111111-2222-4333-8444-555555555555", sessionId: "55555555-0000-4000-8000-000000000001" };
    const days = dayPartitions(START, END);
    const f: Figures = { seconds: 0, fill: 0, wait: 0, files: 0, mb: 0 };
    const started = performance.now();
    let inFlight: Promise<void> = Promise.resolve();
    let day = 0;
    let index = 0;
    let file = writer.begin(opts);
    const ship = async () => {
        const t = performance.now();
        await inFlight;
        f.wait += performance.now() - t;
        const done = file;
        const key = fileKey(config, placement, days[day], index++);
        inFlight = done.finish().then(async ({ bytes }) => {
            await s3.send(new PutObjectCommand({ Bucket: "bench", Key: key, Body: bytes }));
            f.files++;
            f.mb += bytes.byteLength / 1e6;
        });
        file = writer.begin(opts);
    };
    let t = performance.now();
    for (const run of generateRuns({ seed: 1, tenantId: placement.tenantId, sessionId: placement.sessionId, start: START, end: END, count: ROWS })) {
        const at = Date.parse(run.start_time);
        if (at >= days[day].end || file.rows === BATCH) {
            f.fill += performance.now() - t;
            if (file.rows) await ship();
            while (at >= days[day].end) day++, (index = 0);
            t = performance.now();
        }
        file.add(run);
    }
    f.fill += performance.now() - t;
    await ship();
    const t0 = performance.now();
    await inFlight;
    f.wait += performance.now() - t0;
    await file.abort();
    f.seconds = (performance.now() - started) / 1000;
    s3.destroy();
    return f;
}

export async function parquetBench(): Promise<void> {
    console.log(`\n== bulk export: ${ROWS.toLocaleString("en")} generated runs as Parquet into MinIO, ${BATCH.toLocaleString("en")} rows per file ==`);
    const minio = await startMinio({ buckets: ["bench"] });
    const writer = await ParquetWriter.open();
    // What the process holds before exporting anything (ts-node's compiler, the SDKs, DuckDB started):
    // the emulator runs compiled code, without the compiler, so its cost is nearer peak minus this.
    const baseline = Math.round(process.memoryUsage().rss / 1048576);
    const configs: Array<[string, ParquetFileOptions]> = [
        ["v1, every field, snappy", {}],
        ["v1, id/name/run_type/start_time/total_tokens", { fields: ["id", "name", "run_type", "start_time", "total_tokens"] }],
    ];
    const rows: string[][] = [["export", "rows/s", "wall", "generate+serialize", "waiting for DuckDB+upload", "files", "MB", "peak RSS"]];
    try {
        for (const [i, [label, opts]] of configs.entries()) {
            const f = await exportOnce(minio, writer, `bench-${i}`, opts);
            const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
            rows.push([
                label,
                `${Math.round(ROWS / f.seconds / 100) / 10}k`,
                `${f.seconds.toFixed(1)} s`,
                s(f.fill),
                s(f.wait),
                String(f.files),
                f.mb.toFixed(0),
                `${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
            ]);
        }
    } finally {
        await writer.close();
        await minio.stop();
    }
    printTable(rows);
    console.log(`peak RSS is the process's maximum so far (the second row includes the first); ${baseline} MB before the first export.`);
}
