/**
 * One cancellation for the whole provider process, and the count of operations in progress.
 *
 * Every wait reads this signal (a Deployment's revision wait and its delete wait, a BulkExport's wait for
 * `Completed`, an ExportDestination's delete waiting for the exports in its way), through
 * `pollUntil(..., { signal })` (provider/api/poll.ts), whose reads and sleeps wake on it. Three things
 * abort it: the engine's `Cancel` (the native plugin, provider/plugin/server.ts; Pulumi sends it on Ctrl-C,
 * and before it stops a plugin), SIGINT or SIGTERM, and the engine's death (both in watchdog.ts). A
 * cancelled wait ends within a moment with the error a timed-out one gives (a Deployment or BulkExport is
 * recorded in the stack with its real state, and the next `pulumi up` resumes the wait), saying it was
 * cancelled.
 *
 * Once aborted it stays aborted: Pulumi sends Cancel only when it is done with the provider, so a wait
 * begun afterwards ends at once too. Until then nothing reads differently: a process that is never
 * cancelled behaves as if this module did not exist.
 */
import { setMaxListeners } from "node:events";

/** Why the waits were cancelled (the signal's reason); its message ends up in the error Pulumi shows. */
export class CancelledError extends Error {
    constructor(why: string) {
        super(why);
        this.name = "CancelledError";
    }
}

const controller = new AbortController();
// Each wait in progress listens while it sleeps: as many listeners as resources waited on at once.
setMaxListeners(0, controller.signal);

/** The process-wide signal every wait reads (the default of the providers' `signal` option). */
export const operationsSignal: AbortSignal = controller.signal;

/** The reason a Cancel from the engine gives (both front doors hear it: provider/plugin/server.ts, dynamicHost.ts). */
export const ENGINE_CANCELLED = "the Pulumi engine cancelled the operation";

/** Aborts every wait in progress and every later one, with `why` as the reason; the first call wins. */
export function cancelOperations(why: string): void {
    if (!controller.signal.aborted) controller.abort(new CancelledError(why));
}

/** Why a wait was cancelled, in words (`the Pulumi engine cancelled the operation`): a signal's reason, or a PollCancelledError's `cause`. */
export const cancelReason = (reason: unknown): string => (reason instanceof Error ? reason.message : String(reason));

let inProgress = 0;
const idleWaiters = new Set<() => void>();

/** Counts `p` as an operation in progress until it settles (what a graceful stop waits for); answers `p`. */
export function track<T>(p: Promise<T>): Promise<T> {
    inProgress++;
    const done = () => {
        if (--inProgress === 0) for (const wake of idleWaiters) wake();
    };
    p.then(done, done);
    return p;
}

/**
 * Resolves once no operation is in progress, or after `maxMs`, whichever comes first: false at once when none
 * was in progress, true otherwise.
 */
export function idle(maxMs: number): Promise<boolean> {
    if (inProgress === 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
        const wake = () => {
            clearTimeout(timer);
            idleWaiters.delete(wake);
            resolve(true);
        };
        const timer = setTimeout(wake, maxMs);
        idleWaiters.add(wake);
    });
}
