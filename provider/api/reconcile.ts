/**
 * How every client of the service keeps a creating request from being sent twice blindly (the HTTP client
 * never resends one that may have reached the service): which failures are ambiguous, whether an object
 * the service holds was made by our attempt, and the one create-then-reconcile step.
 */
import type { HttpClient } from "./client";
import { ConnectionError, ServerError, UnexpectedResponseError } from "./errors";

/**
 * True for a failure after which the request may or may not have been applied: a connection error once
 * the request may have reached the server, any 5xx but 501 (a 503 too: a proxy or the service can fail
 * after the work is done), and a success whose body does not match the wire contract.
 */
export function isAmbiguous(e: unknown): boolean {
    if (e instanceof ConnectionError) return e.ambiguous;
    if (e instanceof UnexpectedResponseError) return true;
    return e instanceof ServerError && e.status !== 501;
}

/**
 * True for a failure after which the request may still be running on the service: the answer was lost
 * (connection cut, timed out) or a gateway gave up waiting for it (502, 504). A destination is validated
 * by writing to its bucket, which takes seconds: what the create makes may show up only later.
 */
export function mayStillRun(e: unknown): boolean {
    if (e instanceof ConnectionError) return e.ambiguous;
    return e instanceof ServerError && (e.status === 502 || e.status === 504);
}

/** How far a server `created_at` may precede our first attempt and still be ours (the Date header's 1 s resolution). */
const CREATED_TOLERANCE_MS = 2_000;
/** The same, when the server sent no `Date` header to measure the clocks' difference by. */
const CREATED_TOLERANCE_UNMEASURED_MS = 60_000;

/**
 * Whether a server timestamp is at or after a local time: the server's clock is put on ours with the skew
 * HttpClient measured from the `Date` header. Tells an object our attempt made from an older one.
 */
export function createdSince(http: HttpClient, createdAt: string | null | undefined, sinceLocalMs: number): boolean {
    const created = createdAt ? Date.parse(createdAt) : NaN;
    const skew = http.clockSkewMs;
    const earliest = sinceLocalMs + (skew ?? 0) - (skew === undefined ? CREATED_TOLERANCE_UNMEASURED_MS : CREATED_TOLERANCE_MS);
    return Number.isFinite(created) && created >= earliest;
}

export interface CreateOnceOptions {
    /** Errors of the second attempt that mean "look again" too (a 409 on our own name, say). */
    reconcileAlso?: (e: unknown) => boolean;
    /** How long to keep looking when the first request may still be running (`mayStillRun`); default 0. */
    settleMs?: number;
    /** Epoch ms the looking never passes (the operation's timeout). */
    deadline?: number;
    sleep?: (ms: number) => Promise<void>;
}

/**
 * Sends a create; after an ambiguous failure adopts what `findOurs` finds (made by our attempt). When the
 * request may still be running on the service (its answer was lost, not refused), it looks again, at
 * growing intervals, for up to `settleMs`, before it concludes the request never took effect and sends it
 * once more. After that second attempt fails ambiguously, or with an error `reconcileAlso` names, it adopts
 * or throws (an ambiguous failure saying that nothing was created and to run `pulumi up` again). A clean
 * failure is thrown as is. Never more than two sends; `sentTwice` says there were two, so that a caller can
 * watch for the first one taking effect late (an export: BulkExportClient.createExport).
 */
export async function createOnce<T>(
    send: () => Promise<T>,
    findOurs: () => Promise<T | undefined>,
    o: CreateOnceOptions = {},
): Promise<{ value: T; adopted: boolean; sentTwice: boolean }> {
    for (let attempt = 0; ; attempt++) {
        try {
            return { value: await send(), adopted: false, sentTwice: attempt > 0 };
        } catch (e) {
            if (!(isAmbiguous(e) || (attempt > 0 && o.reconcileAlso?.(e)))) throw e;
            const found = (await findOurs()) ?? (mayStillRun(e) ? await lookAgain(findOurs, o) : undefined);
            if (found) return { value: found, adopted: true, sentTwice: attempt > 0 };
            if (attempt > 0) throw isAmbiguous(e) ? gaveUp(e) : e;
        }
    }
}

/** The error of a create sent twice, answered neither time, and found made by neither: it says so, and what to do. */
function gaveUp(e: unknown): unknown {
    if (e instanceof Error)
        e.message += `. The create was sent twice, neither time with an answer to go by, and nothing either made was found: nothing was created. Run \`pulumi up\` again.`;
    return e;
}

/** Reads `findOurs` at 0.25, 0.5, 1, 2, 4, 4 ... s until it finds something or `settleMs` has passed. */
export async function lookAgain<T>(findOurs: () => Promise<T | undefined>, o: CreateOnceOptions): Promise<T | undefined> {
    const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    let waited = 0;
    for (let wait = 250; waited + wait <= (o.settleMs ?? 0) && Date.now() + wait <= (o.deadline ?? Infinity); wait = Math.min(wait * 2, 4_000)) {
        await sleep(wait);
        waited += wait;
        const found = await findOurs();
        if (found) return found;
    }
    return undefined;
}
