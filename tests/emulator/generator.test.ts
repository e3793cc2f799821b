/**
 * The run generator of the emulated tracing projects: deterministic, exact in count, inside the range,
 * and filling every exportable field of docs/service.md 2.8 with the right type.
 */
import assert from "node:assert/strict";
import { generateRuns, type GeneratorOptions } from "../../emulator/bulkExport/generator";
import { matches } from "../../emulator/bulkExport/filterEval";
import { parseFilter } from "../../provider/api/filter";
import { EXPORTABLE_FIELDS } from "../../provider/api/schemas/bulkExport";

const OPTS: GeneratorOptions = {
    seed: 42,
    tenantId: "11111111-2222-4333-8444-555555555555",
    sessionId: "55555555-0000-4000-8000-000000000001",
    start: "2026-11-01T00:00:00Z",
    end: "2026-11-03T00:00:00Z",
    count: 1000,
};
const all = (o: Partial<GeneratorOptions> = {}) => [...generateRuns({ ...OPTS, ...o })];

describe("emulator: run generator", () => {
    it("generator: the same seed gives the same runs; another seed other runs", () => {
        assert.deepEqual(all(), all());
        assert.notDeepEqual(all({ seed: 43 })[0], all()[0]);
    });

    it("generator: exactly `count` runs, unique ids, all starting inside [start, end)", () => {
        for (const count of [1, 7, 1000]) {
            const runs = all({ count });
            assert.equal(runs.length, count);
            assert.equal(new Set(runs.map((r) => r.id)).size, count);
            for (const r of runs) {
                assert.ok(r.start_time >= "2026-11-01T00:00:00" && r.start_time < "2026-11-03T00:00:00", r.start_time);
                assert.ok(r.end_time > r.start_time);
            }
        }
    });

    it("generator: spreads runs over the whole range (both days get runs)", () => {
        const days = new Set(all().map((r) => r.start_time.slice(0, 10)));
        assert.deepEqual([...days].sort(), ["2026-11-01", "2026-11-02"]);
    });

    it("generator: every exportable field is present, with its type", () => {
        const runs = all();
        for (const f of EXPORTABLE_FIELDS)
            assert.ok(
                runs.every((r) => f in r),
                f,
            );
        const llm = runs.find((r) => r.run_type === "llm")!;
        const root = runs.find((r) => r.is_root)!;
        assert.equal(typeof llm.total_tokens, "number");
        assert.equal(llm.total_tokens, llm.prompt_tokens + llm.completion_tokens);
        assert.equal(typeof llm.total_cost, "number");
        assert.match(llm.first_token_time!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, "microsecond timestamps");
        assert.equal(root.parent_run_id, null);
        assert.equal(root.trace_id, root.id);
        const child = runs.find((r) => !r.is_root)!;
        assert.equal(child.parent_run_id, child.trace_id);
        assert.ok(child.dotted_order.startsWith(runs.find((r) => r.id === child.trace_id)!.dotted_order + "."));
        assert.ok(Array.isArray(root.tags) && typeof root.inputs === "object" && typeof root.extra.metadata === "object");
        assert.ok(runs.some((r) => r.status === "error" && typeof r.error === "string"));
    });

    it("generator: hand-formatted timestamps agree with Date, across midnight, and dotted orders carry the start time", () => {
        const runs = all({ start: "2026-12-31T23:59:58Z", end: "2027-01-01T00:00:02Z", count: 400 });
        assert.ok(runs.some((r) => r.start_time.startsWith("2027-01-01")) && runs.some((r) => r.start_time.startsWith("2026-12-31")));
        for (const r of runs) {
            for (const t of [r.start_time, r.end_time, r.first_token_time, ...r.events.map((e) => e.time)]) {
                if (t === null) continue;
                assert.match(t, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
                assert.equal(new Date(Date.parse(t)).toISOString().slice(0, 23), t.slice(0, 23));
            }
            const own = r.dotted_order.split(".").pop()!;
            assert.equal(own, r.start_time.replace(/[-:.]/g, "") + r.id);
        }
    });

    it("generator: a filter selects a stable, non-trivial subset (what export tests will count)", () => {
        const runs = all();
        const llm = runs.filter((r) => matches(parseFilter('eq(run_type, "llm")'), r)).length;
        assert.ok(llm > 100 && llm < 900, String(llm));
        assert.equal(all().filter((r) => matches(parseFilter('eq(run_type, "llm")'), r)).length, llm);
    });
});
