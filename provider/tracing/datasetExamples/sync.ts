/**
 * What a `DatasetExamples` changes on the service to make a dataset's examples its rows (rows.ts): the plan, made
 * against the examples the dataset holds now (never against the state alone, so an `up` interrupted half-way, or
 * examples changed elsewhere, are taken as they are), and its three bulk writes.
 *
 * - An example is matched to a row by identity: its id when a row gives that id, else its inputs. A match whose
 *   content differs is patched (`overwrite`: what the row leaves out is cleared); a row without a match is made; an
 *   example without a row is deleted when the rows are the whole truth (`exclusive`) or when it was one of this
 *   resource's (its identity among `owned`, the identities the state records), and kept otherwise.
 * - Two examples of one identity (an `up` whose answer was lost made one that a retry made again, or a person added
 *   one with the same inputs): the oldest is the row's, the others go as examples without a row do.
 * - The writes: deletes, then patches, then creates, each in the service's bulk calls; a write the service refuses
 *   part of leaves the rest for the next `up`, which plans again from what is there (nothing is made twice: a made
 *   example matches its row).
 */
import type { ExamplesClient } from "../../api/examples";
import type { Example, ExampleCreate, ExampleUpdateWithId } from "../../api/schemas/examples";
import { type Row, hashOf, idIdentityHash, identityOf, rowFromExample } from "./rows";

export interface SyncPlan {
    create: Row[];
    update: Array<{ id: string; row: Row }>;
    /** Examples to delete. */
    remove: string[];
    /** Examples no row names that stay (`exclusive: false`, and not this resource's). */
    kept: number;
    /** Of `remove`, the examples no row names and this resource did not make (a create refuses to delete them unasked). */
    strays: number;
}

/** The identity hash (the first 12 characters of a row's hash) of each hash. */
export const identities = (hashes: readonly string[]): Set<string> => new Set(hashes.map((h) => h.slice(0, 12)));

/** The remote examples by identity (a row's id when one names it, else the inputs), oldest first. */
function byIdentity(remote: Example[], rowIds: Set<string>): Map<string, Example[]> {
    const out = new Map<string, Example[]>();
    for (const e of [...remote].reverse()) {
        const key = identityOf(rowIds.has(e.id) ? { id: e.id, inputs: e.inputs } : { inputs: e.inputs });
        out.set(key, [...(out.get(key) ?? []), e]);
    }
    return out;
}

/** The hash an example answers to as one of this resource's rows (by id when its id-identity is owned). */
function remoteHash(e: Example, owned: Set<string>): string {
    return hashOf(rowFromExample(e, owned.has(idIdentityHash(e.id))));
}

/** The plan making `remote` into `rows`. `owned`: the identity hashes this resource made before (its state). */
export function planSync(rows: Row[], remote: Example[], o: { exclusive: boolean; owned: Set<string> }): SyncPlan {
    const rowIds = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
    const held = byIdentity(remote, rowIds);
    const plan: SyncPlan = { create: [], update: [], remove: [], kept: 0, strays: 0 };
    for (const row of rows) {
        const [first] = held.get(identityOf(row)) ?? [];
        if (!first) plan.create.push(row);
        else if (hashOf(rowFromExample(first, Boolean(row.id))) !== hashOf(row)) plan.update.push({ id: first.id, row });
    }
    const wanted = new Set(rows.map(identityOf));
    for (const [identity, examples] of held) {
        const extra = wanted.has(identity) ? examples.slice(1) : examples;
        for (const e of extra) {
            const ours = wanted.has(identity) || o.owned.has(remoteHash(e, o.owned).slice(0, 12));
            if (o.exclusive || ours) plan.remove.push(e.id);
            else plan.kept++;
            if (o.exclusive && !ours) plan.strays++;
        }
    }
    return plan;
}

/** The examples this resource made (their identities among `owned`): what its delete deletes. */
export const ownedExamples = (remote: Example[], owned: Set<string>): Example[] => remote.filter((e) => owned.has(remoteHash(e, owned).slice(0, 12)));

/** The hashes of what the service holds that this resource answers for: every example (`exclusive`), else those it owns. Sorted. */
export function heldHashes(remote: Example[], o: { exclusive: boolean; owned: Set<string> }): string[] {
    const hashes = remote.map((e) => remoteHash(e, o.owned));
    return (o.exclusive ? hashes : hashes.filter((h) => o.owned.has(h.slice(0, 12)))).sort();
}

/** The wire form of a row: made (`create`), or patched whole (`update`: `overwrite` clears what it leaves out). */
const wireRow = (r: Row) => ({ inputs: r.inputs, outputs: r.outputs ?? null, metadata: r.metadata ?? null, split: r.split });

/** Carries the plan out: deletes, patches, creates, in the service's bulk calls. */
export async function applyPlan(ex: ExamplesClient, datasetId: string, plan: SyncPlan): Promise<void> {
    if (plan.remove.length) await ex.deleteMany(datasetId, plan.remove);
    if (plan.update.length) {
        const changes: ExampleUpdateWithId[] = plan.update.map(({ id, row }) => ({ id, dataset_id: datasetId, ...wireRow(row), overwrite: true }));
        await ex.updateMany(changes);
    }
    if (plan.create.length) {
        const made: ExampleCreate[] = plan.create.map((row) => ({ dataset_id: datasetId, ...(row.id ? { id: row.id } : {}), ...wireRow(row) }));
        await ex.createMany(made);
    }
}

/** How a plan reads in a preview or a log: `3 changed, 1 added, 2 removed` (`nothing to change`). */
export function planSummary(p: { create: number; update: number; remove: number }): string {
    const parts = [p.update && `${p.update} changed`, p.create && `${p.create} added`, p.remove && `${p.remove} removed`].filter(Boolean);
    return parts.length ? parts.join(", ") : "nothing to change";
}

/** The plan's counts from hashes alone (a preview: the state's hashes against the rows'), by identity. */
export function hashDiff(olds: readonly string[], news: readonly string[]): { create: number; update: number; remove: number } {
    const old = new Map(olds.map((h) => [h.slice(0, 12), h]));
    const next = new Map(news.map((h) => [h.slice(0, 12), h]));
    let create = 0;
    let update = 0;
    for (const [id, h] of next) {
        const was = old.get(id);
        if (was === undefined) create++;
        else if (was !== h) update++;
    }
    const remove = [...old.keys()].filter((id) => !next.has(id)).length;
    return { create, update, remove };
}
