/**
 * Run rules (automations, docs/service.md R10.2): `/api/v1/runs/rules[/{id}]` as the description has them
 * (`RunRulesCreateSchema`, `RunRulesSchema`), and their logs (`/runs/rules/{id}/logs`, what the engine did with
 * each run: engine.ts). A rule is on one tracing project or one dataset (422 otherwise), samples at a rate in
 * 0..1, reads filters of the bulk-export grammar (the shared parser: a filter that does not parse is a 422 with
 * the parser's caret), and names a saved evaluator or inline ones, never both (422). What it names must exist in
 * the workspace (the project, dataset, queue, evaluator: 404). A write naming `backfill_from` starts a backfill
 * (its `backfill_*` fields: the last one asked, which the engine applies: engine.ts `backfill`). Kept in
 * `--state-dir` (`run-rules.json`, webhook headers sealed: they carry credentials).
 */
import { randomUUID } from "node:crypto";
import { FILTER_FIELDS, FilterSyntaxError, parseFilter, unknownFields } from "../../provider/api/filter";
import { normalizeCode, type RunRuleWriteRequest } from "../../provider/api/schemas/rules";
import type { Clock } from "../core/clock";
import { EmulatorError, invalidField } from "../core/errors";
import { type Sealed, Store } from "../core/store";

type Webhook = { url: string; headers?: Record<string, string> | null };

/**
 * The last backfill a write of the rule asked (docs/service.md R10.2), as `RunRulesSchema` answers it: `running`
 * until the engine has taken each run it covers, then `completed`.
 */
export interface Backfill {
    backfill_id: string | null;
    backfill_status: "running" | "completed" | null;
    backfill_progress: number | null;
    backfill_error: string | null;
    backfill_completed_at: string | null;
}

const NO_BACKFILL: Backfill = { backfill_id: null, backfill_status: null, backfill_progress: null, backfill_error: null, backfill_completed_at: null };

export interface RunRuleRecord extends Omit<RunRuleWriteRequest, "webhooks">, Backfill {
    id: string;
    tenant_id: string;
    is_enabled: boolean;
    webhooks: Webhook[];
    created_at: string;
    updated_at: string;
}

/** What a rule names, looked up in the caller's workspace: a name when it exists, undefined when not. */
export interface RuleTargets {
    session(tenantId: string, id: string): string | undefined;
    dataset(tenantId: string, id: string): string | undefined;
    queue(tenantId: string, id: string): string | undefined;
    evaluator(tenantId: string, id: string): string | undefined;
}

type Stored = Omit<RunRuleRecord, "webhooks"> & { webhooks: Sealed };
const FILTERS = ["filter", "trace_filter", "tree_filter"] as const;
/** What a rule answers as null when its write did not set it (`RunRulesSchema`). */
const NULLABLE = [
    "session_id",
    "dataset_id",
    ...FILTERS,
    "backfill_from",
    "num_few_shot_examples",
    "add_to_annotation_queue_id",
    "add_to_dataset_id",
    "evaluators",
    "evaluator_id",
    "alerts",
    "group_by",
    "spend_limit",
] as const;

export class RunRules {
    private items: RunRuleRecord[] = [];
    private readonly store: Store<{ rules: Stored[] }>;

