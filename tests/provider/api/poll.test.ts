import assert from "node:assert/strict";
import { PollCancelledError, PollFailedError, PollTimeoutError, pollUntil, type PollOptions } from "../../../provider/api/poll";
import { REVISION_DONE, REVISION_FAILED } from "../../../provider/api/schemas/controlPlane";
import { rejection } from "./helpers";

interface Value {
    status: string;
    n: number;
}

/** A fake clock: `sleep` advances `now` and records the delays. */
function clock(start = 1_000_000) {
    const c = {
        t: start,
        sleeps: [] as number[],
        now: () => c.t,
        sleep: async (ms: number) => {
            c.sleeps.push(ms);
            c.t += ms;
        },
    };
    return c;
}

/** A `get` answering the given statuses in order (the last one repeats), counting calls. */
function sequence(...statuses: string[]) {
    const s = {
        calls: 0,
        get: async (): Promise<Value> => {
            const status = statuses[Math.min(s.calls, statuses.length - 1)];
            s.calls++;
            return { status, n: s.calls };
        },
    };
    return s;
}

const STATES = { done: REVISION_DONE, failed: REVISION_FAILED };

function opts(c: ReturnType<typeof clock>, over: Partial<PollOptions<Value>> = {}): PollOptions<Value> {
    return { timeoutMs: 60_000, interval: () => 1_000, sleep: c.sleep, now: c.now, ...over };
}

