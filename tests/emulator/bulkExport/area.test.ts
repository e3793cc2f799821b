/**
 * The emulator's bulk-export area over real HTTP, through the provider's own client, writing into a real
 * MinIO and read back by pyarrow: destinations validated for real (the four documented errors from their
 * real causes), one-off exports, and credentials encrypted at rest. The status machine, scheduled exports
 * and installation versions: area.lifecycle.test.ts.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { matches } from "../../../emulator/bulkExport/filterEval";
import { parseFilter } from "../../../provider/api/filter";
import { ApiError, BadRequestError, NotFoundError, ValidationFailedError } from "../../../provider/api/errors";
import type { BulkExportClient } from "../../../provider/api/bulkExport";
import type { DestinationCreateRequest } from "../../../provider/api/schemas/bulkExport";
import { projectRuns } from "../../../emulator/bulkExport/projects";
import { OTHER_TENANT, TEST_TENANT, admin, bulkExportClient, rejection, startTestEmulator, type Emulator } from "../../helpers/emulator";
import type { MinioServer } from "../../helpers/minio";
import { PROJECT, creds, useBulkExportArea } from "../../helpers/bulkExportArea";
import { readParquet } from "../../helpers/pyarrow";
import { rowsUnder, settle } from "../../helpers/bulkExport";

/** Every row pyarrow reads under a key prefix of the bucket. */
describe("emulator: bulk export over HTTP, into MinIO", function () {
    this.timeout(120_000);
    const area = useBulkExportArea();
    let minio: MinioServer;
    let em: Emulator;
    let be: BulkExportClient;
    let stateDir: string;
    const { destinationBody, newDestination } = area;
    before(() => ({ minio, em, be, stateDir } = area));

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
});
