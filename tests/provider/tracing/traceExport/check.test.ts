/**
 * `check` of the bulk-export resources: every bad input fails on its property with a message saying
 * what to do, before any API call (check is pure); valid inputs are normalized; Pulumi's unknown
 * sentinel passes (preview of a program whose destination is created in the same `up`).
 */
import assert from "node:assert/strict";
import { checkBulkExport, checkScheduledExport } from "../../../../provider/tracing/traceExport/check";
import { checkExportDestination } from "../../../../provider/tracing/exportDestination/check";
import { UNKNOWN } from "../../../../provider/kit/unknown";

const DEST = { displayName: "traces", config: { bucketName: "bkt", prefix: "p" }, credentials: { accessKeyId: "AKIA", secretAccessKey: "s3cr3t" } };
const SESSION = "55555555-0000-4000-8000-000000000001";
const SCHED = { destinationId: "d1", sessionId: SESSION, startTime: "2026-11-01T00:00:00Z", intervalHours: 24 };
const ONE = { destinationId: "d1", sessionId: SESSION, startTime: "2026-11-01T00:00:00Z", endTime: "2026-11-02T00:00:00Z" };

type Case = [
    name: string,
    check: (n: Record<string, unknown>) => { failures?: Array<{ property: string; reason: string }> },
    input: Record<string, unknown>,
    property: string,
    words: RegExp,
];
const CASES: Case[] = [
    ["display name pattern", checkExportDestination, { ...DEST, displayName: "traces/bucket" }, "displayName", /may only contain/],
    ["bucket required", checkExportDestination, { ...DEST, config: { prefix: "p" } }, "config.bucketName", /required/],
    ["config required", checkExportDestination, { displayName: "x" }, "config", /required/],
    [
        "endpoint not http(s)",
        checkExportDestination,
        { ...DEST, config: { bucketName: "b", endpointUrl: "minio:9000" } },
        "config.endpointUrl",
        /http\(s\) URL/,
    ],
    [
        "addressing style",
        checkExportDestination,
        { ...DEST, config: { bucketName: "b", addressingStyle: "dns" } },
        "config.addressingStyle",
        /auto, virtual, path/,
    ],
    [
        "half a key pair (no secret)",
        checkExportDestination,
        { ...DEST, credentials: { accessKeyId: "AKIA" } },
        "credentials.secretAccessKey",
        /half a key pair/,
    ],
    ["half a key pair (no id)", checkExportDestination, { ...DEST, credentials: { secretAccessKey: "s" } }, "credentials.accessKeyId", /half a key pair/],
    ["session token alone", checkExportDestination, { ...DEST, credentials: { sessionToken: "t" } }, "credentials", /sessionToken needs/],
    ["endTime on a schedule", checkScheduledExport, { ...SCHED, endTime: "2026-11-02T00:00:00Z" }, "endTime", /only for a one-off BulkExport/],
    ["intervalHours required", checkScheduledExport, { ...SCHED, intervalHours: undefined }, "intervalHours", /required/],
    ["intervalHours 0", checkScheduledExport, { ...SCHED, intervalHours: 0 }, "intervalHours", /1 to 168/],
    ["intervalHours 169", checkScheduledExport, { ...SCHED, intervalHours: 169 }, "intervalHours", /1 to 168/],
    ["intervalHours 1.5", checkScheduledExport, { ...SCHED, intervalHours: 1.5 }, "intervalHours", /whole number/],
    ["intervalHours on a one-off", checkBulkExport, { ...ONE, intervalHours: 24 }, "intervalHours", /only for a ScheduledExport/],
    ["endTime required", checkBulkExport, { ...ONE, endTime: undefined }, "endTime", /required/],
    ["startTime < endTime", checkBulkExport, { ...ONE, endTime: "2026-10-01T00:00:00Z" }, "endTime", /must be after startTime/],
    ["startTime not ISO", checkBulkExport, { ...ONE, startTime: "yesterday" }, "startTime", /ISO 8601/],
    ["startTime without zone", checkBulkExport, { ...ONE, startTime: "2026-11-01T00:00:00" }, "startTime", /time zone/],
    ["month 13", checkScheduledExport, { ...SCHED, startTime: "2026-13-01T00:00:00Z" }, "startTime", /ISO 8601/],
    ["February 30", checkScheduledExport, { ...SCHED, startTime: "2026-02-30T00:00:00Z" }, "startTime", /ISO 8601/],
    ["sessionId uuid", checkBulkExport, { ...ONE, sessionId: "my-project" }, "sessionId", /uuid/],
    ["destinationId required", checkBulkExport, { ...ONE, destinationId: "" }, "destinationId", /must not be empty/],
    [
        "exportFields unknown",
        checkBulkExport,
        { ...ONE, exportFields: ["id", "prompt"] },
        "exportFields",
        /"prompt" not exportable; the exportable fields are id, tenant_id/,
    ],
    ["exportFields empty", checkScheduledExport, { ...SCHED, exportFields: [] }, "exportFields", /at least one/],
    ["exportFields twice", checkScheduledExport, { ...SCHED, exportFields: ["id", "id"] }, "exportFields", /more than once/],
    ["formatVersion", checkScheduledExport, { ...SCHED, formatVersion: "v3" }, "formatVersion", /v1, v2_beta/],
    ["compression", checkBulkExport, { ...ONE, compression: "lz4" }, "compression", /none, gzip, snappy, zstandard/],
    [
        "filter typo",
        checkScheduledExport,
        { ...SCHED, filter: 'and(eq(run_type, "llm"), gt(total_tokens 5))' },
        "filter",
        /^filter does not parse at column 42: expected ","\n/,
    ],
    [
        "filter missing a comma",
        checkBulkExport,
        { ...ONE, filter: 'and(eq(run_type, "llm") gt(latency, 2))' },
        "filter",
        /^filter does not parse at column 25: expected "," or "\)"\n {2}and\(eq\(run_type, "llm"\) gt\(latency, 2\)\)\n {26}\^$/,
    ],
    ["waitForCompletion type", checkBulkExport, { ...ONE, waitForCompletion: "yes" }, "waitForCompletion", /boolean/],
    ["timeouts", checkBulkExport, { ...ONE, timeouts: { create: -1 } }, "timeouts.create", /> 0/],
    [
        "filter with typographic quotes",
        checkScheduledExport,
        { ...SCHED, filter: "eq(run_type, ‘llm’)" },
        "filter",
        /^filter does not parse at column 14: unexpected "‘"\n {2}eq\(run_type, ‘llm’\)\n {15}\^\nstrings go in straight quotes, "x" or 'x', e\.g\. eq\(name, "x"\); typographic quotes and backticks are not quotes here$/,
    ],
    ["filter of whitespace", checkScheduledExport, { ...SCHED, filter: " \n\t " }, "filter", /only whitespace: omit filter/],
    ["empty region", checkExportDestination, { ...DEST, config: { bucketName: "bkt", region: "" } }, "config.region", /must not be empty/],
    ["bucket of 2 characters", checkExportDestination, { ...DEST, config: { bucketName: "ab" } }, "config.bucketName", /3 to 63/],
    ["bucket of 64 characters", checkExportDestination, { ...DEST, config: { bucketName: "a".repeat(64) } }, "config.bucketName", /3 to 63/],
    [
        "bucket with capitals",
        checkExportDestination,
        { ...DEST, config: { bucketName: "MyBucket" } },
        "config.bucketName",
        /lowercase letters, digits, dots and hyphens/,
    ],
    ["bucket with an underscore", checkExportDestination, { ...DEST, config: { bucketName: "my_bucket" } }, "config.bucketName", /lowercase letters/],
    ["bucket ending with a hyphen", checkExportDestination, { ...DEST, config: { bucketName: "bucket-" } }, "config.bucketName", /begin and end/],
    ["bucket with two dots", checkExportDestination, { ...DEST, config: { bucketName: "my..bucket" } }, "config.bucketName", /two dots/],
    ["bucket an IP address", checkExportDestination, { ...DEST, config: { bucketName: "192.168.5.4" } }, "config.bucketName", /IP address/],
    [
        "allExperiments beside sessionId",
        checkBulkExport,
        { ...ONE, allExperiments: true },
        "allExperiments",
        /either sessionId .* or allExperiments: true .*, not both/,
    ],
    ["neither sessionId nor allExperiments", checkBulkExport, { ...ONE, sessionId: undefined }, "sessionId", /required/],
    [
        "allExperiments false and no sessionId",
        checkBulkExport,
        { ...ONE, sessionId: undefined, allExperiments: false },
        "sessionId",
        /or set allExperiments: true/,
    ],
    [
        "allExperiments on a schedule",
        checkScheduledExport,
        { ...SCHED, sessionId: undefined, allExperiments: true },
        "allExperiments",
        /only for a one-off BulkExport/,
    ],
    [
        "no credentials on the cloud",
        (n) => checkExportDestination(n, "cloud"),
        { ...DEST, credentials: undefined },
        "credentials",
        /self-hosted installations only/,
    ],
];

