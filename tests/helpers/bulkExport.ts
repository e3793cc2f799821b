/**
 * Helpers of the bulk-export tests: waiting for an export's status through the provider's client, and, for
 * the e2e tests, what a workspace's scheduled exports wrote into MinIO, window by window, read by pyarrow.
 */
import assert from "node:assert/strict";
import type { BulkExportClient } from "../../provider/api/bulkExport";
import { matches } from "../../emulator/bulkExport/filterEval";
import { parseFilter } from "../../provider/api/filter";
import { isFinalExportStatus, type BulkExportRecord } from "../../provider/api/schemas/bulkExport";
import { projectRuns, type TracingProject } from "../../emulator/bulkExport/projects";
import type { Emulator } from "../../emulator/core/server";
import { sleep } from "./async";
import type { MinioServer } from "./minio";
import { readParquet } from "./pyarrow";

/** Polls the export until `until` holds (default: a final status); answers it, or throws after `ms`. */
export async function settle(
    be: BulkExportClient,
    id: string,
    until = (e: BulkExportRecord) => isFinalExportStatus(e.status),
    ms = 30_000,
): Promise<BulkExportRecord> {
    const deadline = Date.now() + ms;
    for (;;) {
        const e = await be.getExport(id);
        if (until(e)) return e;
        if (Date.now() > deadline) throw new Error(`export ${id} still ${e.status} after ${ms} ms`);
        await sleep(50);
    }
}

/** Every row of the Parquet files under `prefix` of the bucket `exports`, read by pyarrow. */
export async function rowsUnder(minio: MinioServer, prefix: string): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (const key of await minio.listKeys("exports", prefix)) out.push(...(await readParquet(await minio.getObject("exports", key))).rows);
    return out;
}

/** One window a scheduled export spawned: its range, the rows pyarrow read back and the rows the project holds for it. */
export interface WrittenWindow {
    start: number;
    end: number;
    rows: number;
    expected: number;
    exportId: string;
}

/** The spawned exports of a workspace's scheduled exports, by window, with the rows pyarrow reads for each (bucket `exports`). */
export async function windowsWritten(em: Emulator, minio: MinioServer, tracing: TracingProject, workspace: string, prefix: string): Promise<WrittenWindow[]> {
    const exports = [...em.bulkExport.model.exports.values()].filter((e) => e.tenant_id === workspace && e.source_bulk_export_id);
    const out: WrittenWindow[] = [];
    for (const e of exports) {
        let rows = 0;
        for (const key of await minio.listKeys("exports", `${prefix}/export_id=${e.id}/`)) {
            rows += (await readParquet(await minio.getObject("exports", key), { columns: ["id"] })).numRows;
        }
        const expr = e.filter ? parseFilter(e.filter) : undefined;
        const expected = [...projectRuns(tracing, workspace, Date.parse(e.start_time), Date.parse(e.end_time!))].filter(
            (r) => !expr || matches(expr, r),
        ).length;
        out.push({ start: Date.parse(e.start_time), end: Date.parse(e.end_time!), rows, expected, exportId: e.id });
    }
    return out.sort((a, b) => a.start - b.start);
}

/** Waits until every spawned export of the workspace is final. */
export async function spawnedSettled(em: Emulator, workspace: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
        const open = [...em.bulkExport.model.exports.values()].filter(
            (e) => e.tenant_id === workspace && e.source_bulk_export_id && !isFinalExportStatus(e.status),
        );
        if (!open.length) return;
        await sleep(100);
    }
    throw new Error("spawned exports did not finish");
}

/**
 * The windows follow each other from `start` with no gap and no overlap, each holds exactly the rows the
 * project has for it, and they were spawned by exactly `parents` (the schedule's exports, in order).
 */
export function assertEachWindowOnce(em: Emulator, written: WrittenWindow[], start: number, parents: string[]): void {
    assert.equal(written[0].start, start);
    for (let i = 1; i < written.length; i++) assert.equal(written[i].start, written[i - 1].end, `a gap or an overlap before window ${i}`);
    for (const w of written) assert.equal(w.rows, w.expected, `window ${new Date(w.start).toISOString()}: ${w.rows} rows written, ${w.expected} expected`);
    assert.deepEqual([...new Set(written.map((w) => em.bulkExport.model.exports.get(w.exportId)!.source_bulk_export_id))], parents);
}
