/**
 * The emulator's bulk export end to end, as a user runs it: the built emulator in its own process
 * (`dist/emulator/main.js`, compiled, no ts-node), a tracing project of BENCH_ROWS generated runs (default
 * 1,000,000) over three days, a destination in a real MinIO, one export created over HTTP by the
 * provider's client and awaited until `Completed`. Prints rows per second and the emulator process's peak
 * RSS (VmHWM), for every field and for five fields. Aim (issue 7): >= 100k rows/s and < 500 MB.
 * BENCH_WORKERS sets the emulator's `workers` (runs written at once; default 2).
 */
import { readFileSync } from "node:fs";
import { BulkExportClient } from "../provider/api/bulkExport";
import { HttpClient } from "../provider/api/client";
import { isFinalExportStatus } from "../provider/api/schemas/bulkExport";
import { startEmulatorProcess } from "../tests/helpers/emulator";
import { startMinio } from "../tests/helpers/minio";
import { printTable } from "./util";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PROJECT = { id: "55555555-0000-4000-8000-0000000000be", start: "2026-11-01T00:00:00Z", end: "2026-11-04T00:00:00Z" };

/** Peak resident memory of a process so far (Linux). */
const peakMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024);

export async function emulatorExportBench(): Promise<void> {
    console.log(`\n== emulator bulk export over HTTP: ${ROWS.toLocaleString("en")} runs over 3 days into MinIO (emulator in its own process) ==`);
    const minio = await startMinio({ buckets: ["bench"] });
    const rows = [["export", "rows", "wall", "rows/s", "files", "emulator peak RSS"]];
    try {
        for (const [label, fields] of [
            ["v1, every field", undefined],
            ["v1, five fields", ["id", "name", "run_type", "start_time", "total_tokens"]],
        ] as const) {
            // A fresh process per export, so each peak is its own.
            const { child, url } = await startEmulatorProcess([
                "--tracing-project",
                `start=${PROJECT.start},end=${PROJECT.end},count=${ROWS},id=${PROJECT.id}`,
            ]);
            try {
                if (process.env.BENCH_WORKERS) {
                    await fetch(`${url}/__admin/bulk-exports/limits`, {
                        method: "PUT",
                        headers: { "content-type": "application/json" },
                        body: JSON.stringify({ workers: Number(process.env.BENCH_WORKERS) }),
                    });
                }
                const be = new BulkExportClient(new HttpClient({ baseUrl: url, apiKey: "bench", tenantId: "bench", apiKeyHeader: "X-API-Key" }));
                const { destination } = await be.createDestination({
                    display_name: "bench",
                    config: { bucket_name: "bench", prefix: label.replace(/\W+/g, "-"), endpoint_url: minio.endpoint },
                    credentials: { access_key_id: minio.users.writeDelete.accessKeyId, secret_access_key: minio.users.writeDelete.secretAccessKey },
                });
                const started = Date.now();
                const { export: e } = await be.createExport({
                    bulk_export_destination_id: destination.id,
                    session_id: PROJECT.id,
                    start_time: PROJECT.start,
                    end_time: PROJECT.end,
                    export_fields: fields ? [...fields] : undefined,
                });
                let status = e.status;
                while (!isFinalExportStatus(status)) {
                    await new Promise((r) => setTimeout(r, 100));
                    status = (await be.getExport(e.id)).status;
                }
                const seconds = (Date.now() - started) / 1000;
                const runs = await be.listExportRuns(e.id);
                const written = runs.reduce((n, r) => n + (r.metadata?.result?.rows_written ?? 0), 0);
                const files = runs.reduce((n, r) => n + (r.metadata?.result?.exported_files?.length ?? 0), 0);
                rows.push([
                    `${label} (${status})`,
                    written.toLocaleString("en"),
                    `${seconds.toFixed(1)} s`,
                    `${Math.round(written / seconds / 100) / 10}k`,
                    String(files),
                    `${peakMb(child.pid!)} MB`,
                ]);
            } finally {
                child.kill("SIGKILL");
            }
        }
    } finally {
        await minio.stop();
    }
    printTable(rows);
}
