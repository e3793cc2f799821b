/**
 * The bulk-export client against undici's MockAgent: endpoints and headers, 200 and 201 creates, the
 * reconciliation after an ambiguous create (adopt ours, else once more), cancellation, and redaction of
 * storage credentials from errors.
 */
import assert from "node:assert/strict";
import { BulkExportClient } from "../../../provider/api/bulkExport";
import { BadRequestError, ServerError } from "../../../provider/api/errors";
import { isFinalExportStatus, sameStatus, type DestinationCreateRequest, type ExportCreateRequest } from "../../../provider/api/schemas/bulkExport";
import { JSON_REPLY, harness, headersOf, rejection, type Harness } from "./helpers";

const DEST_ID = "dddddddd-0000-4000-8000-000000000001";
const EXPORT_ID = "eeeeeeee-0000-4000-8000-000000000001";
const SESSION = "55555555-0000-4000-8000-000000000001";
const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

const destinationBody = (): DestinationCreateRequest => ({
    destination_type: "objstore",
    display_name: "traces bucket",
    config: { bucket_name: "traces", prefix: "langsmith", endpoint_url: "http://127.0.0.1:9000", include_bucket_in_prefix: false },
    credentials: { access_key_id: "AKIAEXAMPLE", secret_access_key: SECRET },
});
const destination = (over: Record<string, unknown> = {}) => ({
    id: DEST_ID,
    destination_type: "s3",
    display_name: "traces bucket",
    config: { bucket_name: "traces", prefix: "langsmith", endpoint_url: "http://127.0.0.1:9000", include_bucket_in_prefix: false },
    credentials_keys: ["access_key_id", "secret_access_key"],
    created_at: new Date().toISOString(),
    ...over,
});
const exportBody = (): ExportCreateRequest => ({
    bulk_export_destination_id: DEST_ID,
    session_id: SESSION,
    start_time: "2026-11-01T00:00:00Z",
    interval_hours: 24,
    filter: 'eq(run_type, "llm")',
    format_version: "v2_beta",
});
const exportRecord = (over: Record<string, unknown> = {}) => ({
    ...exportBody(),
    start_time: "2026-11-01T00:00:00+00:00",
    id: EXPORT_ID,
    status: "IntervalScheduled",
    created_at: new Date().toISOString(),
    ...over,
});

