/**
 * A dataset's examples, versioned as the service versions them (docs/service.md R14): every write (one request:
 * a create, a bulk create, a bulk update, a delete of several) is a new version of the dataset, named by its time;
 * a read `as_of` a time (or a tag naming one: versions.ts) answers the examples as they were then. An example keeps
 * each of its revisions; a delete is a revision too (soft, as the service's: the version before still reads it).
 * Its split is the metadata's `dataset_split` list, as the service keeps it (`base` by default). Run rules add
 * examples too (R10.4). A deleted dataset's examples go with it. Kept in `--state-dir` (`examples.json`).
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../core/clock";
import { EmulatorError, conflict } from "../core/errors";
import { Store } from "../core/store";

type Json = Record<string, unknown>;

/** What an example holds at one version. */
export interface ExampleContent {
    inputs: Json;
    outputs: Json | null;
    metadata: Json | null;
}

interface Revision extends ExampleContent {
    at: string;
    deleted?: true;
}

interface StoredExample {
    id: string;
    /** `Example.name` (required in the description): the service names an example by its position, `#<n>` (**decided**). */
    name: string;
    tenant_id: string;
    dataset_id: string;
    source_run_id: string | null;
    created_at: string;
    /** Oldest first; the last one whose `at` is not after a version is the example at that version. */
    revisions: Revision[];
}

/** An example as the service answers it (`Example`). */
export interface ExampleRecord extends ExampleContent {
    id: string;
    name: string;
    dataset_id: string;
    source_run_id: string | null;
    created_at: string;
    modified_at: string;
    attachment_urls: null;
}

/** A new example: its content, its split(s), and optionally its id and the run it came from. */
export interface NewExample extends ExampleContent {
    id?: string | null;
    split?: string | string[] | null;
    source_run_id?: string | null;
}

/** A change of an example: a field given replaces it; `overwrite` clears the outputs and metadata not given (**decided**). */
export interface ExampleChange {
    id: string;
    inputs?: Json | null;
    outputs?: Json | null;
    metadata?: Json | null;
    split?: string | string[] | null;
    overwrite?: boolean;
}

/** `latest`, or the time of a version: what a read `as_of` resolves to (versions.ts resolves tags). */
export type AsOf = number;
export const LATEST: AsOf = Number.POSITIVE_INFINITY;

interface Snapshot {
    examples: StoredExample[];
    versions: Record<string, string[]>;
}

/** The metadata with the split as the service keeps it: `dataset_split`, a list. */
function withSplit(metadata: Json | null | undefined, split: string | string[] | null | undefined): Json | null {
    if (split == null) return metadata ?? null;
    return { ...(metadata ?? {}), dataset_split: Array.isArray(split) ? split : [split] };
}

