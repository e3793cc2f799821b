/**
 * The entry point the serialized providers of every existing state load at run time
 * (`require("pulumi-langsmith/impl")`): never rename it, and never move it without package.json
 * `exports["./impl"]` following (0.1.0 had it at provider/impl/index.ts).
 *
 * `forward(type, method, args)` serves every resource type by name (see forward.ts). The
 * per-type objects (`deployment`) and `configure` stay exported for states written by 0.1.0, whose
 * serialized providers call `require("pulumi-langsmith/impl").deployment.check(...)`: never remove them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { track } from "../../kit/cancellation";
import { hearDynamicHost } from "../../kit/dynamicHost";
import { guardProcess } from "../../kit/watchdog";
import type { ConfigSource } from "../../config";
import { RESOURCES } from "../../registry";

export { deploymentProvider as deployment } from "../../controlPlane/deployment/provider";

/** The dynamic providers by resource type name, as the forwarders name them (the native plugin serves the same objects). */
export const PROVIDERS: Readonly<Record<string, pulumi.dynamic.ResourceProvider>> = Object.fromEntries(
    Object.entries(RESOURCES).map(([type, r]) => [type, r.provider]),
);

/** Hands every provider the stack config, all at once (what states written by 0.1.0 call before any other method). */
export function configure(req: { config: ConfigSource }): Promise<void> {
    return Promise.all(Object.values(PROVIDERS).map((p) => p.configure?.(req as pulumi.dynamic.ConfigureRequest))).then(() => undefined);
}

/**
 * Calls `method` of the provider of `type` (its `configure` too: each provider holds its configuration). Inside Pulumi's
 * dynamic-provider host, the first call also makes the process exit when the engine is gone and on
 * SIGINT/SIGTERM (kit/watchdog.ts; nothing happens elsewhere) and hears the engine's Cancel and
 * `customTimeouts`, which the host drops (kit/dynamicHost.ts); every call counts as an operation in
 * progress, which such an exit lets answer first.
 */
export function forward(type: string, method: string, args: unknown[]): unknown {
    guardProcess();
    hearDynamicHost();
    const provider: pulumi.dynamic.ResourceProvider | undefined = PROVIDERS[type];
    if (!provider) throw new Error(`pulumi-langsmith has no resource type ${JSON.stringify(type)}: was the state written by a newer version?`);
    // The method a state names, looked up by name: what it is is known only once found.
    const fn: unknown = Reflect.get(provider, method);
    if (typeof fn !== "function") throw new Error(`pulumi-langsmith: resource type ${type} has no method ${method}`);
    const result: unknown = Reflect.apply(fn, provider, args);
    return result instanceof Promise ? track(result) : result;
}
