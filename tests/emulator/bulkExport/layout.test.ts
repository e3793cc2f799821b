/** The output layout of docs/service.md 2.9: keys, date partitions and the validation file's place. */
import assert from "node:assert/strict";
import { dayPartitions, fileKey, partitionKey, rootKey, validationKey } from "../../../emulator/bulkExport/layout";

const E = { exportId: "e1", tenantId: "t1", sessionId: "s1" };
const DAY = { year: 2026, month: 3, day: 7 };

describe("emulator: bulk export output layout", () => {
    it("rootKey: the prefix without empty segments, the bucket first only with include_bucket_in_prefix", () => {
        assert.equal(rootKey({ bucket_name: "b", prefix: "exports" }), "exports/");
        assert.equal(rootKey({ bucket_name: "b", prefix: "/a//b/" }), "a/b/");
        assert.equal(rootKey({ bucket_name: "b", prefix: "" }), "");
        assert.equal(rootKey({ bucket_name: "b", prefix: null }), "");
        assert.equal(rootKey({ bucket_name: "b", prefix: "a", include_bucket_in_prefix: true }), "b/a/");
        assert.equal(rootKey({ bucket_name: "b", prefix: "", include_bucket_in_prefix: true }), "b/");
        assert.equal(rootKey({ bucket_name: "b", prefix: "a", include_bucket_in_prefix: false }), "a/");
    });

    it("partitionKey: export, tenant, session, runs, then the zero-padded date (docs/service.md 2.9)", () => {
        assert.equal(partitionKey({ bucket_name: "b", prefix: "p" }, E, DAY), "p/export_id=e1/tenant_id=t1/session_id=s1/runs/year=2026/month=03/day=07/");
        assert.equal(
            partitionKey({ bucket_name: "b", prefix: "p", include_bucket_in_prefix: true }, E, { year: 2026, month: 12, day: 31 }),
            "b/p/export_id=e1/tenant_id=t1/session_id=s1/runs/year=2026/month=12/day=31/",
        );
    });

    it("fileKey: numbered files inside the partition; an index outside 0..99999 throws", () => {
        assert.equal(
            fileKey({ bucket_name: "b", prefix: "p" }, E, DAY, 0),
            "p/export_id=e1/tenant_id=t1/session_id=s1/runs/year=2026/month=03/day=07/part-00000.parquet",
        );
        assert.match(fileKey({ bucket_name: "b", prefix: "p" }, E, DAY, 42), /part-00042\.parquet$/);
        assert.throws(() => fileKey({ bucket_name: "b" }, E, DAY, -1), RangeError);
        assert.throws(() => fileKey({ bucket_name: "b" }, E, DAY, 1.5), RangeError);
    });

    it("validationKey: under <prefix>/tmp/, the bucket first when it is in the prefix", () => {
        assert.equal(validationKey({ bucket_name: "b", prefix: "p/q" }, "x.txt"), "p/q/tmp/x.txt");
        assert.equal(validationKey({ bucket_name: "b", prefix: "p", include_bucket_in_prefix: true }, "x.txt"), "b/p/tmp/x.txt");
        assert.equal(validationKey({ bucket_name: "b", prefix: "" }, "x.txt"), "tmp/x.txt");
    });

    it("dayPartitions: one per UTC day touched, clipped to [start, end)", () => {
        const parts = dayPartitions("2026-02-27T18:00:00Z", "2026-03-02T06:30:00Z");
        assert.deepEqual(
            parts.map((p) => [p.year, p.month, p.day, new Date(p.start).toISOString(), new Date(p.end).toISOString()]),
            [
                [2026, 2, 27, "2026-02-27T18:00:00.000Z", "2026-02-28T00:00:00.000Z"],
                [2026, 2, 28, "2026-02-28T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
                [2026, 3, 1, "2026-03-01T00:00:00.000Z", "2026-03-02T00:00:00.000Z"],
                [2026, 3, 2, "2026-03-02T00:00:00.000Z", "2026-03-02T06:30:00.000Z"],
            ],
        );
    });

    it("dayPartitions: an end at midnight adds no empty day; an empty or inverted range has none; a non-timestamp throws", () => {
        assert.equal(dayPartitions("2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z").length, 1);
        assert.equal(dayPartitions("2026-11-01T05:00:00Z", "2026-11-01T05:00:00Z").length, 0);
        assert.equal(dayPartitions("2026-11-02T00:00:00Z", "2026-11-01T00:00:00Z").length, 0);
        assert.equal(dayPartitions("2026-11-01T23:00:00+02:00", "2026-11-02T01:00:00+02:00")[0].day, 1);
        assert.throws(() => dayPartitions("yesterday", "2026-11-01T00:00:00Z"), RangeError);
    });
});
