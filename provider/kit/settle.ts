/**
 * Waiting for an object the service makes asynchronously to reach its ready status (a DataPlane `active`, a
 * SandboxSnapshot `ready`), as a Deployment's revision is awaited (provider/controlPlane/deployment/wait.ts) but
 * without a history to predict from: reads 1, 2, 4, 8 s apart, then every `capMs`; the wait limit is Pulumi's
 * `customTimeouts`, else the resource's `timeouts`, else its default (timeouts.ts); the provider's cancellation ends
 * it at once (cancellation.ts). Whatever ends it short of ready (a failed status, the limit, a cancel) keeps the
 * object in the stack with what is known (ResourceInitError), and says the status it was in: the next `pulumi up`
 * sees a status other than ready as a change and waits again, never making a second one.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PollCancelledError, PollFailedError, PollTimeoutError, doubling, pollUntil, type PollStates } from "../api/poll";
import { cancelReason, operationsSignal } from "./cancellation";
import { ResourceInitError } from "./initError";

export interface SettleOptions<T> {
    /** The object's words in messages: `data plane prod-us (<id>)`. */
    what: string;
    id: string;
    /** What ends the wait (`done`) or fails it (`failed`). */
    states: PollStates;
    /** The wait limit in seconds. */
    timeoutS: number;
    get: () => Promise<T>;
    /** The resource's outputs for a value (recorded when the wait ends short of ready). */
    outputs: (value: T) => Record<string, unknown>;
    /** The serialized provider (`__provider` of the inputs), recorded with the outputs. */
    rawProvider: unknown;
    /** Why a failed status failed, in the service's words (a `status_message`). */
    failure?: (value: T) => string | undefined;
    /** What to do after a failure (default: fix the cause, then replace). */
    afterFailure?: string;
    capMs?: number;
    signal?: AbortSignal;
}

/** `first` when already ready, else the value read once ready; any other end throws ResourceInitError. */
export async function settle<T extends { status: string }>(first: T, o: SettleOptions<T>): Promise<T> {
    if (o.states.done.includes(first.status)) return first;
    const reads = doubling(1_000, o.capMs ?? 15_000);
    try {
        return await pollUntil(o.get, o.states, { timeoutMs: o.timeoutS * 1000, interval: (_s, n) => reads(n), signal: o.signal ?? operationsSignal });
    } catch (err) {
        const last =
            (err instanceof PollFailedError || err instanceof PollTimeoutError || err instanceof PollCancelledError
                ? (err.value as T | undefined)
                : undefined) ?? first;
        throw new ResourceInitError(settleMessage(err, last, o), o.id, { ...o.outputs(last), __provider: o.rawProvider });
    }
}

function settleMessage<T extends { status: string }>(err: unknown, last: T, o: SettleOptions<T>): string {
    const ready = o.states.done.join(" or ");
    if (err instanceof PollTimeoutError)
        return `timed out after ${o.timeoutS}s waiting for ${o.what} to be ${ready}; last status ${last.status}. It is kept in the stack: run \`pulumi up\` again to keep waiting for it (raise timeouts.create or customTimeouts to wait longer).`;
    if (err instanceof PollCancelledError)
        return `the wait for ${o.what} to be ${ready} was cancelled (${cancelReason(err.cause)}); last status ${last.status}. It is kept in the stack: \`pulumi up\` resumes waiting for it.`;
    if (err instanceof PollFailedError) {
        const why = o.failure?.(last);
        return `${o.what} ended ${last.status}${why ? `: ${why}` : ""}. It is kept in the stack; ${o.afterFailure ?? "fix the cause, then `pulumi up --replace` it"}.`;
    }
    return `${err instanceof Error ? err.message : String(err)} (while waiting for ${o.what}; last status ${last.status}; it is kept in the stack)`;
}

/**
 * A diff (the declaration's table) with what a wait left in the state (`status`): an object not yet ready is waited
 * for again (an update), a failed one is replaced (the registry's `adoptable` deletes the old one first when the
 * replacement keeps its name, which is unique).
 */
export function settlingDiff(
    table: { changes: boolean; replaces: string[] },
    status: string | null | undefined,
    states: PollStates,
): pulumi.dynamic.DiffResult {
    const failed = !!status && states.failed.includes(status);
    const pending = !!status && !failed && !states.done.includes(status);
    const replaces = failed && !table.replaces.length ? ["status"] : table.replaces;
    return { changes: table.changes || failed || pending, replaces };
}
