/**
 * Datasets of the tracing API (docs/service.md R5): made, read, listed, changed, deleted, kept in
 * `--state-dir` (`datasets.json`). A name is unique in a workspace (409); the data type is fixed at creation;
 * an update leaves absent fields as they are.
 *
 * A dataset's examples, versions, tags, splits and share are examples.ts's and versions.ts's (R14); a PATCH's
 * `patch_examples` is not emulated (the bulk PATCH of examples does the same).
 */
import { randomUUID } from "node:crypto";
import type { DatasetCreateRequest, DatasetUpdateRequest } from "../../provider/api/schemas/datasets";
import type { Clock } from "../core/clock";
import { EmulatorError, conflict, notImplemented } from "../core/errors";
import { Store } from "../core/store";

export interface DatasetRecord {
    id: string;
    name: string;
    tenant_id: string;
    created_at: string;
    modified_at: string;
    description: string | null;
    data_type: string;
    inputs_schema_definition: Record<string, unknown> | null;
    outputs_schema_definition: Record<string, unknown> | null;
    metadata: Record<string, unknown> | null;
    example_count: number;
    /** Kept as a PATCH gives them (the emulator does nothing with them). */
    transformations?: unknown[] | null;
    baseline_experiment_id?: string | null;
}

/** Sets each field `changes` gives; one absent or undefined is left as it is. */
function assignGiven<T extends object>(target: T, changes: { [K in keyof T]?: T[K] }): void {
    for (const k in changes) {
        const v = changes[k];
        if (v !== undefined) target[k] = v;
    }
}

/** The metadata of a create: `extra.metadata`, where the official clients put it. */
const metadataOf = (extra: Record<string, unknown> | null | undefined) => {
    const m = extra?.metadata;
    return m && typeof m === "object" && !Array.isArray(m) ? (m as Record<string, unknown>) : null;
};

export class DatasetsModel {
    readonly datasets = new Map<string, DatasetRecord>();
    private readonly store: Store<{ datasets: DatasetRecord[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "datasets.json");
        for (const d of this.store.load()?.datasets ?? []) this.datasets.set(d.id, d);
    }

    reset(): void {
        this.datasets.clear();
        this.save();
    }

    private save(): void {
        this.store.save({ datasets: [...this.datasets.values()] });
    }

    create(tenantId: string, body: DatasetCreateRequest): DatasetRecord {
        if (this.list(tenantId, { name: body.name }).length) throw conflict(`Dataset with name ${body.name} already exists.`);
        const now = body.created_at ?? this.clock.iso();
        const d: DatasetRecord = {
            id: body.id ?? randomUUID(),
            name: body.name,
            tenant_id: tenantId,
            created_at: now,
            modified_at: now,
            description: body.description ?? null,
            data_type: body.data_type ?? "kv",
            inputs_schema_definition: body.inputs_schema_definition ?? null,
            outputs_schema_definition: body.outputs_schema_definition ?? null,
            metadata: metadataOf(body.extra),
            example_count: 0,
        };
        this.datasets.set(d.id, d);
        this.save();
        return d;
    }

    get(tenantId: string, id: string): DatasetRecord {
        const d = this.datasets.get(id);
        if (!d || d.tenant_id !== tenantId) throw new EmulatorError(404, { detail: `Dataset ${id} not found` });
        return d;
    }

    /** The workspace's datasets, newest first; `name` exact, `name_contains` case-insensitive. */
    list(tenantId: string, q: { name?: string; nameContains?: string }): DatasetRecord[] {
        return [...this.datasets.values()]
            .filter((d) => d.tenant_id === tenantId)
            .filter(
                (d) =>
                    (q.name === undefined || d.name === q.name) &&
                    (q.nameContains === undefined || d.name.toLowerCase().includes(q.nameContains.toLowerCase())),
            )
            .sort((a, b) => b.created_at.localeCompare(a.created_at));
    }

    update(tenantId: string, id: string, body: DatasetUpdateRequest): DatasetRecord {
        const d = this.get(tenantId, id);
        if (body.patch_examples && Object.keys(body.patch_examples).length) throw notImplemented("patch_examples (a dataset's examples)");
        const { patch_examples: _examples, name, ...fields } = body;
        // A null name leaves the name as it is: a dataset always has one (the description's answer requires it).
        if (name !== undefined && name !== null) {
            if (name !== d.name && this.list(tenantId, { name }).length) throw conflict(`Dataset with name ${name} already exists.`);
            d.name = name;
        }
        assignGiven(d, fields);
        d.modified_at = this.clock.iso();
        this.save();
        return d;
    }

    delete(tenantId: string, id: string): void {
        this.get(tenantId, id);
        this.datasets.delete(id);
        this.save();
    }
}
