/**
 * The emulator's bulk-export area over real HTTP, through the provider's own client, writing into a real
 * MinIO and read back by pyarrow: destinations validated for real (the four documented errors from their
 * real causes), one-off and scheduled exports, the status machine of docs/service.md 3.3, retries, limits,
 * cancellation, timeouts, installation versions, and credentials encrypted at rest.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { matches } from "../../../emulator/bulkExport/filterEval";
import { parseFilter } from "../../../provider/api/filter";
import { ApiError, BadRequestError, NotFoundError, ValidationFailedError } from "../../../provider/api/errors";
import type { DestinationCreateRequest } from "../../../provider/api/schemas/bulkExport";
import type { BulkExportClient } from "../../../provider/api/bulkExport";
import { projectRuns } from "../../../emulator/bulkExport/projects";
import { OTHER_TENANT, TEST_TENANT, admin, bulkExportClient, raw, rejection, sleep, startTestEmulator, type Emulator } from "../../helpers/emulator";
import { startMinio, type MinioServer, type S3Credentials } from "../../helpers/minio";
import { readParquet } from "../../helpers/pyarrow";
import { settle } from "../../helpers/bulkExport";

const PROJECT = { session_id: "55555555-0000-4000-8000-00000000000a", seed: 3, start: "2026-11-01T00:00:00Z", end: "2026-11-04T00:00:00Z", count: 3_000 };

const creds = (c: S3Credentials) => ({ access_key_id: c.accessKeyId, secret_access_key: c.secretAccessKey });

/** Every row pyarrow reads under a key prefix of the bucket. */
async function rowsUnder(minio: MinioServer, prefix: string): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (const key of await minio.listKeys("exports", prefix)) out.push(...(await readParquet(await minio.getObject("exports", key))).rows);
    return out;
}