export class Examples {
    private readonly byId = new Map<string, StoredExample>();
    /** Each dataset's version times, oldest first, one per write. */
    private readonly versionsOf = new Map<string, string[]>();
    private readonly store: Store<Snapshot>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "examples.json");
        const saved = this.store.load();
        for (const e of saved?.examples ?? []) this.byId.set(e.id, e);
        for (const [d, times] of Object.entries(saved?.versions ?? {})) this.versionsOf.set(d, times);
    }

    reset(): void {
        this.byId.clear();
        this.versionsOf.clear();
        this.save();
    }

    private save(): void {
        this.store.save({ examples: [...this.byId.values()], versions: Object.fromEntries(this.versionsOf) });
    }

    /**
     * A new version of the dataset: now, or a millisecond after its last one when the clock has not moved since
     * (**decided**: two writes are two versions, each readable `as_of` its own time).
     */
    private stamp(datasetId: string): string {
        const times = this.versionsOf.get(datasetId) ?? [];
        const last = times.length ? Date.parse(times[times.length - 1]) : -1;
        const at = this.clock.iso(Math.max(this.clock.now(), last + 1));
        this.versionsOf.set(datasetId, [...times, at]);
        return at;
    }

    /** The dataset's versions, newest first. */
    versions(datasetId: string): string[] {
        return [...(this.versionsOf.get(datasetId) ?? [])].reverse();
    }

    /** Adds examples to a dataset: one version, saved once. A taken id is 409 and nothing is made. */
    add(tenantId: string, datasetId: string, given: NewExample[]): ExampleRecord[] {
        const taken = given.filter((e) => e.id && this.byId.has(e.id)).map((e) => e.id);
        if (taken.length) throw conflict(`Example(s) already exist: ${taken.join(", ")}`);
        const at = this.stamp(datasetId);
        const held = this.count(tenantId, datasetId, LATEST);
        const made = given.map((e, i): StoredExample => {
            const revision = { at, inputs: e.inputs, outputs: e.outputs ?? null, metadata: withSplit(e.metadata, e.split ?? "base") };
            const id = e.id ?? randomUUID();
            return {
                id,
                name: `#${held + i + 1}`,
                tenant_id: tenantId,
                dataset_id: datasetId,
                source_run_id: e.source_run_id ?? null,
                created_at: at,
                revisions: [revision],
            };
        });
        for (const e of made) this.byId.set(e.id, e);
        this.save();
        return made.map((e) => view(e, e.revisions[0]));
    }

    /** Changes examples of one dataset: one version. An example not found (or deleted) is 404 and nothing changes. */
    update(tenantId: string, changes: ExampleChange[]): void {
        const found = changes.map((c) => ({ c, e: this.live(tenantId, c.id) }));
        const datasets = new Set(found.map((f) => f.e.dataset_id));
        const stamps = new Map([...datasets].map((d) => [d, this.stamp(d)]));
        for (const { c, e } of found) {
            const last = e.revisions[e.revisions.length - 1];
            const clear = c.overwrite === true;
            const split = c.split ?? (c.metadata?.dataset_split as string[] | undefined) ?? splitsOf(last);
            e.revisions.push({
                at: stamps.get(e.dataset_id) as string,
                inputs: c.inputs ?? last.inputs,
                outputs: c.outputs ?? (clear ? null : last.outputs),
                metadata: withSplit(c.metadata ?? (clear ? null : last.metadata), split),
            });
        }
        this.save();
    }

    /** Puts examples in a split, or takes them out of it (`remove`): one version. */
    moveSplit(tenantId: string, ids: string[], split: string, remove: boolean): void {
        const changes = ids.map((id) => {
            const now = splitsOf(this.get(tenantId, id)).filter((s) => s !== split);
            return { id, split: remove ? now : [...now, split] };
        });
        this.update(tenantId, changes);
    }

    /** Deletes examples (soft: the versions before still read them); one version per dataset. An unknown id is 404 and nothing goes. */
    delete(tenantId: string, ids: string[]): void {
        const found = ids.map((id) => this.live(tenantId, id));
        const stamps = new Map([...new Set(found.map((e) => e.dataset_id))].map((d) => [d, this.stamp(d)]));
        for (const e of found) {
            const last = e.revisions[e.revisions.length - 1];
            e.revisions.push({ ...last, at: stamps.get(e.dataset_id) as string, deleted: true });
        }
        this.save();
    }

    /** The examples of the workspace (of a dataset, of some ids) as they were at `asOf`, newest first. */
    list(tenantId: string, q: { datasetId?: string; ids?: string[]; asOf?: AsOf; splits?: string[] }): ExampleRecord[] {
        const asOf = q.asOf ?? LATEST;
        const out: ExampleRecord[] = [];
        for (const e of this.byId.values()) {
            if (e.tenant_id !== tenantId || (q.datasetId && e.dataset_id !== q.datasetId) || (q.ids?.length && !q.ids.includes(e.id))) continue;
            const r = at(e, asOf);
            if (!r || (q.splits?.length && !splitsOf(r).some((s) => q.splits?.includes(s)))) continue;
            out.push(view(e, r));
        }
        return out.reverse();
    }

    /** One example as it is now (404 for another workspace's, or a deleted one). */
    get(tenantId: string, id: string, asOf: AsOf = LATEST): ExampleRecord {
        const e = this.byId.get(id);
        const r = e && e.tenant_id === tenantId ? at(e, asOf) : undefined;
        if (!e || !r) throw new EmulatorError(404, { detail: `Example ${id} not found` });
        return view(e, r);
    }

    count(tenantId: string, datasetId: string, asOf: AsOf = LATEST): number {
        return this.list(tenantId, { datasetId, asOf }).length;
    }

    /** The splits the dataset's examples are in at `asOf`, sorted. */
    splits(tenantId: string, datasetId: string, asOf: AsOf = LATEST): string[] {
        return [...new Set(this.list(tenantId, { datasetId, asOf }).flatMap(splitsOf))].sort();
    }

    dropDataset(datasetId: string): void {
        for (const [id, e] of this.byId) if (e.dataset_id === datasetId) this.byId.delete(id);
        this.versionsOf.delete(datasetId);
        this.save();
    }

    private live(tenantId: string, id: string): StoredExample {
        this.get(tenantId, id);
        return this.byId.get(id) as StoredExample;
    }
}

/** The example's revision at `asOf`, if it existed then and was not deleted. */
function at(e: StoredExample, asOf: AsOf): Revision | undefined {
    let found: Revision | undefined;
    for (const r of e.revisions) {
        if (Date.parse(r.at) > asOf) break;
        found = r;
    }
    return found?.deleted ? undefined : found;
}

const splitsOf = (r: ExampleContent) => (Array.isArray(r.metadata?.dataset_split) ? (r.metadata.dataset_split as string[]) : ["base"]);

function view(e: StoredExample, r: Revision): ExampleRecord {
    return {
        id: e.id,
        name: e.name,
        dataset_id: e.dataset_id,
        source_run_id: e.source_run_id,
        inputs: r.inputs,
        outputs: r.outputs,
        metadata: r.metadata,
        created_at: e.created_at,
        modified_at: r.at,
        attachment_urls: null,
    };
}
