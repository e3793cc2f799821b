/**
 * Warnings the Pulumi CLI shows (`warning: ...` in preview and up) from inside a provider process, for
 * what deserves a word but must not fail the operation (a filter field this provider does not know, the
 * service may), and debug lines it shows only when asked (`pulumi up --debug`), for what the user need
 * not act on (a revision wait that read an odd timestamp). The dynamic-provider host is started with the
 * engine's address as its argument but does not hand it to `@pulumi/pulumi/log`; this points the log at
 * it, once (where the engine listens: watchdog.ts `engineAddress`). Outside a provider process (tests
 * calling a provider directly) a warning goes to stderr, as `pulumi.log.warn` does there, and a debug
 * line nowhere.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
// The log module alone, not the whole SDK: the native plugin loads nothing else of @pulumi/pulumi's index
// (whose npm and sigstore libraries tripled its start-up).
import * as log from "@pulumi/pulumi/log";
import { spoken } from "./spelling";
import { engineAddress } from "./watchdog";

let connected = false;

/** The resource (its URN) the operation in progress is for, where the caller knows it (the native plugin does). */
const operationOf = new AsyncLocalStorage<string>();

/** Runs `fn` as an operation on the resource `urn`: the warnings it sends are that resource's (the CLI shows them under it). */
export function aboutResource<T>(urn: string, fn: () => Promise<T>): Promise<T> {
    return operationOf.run(urn, fn);
}

/**
 * Sends a warning to the engine (the CLI prints it), or to stderr when there is no engine: attached to the
 * resource of the operation in progress when `aboutResource` said which, else to the stack (the dynamic
 * providers are never told their resource).
 */
export async function warn(message: string): Promise<void> {
    connect();
    const urn = operationOf.getStore();
    // `@pulumi/pulumi/log` reads a resource's URN only (`resource.urn.promise()`): this stands for the resource. The one
    // cast through unknown left: an Output's `promise()` is missing from @pulumi/pulumi's types, so no type of what
    // the log reads relates to `Resource`.
    const resource = urn ? ({ urn: { promise: () => Promise.resolve(urn) } } as unknown as pulumi.Resource) : undefined;
    // In the program's spelling (a Python program's: kit/spelling.ts).
    await log.warn(spoken(message), resource);
}

/** Sends a debug line to the engine; never fails: a lost line must not fail the operation it tells of. */
export async function debug(message: string): Promise<void> {
    try {
        connect();
        await log.debug(message);
    } catch {
        // nothing to do: the line is lost
    }
}

/** Points `@pulumi/pulumi/log` at the engine, once. */
function connect(): void {
    if (!connected) {
        connected = true;
        const address = engineAddress();
        if (address) {
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const { getStore } = require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { options: { engineAddr?: string } } } };
            const options = getStore().settings.options;
            options.engineAddr ||= address;
        }
    }
}
