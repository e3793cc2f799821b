/**
 * The emulated tracing projects: a project holds exactly `count` runs, each starting inside the project's
 * range, the days' shares add up, a day read alone gives the same runs as the whole read, and the resume
 * cursor skips exactly what it says.
 */
import assert from "node:assert/strict";
import { dailyCounts, makeProject, projectRuns } from "../../../emulator/bulkExport/projects";

const TENANT = "11111111-2222-4333-8444-555555555555";
const p = makeProject({ start: "2026-11-01T06:00:00Z", end: "2026-11-04T00:00:00Z", count: 20_000, seed: 4 });
const from = Date.parse(p.start);
const to = Date.parse(p.end);

describe("emulator: tracing projects", () => {
    it("hold exactly count runs, all starting in [start, end), shared out between the days touched", () => {
        const runs = [...projectRuns(p, TENANT, from, to)];
        assert.equal(runs.length, p.count);
        assert.ok(runs.every((r) => Date.parse(r.start_time) >= from && Date.parse(r.start_time) < to));
        assert.equal(new Set(runs.map((r) => r.id)).size, runs.length);
        const days = dailyCounts(p);
        assert.equal(days.length, 3);
        assert.equal(
            days.reduce((n, d) => n + d.count, 0),
            p.count,
        );
        assert.ok(days[0].count < days[1].count, "the first day is a three-quarter day");
    });

    it("a day read alone is that day's part of the whole; the cursor skips exactly", () => {
        const day2 = Date.UTC(2026, 10, 2);
        const alone = [...projectRuns(p, TENANT, day2, day2 + 86_400_000)].map((r) => r.id);
        const whole = [...projectRuns(p, TENANT, from, to)]
            .filter((r) => Date.parse(r.start_time) >= day2 && Date.parse(r.start_time) < day2 + 86_400_000)
            .map((r) => r.id);
        assert.deepEqual(alone, whole);
        assert.deepEqual(
            [...projectRuns(p, TENANT, day2, day2 + 86_400_000, 100)].map((r) => r.id),
            alone.slice(100),
        );
    });

    it("the id is derived from the recipe when not given, so a restarted emulator finds the same project", () => {
        assert.equal(makeProject({ start: p.start, end: p.end, count: p.count, seed: 4 }).session_id, p.session_id);
        assert.notEqual(makeProject({ start: p.start, end: p.end, count: p.count, seed: 5 }).session_id, p.session_id);
    });
});
