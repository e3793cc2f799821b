/**
 * What Pulumi's dynamic-provider host drops, heard anyway: the engine's Cancel (Ctrl-C) and each
 * operation's `customTimeouts`. The host (@pulumi/pulumi 3.259.0 `cmd/dynamic-provider`) answers Cancel
 * without telling the provider, and calls `create(props)`, `update(id, olds, news)` and `delete(id, props)`
 * without the request's `timeout`; the native plugin hears both (provider/plugin/server.ts). So a dynamic
 * resource's wait went on through a Ctrl-C until the build was done, and `customTimeouts` did nothing.
 *
 * The host serves its calls with @grpc/grpc-js, whose server looks up the handler of every incoming call
 * with `Server.prototype._retrieveHandler(path)`. `hearDynamicHost()` wraps that method, once, in the copy
 * of grpc-js the host uses (resolved from @pulumi/pulumi, as the host resolves it): a Cancel first cancels
 * every wait (cancellation.ts), and a Create, Update or Delete runs its handler inside `withEngineTimeout`
 * with the request's `timeout` (timeouts.ts). The handlers themselves are untouched. `_retrieveHandler` is
 * grpc-js's own (tested with 1.14); should a later grpc-js lose it, nothing is wrapped and both are
 * dropped again, as before: tests/provider/plugin/lifecycle.test.ts would say so (Cancel and a timeout sent to the real host).
 */
import { dirname } from "node:path";
import { ENGINE_CANCELLED, cancelOperations } from "./cancellation";
import { withEngineTimeout } from "./timeouts";
import { inDynamicHost } from "./watchdog";

const SERVICE = "/pulumirpc.ResourceProvider/";
const TIMED = new Set(["Create", "Update", "Delete"].map((m) => SERVICE + m));

interface Handler {
    func: ((call: { request?: { getTimeout?(): number } }, ...rest: unknown[]) => unknown) | null;
}
interface ServerPrototype {
    _retrieveHandler?: (path: string) => Handler | null;
}

let heard = false;

/** Inside the dynamic-provider host, once: Cancel cancels the waits, and operations run with their `customTimeouts`. */
export function hearDynamicHost(): void {
    if (heard || !inDynamicHost()) return;
    heard = true;
    const proto = hostGrpcServerPrototype();
    const original = proto?._retrieveHandler;
    if (!proto || typeof original !== "function") return;
    proto._retrieveHandler = function (this: unknown, path: string) {
        const handler = original.call(this, path);
        if (path === SERVICE + "Cancel") cancelOperations(ENGINE_CANCELLED);
        if (!handler?.func || !TIMED.has(path)) return handler;
        const func = handler.func;
        return {
            ...handler,
            func: (call: Parameters<typeof func>[0], ...rest: unknown[]) => withEngineTimeout(call.request?.getTimeout?.(), () => func(call, ...rest)),
        };
    };
}

/** `Server.prototype` of the grpc-js the host runs on (the one @pulumi/pulumi resolves), or undefined. */
function hostGrpcServerPrototype(): ServerPrototype | undefined {
    try {
        const pulumiDir = dirname(require.resolve("@pulumi/pulumi/package.json"));
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as { Server?: { prototype: ServerPrototype } };
        return grpc.Server?.prototype;
    } catch {
        return undefined;
    }
}