describe("check: bulk-export resources", () => {
    for (const [name, check, input, property, words] of CASES) {
        it(`${name}: fails on ${property}`, () => {
            const failures = check(input).failures ?? [];
            const f = failures.find((x) => x.property === property);
            assert.ok(f, `no failure on ${property}: ${JSON.stringify(failures)}`);
            assert.match(f.reason, words);
        });
    }

    it("valid inputs pass and are normalized: timestamps canonical, defaults filled", () => {
        const d = checkExportDestination(DEST);
        assert.deepEqual(d.failures, []);
        assert.deepEqual(d.inputs!.config, { bucketName: "bkt", prefix: "p", includeBucketInPrefix: false });
        const s = checkScheduledExport({ ...SCHED, startTime: "2026-11-01T02:00:00+02:00" });
        assert.deepEqual(s.failures, []);
        assert.equal(s.inputs!.startTime, "2026-11-01T00:00:00.000Z");
        assert.equal(s.inputs!.formatVersion, "v1");
        assert.equal(s.inputs!.cancelSpawnedOnDelete, false);
        const o = checkBulkExport({ ...ONE, filter: 'eq(run_type, "llm")', exportFields: ["id", "inputs"] });
        assert.deepEqual(o.failures, []);
        assert.equal(o.inputs!.waitForCompletion, true);
        assert.equal(o.inputs!.allExperiments, undefined, "allExperiments is absent unless set: never sent to installations that do not know it");
        const all = checkBulkExport({ ...ONE, sessionId: undefined, allExperiments: true });
        assert.deepEqual(all.failures, []);
        assert.equal(all.inputs!.allExperiments, true);
        assert.equal(all.inputs!.sessionId, undefined);
    });

    it("a filter field this provider does not know is a warning naming it, not a failure", () => {
        const s = checkScheduledExport({ ...SCHED, filter: 'and(eq(run_type, "llm"), gt(cost_usd, 1))' });
        assert.deepEqual(s.failures, []);
        assert.equal(s.warnings.length, 1);
        assert.match(s.warnings[0], /^filter: "cost_usd" is not a field this provider knows/);
        assert.deepEqual(checkScheduledExport({ ...SCHED, filter: "gt(total_cost, 0.1)" }).warnings, []);
    });

    it("environment credentials (none given) pass where the installation is self-hosted or not known", () => {
        assert.deepEqual(checkExportDestination({ ...DEST, credentials: undefined }, "self-hosted").failures, []);
        assert.deepEqual(checkExportDestination({ ...DEST, credentials: undefined }).failures, []);
        assert.deepEqual(checkExportDestination({ ...DEST, config: { bucketName: "my.bucket-01" } }, "cloud").failures, []);
    });

    it("values not known yet (preview) pass and stay unknown", () => {
        const s = checkScheduledExport({ ...SCHED, destinationId: UNKNOWN, sessionId: UNKNOWN, filter: UNKNOWN, startTime: UNKNOWN });
        assert.deepEqual(s.failures, []);
        assert.equal(s.inputs!.destinationId, UNKNOWN);
        // A TracingProject's id made in the same program (tests/e2e/bulkExport.test.ts runs it with the CLI).
        assert.equal(s.inputs!.sessionId, UNKNOWN);
        const b = checkBulkExport({ ...ONE, sessionId: UNKNOWN });
        assert.deepEqual(b.failures, []);
        assert.equal(b.inputs!.sessionId, UNKNOWN);
        const d = checkExportDestination({ ...DEST, credentials: UNKNOWN, config: UNKNOWN });
        assert.deepEqual(d.failures, []);
        assert.equal(d.inputs!.config, UNKNOWN);
    });
});
