/**
 * What keeps an adoption (LANGSMITH_ADOPT_IDS, interrupted.ts) from losing an object, or from handing one object to
 * two resources. Per provider process (one `pulumi up`: the native plugin, or the dynamic-provider host):
 *
 * - every check that has olds (a resource of the stack's state, updated or diffed) notes the identity of the object
 *   its olds name (`identity`: a name, a key, a server and id), in its workspace; a create whose object has a noted
 *   identity runs marked `held`: another resource of the program names that object, so `adoptionAsked` says no
 *   whatever LANGSMITH_ADOPT_IDS says and the refusal (`alreadyExistsMessage`) says which;
 * - a create that takes an object over (`adoptionAsked` said yes, or `tookOver`) records its id, and a delete
 *   of that id in the same run leaves it to its new holder, with a warning: the resource that held it before,
 *   replaced or renamed without an alias.
 *
 * `pulumi up --replace` (or a tainted resource) is checked as a new resource, without olds, and asks no diff (the
 * engine's step generator, `isTargetedReplace`): its create meets the old object like any object of its identity,
 * and is refused naming `deleteBeforeReplace`, unless LANGSMITH_ADOPT_IDS names the object: taken over, it is kept
 * from the old resource's delete by the rule above, so the run ends with the one object, never without it.
 *
 * And a replacement the diff plans (a changed `type` of an `Evaluator`, added `sessionIds` of an `AnnotationQueue`:
 * anything that replaces but keeps the identity) deletes the old object first, whatever the resource's own diff said:
 * made first, the new one would meet the old one under its identity and the create would refuse it, on every `up`
 * (unless the create makes another beside it: `replacedBeside`). A replacement deleting first warns at preview of
 * what goes with the object (`holds`: a project's traced runs). A move to another workspace is the workspace
 * wrapper's to say (kit/workspace.ts): the identity there is another.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceDeclaration } from "./declare";
import { warn } from "./warn";
import { given } from "./workspace";

/** The identity of the object a resource's inputs (or its olds) name, as its create looks for a holder; undefined: none to say. */
export type IdentityOf = (inputs: Record<string, any>) => string | undefined;

/** The create in progress: whether a resource of this stack holds its object, and whether it took one over. */
interface Creating {
    held: boolean;
    tookOver: boolean;
}

const creating = new AsyncLocalStorage<Creating>();
/** Identities of the objects this run's checks read in the stack's state. */
const heldByStack = new Set<string>();
/** The objects creates of this run took over, by type, workspace and id. */
const takenOver = new Set<string>();

/**
 * Facts a create or update of this run made its own though they already held (a person's membership of a workspace,
 * a tagging): a fact moving from one resource to another in one `up`, the one that lets it go is deleted last (the
 * engine's deletes come after creates and updates) and would undo it. That delete leaves a claimed fact be.
 */
const claimed = new Set<string>();

/** Notes that the create or update in progress keeps `fact` (it held already). */
export const claim = (fact: string): void => void claimed.add(fact);

/** Whether a create or update of this run claimed `fact`: a delete then leaves it to that resource. */
export const claimedThisRun = (fact: string): boolean => claimed.has(fact);

/**
 * Forgets what this run noted. A provider process serves one `pulumi` run; a test process drives many, one file after
 * another: a file that judges what a run knows starts one of its own.
 */
export function startRun(): void {
    heldByStack.clear();
    takenOver.clear();
    claimed.clear();
}

/** Whether a resource of this stack holds the object of the create in progress (no adoption then). */
export const heldByThisStack = (): boolean => creating.getStore()?.held === true;

/** Marks the create in progress as taking the object it answers over (its delete in this run is then the new holder's). */
export function tookOver(): void {
    const c = creating.getStore();
    if (c) c.tookOver = true;
}

export interface AdoptableOptions {
    /**
     * What goes with the object when it is deleted (a project's traced runs): a replacement that deletes first warns
     * at preview that it goes too, before the new object is made.
     */
    holds?: string;
    /**
     * Its create, meeting the object of its identity that a resource of the stack holds, makes another beside it (an
     * AlertRule asks the service for another id): a replacement need not delete first.
     */
    replacedBeside?: boolean;
}

const ws = (o: Record<string, unknown> | undefined) => (given(o?.workspaceId) ? o.workspaceId : given(o?.tenantId) ? o.tenantId : "");

/**
 * `p` with the adoption guard of the module comment: checks note the objects the stack holds, creates run
 * marked, deletes of what a create of this run took over are skipped, a replacement that keeps the identity
 * deletes first. `identity` says what a resource's object is known by (omitted: only the delete guard).
 */
export function adoptable<P extends pulumi.dynamic.ResourceProvider>(d: ResourceDeclaration, p: P, identity?: IdentityOf, o: AdoptableOptions = {}): P {
    const key = (i: Record<string, unknown>) => {
        const id = identity?.(i);
        return id === undefined ? undefined : JSON.stringify([d.name, given(i.workspaceId) ? i.workspaceId : "", id]);
    };
    const check = p.check?.bind(p);
    const diff = p.diff?.bind(p);
    const keptIdentity = (r: pulumi.dynamic.DiffResult, olds: Record<string, unknown>, news: Record<string, unknown>) =>
        !o.replacedBeside && r.changes === true && !r.replaces?.includes("workspaceId") && key(olds) !== undefined && key(olds) === key(news);
    return Object.assign(Object.create(p) as P, {
        async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
            const k = olds && Object.keys(olds).length ? key(olds) : undefined;
            if (k) heldByStack.add(k);
            return check ? check(olds, news) : { inputs: news };
        },
        ...(diff && {
            async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
                const r = await diff(id, olds, news);
                const first = r.deleteBeforeReplace || keptIdentity(r, olds, news);
                if (first && r.replaces?.length && o.holds) {
                    await warn(
                        `${d.name} ${id} is replaced, deleting the old one first (the new one keeps what it is known by, which the service holds once): ${o.holds} go with it, and the new one starts empty.`,
                    );
                }
                // Said for any change, not only a replacement planned here: `replaceOnChanges` turns an update into one and keeps this answer.
                return first && !r.deleteBeforeReplace ? { ...r, deleteBeforeReplace: true } : r;
            },
        }),
        async create(inputs: Record<string, unknown>) {
            const k = key(inputs);
            const c: Creating = { held: k !== undefined && heldByStack.has(k), tookOver: false };
            const r = await creating.run(c, () => p.create(inputs));
            if (c.tookOver) takenOver.add(JSON.stringify([d.name, ws(r.outs), r.id]));
            return r;
        },
        async delete(id: string, props: Record<string, unknown>) {
            if (!takenOver.has(JSON.stringify([d.name, ws(props), id]))) return p.delete?.(id, props);
            await warn(
                `${d.name} ${id}: not deleted: a create of this run took it over, so the resource that held it leaves the stack and the one that took it over keeps it.`,
            );
        },
    });
}
