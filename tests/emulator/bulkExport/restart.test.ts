/**
 * An emulator killed with SIGKILL in the middle of an export and started again on the same state
 * directory resumes the export from its checkpoints: the bucket ends with every run of the range exactly
 * once (read back by pyarrow), and the interrupted run says so under `retry_0` (docs/service.md 7: infrastructure
 * interruption, requeued, resumes from checkpoint; docs/service.md 8: progress kept per run).
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRuns } from "../../../emulator/bulkExport/projects";
import { TEST_TENANT, admin, bulkExportClient, sleep, startEmulatorProcess } from "../../helpers/emulator";
import { startMinio, type MinioServer } from "../../helpers/minio";
import { readParquet } from "../../helpers/pyarrow";
import { settle } from "../../helpers/bulkExport";

const PROJECT = { session_id: "55555555-0000-4000-8000-00000000000b", seed: 11, start: "2026-11-05T00:00:00Z", end: "2026-11-06T00:00:00Z", count: 80_000 };

/** The built emulator in its own process, on this state directory, with the tracing project. */
const startProcess = (stateDir: string) =>
    startEmulatorProcess([
        "--state-dir",
        stateDir,
        "--tracing-project",
        `start=${PROJECT.start},end=${PROJECT.end},count=${PROJECT.count},seed=${PROJECT.seed},id=${PROJECT.session_id}`,
    ]);

describe("emulator: bulk export survives kill -9", function () {
    this.timeout(180_000);
    let minio: MinioServer;
    let stateDir: string;
    const children: ChildProcess[] = [];

    before(async () => {
        minio = await startMinio();
        stateDir = mkdtempSync(join(tmpdir(), "bulk-export-restart-"));
    });
    after(async () => {
        for (const c of children) c.kill("SIGKILL");
        await minio?.stop();
        rmSync(stateDir, { recursive: true, force: true });
    });

    it("resumes after the last checkpoint: no row lost, none written twice", async () => {
        const first = await startProcess(stateDir);
        children.push(first.child);
        await admin(first, "PUT", "/bulk-exports/limits", { rowsPerFile: 3_000 });
        let be = bulkExportClient(first);
        const { destination } = await be.createDestination({
            display_name: "restart",
            config: { bucket_name: "exports", prefix: "restart", endpoint_url: minio.endpoint },
            credentials: { access_key_id: minio.users.writeDelete.accessKeyId, secret_access_key: minio.users.writeDelete.secretAccessKey },
        });
        const { export: e } = await be.createExport({
            bulk_export_destination_id: destination.id,
            session_id: PROJECT.session_id,
            start_time: PROJECT.start,
            end_time: PROJECT.end,
        });

        // Kill it once a few files are written and checkpointed, well before the end.
        const deadline = Date.now() + 60_000;
        let written = 0;
        while (written < 9_000) {
            assert.ok(Date.now() < deadline, "no progress to interrupt");
            written = (await be.listExportRuns(e.id))[0]?.metadata?.result?.rows_written ?? 0;
            await sleep(20);
        }
        assert.ok(written < PROJECT.count, "the export finished before it could be interrupted");
        first.child.kill("SIGKILL");
        await new Promise((r) => first.child.once("exit", r));

        const second = await startProcess(stateDir);
        children.push(second.child);
        be = bulkExportClient(second);
        assert.equal((await settle(be, e.id, undefined, 120_000)).status, "Completed");
        const [run] = await be.listExportRuns(e.id);
        assert.match(String(run.errors?.retry_0), /Infrastructure interruption/);

        const keys = await minio.listKeys("exports", `restart/export_id=${e.id}/`);
        const ids: string[] = [];
        for (const key of keys) ids.push(...(await readParquet(await minio.getObject("exports", key), { columns: ["id"] })).rows.map((r) => r.id as string));
        const expected = [...projectRuns(PROJECT, TEST_TENANT, Date.parse(PROJECT.start), Date.parse(PROJECT.end))].map((r) => r.id);
        assert.equal(new Set(ids).size, ids.length, "a row written twice");
        assert.equal(ids.length, expected.length, "rows lost or added");
        assert.deepEqual(new Set(ids), new Set(expected));
        assert.equal(run.metadata?.result?.rows_written, expected.length);
    });
});
