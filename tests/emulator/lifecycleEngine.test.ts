/**
 * The lifecycle engine (emulator/core/lifecycle.ts) on its own: a table with branches, the three speeds, lazy
 * settling on the clock, diversion, and illegal moves.
 */
import assert from "node:assert/strict";
import { Clock } from "../../emulator/core/clock";
import { IllegalTransitionError, Machine, type LifecycleTable, type Timing } from "../../emulator/core/lifecycle";

type S = "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
/** An export-like table: a happy path and branches to failure and cancellation. */
const TABLE: LifecycleTable<S> = {
    next: { CREATED: "RUNNING", RUNNING: "COMPLETED" },
    branches: { CREATED: ["CANCELLED"], RUNNING: ["FAILED", "CANCELLED"] },
    terminal: ["COMPLETED", "FAILED", "CANCELLED"],
};

describe("emulator: lifecycle engine", () => {
    let clock: Clock;
    let timing: Timing<S>;
    const machine = () => new Machine(TABLE, clock, () => timing, "CREATED");
    beforeEach(() => {
        clock = new Clock();
        timing = { speed: "timed", phaseMs: { CREATED: 100, RUNNING: 1000 } };
    });

    it("timed: settles lazily along the happy path as the clock moves, with the time each status was entered", () => {
        const m = machine();
        const t0 = m.startedAt;
        assert.equal(m.status(), "CREATED");
        clock.advance(100);
        assert.equal(m.status(), "RUNNING");
        clock.advance(5000);
        assert.equal(m.status(), "COMPLETED");
        assert.deepEqual(
            m.history.map((h) => [h.status, h.at - t0]),
            [
                ["CREATED", 0],
                ["RUNNING", 100],
                ["COMPLETED", 1100],
            ],
        );
    });

    it("immediate and manual speeds", () => {
        timing = { speed: "immediate", phaseMs: {} };
        assert.equal(machine().status(), "COMPLETED");
        timing = { speed: "manual", phaseMs: {} };
        const m = machine();
        clock.advance(1e9);
        assert.equal(m.status(), "CREATED");
        assert.equal(m.advance(), "RUNNING");
        assert.equal(m.advance("FAILED"), "FAILED");
        assert.equal(m.terminal, true);
    });

    it("branches: a declared branch is legal; anything else throws and changes nothing", () => {
        const m = machine();
        m.move("CANCELLED");
        assert.equal(m.status(), "CANCELLED");
        const n = machine();
        assert.throws(() => n.move("FAILED"), IllegalTransitionError, "FAILED is not a branch of CREATED");
        assert.throws(() => n.move("COMPLETED"), IllegalTransitionError, "no skipping");
        assert.equal(n.history.length, 1);
        assert.throws(() => m.move("RUNNING"), IllegalTransitionError, "a terminal status is never left");
    });

    it("divert: replaces the happy-path step out of one status (a failure rule)", () => {
        const m = machine();
        m.divert = { at: "RUNNING", to: "FAILED" };
        clock.advance(2000);
        assert.equal(m.status(), "FAILED");
        assert.deepEqual(
            m.history.map((h) => h.status),
            ["CREATED", "RUNNING", "FAILED"],
        );
    });
});
