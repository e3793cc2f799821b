/**
 * One polling helper for every long-running thing (revisions now; exports and agent runs later):
 * `pollUntil(get, states, options)` reads until the status is in `done` (returns the last value) or in
 * `failed` (throws PollFailedError); anything else is pending. The interval can depend on the status, so
 * a caller polls fast where the end is near (DEPLOYING) and slowly where it is not (BUILDING). On timeout
 * it throws PollTimeoutError carrying the last status seen.
 */
export interface PollStates {
    done: readonly string[];
    failed: readonly string[];
}

export interface PollOptions<T> {
    /** Total time allowed, in ms. */
    timeoutMs: number;
    /** Delay before the next read, given the current status and how many reads were made. */
    interval: (status: string, attempt: number) => number;
    /** Status of a value (default: its `status` field). */
    statusOf?: (value: T) => string;
    /** Called on every status change (for logging). */
    onStatus?: (status: string, value: T) => void;
    signal?: AbortSignal;
    /** For tests and benchmarks. */
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
}

export class PollFailedError<T = unknown> extends Error {
    constructor(
        readonly status: string,
        readonly value: T,
        message: string,
    ) {
        super(message);
        this.name = "PollFailedError";
    }
}

export class PollTimeoutError<T = unknown> extends Error {
    constructor(
        readonly lastStatus: string | undefined,
        readonly value: T | undefined,
        message: string,
    ) {
        super(message);
        this.name = "PollTimeoutError";
    }
}

/** Polls `get()` until a done or failed status, or the timeout. */
export async function pollUntil<T>(get: () => Promise<T>, states: PollStates, o: PollOptions<T>): Promise<T> {
    const now = o.now ?? Date.now;
    const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const statusOf = o.statusOf ?? ((v: T) => String((v as { status?: unknown }).status));
    const deadline = now() + o.timeoutMs;
    const done = new Set(states.done.map((s) => s.toUpperCase()));
    const failed = new Set(states.failed.map((s) => s.toUpperCase()));
    let last: T | undefined;
    let lastStatus: string | undefined;
    for (let attempt = 0; ; attempt++) {
        o.signal?.throwIfAborted();
        last = await get();
        const status = statusOf(last);
        if (status !== lastStatus) o.onStatus?.(status, last);
        lastStatus = status;
        // Statuses are compared case-insensitively: the bulk-export API capitalizes words (`Completed`).
        if (done.has(status.toUpperCase())) return last;
        if (failed.has(status.toUpperCase())) throw new PollFailedError(status, last, `reached ${status}`);
        const remaining = deadline - now();
        if (remaining <= 0) {
            throw new PollTimeoutError(lastStatus, last, `timed out after ${Math.round(o.timeoutMs / 1000)}s; last status ${status}`);
        }
        await sleep(Math.min(o.interval(status, attempt), remaining));
    }
}
