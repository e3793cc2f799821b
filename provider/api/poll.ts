/**
 * One polling helper for every long-running thing (revisions now; exports and agent runs later):
 * `pollUntil(get, states, options)` reads until the status is in `done` (returns the last value) or in
 * `failed` (throws PollFailedError); anything else is pending. The interval can depend on the status, so
 * a caller polls fast where the end is near (DEPLOYING) and slowly where it is not (BUILDING). On timeout
 * it throws PollTimeoutError carrying the last status seen. An aborted `signal` ends the wait at once, in
 * a read or a sleep (neither is waited for), with PollCancelledError carrying the last status seen: a
 * provider process is told to stop (the engine's Cancel, a signal, the engine gone) and must answer within
 * seconds, whatever the schedule says.
 */
import { setTimeout as delay } from "node:timers/promises";

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
    /** Ends the wait (PollCancelledError) as soon as it is aborted, even mid-read or mid-sleep. */
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

/** The wait was cancelled (its signal aborted): the last status and value seen, and the signal's reason as `cause`. */
export class PollCancelledError<T = unknown> extends Error {
    constructor(
        readonly lastStatus: string | undefined,
        readonly value: T | undefined,
        reason: unknown,
    ) {
        super(`cancelled (${reason instanceof Error ? reason.message : String(reason)})${lastStatus ? `; last status ${lastStatus}` : ""}`, { cause: reason });
        this.name = "PollCancelledError";
    }
}

/** What `orAborted` answers when the signal was aborted first. */
export const ABORTED: unique symbol = Symbol("aborted");

/**
 * `p`'s value, or ABORTED as soon as `signal` is aborted (at once when it already is); `p` then settles
 * unwatched (its rejection is handled). Without a signal, `p` itself.
 */
export function orAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
    if (!signal) return p;
    return new Promise<T | typeof ABORTED>((resolve, reject) => {
        const onAbort = () => resolve(ABORTED);
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
        p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
}

/**
 * Delays that start at `firstMs` and double up to `capMs`, by attempt: an operation that ends at once is seen
 * at once, and one that takes minutes costs a few reads more than reading every `capMs` from the start.
 */
export const doubling = (firstMs: number, capMs: number) => (attempt: number) => Math.min(capMs, firstMs * 2 ** attempt);

/** Polls `get()` until a done or failed status, or the timeout, or `signal` is aborted. */
export async function pollUntil<T>(get: () => Promise<T>, states: PollStates, o: PollOptions<T>): Promise<T> {
    const now = o.now ?? Date.now;
    // The default sleep's timer ends with the signal, so a cancelled wait leaves nothing pending.
    const sleep = o.sleep ?? ((ms: number) => delay(ms, undefined, { signal: o.signal }).catch(() => undefined));
    const statusOf = o.statusOf ?? ((v: T) => String((v as { status?: unknown }).status));
    const deadline = now() + o.timeoutMs;
    const done = new Set(states.done.map((s) => s.toUpperCase()));
    const failed = new Set(states.failed.map((s) => s.toUpperCase()));
    let last: T | undefined;
    let lastStatus: string | undefined;
    const cancelled = () => new PollCancelledError(lastStatus, last, o.signal?.reason);
    for (let attempt = 0; ; attempt++) {
        if (o.signal?.aborted) throw cancelled();
        const read = await orAborted(get(), o.signal);
        if (read === ABORTED) throw cancelled();
        last = read;
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
        if ((await orAborted(sleep(Math.min(o.interval(status, attempt), remaining)), o.signal)) === ABORTED) throw cancelled();
    }
}
