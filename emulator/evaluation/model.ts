/**
 * Evaluation and review (docs/service.md R9): a workspace's feedback configs (one per feedback key: its type, range or
 * categories), its annotation queues (rubric, default dataset, reviewers, reservations) and the runs in them, kept in
 * `--state-dir` (`evaluation.json`). Feedback itself is feedback.ts.
 *
 * For a rule engine (or any other part of the emulator) `addRunsToQueue` puts traced runs in a queue as
 * `POST /annotation-queues/{id}/runs` does; it throws the same EmulatorErrors the route answers.
 *
 * Not emulated: pairwise queues, reviewers and their statuses (`assigned_reviewers` is empty, nothing is ever
 * completed or archived), reservations (stored, never taken), populating a queue from a filter, exporting it.
 */
import { randomUUID } from "node:crypto";
import {
    type AnnotationQueueCreateRequest,
    type AnnotationQueueUpdateRequest,
    type FeedbackConfigBody,
    type FeedbackConfigCreateRequest,
    type FeedbackConfigUpdateRequest,
    type RubricItem,
    feedbackConfigProblems,
} from "../../provider/api/schemas/evaluation";
import type { Clock } from "../core/clock";
import { EmulatorError, conflict, validation } from "../core/errors";
import { Store } from "../core/store";

export interface FeedbackConfigRecord {
    id: string;
    tenant_id: string;
    feedback_key: string;
    feedback_config: {
        type: FeedbackConfigBody["type"];
        min: number | null;
        max: number | null;
        categories: Array<{ value: number; label: string | null }> | null;
    };
    is_lower_score_better: boolean;
    is_enforced: boolean;
    modified_at: string;
}

export interface QueueRecord {
    id: string;
    tenant_id: string;
    name: string;
    description: string | null;
    default_dataset: string | null;
    num_reviewers_per_item: number;
    enable_reservations: boolean;
    reservation_minutes: number;
    reviewer_access_mode: string;
    rubric_items: RubricItem[] | null;
    rubric_instructions: string | null;
    metadata: Record<string, unknown> | null;
    /** The tracing projects the queue was made for (kept; the service answers them nowhere). */
    session_ids: string[];
    queue_type: "single";
    created_at: string;
    updated_at: string;
}

/** A run's place in a queue (`AnnotationQueueRunSchema`). */
export interface QueueRunRecord {
    id: string;
    queue_id: string;
    run_id: string;
    added_at: string;
    last_reviewed_time: string | null;
    source_proposed_example_id: string | null;
}

interface EvaluationState {
    configs: FeedbackConfigRecord[];
    queues: QueueRecord[];
    queueRuns: QueueRunRecord[];
}

const empty = (): EvaluationState => ({ configs: [], queues: [], queueRuns: [] });
const notFound = (detail: string) => new EmulatorError(404, { detail });

/** A feedback config's rules broken (docs/service.md R9.1) as the 422 the service answers. */
export function checkFeedbackConfig(c: FeedbackConfigBody, at: Array<string | number>): void {
    const problems = feedbackConfigProblems(c);
    if (problems.length) throw validation(problems.map(([field, msg]) => ({ loc: [...at, field], msg, type: "value_error" })));
}

/** What feedback and queues read of a traced run. */
export interface RunFacts {
    id: string;
    session_id: string;
    trace_id: string;
    parent_run_id: string | null;
    start_time: string | null;
}

/** What a workspace holds besides this area: its traced runs and datasets. */
export interface EvaluationLinks {
    /** A run the workspace has traced (its id lower case), or undefined. */
    run(tenantId: string, runId: string): RunFacts | undefined;
    /** Whether the workspace holds the dataset. */
    datasetExists(tenantId: string, datasetId: string): boolean;
}

export class EvaluationModel {
    private state: EvaluationState;
    private readonly store: Store<EvaluationState>;