describe("emulator: bulk export over HTTP, into MinIO", function () {
    this.timeout(120_000);
    let minio: MinioServer;
    let em: Emulator;
    let be: BulkExportClient;
    let stateDir: string;

    const destinationBody = (
        over: Partial<DestinationCreateRequest["config"]> = {},
        c: S3Credentials | null = minio.users.writeDelete,
    ): DestinationCreateRequest => ({
        destination_type: "s3",
        display_name: "traces bucket",
        config: { bucket_name: "exports", prefix: "ls", endpoint_url: minio.endpoint, ...over },
        credentials: c ? creds(c) : undefined,
    });
    /** Creates an export while the worker is paused, with failure rules for it in place before it starts. */
    const exportFailing = async (body: Parameters<BulkExportClient["createExport"]>[0], rule: { kind: string; times: number; afterFiles?: number }) => {
        await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
        const { export: e } = await be.createExport(body);
        await admin(em, "POST", "/bulk-exports/failure-rules", { ...rule, exportId: e.id });
        await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
        return e;
    };
    const newDestination = async (over: Partial<DestinationCreateRequest["config"]> = {}) => (await be.createDestination(destinationBody(over))).destination.id;

    before(async () => {
        minio = await startMinio();
        stateDir = mkdtempSync(join(tmpdir(), "bulk-export-state-"));
        em = await startTestEmulator({ bulkExport: { stateDir, projects: [PROJECT] } });
        be = bulkExportClient(em);
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
        rmSync(stateDir, { recursive: true, force: true });
    });
    afterEach(async () => {
        await admin(em, "DELETE", "/bulk-exports/failure-rules");
        await admin(em, "PUT", "/bulk-exports/limits", { retryDelayMs: 30_000, retries: 20, exportsPerWorkspace: 15, paused: false, rowsPerFile: 50_000 });
    });

    describe("destinations", () => {
        it("create: validated by writing a test file, deleted when permitted; the answer names the keys, never their values", async () => {
            const { destination } = await be.createDestination(destinationBody({ prefix: "ok" }));
            assert.deepEqual(destination.credentials_keys, ["access_key_id", "secret_access_key"]);
            assert.ok(!JSON.stringify(destination).includes(minio.users.writeDelete.secretAccessKey));
            assert.deepEqual(await minio.listKeys("exports", "ok/"), []);
            assert.equal((await be.getDestination(destination.id)).display_name, "traces bucket");
        });

        it("create with a write-only user: the test file stays under <prefix>/tmp/", async () => {
            await be.createDestination(destinationBody({ prefix: "wo" }, minio.users.writeOnly));
            const keys = await minio.listKeys("exports", "wo/");
            assert.equal(keys.length, 1);
            assert.match(keys[0], /^wo\/tmp\//);
        });

        it("the four documented errors, each from its real cause, as a 400 with the service's words", async () => {
            const cases: Array<[DestinationCreateRequest, RegExp]> = [
                [destinationBody({}, minio.users.noAccess), /Access denied/],
                [destinationBody({ bucket_name: "no-such-bucket" }, minio.root), /Bucket is not valid/],
                [destinationBody({}, { accessKeyId: "AKIANOSUCHKEY", secretAccessKey: "x".repeat(40) }), /Key ID you provided does not exist/],
                [destinationBody({ endpoint_url: em.url }), /Invalid endpoint/],
            ];
            for (const [body, words] of cases) {
                const e = await rejection(() => be.createDestination(body));
                assert.ok(e instanceof BadRequestError, `${words}: ${e}`);
                assert.match(e.message, words);
            }
            assert.equal((await be.listDestinations()).filter((d) => d.config.bucket_name === "no-such-bucket").length, 0);
        });

        it("the cloud refuses omitted credentials (environment credentials are self-hosted only); a bad display name is a 422", async () => {
            assert.ok((await rejection(() => be.createDestination(destinationBody({}, null)))) instanceof BadRequestError);
            const bad = await rejection(() => be.createDestination({ ...destinationBody(), display_name: "traces/bucket" }));
            assert.ok(bad instanceof ValidationFailedError, String(bad));
        });

        it("PATCH rotates the credentials in place, validated first; the store holds them encrypted only", async () => {
            const id = await newDestination({ prefix: "rot" });
            const e = await rejection(() => be.updateDestinationCredentials(id, { credentials: creds(minio.users.noAccess) }));
            assert.match(e.message, /Access denied/);
            const after = await be.updateDestinationCredentials(id, { credentials: creds(minio.users.writeOnly) });
            assert.equal(after.id, id);
            const store = readFileSync(join(stateDir, "bulk-export.json"), "utf8");
            assert.ok(store.includes(id));
            for (const u of Object.values(minio.users)) assert.ok(!store.includes(u.secretAccessKey), "a secret in plain text in the store");
            assert.ok(!store.includes(minio.users.writeOnly.accessKeyId), "an access key id in plain text in the store");
        });

        it("DELETE: refused (409 naming the export) while an unfinished export uses the destination; once it is cancelled, deleted (204, then 404); the store forgets it", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const id = await newDestination({ prefix: "del" });
            const { export: e } = await be.createExport({
                bulk_export_destination_id: id,
                session_id: PROJECT.session_id,
                start_time: "2026-11-01T00:00:00Z",
                end_time: "2026-11-01T06:00:00Z",
            });
            const refused = await rejection(() => be.deleteDestination(id));
            assert.ok(refused instanceof ApiError && refused.status === 409, String(refused));
            assert.match(refused.message, new RegExp(`still used by exports that have not finished: ${e.id} \\(Created\\)`));
            assert.equal((await be.getDestination(id)).id, id, "a refused DELETE keeps the destination");
            await be.cancelExport(e.id);
            assert.equal(await be.deleteDestination(id), "deleted");
            assert.ok((await rejection(() => be.getDestination(id))) instanceof NotFoundError);
            assert.equal(await be.deleteDestination(id), "gone");
            assert.ok(!readFileSync(join(stateDir, "bulk-export.json"), "utf8").includes(`"id":"${id}"`), "the store still holds the deleted destination");
            assert.equal((await be.getExport(e.id)).bulk_export_destination_id, id, "a finished export keeps naming its destination");
        });
    });

    describe("one-off exports", () => {
        it("writes each UTC day as Parquet at the layout of docs/service.md 2.9: every run of the range once, read back by pyarrow", async () => {
            const destId = await newDestination({ prefix: "one" });
            const start = "2026-11-01T12:00:00Z";
            const end = "2026-11-03T06:00:00Z";
            const { export: e } = await be.createExport({
                bulk_export_destination_id: destId,
                session_id: PROJECT.session_id,
                start_time: start,
                end_time: end,
            });
            assert.equal(e.status, "Created");
            const done = await settle(be, e.id);
            assert.equal(done.status, "Completed");
            const runs = await be.listExportRuns(e.id);
            assert.equal(runs.length, 3, "one run per UTC day touched");
            const expected = [...projectRuns({ ...PROJECT, tenant_id: undefined }, TEST_TENANT, Date.parse(start), Date.parse(end))];
            const prefix = `one/export_id=${e.id}/tenant_id=${TEST_TENANT}/session_id=${PROJECT.session_id}/runs/`;
            const keys = await minio.listKeys("exports", prefix);
            assert.deepEqual(
                keys.map((k) => k.slice(prefix.length).replace(/part-\d+\.parquet$/, "")),
                ["year=2026/month=11/day=01/", "year=2026/month=11/day=02/", "year=2026/month=11/day=03/"],
            );
            const rows = await rowsUnder(minio, prefix);
            assert.equal(rows.length, expected.length);
            assert.deepEqual(new Set(rows.map((r) => r.id)), new Set(expected.map((r) => r.id)));
            assert.equal(
                runs.reduce((n, r) => n + (r.metadata?.result?.rows_written ?? 0), 0),
                expected.length,
            );
            for (const r of runs) assert.equal(r.status, "Completed");
        });

        it("filter and export_fields: only matching runs, only the chosen columns", async () => {
            const destId = await newDestination({ prefix: "filtered" });
            const filter = 'and(eq(run_type, "llm"), gt(total_tokens, 500))';
            const range = { start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-02T00:00:00Z" };
            const { export: e } = await be.createExport({
                bulk_export_destination_id: destId,
                session_id: PROJECT.session_id,
                ...range,
                filter,
                export_fields: ["id", "run_type", "total_tokens"],
            });
            assert.equal((await settle(be, e.id)).status, "Completed");
            const expr = parseFilter(filter);
            const expected = [...projectRuns(PROJECT as never, TEST_TENANT, Date.parse(range.start_time), Date.parse(range.end_time))].filter((r) =>
                matches(expr, r),
            );
            assert.ok(expected.length > 0 && expected.length < 1_000);
            const keys = await minio.listKeys("exports", `filtered/export_id=${e.id}/`);
            const file = await readParquet(await minio.getObject("exports", keys[0]));
            assert.deepEqual(Object.keys(file.columns), ["id", "run_type", "total_tokens"]);
            const rows = await rowsUnder(minio, `filtered/export_id=${e.id}/`);
            assert.equal(rows.length, expected.length);
            assert.ok(rows.every((r) => r.run_type === "llm" && (r.total_tokens as number) > 500));
        });

        it("filter: every exportable field can be filtered on (gt(total_cost, 0.001) exports exactly the runs that cost more); a field the emulator does not generate is a 400 naming it", async () => {
            const destId = await newDestination({ prefix: "costly" });
            const filter = "gt(total_cost, 0.001)";
            const range = { start_time: "2026-11-01T00:00:00Z", end_time: "2026-11-02T00:00:00Z" };
            const { export: e } = await be.createExport({
                bulk_export_destination_id: destId,
                session_id: PROJECT.session_id,
                ...range,
                filter,
                export_fields: ["id", "total_cost"],
            });
            assert.equal((await settle(be, e.id)).status, "Completed");
            const expected = [...projectRuns(PROJECT as never, TEST_TENANT, Date.parse(range.start_time), Date.parse(range.end_time))].filter(
                (r) => (r.total_cost ?? 0) > 0.001,
            );
            assert.ok(expected.length > 0);
            const rows = await rowsUnder(minio, `costly/export_id=${e.id}/`);
            assert.deepEqual(rows.map((r) => r.id).sort(), expected.map((r) => r.id).sort());
            const bad = await rejection(() =>
                be.createExport({ bulk_export_destination_id: destId, session_id: PROJECT.session_id, ...range, filter: "gt(cost_usd, 1)" }),
            );
            assert.ok(bad instanceof BadRequestError, String(bad));
            assert.match(bad.message, /Invalid filter: unknown field "cost_usd"/);
        });

        it("compression: none named, the service's default per installation (zstandard on the cloud, gzip self-hosted), written as such", async () => {
            const selfHosted = await startTestEmulator({ bulkExport: { installation: "self-hosted", projects: [PROJECT] } });
            try {
                for (const [client, prefix, wire, codec] of [
                    [be, "z-cloud", "zstandard", "ZSTD"],
                    [bulkExportClient(selfHosted), "z-self", "gzip", "GZIP"],
                ] as const) {
                    const { destination } = await client.createDestination(destinationBody({ prefix }));
                    const { export: e } = await client.createExport({
                        bulk_export_destination_id: destination.id,
                        session_id: PROJECT.session_id,
                        start_time: "2026-11-01T00:00:00Z",
                        end_time: "2026-11-01T06:00:00Z",
                    });
                    assert.equal(e.compression, wire);
                    assert.equal((await settle(client, e.id)).status, "Completed");
                    const [key] = await minio.listKeys("exports", `${prefix}/export_id=${e.id}/`);
                    assert.equal((await readParquet(await minio.getObject("exports", key))).columns.id.compression, codec, prefix);
                }
            } finally {
                await selfHosted.close();
            }
        });

        it("all_experiments: every experiment of the workspace, the most recent experimentsPerExport of them, each under its own session_id; exactly one of session_id and all_experiments", async () => {
            const day = { start: "2026-11-03T00:00:00Z", end: "2026-11-04T00:00:00Z" };
            const experiments = [1, 2, 3].map((i) =>
                em.bulkExport.model.addProject({
                    start: `2026-11-0${i}T00:00:00Z`,
                    end: "2026-11-04T00:00:00Z",
                    count: 200 * i,
                    seed: 40 + i,
                    tenant_id: TEST_TENANT,
                    experiment: true,
                }),
            );
            await admin(em, "PUT", "/bulk-exports/limits", { experimentsPerExport: 2 });
            const destId = await newDestination({ prefix: "experiments" });
            const { export: e } = await be.createExport({
                bulk_export_destination_id: destId,
                all_experiments: true,
                start_time: day.start,
                end_time: day.end,
            });
            assert.equal(e.session_id, null);
            assert.equal(e.all_experiments, true);
            await settle(be, e.id);
            assert.equal((await be.getExport(e.id)).status, "Completed");
            // The two most recent experiments (started Nov 2 and 3), not the tracing project nor the oldest one.
            for (const x of experiments) {
                const rows = await rowsUnder(minio, `experiments/export_id=${e.id}/tenant_id=${TEST_TENANT}/session_id=${x.session_id}/`);
                const inDay = [...projectRuns(x, TEST_TENANT, Date.parse(day.start), Date.parse(day.end))].length;
                assert.ok(inDay > 0);
                assert.equal(rows.length, x === experiments[0] ? 0 : inDay, x.session_id);
            }
            assert.deepEqual(await minio.listKeys("exports", `experiments/export_id=${e.id}/tenant_id=${TEST_TENANT}/session_id=${PROJECT.session_id}/`), []);

            const base = { bulk_export_destination_id: destId, start_time: day.start, end_time: day.end };
            for (const [body, loc] of [
                [{ ...base, all_experiments: true, session_id: PROJECT.session_id }, "all_experiments"],
                [{ ...base }, "session_id"],
                [{ ...base, end_time: undefined, all_experiments: true, interval_hours: 24 }, "all_experiments"],
            ] as const) {
                const bad = await rejection(() => be.createExport(body));
                assert.ok(bad instanceof ValidationFailedError, String(bad));
                assert.match(bad.message, new RegExp(loc), String(bad));
            }
            const other = bulkExportClient(em, { tenantId: OTHER_TENANT });
            const { destination } = await other.createDestination(destinationBody({ prefix: "experiments-other" }));
            const none = await rejection(() => other.createExport({ ...base, bulk_export_destination_id: destination.id, all_experiments: true }));
            assert.ok(none instanceof BadRequestError && /no experiments/.test(none.message), String(none));
            await admin(em, "PUT", "/bulk-exports/limits", { experimentsPerExport: 250 });
        });

        it("bad requests: 422 for field rules, 400 with the position for a filter typo, 404 for unknown objects; nothing is created", async () => {
            const destId = await newDestination({ prefix: "bad" });
            const base = { bulk_export_destination_id: destId, session_id: PROJECT.session_id, start_time: "2026-11-01T00:00:00Z" };
            const before = (await be.listExports()).length;
            const cases: Array<[Record<string, unknown>, new (...a: never[]) => Error, RegExp?]> = [
                [{ ...base, end_time: "2026-11-02T00:00:00Z", interval_hours: 24 }, ValidationFailedError],
                [{ ...base, interval_hours: 0 }, ValidationFailedError],
                [{ ...base, interval_hours: 169 }, ValidationFailedError],
                [{ ...base }, ValidationFailedError],
                [{ ...base, end_time: "2026-10-01T00:00:00Z" }, ValidationFailedError],
                [{ ...base, end_time: "2026-11-02T00:00:00Z", export_fields: ["id", "prompt"] }, ValidationFailedError],
                [{ ...base, end_time: "2026-11-02T00:00:00Z", filter: 'eq(run_type, "llm"' }, BadRequestError, /position|column|at /i],
                [{ ...base, end_time: "2026-11-02T00:00:00Z", bulk_export_destination_id: "dddddddd-0000-4000-8000-000000000009" }, NotFoundError],
                [{ ...base, end_time: "2026-11-02T00:00:00Z", session_id: "dddddddd-0000-4000-8000-000000000009" }, NotFoundError],
            ];
            for (const [body, type, words] of cases) {
                const e = await rejection(() => be.createExport(body as never));
                assert.ok(e instanceof type, `${JSON.stringify(body)}: ${e}`);
                if (words) assert.match(e.message, words);
            }
            assert.equal((await be.listExports()).length, before);
        });
    });

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
