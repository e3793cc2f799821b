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

/**
 * Sends a create; after an ambiguous failure adopts what `findOurs` finds (made by our attempt), else sends
 * once more; after that second attempt fails ambiguously, or with an error `reconcileAlso` names (a 409 on
 * our own name, say), adopts or throws. A clean failure is thrown as is. Never more than two sends.
 */
export async function createOnce<T>(
    send: () => Promise<T>,
    findOurs: () => Promise<T | undefined>,
    reconcileAlso: (e: unknown) => boolean = () => false,
): Promise<{ value: T; adopted: boolean }> {
    for (let attempt = 0; ; attempt++) {
        try {
            return { value: await send(), adopted: false };
        } catch (e) {
            if (!(isAmbiguous(e) || (attempt > 0 && reconcileAlso(e)))) throw e;
            const found = await findOurs();
            if (found) return { value: found, adopted: true };
            if (attempt > 0) throw e;
        }
    }
}
