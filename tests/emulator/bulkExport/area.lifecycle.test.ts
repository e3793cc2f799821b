/**
 * The emulator's bulk-export area over real HTTP, writing into a real MinIO: the status machine of
 * docs/service.md 3.3 (retries, limits, cancellation, timeouts), scheduled exports (docs/service.md 4.4)
 * and installation versions (docs/service.md 9). Destinations and one-off exports: area.test.ts.
 */
import assert from "node:assert/strict";
import { BadRequestError, ValidationFailedError } from "../../../provider/api/errors";
import type { BulkExportClient } from "../../../provider/api/bulkExport";
import { admin, bulkExportClient, raw, rejection, sleep, startTestEmulator, type Emulator } from "../../helpers/emulator";
import type { MinioServer } from "../../helpers/minio";
import { PROJECT, useBulkExportArea } from "../../helpers/bulkExportArea";
import { settle } from "../../helpers/bulkExport";

describe("emulator: bulk export over HTTP, into MinIO: statuses, schedules, versions", function () {
    this.timeout(120_000);
    const area = useBulkExportArea();
    let minio: MinioServer;
    let em: Emulator;
    let be: BulkExportClient;
    const { destinationBody, exportFailing, newDestination } = area;
    before(() => ({ minio, em, be } = area));

    describe("status machine, retries, limits", () => {
        it("cancel: a queued export and its runs become Cancelled; cancelling a final export is a 400", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const destId = await newDestination({ prefix: "cancel" });
            const { export: e } = await be.createExport({
                bulk_export_destination_id: destId,
                session_id: PROJECT.session_id,
                start_time: "2026-11-01T00:00:00Z",
                end_time: "2026-11-03T00:00:00Z",
            });
            const cancelled = await be.cancelExport(e.id);
            assert.equal(cancelled.status, "Cancelled");
            assert.ok(cancelled.finished_at);
            assert.deepEqual(
                (await be.listExportRuns(e.id)).map((r) => r.status),
                ["Cancelled", "Cancelled"],
            );
            assert.ok((await rejection(() => be.cancelExport(e.id))) instanceof BadRequestError);
            await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
            await sleep(300);
            assert.equal((await be.getExport(e.id)).status, "Cancelled", "a cancelled export is never restarted");
            assert.deepEqual(await minio.listKeys("exports", `cancel/export_id=${e.id}/`), []);
        });

        it("retries: failed attempts are kept under retry_N and the run resumes; exhausted retries fail the export", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { retryDelayMs: 0, retries: 2 });
            const destId = await newDestination({ prefix: "retry" });
            const range = { session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-01T06:00:00Z" };
            const ok = await exportFailing({ bulk_export_destination_id: destId, ...range }, { kind: "processing", times: 2 });
            assert.equal((await settle(be, ok.id)).status, "Completed");
            const [run] = await be.listExportRuns(ok.id);
            assert.deepEqual(Object.keys(run.errors ?? {}), ["retry_0", "retry_1"]);
            assert.equal(run.retry_number, 2);

            const bad = await exportFailing({ bulk_export_destination_id: destId, ...range, filter: 'eq(run_type, "tool")' }, { kind: "timeout", times: 10 });
            assert.equal((await settle(be, bad.id)).status, "Failed");
            const [failed] = await be.listExportRuns(bad.id);
            assert.equal(failed.status, "Failed");
            assert.deepEqual(Object.keys(failed.errors ?? {}), ["retry_0", "retry_1", "retry_2"]);
            assert.match(String(failed.errors?.retry_2), /timed out/);
        });

        it("retries wait retryDelayMs on the emulator clock; a storage error fails at once, without retry", async () => {
            const destId = await newDestination({ prefix: "delay" });
            const range = { session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-01T06:00:00Z" };
            const slow = await exportFailing({ bulk_export_destination_id: destId, ...range }, { kind: "processing", times: 1 });
            const deadline = Date.now() + 10_000;
            while (!(await be.listExportRuns(slow.id))[0].errors?.retry_0 && Date.now() < deadline) await sleep(50);
            await sleep(300);
            const [waiting] = await be.listExportRuns(slow.id);
            assert.equal(waiting.status, "Created", "requeued, waiting the 30 s delay");
            assert.equal((await be.getExport(slow.id)).status, "Running");
            await admin(em, "POST", "/clock/advance", { ms: 30_000 });
            assert.equal((await settle(be, slow.id)).status, "Completed");

            const denied = await exportFailing({ bulk_export_destination_id: destId, ...range }, { kind: "storage", times: 1 });
            assert.equal((await settle(be, denied.id)).status, "Failed");
            assert.deepEqual(Object.keys((await be.listExportRuns(denied.id))[0].errors ?? {}), ["retry_0"]);
        });

        it("a failure rule with afterFiles strikes part-way: the run's first files stay written, the next upload fails", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { rowsPerFile: 200 });
            const destId = await newDestination({ prefix: "partway" });
            const range = { session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-02T00:00:00Z" };
            const e = await exportFailing({ bulk_export_destination_id: destId, ...range }, { kind: "storage", times: 1, afterFiles: 2 });
            assert.equal((await settle(be, e.id)).status, "Failed");
            const [run] = await be.listExportRuns(e.id);
            assert.deepEqual(run.errors, { retry_0: "Storage error: Access Denied (injected)" });
            assert.equal(run.metadata?.result?.exported_files?.length, 2);
            assert.equal((await minio.listKeys("exports", `partway/export_id=${e.id}/`)).length, 2);
        });

        it("limits: beyond exportsPerWorkspace an export queues (Created) and runs only after one finishes", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { exportsPerWorkspace: 1, rowsPerFile: 200 });
            const destId = await newDestination({ prefix: "limits" });
            const range = { session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-03T00:00:00Z" };
            const { export: a } = await be.createExport({ bulk_export_destination_id: destId, ...range });
            const { export: b } = await be.createExport({ bulk_export_destination_id: destId, ...range });
            await settle(be, a.id);
            await settle(be, b.id);
            const ha = await admin(em, "GET", `/bulk-exports/${a.id}/history`);
            const hb = await admin(em, "GET", `/bulk-exports/${b.id}/history`);
            const at = (h: { export: Array<{ status: string; at: string }> }, s: string) => Date.parse(h.export.find((x) => x.status === s)!.at);
            assert.ok(at(hb, "Running") >= at(ha, "Completed"), "b was admitted only once a had completed");
        });

        it("the cloud's limits: scheduled exports beyond scheduledExportsPerWorkspace are a 429 without Retry-After until one is cancelled; creations beyond creationsPerHour a 429 with Retry-After until the hour passes on the emulator clock; refused creates do not count", async () => {
            assert.deepEqual(
                await admin(em, "GET", "/bulk-exports/limits").then((l) => [l.scheduledExportsPerWorkspace, l.creationsPerHour]),
                [200, 250],
                "the cloud's figures by default",
            );
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true, scheduledExportsPerWorkspace: 2, creationsPerHour: null });
            const destId = await newDestination({ prefix: "limits" });
            const post = (body: object) =>
                raw(em, "POST", "/api/v1/bulk-exports", {
                    body: { bulk_export_destination_id: destId, session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z", ...body },
                });
            const before = (await be.listExports()).filter((e) => e.status === "IntervalScheduled");
            for (const e of before) await be.cancelExport(e.id);
            const [a] = [await post({ interval_hours: 24 }), await post({ interval_hours: 24 })];
            const third = await post({ interval_hours: 24 });
            assert.equal(third.status, 429);
            assert.equal(third.headers["retry-after"], undefined);
            assert.match(third.body.detail, /at most 2 scheduled exports \(it has 2\)/);
            assert.equal((await post({ end_time: "2026-11-01T01:00:00Z" })).status, 200, "the cap is on scheduled exports only");
            await be.cancelExport(a.body.id);
            assert.equal((await post({ interval_hours: 24 })).status, 200, "a cancelled schedule frees its place");

            await admin(em, "PUT", "/bulk-exports/limits", { scheduledExportsPerWorkspace: null, creationsPerHour: 3 });
            em.clock.advance(2 * 3_600_000); // the creations above leave the hour
            for (let i = 0; i < 3; i++) assert.equal((await post({ end_time: "2026-11-01T01:00:00Z" })).status, 200);
            em.clock.advance(20 * 60_000);
            const limited = await post({ end_time: "2026-11-01T01:00:00Z" });
            assert.equal(limited.status, 429);
            assert.equal(limited.headers["retry-after"], String(40 * 60));
            assert.match(limited.body.detail, /at most 3 bulk exports may be created per hour/);
            assert.equal((await post({ end_time: "2026-11-01T01:00:00Z" })).status, 429, "refused creates are not counted, nor do they reset the hour");
            em.clock.advance(40 * 60_000 + 1);
            assert.equal((await post({ end_time: "2026-11-01T01:00:00Z" })).status, 200, "the hour passed");
            for (const e of await be.listExports()) if (e.status === "IntervalScheduled") await be.cancelExport(e.id);
            await admin(em, "PUT", "/bulk-exports/limits", { scheduledExportsPerWorkspace: 200, creationsPerHour: 250 });
        });

        it("workflow timeout: an export running longer than exportTimeoutMs becomes TimedOut with its runs", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { retryDelayMs: 3_600_000 });
            const destId = await newDestination({ prefix: "timeout" });
            const e = await exportFailing(
                { bulk_export_destination_id: destId, session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-01T06:00:00Z" },
                { kind: "timeout", times: 1 },
            );
            await settle(be, e.id, (x) => x.status === "Running");
            await sleep(300);
            await admin(em, "POST", "/clock/advance", { ms: 72 * 3_600_000 + 1_000 });
            const done = await settle(be, e.id);
            assert.equal(done.status, "TimedOut");
            assert.deepEqual(
                (await be.listExportRuns(e.id)).map((r) => r.status),
                ["TimedOut"],
            );
        });
    });

    describe("scheduled exports (docs/service.md 4.4)", () => {
        it("spawn one export per window at its end + 10 min on the emulator clock, each with source_bulk_export_id; cancelling stops spawning only", async () => {
            const destId = await newDestination({ prefix: "sched" });
            const now = em.clock.now();
            const start = new Date(Math.floor(now / 3_600_000) * 3_600_000 - 5 * 3_600_000).toISOString();
            const { export: s } = await be.createExport({
                bulk_export_destination_id: destId,
                session_id: PROJECT.session_id,
                start_time: start,
                interval_hours: 2,
            });
            assert.equal(s.status, "IntervalScheduled");
            await sleep(300);
            const spawned = () =>
                be.listExports().then((l) => l.filter((e) => e.source_bulk_export_id === s.id).sort((a, b) => a.start_time.localeCompare(b.start_time)));
            let children = await spawned();
            assert.equal(children.length, 2, "two whole windows ended more than 10 minutes ago");
            assert.equal(children[0].start_time, start);
            assert.equal(children[0].end_time, children[1].start_time, "windows follow each other without gap");
            await admin(em, "POST", "/clock/advance", { ms: 2 * 3_600_000 });
            await sleep(300);
            children = await spawned();
            assert.equal(children.length, 3);
            for (const c of children) await settle(be, c.id);
            const runs = await be.listSpawnedRuns(s.id);
            assert.deepEqual(new Set(runs.map((r) => r.bulk_export_id)), new Set(children.map((c) => c.id)), "the runs of exactly the spawned exports");
            await be.cancelExport(s.id);
            await admin(em, "POST", "/clock/advance", { ms: 10 * 3_600_000 });
            await sleep(300);
            assert.equal((await spawned()).length, 3, "a cancelled scheduled export spawns no more");
            assert.ok(
                (await spawned()).every((c) => c.status === "Completed"),
                "its spawned exports are not cancelled with it",
            );
        });
    });

    describe("installation versions (docs/service.md 9)", () => {
        it("an older self-hosted installation refuses the fields it does not know with a 422 extra_forbidden", async () => {
            const old = await startTestEmulator({ bulkExport: { installation: "self-hosted", installationVersion: "0.10.50", projects: [PROJECT] } });
            try {
                const client = bulkExportClient(old);
                const withToken = destinationBody();
                withToken.credentials = { ...withToken.credentials!, session_token: "FwoGZXIvYXdzEXAMPLEsessionTOKEN0123456789" };
                const e = await rejection(() => client.createDestination(withToken));
                assert.ok(e instanceof ValidationFailedError, String(e));
                assert.match(e.message, /session_token/);
                const { destination } = await client.createDestination(destinationBody({ prefix: "old" }));
                const sched = await rejection(() =>
                    client.createExport({
                        bulk_export_destination_id: destination.id,
                        session_id: PROJECT.session_id,
                        start_time: "2026-11-01T00:00:00Z",
                        interval_hours: 24,
                    }),
                );
                assert.match(sched.message, /interval_hours/);
                const { export: one } = await client.createExport({
                    bulk_export_destination_id: destination.id,
                    session_id: PROJECT.session_id,
                    start_time: "2026-11-01T00:00:00Z",
                    end_time: "2026-11-01T01:00:00Z",
                });
                assert.equal(one.status, "Created");
            } finally {
                await old.close();
            }
        });
    });
});