    constructor(
        private readonly clock: Clock,
        private readonly targets: RuleTargets,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "run-rules.json");
        // A rule kept before backfills were answered has none.
        this.items = (this.store.load()?.rules ?? []).map((r) => ({ ...NO_BACKFILL, ...r, webhooks: this.store.open<Webhook[]>(r.webhooks) }));
    }

    reset(): void {
        this.items = [];
        this.save();
    }

    private save(): void {
        this.store.save({ rules: this.items.map((r) => ({ ...r, webhooks: this.store.seal(r.webhooks) })) });
    }

    list(tenantId: string, q: { sessionId?: string; datasetId?: string; evaluatorId?: string; nameContains?: string; ids?: string[] }): RunRuleRecord[] {
        return this.items.filter(
            (r) =>
                r.tenant_id === tenantId &&
                (!q.sessionId || r.session_id === q.sessionId) &&
                (!q.datasetId || r.dataset_id === q.datasetId) &&
                (!q.evaluatorId || r.evaluator_id === q.evaluatorId) &&
                (!q.ids?.length || q.ids.includes(r.id)) &&
                (!q.nameContains || r.display_name.toLowerCase().includes(q.nameContains.toLowerCase())),
        );
    }

    /** The enabled rules of a project (the engine's question, on every run it takes). */
    ofSession(tenantId: string, sessionId: string): RunRuleRecord[] {
        return this.items.filter((r) => r.tenant_id === tenantId && r.session_id === sessionId && r.is_enabled);
    }

    /** The enabled rules of a dataset (they take the runs of its experiments). */
    ofDataset(tenantId: string, datasetId: string): RunRuleRecord[] {
        return this.items.filter((r) => r.tenant_id === tenantId && r.dataset_id === datasetId && r.is_enabled);
    }

    get(tenantId: string, id: string): RunRuleRecord {
        const r = this.items.find((x) => x.tenant_id === tenantId && x.id === id);
        if (!r) throw new EmulatorError(404, { detail: `Rule ${id} not found` });
        return r;
    }

    create(tenantId: string, body: RunRuleWriteRequest): RunRuleRecord {
        this.check(tenantId, body);
        const now = this.clock.iso();
        const made = this.record(body, { id: randomUUID(), tenant_id: tenantId, created_at: now, updated_at: now }, NO_BACKFILL);
        this.items.push(made);
        this.save();
        return made;
    }

    /**
     * A PATCH carries the whole rule (`RunRulesUpdateSchema` requires its name and rate): it replaces the rule's fields
     * (`backfill_from` too); the last backfill's state stays until a write asks another.
     */
    update(tenantId: string, id: string, body: RunRuleWriteRequest): RunRuleRecord {
        const held = this.get(tenantId, id);
        this.check(tenantId, body);
        const next = this.record(body, { id, tenant_id: tenantId, created_at: held.created_at, updated_at: this.clock.iso() }, held);
        this.items = this.items.map((r) => (r === held ? next : r));
        this.save();
        return next;
    }

    delete(tenantId: string, id: string): RunRuleRecord {
        const held = this.get(tenantId, id);
        this.items = this.items.filter((r) => r !== held);
        this.save();
        return held;
    }

    /** The engine's word on a backfill of the rule: how far it got (1: done). A backfill a later write replaced is not the rule's any more. */
    backfillProgress(tenantId: string, id: string, backfillId: string, progress: number): void {
        const r = this.items.find((x) => x.tenant_id === tenantId && x.id === id);
        if (!r || r.backfill_id !== backfillId) return;
        const done = progress >= 1;
        Object.assign(r, {
            backfill_progress: progress,
            backfill_status: done ? "completed" : "running",
            backfill_completed_at: done ? this.clock.iso() : null,
        });
        if (done) this.save();
    }

    /** A rule written from `body`: a `backfill_from` starts a new backfill (running, for the engine to take), else the held one's state stays. */
    private record(body: RunRuleWriteRequest, ids: Pick<RunRuleRecord, "id" | "tenant_id" | "created_at" | "updated_at">, held: Backfill): RunRuleRecord {
        const nulls = Object.fromEntries(NULLABLE.map((k) => [k, null]));
        const backfill: Backfill = body.backfill_from
            ? { ...NO_BACKFILL, backfill_id: randomUUID(), backfill_status: "running", backfill_progress: 0 }
            : {
                  backfill_id: held.backfill_id,
                  backfill_status: held.backfill_status,
                  backfill_progress: held.backfill_progress,
                  backfill_error: held.backfill_error,
                  backfill_completed_at: held.backfill_completed_at,
              };
        return {
            ...nulls,
            ...body,
            ...backfill,
            ...ids,
            is_enabled: body.is_enabled ?? true,
            webhooks: body.webhooks ?? [],
            code_evaluators: body.code_evaluators?.map((c) => ({ code: normalizeCode(c.code), language: c.language ?? "python" })) ?? null,
        };
    }

    /** The service's rules for a rule's body, each a 422 on the field (or a 404 for what it names and the workspace lacks). */
    private check(tenantId: string, b: RunRuleWriteRequest): void {
        if (b.sampling_rate < 0 || b.sampling_rate > 1) throw invalidField(["body", "sampling_rate"], "sampling_rate must be between 0 and 1");
        if (!b.session_id === !b.dataset_id) throw invalidField(["body"], "Exactly one of session_id or dataset_id must be set");
        const inline = (b.evaluators?.length ?? 0) + (b.code_evaluators?.length ?? 0) > 0;
        if (b.evaluator_id && inline) throw invalidField(["body", "evaluator_id"], "evaluator_id cannot be set together with evaluators or code_evaluators");
        for (const f of FILTERS) checkFilter(b[f], f);
        const missing = (what: string, id: string | null | undefined, look: (t: string, id: string) => string | undefined) => {
            if (id && look(tenantId, id) === undefined) throw new EmulatorError(404, { detail: `${what} ${id} not found` });
        };
        missing("Tracing project", b.session_id, (t, id) => this.targets.session(t, id));
        missing("Dataset", b.dataset_id, (t, id) => this.targets.dataset(t, id));
        missing("Dataset", b.add_to_dataset_id, (t, id) => this.targets.dataset(t, id));
        missing("Annotation queue", b.add_to_annotation_queue_id, (t, id) => this.targets.queue(t, id));
        missing("Evaluator", b.evaluator_id, (t, id) => this.targets.evaluator(t, id));
    }
}

/** A filter must parse and read only fields the emulator evaluates (as a bulk export's: bulkExport/model.ts). */
function checkFilter(filter: string | null | undefined, field: string): void {
    if (filter == null || filter === "") return;
    try {
        const unknown = unknownFields(parseFilter(filter));
        if (unknown.length) throw invalidField(["body", field], `Invalid filter: unknown field ${unknown.join(", ")} (fields: ${FILTER_FIELDS.join(", ")})`);
    } catch (e) {
        if (e instanceof FilterSyntaxError) throw invalidField(["body", field], `Invalid filter ${e.message}`);
        throw e;
    }
}
