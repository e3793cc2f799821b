/**
 * What a create does about an object that an interrupted run of the program made (a `pulumi` CLI killed
 * after the service made the object but before the state recorded it: a cancelled CI job). The engine then
 * keeps a "pending create" of the resource in the state, and the next `pulumi up` asks the provider to create
 * it again. docs/recovery.md says, per resource, what the provider does; this file holds what they share:
 *
 * - the URN of the resource being created, where the front door knows it (the native plugin's requests carry
 *   it; the dynamic-provider host passes none), for the exact command that takes the object into the stack;
 * - the words of the refusal, when the provider cannot tell whether an object is the program's own, and of
 *   the warning, when it takes one over.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { shellWord } from "./shell";

const operation = new AsyncLocalStorage<{ urn?: string }>();

/** Runs `fn` as the operation on the resource `urn` (the native plugin wraps each request in this). */
export function withResourceUrn<T>(urn: string | undefined, fn: () => Promise<T>): Promise<T> {
    return operation.run({ urn: urn || undefined }, fn);
}

/** The URN of the resource of the current operation, when the front door said it. */
export function currentUrn(): string | undefined {
    return operation.getStore()?.urn;
}

/**
 * The command that records `id` as the resource an interrupted `pulumi up` was creating. Without the URN
 * (the dynamic front door), it names where to find it: the `up` warning "interrupted while creating" lists it.
 */
export function importPendingCommand(id: string): string {
    const urn = currentUrn();
    // The flag takes one word each time it is given: the URN, then the id.
    const command = `pulumi refresh --import-pending-creates ${urn ? shellWord(urn) : "<urn>"} --import-pending-creates ${shellWord(id)}`;
    return urn ? command : `${command} (the <urn> is the one \`pulumi up\` lists as "interrupted while creating"; \`pulumi stack export\` shows it under pending_operations)`;
}

/**
 * The refusal to create `what` beside an identical object the service already holds, when the provider cannot
 * tell whose it is: how to take it into the stack if an interrupted run of this stack made it, and what to
 * change if someone else's it is. `why` says why the provider does not decide by itself.
 */
export function alreadyExistsMessage(o: { what: string; existing: string; id: string; ifTheirs: string; why: string; adopt?: string }): string {
    return [
        `${o.what}: ${o.existing}.`,
        `If an interrupted \`pulumi up\` of this stack made it (a killed or cancelled run; \`pulumi up\` then warns of a pending create), take it into the stack, then run \`pulumi up\` again: ${importPendingCommand(o.id)}` +
            (o.adopt ? `, or set ${o.adopt}.` : "."),
        `If it belongs to someone else, ${o.ifTheirs}.`,
        `Nothing was created: ${o.why}`,
    ].join("\n");
}

/**
 * The warning for an object taken over instead of created again: the engine still keeps the interrupted
 * run's pending create, and says so on every `up` until a refresh clears it.
 */
export function takenOverWarning(what: string, why: string): string {
    return (
        `${what}: taken over instead of creating another, ${why}. ` +
        "An interrupted `pulumi up` made it, most likely; the engine keeps that run's pending create in the state, so once " +
        "nothing else is pending `pulumi refresh --clear-pending-creates` removes the note."
    );
}