describe("pollUntil", () => {
    it("pollUntil: returns the value at once when the first read is done", async () => {
        const c = clock();
        const s = sequence("DEPLOYED");
        const v = await pollUntil(s.get, STATES, opts(c));
        assert.deepEqual(v, { status: "DEPLOYED", n: 1 });
        assert.equal(s.calls, 1);
        assert.deepEqual(c.sleeps, []);
    });

    it("pollUntil: keeps reading through pending statuses and returns the done value", async () => {
        const c = clock();
        const s = sequence("QUEUED", "BUILDING", "DEPLOYING", "DEPLOYED");
        const v = await pollUntil(s.get, STATES, opts(c));
        assert.deepEqual(v, { status: "DEPLOYED", n: 4 });
        assert.deepEqual(c.sleeps, [1_000, 1_000, 1_000]);
    });

    it("pollUntil: SKIPPED is neither done nor failed with the revision states (the waiter follows the newer revision)", async () => {
        const c = clock();
        const v = await pollUntil(sequence("BUILDING", "SKIPPED", "DEPLOYED").get, STATES, opts(c));
        assert.equal(v.status, "DEPLOYED");
    });

    for (const failed of ["CREATE_FAILED", "BUILD_FAILED", "DEPLOY_FAILED"]) {
        it(`pollUntil: throws PollFailedError on ${failed} with the status and value`, async () => {
            const c = clock();
            const s = sequence("BUILDING", failed, "DEPLOYED");
            const err = await rejection(() => pollUntil(s.get, STATES, opts(c)));
            assert.ok(err instanceof PollFailedError);
            assert.equal(err.name, "PollFailedError");
            assert.equal(err.status, failed);
            assert.deepEqual(err.value, { status: failed, n: 2 });
            assert.equal(err.message, `reached ${failed}`);
            assert.equal(s.calls, 2, "stops reading at the failure");
        });
    }

    it("pollUntil: keeps waiting on INTERRUPTED and UNKNOWN (pending, not failed)", async () => {
        const c = clock();
        const s = sequence("INTERRUPTED", "UNKNOWN", "INTERRUPTED", "DEPLOYED");
        const v = await pollUntil(s.get, STATES, opts(c));
        assert.equal(v.status, "DEPLOYED");
        assert.equal(s.calls, 4);
    });

    it("pollUntil: keeps waiting on a status it has never heard of", async () => {
        const c = clock();
        const v = await pollUntil(sequence("WARMING_UP", "DEPLOYED").get, STATES, opts(c));
        assert.equal(v.status, "DEPLOYED");
    });

    it("pollUntil: throws PollTimeoutError carrying the last status and value", async () => {
        const c = clock();
        const s = sequence("QUEUED", "BUILDING");
        const err = await rejection(() => pollUntil(s.get, STATES, opts(c, { timeoutMs: 10_000, interval: () => 3_000 })));
        assert.ok(err instanceof PollTimeoutError);
        assert.equal(err.name, "PollTimeoutError");
        assert.equal(err.lastStatus, "BUILDING");
        assert.deepEqual(err.value, { status: "BUILDING", n: s.calls });
        assert.equal(err.message, "timed out after 10s; last status BUILDING");
        // Reads at 0, 3, 6, 9 and a last one exactly at the deadline (the last sleep is shortened).
        assert.deepEqual(c.sleeps, [3_000, 3_000, 3_000, 1_000]);
        assert.equal(s.calls, 5);
    });

    it("pollUntil: never sleeps past the deadline", async () => {
        const c = clock();
        await rejection(() => pollUntil(sequence("BUILDING").get, STATES, opts(c, { timeoutMs: 2_500, interval: () => 60_000 })));
        assert.deepEqual(c.sleeps, [2_500]);
    });

    it("pollUntil: a done status on the read at the deadline wins over the timeout", async () => {
        const c = clock();
        const s = sequence("BUILDING", "BUILDING", "DEPLOYED");
        const v = await pollUntil(s.get, STATES, opts(c, { timeoutMs: 2_000, interval: () => 1_000 }));
        assert.equal(v.status, "DEPLOYED");
    });

    it("pollUntil: counts time spent in get() against the timeout", async () => {
        const c = clock();
        let calls = 0;
        const get = async (): Promise<Value> => {
            calls++;
            c.t += 4_000; // a slow read
            return { status: "BUILDING", n: calls };
        };
        const err = await rejection(() => pollUntil(get, STATES, opts(c, { timeoutMs: 10_000, interval: () => 1_000 })));
        assert.ok(err instanceof PollTimeoutError);
        // t=4 (sleep 1) t=9 (sleep 1) t=14: past the deadline.
        assert.equal(calls, 3);
        assert.deepEqual(c.sleeps, [1_000, 1_000]);
    });

    it("pollUntil: the interval function receives the current status and the attempt number", async () => {
        const c = clock();
        const seen: Array<[string, number]> = [];
        const interval = (status: string, attempt: number) => {
            seen.push([status, attempt]);
            return status === "BUILDING" ? 5_000 : 500;
        };
        await pollUntil(sequence("BUILDING", "BUILDING", "DEPLOYING", "DEPLOYED").get, STATES, opts(c, { interval }));
        assert.deepEqual(seen, [
            ["BUILDING", 0],
            ["BUILDING", 1],
            ["DEPLOYING", 2],
        ]);
        assert.deepEqual(c.sleeps, [5_000, 5_000, 500]);
    });

    it("pollUntil: compares statuses case-insensitively (done and failed)", async () => {
        const c = clock();
        const exportStates = { done: ["COMPLETED"], failed: ["failed", "Cancelled"] };
        const v = await pollUntil(sequence("Running", "Completed").get, exportStates, opts(c));
        assert.equal(v.status, "Completed", "the value keeps the service's casing");

        const err = await rejection(() => pollUntil(sequence("Running", "FAILED").get, exportStates, opts(c)));
        assert.ok(err instanceof PollFailedError);
        assert.equal(err.status, "FAILED");

        const err2 = await rejection(() => pollUntil(sequence("cancelled").get, exportStates, opts(c)));
        assert.ok(err2 instanceof PollFailedError);

        const v2 = await pollUntil(sequence("deployed").get, STATES, opts(c));
        assert.equal(v2.status, "deployed");
    });

    it("pollUntil: uses statusOf to read the status", async () => {
        const c = clock();
        let n = 0;
        const get = async () => ({ state: { phase: ++n < 3 ? "pending" : "ok" } });
        const v = await pollUntil(
            get,
            { done: ["OK"], failed: [] },
            {
                timeoutMs: 60_000,
                interval: () => 10,
                statusOf: (x) => x.state.phase,
                sleep: c.sleep,
                now: c.now,
            },
        );
        assert.deepEqual(v, { state: { phase: "ok" } });
        assert.equal(n, 3);
    });

    it("pollUntil: calls onStatus on every change only", async () => {
        const c = clock();
        const changes: Array<[string, number]> = [];
        await pollUntil(
            sequence("QUEUED", "QUEUED", "BUILDING", "BUILDING", "BUILDING", "DEPLOYED").get,
            STATES,
            opts(c, { onStatus: (s, v) => changes.push([s, v.n]) }),
        );
        assert.deepEqual(changes, [
            ["QUEUED", 1],
            ["BUILDING", 3],
            ["DEPLOYED", 6],
        ]);
    });

    it("pollUntil: stops when the signal is aborted, with PollCancelledError carrying the last status and the reason", async () => {
        const c = clock();
        const ac = new AbortController();
        const s = sequence("BUILDING");
        const sleep = async (ms: number) => {
            await c.sleep(ms);
            if (c.sleeps.length === 2) ac.abort(new Error("cancelled by user"));
        };
        const err = await rejection(() => pollUntil(s.get, STATES, opts(c, { sleep, signal: ac.signal })));
        assert.ok(err instanceof PollCancelledError);
        assert.equal(err.message, "cancelled (cancelled by user); last status BUILDING");
        assert.equal(err.lastStatus, "BUILDING");
        assert.deepEqual(err.value, { status: "BUILDING", n: 2 });
        assert.equal((err.cause as Error).message, "cancelled by user");
        assert.equal(s.calls, 2);
    });

    it("pollUntil: does not read at all with an already aborted signal", async () => {
        const c = clock();
        const s = sequence("DEPLOYED");
        const ac = new AbortController();
        ac.abort();
        const err = await rejection(() => pollUntil(s.get, STATES, opts(c, { signal: ac.signal })));
        assert.ok(err instanceof PollCancelledError);
        assert.equal(err.lastStatus, undefined);
        assert.equal((err.cause as Error).name, "AbortError");
        assert.equal(s.calls, 0);
    });

    it("pollUntil: an abort during a sleep or a read ends the wait at once, without waiting for either", async () => {
        const never = new Promise<never>(() => undefined);
        for (const during of ["sleep", "read"] as const) {
            const ac = new AbortController();
            let reads = 0;
            // A read (the second one) or a sleep that never ends: only the abort can end the wait.
            const get = async (): Promise<Value> => {
                if (++reads === 2) {
                    setImmediate(() => ac.abort(new Error("stop")));
                    return never;
                }
                return { status: "BUILDING", n: reads };
            };
            const sleep = async (): Promise<void> => {
                if (during === "read") return;
                setImmediate(() => ac.abort(new Error("stop")));
                return never;
            };
            const err = await rejection(() => pollUntil(get, STATES, { timeoutMs: 60_000, interval: () => 1, sleep, signal: ac.signal }));
            assert.ok(err instanceof PollCancelledError, during);
            assert.equal(err.lastStatus, "BUILDING", during);
            assert.equal(reads, during === "read" ? 2 : 1, during);
        }
    });

    it("pollUntil: the default sleep wakes on the abort (no timer left behind)", async () => {
        const ac = new AbortController();
        const s = sequence("BUILDING");
        setTimeout(() => ac.abort(new Error("stop")), 50);
        const started = Date.now();
        const err = await rejection(() => pollUntil(s.get, STATES, { timeoutMs: 3_600_000, interval: () => 3_600_000, signal: ac.signal }));
        assert.ok(err instanceof PollCancelledError);
        assert.ok(Date.now() - started < 5_000);
    });

    it("pollUntil: lets an error from get() through", async () => {
        const c = clock();
        const get = async (): Promise<Value> => {
            throw new Error("network down");
        };
        await assert.rejects(pollUntil(get, STATES, opts(c)), /network down/);
    });

    it("pollUntil: sleeps for real by default (short interval)", async () => {
        let n = 0;
        const started = Date.now();
        const v = await pollUntil(async () => ({ status: ++n < 3 ? "BUILDING" : "DEPLOYED" }), STATES, {
            timeoutMs: 5_000,
            interval: () => 5,
        });
        assert.equal(v.status, "DEPLOYED");
        assert.ok(Date.now() - started < 2_000);
    });
});
