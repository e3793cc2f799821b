/**
 * What the native plugin answers the engine's previews of a create or an update (it says it supports them:
 * plugin/server.ts), without a call to the service: the new inputs, and of what the resource computes, the
 * value an update in place keeps (its declaration's `stable` outputs), everything else unknown. Before it
 * answered none, and the engine took every output of an updated resource for unknown: a new revision of a
 * deployment showed its dependents' `url` unknown, and an `Assistant` on it planned a change it would not make.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { computedNames, type ResourceDeclaration } from "./declare";
import { UNKNOWN } from "./unknown";

/**
 * The outputs a create (`olds` absent) or an update will have, as far as they can be known before it runs:
 * the inputs as checked, each stable output kept from `olds`, the rest of the outputs unknown.
 */
export function previewOutputs(d: ResourceDeclaration, news: Record<string, unknown>, olds?: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { ...news };
    for (const k of computedNames(d)) {
        const stable = d.outputs[k].stable;
        const kept = olds !== undefined && k in olds && (typeof stable === "function" ? stable(olds, news) : stable === true);
        out[k] = kept ? olds[k] : UNKNOWN;
    }
    return out;
}

/** Set while the native plugin runs a check or a diff: its engine was answered these previews. */
const previewed = new AsyncLocalStorage<boolean>();

/** Runs `fn` as a call of a front door whose previews of creates and updates answer outputs (the native plugin). */
export const withPreviewedOutputs = <T>(fn: () => T): T => previewed.run(true, fn);

/**
 * Whether an input that another resource's output feeds, not known in a preview, will change: true under the
 * native plugin, whose previews answer every output an update keeps (`previewOutputs`), so that only a
 * created or replaced resource (or a changed output) leaves it unknown. The dynamic-provider host previews no
 * outputs: there an update leaves it unknown too, and it may stay the same.
 */
export const unknownMeansChanged = (): boolean => previewed.getStore() === true;
