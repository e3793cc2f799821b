/**
 * A dataset's examples, as far as the emulator makes them (docs/service.md R10.4): only a run rule adds them (its
 * `add_to_dataset_id` action: the run's inputs and outputs, the run as `source_run_id`), and they are read back by
 * the official clients' `list_examples` (`GET /examples?dataset=`) and `read_example` (`GET /examples/{id}`). Writing
 * examples through the API is not emulated (501). A deleted dataset's examples go with it. Kept in `--state-dir`
 * (`examples.json`).
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../core/clock";
import { EmulatorError } from "../core/errors";
import { Store } from "../core/store";

export interface ExampleRecord {
    id: string;
    /** `Example.name` (required in the description): the service names an example by its position, `#<n>` (**decided**). */
    name: string;
    tenant_id: string;
    dataset_id: string;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown> | null;
    metadata: Record<string, unknown> | null;
    source_run_id: string | null;
    created_at: string;
    modified_at: string;
}

export class Examples {
    private items: ExampleRecord[] = [];
    private readonly store: Store<{ examples: ExampleRecord[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "examples.json");
        this.items = this.store.load()?.examples ?? [];
    }

    reset(): void {
        this.items = [];
        this.save();
    }

    private save(): void {
        this.store.save({ examples: this.items });
    }

    /** Adds examples to a dataset, saved once. */
    add(tenantId: string, datasetId: string, given: Array<Pick<ExampleRecord, "inputs" | "outputs" | "metadata" | "source_run_id">>): ExampleRecord[] {
        const now = this.clock.iso();
        const held = this.count(tenantId, datasetId);
        const made = given.map(
            (e, i): ExampleRecord => ({
                id: randomUUID(),
                name: `#${held + i + 1}`,
                tenant_id: tenantId,
                dataset_id: datasetId,
                ...e,
                created_at: now,
                modified_at: now,
            }),
        );
        this.items.push(...made);
        this.save();
        return made;
    }

    list(tenantId: string, q: { datasetId?: string; ids?: string[] }): ExampleRecord[] {
        return this.items.filter((e) => e.tenant_id === tenantId && (!q.datasetId || e.dataset_id === q.datasetId) && (!q.ids?.length || q.ids.includes(e.id)));
    }

    get(tenantId: string, id: string): ExampleRecord {
        const e = this.items.find((x) => x.tenant_id === tenantId && x.id === id);
        if (!e) throw new EmulatorError(404, { detail: `Example ${id} not found` });
        return e;
    }

    count(tenantId: string, datasetId: string): number {
        return this.list(tenantId, { datasetId }).length;
    }

    dropDataset(datasetId: string): void {
        const before = this.items.length;
        this.items = this.items.filter((e) => e.dataset_id !== datasetId);
        if (before !== this.items.length) this.save();
    }
}
