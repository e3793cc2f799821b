/**
 * What a create does about an object that an interrupted run of the program made (a `pulumi` CLI killed
 * after the service made the object but before the state recorded it: a cancelled CI job). The engine then
 * keeps a "pending create" of the resource in the state, and the next `pulumi up` asks the provider to create
 * it again. docs/recovery.md says, per resource, what the provider does; this file holds what they share:
 *
 * - `LANGSMITH_ADOPT_IDS`: the ids of objects the person running `pulumi up` says are this stack's, for the
 *   resources whose objects the provider cannot tell from another stack's (a deployment's taken name, an
 *   identical destination). Pulumi's own way, `pulumi refresh --import-pending-creates <urn> <id>`, drops
 *   the pending create without recording the object in Pulumi 3.259 (tests/e2e/interrupted.test.ts found
 *   it), so the provider offers this one, which works in every language and needs no program change;
 * - the words of the refusal, when it cannot tell and is not told, and of the warning, when it takes one over;
 * - never an object a resource of this stack holds (adoption.ts): that refusal names `deleteBeforeReplace`.
 */
import { heldByThisStack, tookOver } from "./adoption";

/** The environment variable that names the objects to take over. */
export const ADOPT_IDS_VARIABLE = "LANGSMITH_ADOPT_IDS";

/**
 * Whether the person running this `pulumi up` said object `id` is this stack's (`LANGSMITH_ADOPT_IDS`, ids
 * separated by commas or spaces) and it may be taken: never when a resource of this stack holds it (adoption.ts).
 * A yes marks the create in progress as taking it over.
 */
export function adoptionAsked(id: string): boolean {
    if (!(process.env[ADOPT_IDS_VARIABLE] ?? "").split(/[\s,]+/).includes(id) || heldByThisStack()) return false;
    tookOver();
    return true;
}

/**
 * What to do when the object a create meets is the one this very resource holds, replaced by `pulumi up
 * --replace` (which asks the provider no diff, so no `deleteBeforeReplace` of its own is heard).
 */
export const REPLACING_HINT =
    "If it is this very resource's, being replaced (`pulumi up --replace`, or `pulumi state taint`), the old one must go first: " +
    "set the resource option deleteBeforeReplace (TypeScript `deleteBeforeReplace: true`, Python `delete_before_replace=True`, YAML `options: {deleteBeforeReplace: true}`) and run it again.";

/**
 * Several objects of one program meet this after a killed run, and Pulumi stops starting steps at the first
 * errors: `--continue-on-error` lets every create run, so that one run names every object to take over.
 */
export const ALL_AT_ONCE_HINT =
    "Other resources of this run may meet the same: `pulumi up --continue-on-error` runs every create, so that one run names every object to take over, and one `" +
    ADOPT_IDS_VARIABLE +
    "=<id>,<id>,... pulumi up` takes them all in (docs/recovery.md).";

/**
 * The refusal to create `what` beside an identical object the service already holds, when the provider cannot
 * tell whose it is: how to take it into the stack if an interrupted run of this stack made it, and what to
 * change if it is someone else's. `why` says why the provider does not decide by itself; `ifOurs` when it is
 * this stack's (by default: an interrupted run of it made it).
 */
export function alreadyExistsMessage(o: {
    what: string;
    existing: string;
    id: string;
    ifTheirs: string;
    why: string;
    adopt?: string;
    ifOurs?: string;
}): string {
    if (heldByThisStack()) {
        return [
            `${o.what}: ${o.existing}.`,
            `Another resource of this stack holds it (this run read it in the stack's state): two resources of the program name one object. It is not taken over, even if ${ADOPT_IDS_VARIABLE} names it: both would manage it, and either one's delete would take it from the other.`,
            `Keep one of the two resources; for this one, ${o.ifTheirs}.`,
            "Nothing was created.",
        ].join("\n");
    }
    return [
        `${o.what}: ${o.existing}.`,
        `If ${o.ifOurs ?? "an interrupted `pulumi up` of this stack made it (a killed or cancelled run; `pulumi up` then warns of a pending create)"}, ` +
            `take it into the stack: \`${ADOPT_IDS_VARIABLE}=${o.id} pulumi up\` (the ids of every object to take over, separated by commas)` +
            (o.adopt ? `, or set ${o.adopt}.` : ".") +
            ` ${ALL_AT_ONCE_HINT}`,
        `${REPLACING_HINT}`,
        `If it belongs to someone else, ${o.ifTheirs}.`,
        `Nothing was created: ${o.why}`,
    ].join("\n");
}

/**
 * The warning for an object taken over instead of created again. Its two causes are not told apart here: a
 * replacement's create meeting the object of the resource it replaces, or a create meeting what an interrupted run
 * made (whose pending create the engine then keeps, and says so on every `up` until a refresh clears it).
 */
export function takenOverWarning(what: string, why: string): string {
    return (
        `${what}: taken over instead of creating another, ${why}. ` +
        "Either a replacement took over the object of the resource it replaces (a rename, `pulumi up --replace`: nothing " +
        "to do), or an interrupted `pulumi up` made it: the engine then keeps that run's pending create in the state, and " +
        "once nothing else is pending `pulumi refresh --clear-pending-creates` removes the note."
    );
}

/** An object whose name is unique in its workspace (a tracing project, a dataset). */
interface Named {
    id: string;
    name: string;
}

/**
 * A create of an object whose name is unique in the workspace: one that already holds the name (made by a
 * killed `pulumi up` of this stack, by another stack, or by traced code) is refused with its id, unless
 * LANGSMITH_ADOPT_IDS names it: then `adopt` brings it in line with the program instead of `create`.
 */
export async function createUniquelyNamed<T extends Named>(o: {
    /** The resource and the service's word for its object: `TracingProject`, `project`. */
    resource: string;
    noun: string;
    holder: T | undefined;
    createdAt: (holder: T) => string;
    adopt: (holder: T) => Promise<T>;
    create: () => Promise<T>;
    /** What else makes such objects, for the refusal's why. */
    alsoMadeBy?: string;
}): Promise<T> {
    const h = o.holder;
    if (!h) return o.create();
    if (adoptionAsked(h.id)) return o.adopt(h);
    throw new Error(
        alreadyExistsMessage({
            what: `${o.resource}: the workspace already holds ${o.noun} ${h.id} named ${JSON.stringify(h.name)} (created ${o.createdAt(h)})`,
            existing: "names are unique in a workspace",
            id: h.id,
            ifTheirs: "give this one another name",
            why: `the service keeps no mark of which stack made a ${o.noun}, so the provider cannot tell one this stack's interrupted run made from another's${o.alsoMadeBy ? ` (${o.alsoMadeBy})` : ""}.`,
        }),
    );
}
