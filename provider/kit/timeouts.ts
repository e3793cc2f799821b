/**
 * How long a create, update or delete waits (a revision, an export, a deletion), in seconds: Pulumi's
 * `customTimeouts` resource option first, then the resource's own `timeouts` argument, then the resource's
 * default. The engine sends `customTimeouts` with each operation (the request's `timeout`); the front doors
 * run the operation inside `withEngineTimeout` with it (the native plugin from its request,
 * provider/plugin/server.ts; the dynamic resources through dynamicHost.ts), and the providers ask
 * `waitLimitS` here instead of reading the request.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const engineTimeout = new AsyncLocalStorage<number | undefined>();

/** Runs `fn` with the engine's time limit for this operation (`customTimeouts`; 0 or absent: none set). */
export function withEngineTimeout<T>(seconds: number | undefined, fn: () => T): T {
    return engineTimeout.run(seconds && seconds > 0 ? seconds : undefined, fn);
}

/** The wait limit of the operation in progress: `customTimeouts`, else the resource's `timeouts` (`declared`), else `fallback`. */
export function waitLimitS(declared: number | undefined, fallback: number): number {
    return engineTimeout.getStore() ?? declared ?? fallback;
}