    constructor(
        private readonly clock: Clock,
        readonly links: EvaluationLinks,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "evaluation.json");
        this.state = this.store.load() ?? empty();
    }

    reset(): void {
        this.state = empty();
        this.save();
    }

    private save(): void {
        this.store.save(this.state);
    }

    // ---- feedback configs ----

    /** The key's config in the workspace, if any. */
    configOf(tenantId: string, key: string): FeedbackConfigRecord | undefined {
        return this.state.configs.find((c) => c.tenant_id === tenantId && c.feedback_key === key);
    }

    /** A new key's config; a key that has one is 409 (an update is a PATCH). */
    createConfig(tenantId: string, body: FeedbackConfigCreateRequest): FeedbackConfigRecord {
        checkFeedbackConfig(body.feedback_config, ["body", "feedback_config"]);
        if (this.configOf(tenantId, body.feedback_key)) throw conflict(`Feedback config for key ${body.feedback_key} already exists`);
        const c: FeedbackConfigRecord = {
            id: randomUUID(),
            tenant_id: tenantId,
            feedback_key: body.feedback_key,
            feedback_config: normalConfig(body.feedback_config),
            is_lower_score_better: body.is_lower_score_better ?? false,
            is_enforced: body.is_enforced ?? false,
            modified_at: this.clock.iso(),
        };
        this.state.configs.push(c);
        this.save();
        return c;
    }

    /** The workspace's configs, most recently changed first (`desc`), else oldest first; `keys` exact, `nameContains` in the key. */
    listConfigs(tenantId: string, q: { keys: string[]; nameContains?: string; desc: boolean }): FeedbackConfigRecord[] {
        const found = this.state.configs
            .filter((c) => c.tenant_id === tenantId)
            .filter((c) => !q.keys.length || q.keys.includes(c.feedback_key))
            .filter((c) => !q.nameContains || c.feedback_key.toLowerCase().includes(q.nameContains.toLowerCase()));
        const sorted = found.sort((a, b) => a.modified_at.localeCompare(b.modified_at));
        return q.desc ? sorted.reverse() : sorted;
    }

    /** The config a PATCH or DELETE names: by its id when given, else by key. */
    private namedConfig(tenantId: string, key: string | undefined, id: string | null | undefined): FeedbackConfigRecord {
        const c = id ? this.state.configs.find((x) => x.tenant_id === tenantId && x.id === id) : key !== undefined ? this.configOf(tenantId, key) : undefined;
        if (!c) throw notFound(`Feedback config for key ${key ?? id} not found`);
        return c;
    }

    updateConfig(tenantId: string, body: FeedbackConfigUpdateRequest): FeedbackConfigRecord {
        const c = this.namedConfig(tenantId, body.feedback_key, body.id);
        if (body.feedback_config) {
            checkFeedbackConfig(body.feedback_config, ["body", "feedback_config"]);
            c.feedback_config = normalConfig(body.feedback_config);
        }
        if (body.is_lower_score_better != null) c.is_lower_score_better = body.is_lower_score_better;
        if (body.is_enforced != null) c.is_enforced = body.is_enforced;
        c.modified_at = this.clock.iso();
        this.save();
        return c;
    }

    deleteConfig(tenantId: string, key: string | undefined, id: string | undefined): void {
        const c = this.namedConfig(tenantId, key, id);
        this.state.configs = this.state.configs.filter((x) => x !== c);
        this.save();
    }

    // ---- annotation queues ----

    createQueue(tenantId: string, body: AnnotationQueueCreateRequest): QueueRecord {
        const id = (body.id ?? randomUUID()).toLowerCase();
        if (this.state.queues.some((q) => q.id === id)) throw conflict(`Annotation queue ${id} already exists`);
        this.checkDataset(tenantId, body.default_dataset);
        const now = this.clock.iso();
        const q: QueueRecord = {
            id,
            tenant_id: tenantId,
            name: body.name,
            description: body.description ?? null,
            default_dataset: body.default_dataset?.toLowerCase() ?? null,
            num_reviewers_per_item: body.num_reviewers_per_item ?? 1,
            enable_reservations: body.enable_reservations ?? true,
            reservation_minutes: body.reservation_minutes ?? 1,
            reviewer_access_mode: body.reviewer_access_mode ?? "any",
            rubric_items: body.rubric_items ?? null,
            rubric_instructions: body.rubric_instructions ?? null,
            metadata: body.metadata ?? null,
            session_ids: body.session_ids ?? [],
            queue_type: "single",
            created_at: now,
            updated_at: now,
        };
        this.state.queues.push(q);
        this.save();
        return q;
    }

    /** A default dataset the workspace does not hold is 404 (docs/service.md R9.2). */
    private checkDataset(tenantId: string, id: string | null | undefined): void {
        if (id && !this.links.datasetExists(tenantId, id.toLowerCase())) throw notFound(`Dataset ${id} not found`);
    }

    queue(tenantId: string, id: string): QueueRecord {
        const q = this.state.queues.find((x) => x.id === id.toLowerCase() && x.tenant_id === tenantId);
        if (!q) throw notFound(`Annotation queue ${id} not found`);
        return q;
    }

    /** The workspace's queues, newest first (`desc`), else oldest first. */
    listQueues(tenantId: string, q: { ids: string[]; name?: string; nameContains?: string; datasetId?: string; desc: boolean }): QueueRecord[] {
        const ids = q.ids.map((x) => x.toLowerCase());
        const found = this.state.queues
            .filter((x) => x.tenant_id === tenantId)
            .filter((x) => !ids.length || ids.includes(x.id))
            .filter((x) => q.name === undefined || x.name === q.name)
            .filter((x) => !q.nameContains || x.name.toLowerCase().includes(q.nameContains.toLowerCase()))
            .filter((x) => !q.datasetId || x.default_dataset === q.datasetId.toLowerCase());
        const sorted = found.sort((a, b) => a.created_at.localeCompare(b.created_at));
        return q.desc ? sorted.reverse() : sorted;
    }

    /** Absent fields stay as they are; `null` clears the ones that may be empty. The runs in the queue are untouched. */
    updateQueue(tenantId: string, id: string, body: AnnotationQueueUpdateRequest): QueueRecord {
        const q = this.queue(tenantId, id);
        this.checkDataset(tenantId, body.default_dataset);
        if (body.name != null) q.name = body.name;
        if (body.description !== undefined) q.description = body.description;
        if (body.default_dataset !== undefined) q.default_dataset = body.default_dataset?.toLowerCase() ?? null;
        if (body.num_reviewers_per_item != null) q.num_reviewers_per_item = body.num_reviewers_per_item;
        if (body.enable_reservations != null) q.enable_reservations = body.enable_reservations;
        if (body.reservation_minutes != null) q.reservation_minutes = body.reservation_minutes;
        if (body.reviewer_access_mode != null) q.reviewer_access_mode = body.reviewer_access_mode;
        if (body.rubric_items !== undefined) q.rubric_items = body.rubric_items;
        if (body.rubric_instructions !== undefined) q.rubric_instructions = body.rubric_instructions;
        if (body.metadata !== undefined) q.metadata = body.metadata;
        q.updated_at = this.clock.iso();
        this.save();
        return q;
    }

    /** Deletes a queue and the runs in it. */
    deleteQueue(tenantId: string, id: string): void {
        const q = this.queue(tenantId, id);
        this.state.queues = this.state.queues.filter((x) => x !== q);
        this.state.queueRuns = this.state.queueRuns.filter((r) => r.queue_id !== q.id);
        this.save();
    }

    // ---- the runs in a queue ----

    /** The queue's runs, in the order they were added. */
    queueRuns(queue: QueueRecord): QueueRunRecord[] {
        return this.state.queueRuns.filter((r) => r.queue_id === queue.id);
    }

    /**
     * Puts traced runs of the workspace in a queue (docs/service.md R9.3): a run already in it keeps its place (its
     * entry is answered again); a run the workspace has not traced is 404 and none of the request's runs are added.
     */
    addRunsToQueue(tenantId: string, queueId: string, runs: Array<{ run_id: string; source_proposed_example_id?: string | null }>): QueueRunRecord[] {
        const q = this.queue(tenantId, queueId);
        const missing = runs.find((r) => !this.links.run(tenantId, r.run_id.toLowerCase()));
        if (missing) throw notFound(`Run ${missing.run_id} not found`);
        // By run id, once per call: a rule engine adds runs to a queue of thousands (bench/ruleEngine.ts).
        const held = new Map(this.queueRuns(q).map((x) => [x.run_id, x]));
        const out = runs.map((r) => {
            const runId = r.run_id.toLowerCase();
            const found = held.get(runId);
            if (found) return found;
            const made: QueueRunRecord = {
                id: randomUUID(),
                queue_id: q.id,
                run_id: runId,
                added_at: this.clock.iso(),
                last_reviewed_time: null,
                source_proposed_example_id: r.source_proposed_example_id ?? null,
            };
            held.set(runId, made);
            this.state.queueRuns.push(made);
            return made;
        });
        this.save();
        return out;
    }

    /** A run's place in the queue, named by its own id (`queue_run_id`) or by the run's id (what the Python client sends). */
    private queueRunOf(q: QueueRecord, ref: string): QueueRunRecord {
        const id = ref.toLowerCase();
        const found = this.queueRuns(q).find((r) => r.id === id || r.run_id === id);
        if (!found) throw notFound(`Run ${ref} not found in annotation queue ${q.id}`);
        return found;
    }

    /** Takes a run out of a queue, named by its place in the queue (`queue_run_id`) or by the run's own id (what the Python client sends). */
    removeQueueRun(tenantId: string, queueId: string, ref: string): void {
        const q = this.queue(tenantId, queueId);
        const found = this.queueRunOf(q, ref);
        this.state.queueRuns = this.state.queueRuns.filter((r) => r !== found);
        this.save();
    }

    /** Marks a run of the queue (by `queue_run_id` or run id) reviewed at `at` (`null`: not reviewed). */
    reviewQueueRun(tenantId: string, queueId: string, ref: string, at: string | null): void {
        const q = this.queue(tenantId, queueId);
        const found = this.queueRunOf(q, ref);
        found.last_reviewed_time = at;
        this.save();
    }

    /** Takes the named runs out (or all but the excluded ones with `all`). */
    removeQueueRuns(tenantId: string, queueId: string, o: { all: boolean; runIds: string[]; exclude: string[] }): void {
        const q = this.queue(tenantId, queueId);
        const ids = new Set(o.runIds.map((x) => x.toLowerCase()));
        const keep = new Set(o.exclude.map((x) => x.toLowerCase()));
        const gone = (r: QueueRunRecord) => r.queue_id === q.id && (o.all ? !keep.has(r.run_id) : ids.has(r.run_id));
        this.state.queueRuns = this.state.queueRuns.filter((r) => !gone(r));
        this.save();
    }

    /** The workspace's queues that hold the run. */
    queuesOfRun(tenantId: string, runId: string): QueueRecord[] {
        const ids = new Set(this.state.queueRuns.filter((r) => r.run_id === runId.toLowerCase()).map((r) => r.queue_id));
        return this.state.queues.filter((q) => q.tenant_id === tenantId && ids.has(q.id));
    }
}

/** A config as the service keeps it: every field present, `null` where unset. */
function normalConfig(c: FeedbackConfigBody): FeedbackConfigRecord["feedback_config"] {
    return {
        type: c.type,
        min: c.min ?? null,
        max: c.max ?? null,
        categories: c.categories ? c.categories.map((x) => ({ value: x.value, label: x.label ?? null })) : null,
    };
}
