/**
 * The Parquet files of bulk export, read back by pyarrow (never by our own code): columns in docs/service.md 2.8's order,
 * microsecond UTC timestamps, JSON as text in v1 and typed in v2_beta, export_fields, codecs, and files put
 * at the layout of docs/service.md 2.9 in a real MinIO bucket holding exactly the generated rows.
 */
import assert from "node:assert/strict";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { generateRuns, type GeneratedRun } from "../../../emulator/bulkExport/generator";
import { dayPartitions, fileKey } from "../../../emulator/bulkExport/layout";
import { ParquetWriter, parquetColumns } from "../../../emulator/bulkExport/parquet";
import { EXPORTABLE_FIELDS } from "../../../provider/api/schemas/bulkExport";
import { startMinio, type MinioServer } from "../../helpers/minio";
import { readParquet } from "../../helpers/pyarrow";
import { rejection } from "../../helpers/async";

const GEN = {
    seed: 7,
    tenantId: "11111111-2222-4333-8444-555555555555",
    sessionId: "55555555-0000-4000-8000-000000000001",
    start: "2026-11-01T00:00:00Z",
    end: "2026-11-02T00:00:00Z",
    count: 300,
};
const runs = (o: Partial<typeof GEN> = {}) => [...generateRuns({ ...GEN, ...o })];
/** pyarrow prints a UTC timestamp as `2026-11-01T00:00:02.758584+00:00`. */
const pyTime = (iso: string | null) => (iso === null ? null : iso.replace("Z", "+00:00"));

