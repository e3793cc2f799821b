/**
 * The traced runs' log (emulator/tracing/store.ts) read back on start: a log of several of its 4 MB read
 * chunks, lines of multi-byte text across their edges, gives back every run as it was held, in order,
 * merged by id, a dropped project gone; a last line cut short by a kill is skipped; each run's retention as it
 * was when the run was first written, or as a project's re-tiering set it, whatever the settings say on start.
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TracedRuns } from "../../../emulator/tracing/store";
import type { RunOp } from "../../../emulator/tracing/wire";

const TENANT = "11111111-2222-4333-8444-555555555555";
const [KEPT, DROPPED] = ["aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"];
const idOf = (i: number) => `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** A post with 2 KB of inputs in two- to four-byte UTF-8 characters, and its patch. */
function opsOf(i: number): RunOp[] {
    const text = `é${"日本語🙂".repeat(150)}${i}`;
    const post: RunOp = {
        kind: "post",
        id: idOf(i),
        session: {},
        fields: { name: `run ${i}`, run_type: "chain", start_time: "2026-11-25T10:00:00.000000Z", inputs: { text } },
    };
    const patch: RunOp = { kind: "patch", id: idOf(i), session: {}, fields: { end_time: "2026-11-25T10:00:01.000000Z", outputs: { n: i } } };
    return [post, patch];
}

describe("emulator: traced-runs.jsonl replayed on start", () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "traced-runs-"))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("gives back every run of a log longer than its read chunks, text split across their edges, a dropped project gone", () => {
        const written = new TracedRuns(dir);
        for (let i = 0; i < 6_000; i++) written.apply(TENANT, opsOf(i), () => (i % 3 === 0 ? DROPPED : KEPT));
        written.dropProject(DROPPED);
        assert.ok(statSync(join(dir, "traced-runs.jsonl")).size > 3 * (4 << 20), "the log spans several chunks");
        const read = new TracedRuns(dir);
        assert.deepEqual(read.of(KEPT), written.of(KEPT));
        assert.equal(read.of(KEPT).length, 4_000);
        assert.deepEqual(read.of(DROPPED), []);
        assert.equal(read.get(TENANT, idOf(3)), undefined);
        assert.deepEqual(read.get(TENANT, idOf(5))?.outputs, { n: 5 });
    });

    it("keeps each run's retention as set when it was first written, and a project's re-tiering", () => {
        const written = new TracedRuns(dir);
        written.retentionAt = () => ({ tier: "longlived", days: 400 });
        written.apply(TENANT, opsOf(1), () => KEPT);
        written.retentionAt = () => ({ tier: "longlived", days: 30 });
        written.apply(TENANT, opsOf(1), () => KEPT);
        written.apply(TENANT, opsOf(2), () => KEPT);
        written.apply(TENANT, opsOf(3), () => DROPPED);
        written.retier(DROPPED, { tier: "shortlived", days: 14 });
        const read = new TracedRuns(dir);
        read.retentionAt = () => ({ tier: "shortlived", days: 1 });
        const retention = (i: number) => read.retentionOf(read.get(TENANT, idOf(i))!);
        assert.deepEqual(
            [retention(1), retention(2), retention(3)],
            [
                { tier: "longlived", days: 400 },
                { tier: "longlived", days: 30 },
                { tier: "shortlived", days: 14 },
            ],
        );
    });

    it("skips a last line cut short by a kill", () => {
        const written = new TracedRuns(dir);
        written.apply(TENANT, opsOf(1), () => KEPT);
        appendFileSync(join(dir, "traced-runs.jsonl"), '{"t":"11111111-2222-4333-8444-555555555555","s":"aaaa');
        const read = new TracedRuns(dir);
        assert.deepEqual(read.of(KEPT), written.of(KEPT));
    });
});