describe("BulkExportClient", () => {
    let h: Harness;
    let be: BulkExportClient;
    beforeEach(() => {
        h = harness({ apiKeyHeader: "X-API-Key" });
        be = new BulkExportClient(h.http);
    });
    afterEach(async () => {
        await h.agent.close();
    });

    it("createDestination: sends destination_type s3 (for the stand-in objstore of docs/service.md R1) with X-API-Key and X-Tenant-Id; 200 accepted", async () => {
        let seen: any;
        let headers: Record<string, string> = {};
        h.pool.intercept({ path: "/api/v1/bulk-exports/destinations", method: "POST" }).reply((o) => {
            seen = JSON.parse(String(o.body));
            headers = headersOf(o);
            return { statusCode: 200, data: destination(), responseOptions: JSON_REPLY };
        });
        const { destination: d, adopted } = await be.createDestination(destinationBody());
        assert.equal(adopted, false);
        assert.equal(d.id, DEST_ID);
        assert.equal(seen.destination_type, "s3");
        assert.ok(headers["x-api-key"]);
        assert.ok(headers["x-tenant-id"]);
    });

    it("createDestination: a 400 from validation keeps the service's words and never the secret key", async () => {
        h.pool
            .intercept({ path: "/api/v1/bulk-exports/destinations", method: "POST" })
            .reply(400, { detail: `Failed to validate S3 destination: Access Denied (key ${SECRET})` }, JSON_REPLY);
        const e = await rejection(() => be.createDestination(destinationBody()));
        assert.ok(e instanceof BadRequestError);
        assert.match(e.message, /Access Denied/);
        assert.ok(!e.message.includes(SECRET));
    });

    it("createDestination: after an ambiguous 502 the destination made by our attempt is adopted, not created twice", async () => {
        let posts = 0;
        h.pool.intercept({ path: "/api/v1/bulk-exports/destinations", method: "POST" }).reply(() => (posts++, { statusCode: 502, data: "" }));
        h.pool
            .intercept({ path: "/api/v1/bulk-exports/destinations", method: "GET" })
            .reply(200, [destination({ id: "older", created_at: "2020-01-01T00:00:00Z" }), destination()], JSON_REPLY);
        const { destination: d, adopted } = await be.createDestination(destinationBody());
        assert.equal(adopted, true);
        assert.equal(d.id, DEST_ID, "the older one with the same name is not ours");
        assert.equal(posts, 1);
    });

    it("createExport: 201 accepted; after two ambiguous failures with nothing found, the error is thrown (sent twice at most)", async () => {
        h.pool.intercept({ path: "/api/v1/bulk-exports", method: "POST" }).reply(201, exportRecord(), JSON_REPLY);
        assert.equal((await be.createExport(exportBody())).export.id, EXPORT_ID);

        let posts = 0;
        h.pool
            .intercept({ path: "/api/v1/bulk-exports", method: "POST" })
            .reply(() => (posts++, { statusCode: 500, data: "" }))
            .times(2);
        h.pool.intercept({ path: "/api/v1/bulk-exports", method: "GET" }).reply(200, [], JSON_REPLY).times(2);
        const e = await rejection(() => be.createExport(exportBody()));
        assert.ok(e instanceof ServerError);
        assert.equal(posts, 2);
    });

    it("createExport: an ambiguous failure adopts the export with the same definition (times compared as instants), not a spawned one", async () => {
        h.pool.intercept({ path: "/api/v1/bulk-exports", method: "POST" }).reply(503, "");
        h.pool
            .intercept({ path: "/api/v1/bulk-exports", method: "GET" })
            .reply(200, [exportRecord({ id: "spawned", source_bulk_export_id: "x" }), exportRecord()], JSON_REPLY);
        const { export: e, adopted } = await be.createExport(exportBody());
        assert.equal(adopted, true);
        assert.equal(e.id, EXPORT_ID);
    });

    it("cancelExport: PATCH {status: Cancelled}; runs and spawned runs are read", async () => {
        let body: any;
        h.pool.intercept({ path: `/api/v1/bulk-exports/${EXPORT_ID}`, method: "PATCH" }).reply((o) => {
            body = JSON.parse(String(o.body));
            return { statusCode: 200, data: exportRecord({ status: "Cancelled" }), responseOptions: JSON_REPLY };
        });
        const cancelled = await be.cancelExport(EXPORT_ID);
        assert.deepEqual(body, { status: "Cancelled" });
        assert.ok(isFinalExportStatus(cancelled.status));
        const run = {
            id: "r1",
            bulk_export_id: EXPORT_ID,
            status: "Failed",
            errors: { retry_0: "Access Denied" },
            metadata: { prefix: "p", result: { rows_written: 3, exported_files: ["a.parquet"], latest_cursor: null } },
        };
        h.pool.intercept({ path: `/api/v1/bulk-exports/${EXPORT_ID}/runs`, method: "GET" }).reply(200, [run], JSON_REPLY);
        assert.deepEqual((await be.listExportRuns(EXPORT_ID))[0].errors, { retry_0: "Access Denied" });
        h.pool.intercept({ path: `/api/v1/bulk-exports/runs?source_bulk_export_id=${EXPORT_ID}`, method: "GET" }).reply(200, [run], JSON_REPLY);
        assert.equal((await be.listSpawnedRuns(EXPORT_ID)).length, 1);
    });

    it("updateDestinationCredentials: PATCH with the new credentials; tryGet answers undefined on 404", async () => {
        h.pool.intercept({ path: `/api/v1/bulk-exports/destinations/${DEST_ID}`, method: "PATCH" }).reply(200, destination(), JSON_REPLY);
        await be.updateDestinationCredentials(DEST_ID, { credentials: { access_key_id: "AKIA2", secret_access_key: "s3cr3t-rotated" } });
        h.pool.intercept({ path: `/api/v1/bulk-exports/destinations/${DEST_ID}`, method: "GET" }).reply(404, { detail: "not found" }, JSON_REPLY);
        assert.equal(await be.tryGetDestination(DEST_ID), undefined);
    });

    it("statuses: compared case-insensitively (prose writes COMPLETED, the service Completed: docs/service.md 3.3)", () => {
        assert.equal(sameStatus("COMPLETED", "Completed"), true);
        assert.equal(isFinalExportStatus("TIMEDOUT"), true);
        assert.equal(isFinalExportStatus("IntervalScheduled"), false);
        assert.equal(isFinalExportStatus("running"), false);
    });
});