describe("emulator: bulk export Parquet files (read back with pyarrow)", function () {
    this.timeout(60_000);
    let writer: ParquetWriter;
    before(async () => {
        writer = await ParquetWriter.open();
    });
    after(async () => {
        await writer?.close();
    });

    it("write v1: every exportable field in docs/service.md 2.8's order, timestamps in µs UTC, JSON and lists as text", async () => {
        const input = runs();
        const file = await writer.write(input);
        const got = await readParquet(file.bytes);
        assert.equal(file.rows, 300);
        assert.equal(got.numRows, 300);
        assert.deepEqual(Object.keys(got.columns), [...EXPORTABLE_FIELDS]);
        for (const f of ["start_time", "end_time", "first_token_time"]) {
            assert.equal(got.columns[f].arrow, "timestamp[us, tz=UTC]", f);
            assert.equal(got.columns[f].physical, "INT64", f);
            assert.match(got.columns[f].logical!, /isAdjustedToUTC=true, timeUnit=microseconds/, f);
        }
        for (const f of ["inputs", "outputs", "extra", "events", "feedback_stats", "tags", "parent_run_ids", "id", "dotted_order"]) {
            assert.equal(got.columns[f].arrow, "string", f);
        }
        assert.equal(got.columns.is_root.arrow, "bool");
        assert.equal(got.columns.total_tokens.arrow, "int64");
        assert.equal(got.columns.total_cost.arrow, "double");
        // Every value of every row, as the generator made it.
        got.rows.forEach((row, i) => {
            const r = input[i] as GeneratedRun & Record<string, unknown>;
            for (const f of ["start_time", "end_time", "first_token_time"] as const) assert.equal(row[f], pyTime(r[f]), `${i} ${f}`);
            for (const f of ["inputs", "outputs", "extra", "events", "feedback_stats", "tags", "parent_run_ids"] as const) {
                assert.deepEqual(row[f] === null ? null : JSON.parse(row[f] as string), r[f], `${i} ${f}`);
            }
            for (const f of [
                "id",
                "trace_id",
                "parent_run_id",
                "name",
                "run_type",
                "status",
                "is_root",
                "dotted_order",
                "total_tokens",
                "total_cost",
                "error",
                "tenant_id",
            ]) {
                assert.deepEqual(row[f], r[f], `${i} ${f}`);
            }
        });
    });

    it("write v2_beta: lists typed list<string>, JSON fields carry the JSON logical type", async () => {
        const input = runs({ count: 50 });
        const got = await readParquet((await writer.write(input, { formatVersion: "v2_beta" })).bytes);
        assert.equal(got.columns.tags.arrow, "list<element: string>");
        assert.equal(got.columns.parent_run_ids.arrow, "list<element: string>");
        assert.equal(got.columns.inputs.logical, "JSON");
        assert.equal(got.columns.start_time.arrow, "timestamp[us, tz=UTC]");
        got.rows.forEach((row, i) => {
            assert.deepEqual(row.tags, input[i].tags);
            assert.deepEqual(JSON.parse(row.inputs as string), input[i].inputs);
        });
    });

    it("write: export_fields selects columns, written in docs/service.md 2.8's order whatever the order asked", async () => {
        const got = await readParquet((await writer.write(runs({ count: 20 }), { fields: ["total_tokens", "id", "start_time"] })).bytes);
        assert.deepEqual(Object.keys(got.columns), ["id", "start_time", "total_tokens"]);
        assert.equal(got.numRows, 20);
        assert.throws(() => parquetColumns({ fields: ["id", "latency" as never] }), /not an exportable field: latency/);
    });

    it("write: each codec of the export's compression is the file's codec", async () => {
        const expected = { none: "UNCOMPRESSED", gzip: "GZIP", snappy: "SNAPPY", zstandard: "ZSTD" } as const;
        for (const [compression, codec] of Object.entries(expected)) {
            const got = await readParquet((await writer.write(runs({ count: 10 }), { compression: compression as keyof typeof expected })).bytes);
            assert.equal(got.columns.inputs.compression, codec, compression);
            assert.equal(got.numRows, 10);
        }
        assert.match(String(await rejection(() => writer.write(runs({ count: 1 }), { compression: "lz4" as never }))), /unknown compression lz4/);
    });

    it("write: an empty batch is a valid file with the schema and no rows; a missing field is null", async () => {
        const empty = await readParquet((await writer.write([])).bytes);
        assert.equal(empty.numRows, 0);
        assert.equal(Object.keys(empty.columns).length, EXPORTABLE_FIELDS.length);
        const partial = await readParquet(
            (await writer.write([{ id: "x", start_time: "2026-11-01T00:00:00.000001Z" }], { fields: ["id", "start_time", "error"] })).bytes,
        );
        assert.deepEqual(partial.rows, [{ id: "x", start_time: "2026-11-01T00:00:00.000001+00:00", error: null }]);
    });

    it("begin/add/finish: files filled side by side finish concurrently, each with its own rows; abort leaves nothing", async () => {
        const { readdirSync } = await import("node:fs");
        const a = writer.begin({ fields: ["id"] });
        const b = writer.begin({ fields: ["id"], formatVersion: "v2_beta" });
        const input = runs({ count: 40 });
        for (const [i, r] of input.entries()) (i % 2 ? a : b).add(r);
        assert.equal(a.rows, 20);
        const [fa, fb] = await Promise.all([a.finish(), b.finish()]);
        const [ra, rb] = await Promise.all([readParquet(fa.bytes), readParquet(fb.bytes)]);
        assert.deepEqual(
            ra.rows.map((r) => r.id),
            input.filter((_, i) => i % 2).map((r) => r.id),
        );
        assert.deepEqual(
            rb.rows.map((r) => r.id),
            input.filter((_, i) => !(i % 2)).map((r) => r.id),
        );
        const c = writer.begin();
        for (const r of runs({ count: 5000 })) c.add(r); // more than one chunk reaches the disk
        await c.abort();
        assert.deepEqual(readdirSync(writer.tempDir), []);
    });

    describe("files in MinIO at the layout of docs/service.md 2.9", () => {
        let minio: MinioServer;
        before(async () => {
            minio = await startMinio({ buckets: ["exports"] });
        });
        after(async () => {
            await minio?.stop();
        });

        it("export of two days: one partition per day, batches as numbered files, every generated row once", async () => {
            const input = runs({ start: "2026-11-01T12:00:00Z", end: "2026-11-03T00:00:00Z", count: 500 });
            const config = { bucket_name: "exports", prefix: "ls", include_bucket_in_prefix: true };
            const placement = { exportId: "e-1", tenantId: GEN.tenantId, sessionId: GEN.sessionId };
            const s3 = minio.client(minio.users.writeOnly);
            for (const day of dayPartitions("2026-11-01T12:00:00Z", "2026-11-03T00:00:00Z")) {
                const inDay = input.filter((r) => Date.parse(r.start_time) >= day.start && Date.parse(r.start_time) < day.end);
                for (let i = 0; i * 100 < inDay.length; i++) {
                    const file = await writer.write(inDay.slice(i * 100, (i + 1) * 100), { fields: ["id", "start_time"] });
                    await s3.send(new PutObjectCommand({ Bucket: "exports", Key: fileKey(config, placement, day, i), Body: file.bytes }));
                }
            }
            const keys = await minio.listKeys("exports");
            const dirs = [...new Set(keys.map((k) => k.slice(0, k.lastIndexOf("/") + 1)))];
            assert.deepEqual(dirs, [
                `exports/ls/export_id=e-1/tenant_id=${GEN.tenantId}/session_id=${GEN.sessionId}/runs/year=2026/month=11/day=01/`,
                `exports/ls/export_id=e-1/tenant_id=${GEN.tenantId}/session_id=${GEN.sessionId}/runs/year=2026/month=11/day=02/`,
            ]);
            assert.ok(keys.every((k) => /\/part-\d{5}\.parquet$/.test(k)));
            const seen: string[] = [];
            for (const key of keys) {
                const got = await readParquet(await minio.getObject("exports", key));
                const day = key.match(/day=(\d\d)/)![1];
                for (const row of got.rows) {
                    assert.equal((row.start_time as string).slice(8, 10), day, "a row in its own day's partition");
                    seen.push(row.id as string);
                }
            }
            assert.deepEqual(seen.sort(), input.map((r) => r.id).sort());
        });
    });
});
