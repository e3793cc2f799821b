/**
 * Feedback on traced runs (docs/service.md R9.4): made (`POST /feedback`, or `storeFeedback` from inside the emulator:
 * a rule engine's scores), read, listed by run, key, project and source, changed, deleted, kept in `--state-dir`
 * (`feedback.json`). Feedback under a key that has a feedback config must fit it (`fitsConfig`: decided): a continuous
 * key's score within its min and max, a categorical key's score among its categories' values; a freeform key takes
 * any. A run the workspace has not traced is 404 (the Python client retries on it: ingestion may not have caught up).
 *
 * A run's read and the run queries answer the feedback stored on it as its `feedback_stats` (tracing/query.ts).
 * Not emulated: feedback sent inside a trace upload (`feedback.<id>` parts of `/runs/multipart` are dropped),
 * feedback tokens, formulas; a feedback's own `feedback_config` is not stored as the key's config.
 */
import { randomUUID } from "node:crypto";
import type { FeedbackCreateRequest } from "../../provider/api/schemas/evaluation";
import type { Clock } from "../core/clock";
import { EmulatorError, invalidField } from "../core/errors";
import { Store } from "../core/store";
import type { EvaluationModel, FeedbackConfigRecord } from "./model";

/** A feedback as the service answers it (`FeedbackSchema`). */
export interface FeedbackRecord {
    id: string;
    tenant_id: string;
    key: string;
    score: number | boolean | null;
    value: unknown;
    comment: string | null;
    correction: unknown;
    feedback_group_id: string | null;
    comparative_experiment_id: string | null;
    run_id: string | null;
    session_id: string | null;
    trace_id: string | null;
    start_time: string | null;
    is_root: boolean;
    feedback_source: { type: string; metadata: Record<string, unknown> | null; user_id: null; ls_user_id: null; user_name: null };
    extra: Record<string, unknown> | null;
    created_at: string;
    modified_at: string;
}

/** What a list filters on (each empty: any). */
export interface FeedbackQuery {
    runs: string[];
    keys: string[];
    sessions: string[];
    sources: string[];
    hasScore?: boolean;
    hasComment?: boolean;
}

/** The changes a PATCH makes (`FeedbackUpdateSchema`). */
export interface FeedbackChange {
    score?: number | boolean | null;
    value?: unknown;
    comment?: string | null;
    correction?: unknown;
}

/**
 * Whether a score and value fit the key's config (docs/service.md R9.4, decided); a 422 at `body.score` (or
 * `body.value`) otherwise. A feedback without a score (a comment, a correction) fits any key.
 */
export function fitsConfig(config: FeedbackConfigRecord | undefined, score: unknown, value: unknown): void {
    if (!config || config.feedback_config.type === "freeform") return;
    const { type, min, max, categories } = config.feedback_config;
    const key = config.feedback_key;
    const n = typeof score === "boolean" ? Number(score) : score;
    if (type === "continuous" && n != null) {
        if (typeof n !== "number") throw invalidField(["body", "score"], `Feedback key ${key} is continuous: its score must be a number`);
        if ((min != null && n < min) || (max != null && n > max)) {
            throw invalidField(["body", "score"], `Score ${n} is outside the range [${min ?? "-inf"}, ${max ?? "inf"}] of feedback key ${key}`);
        }
    }
    if (type === "categorical") {
        const values = (categories ?? []).map((c) => c.value);
        if (n != null && !values.includes(n as number)) {
            throw invalidField(["body", "score"], `Score ${String(n)} is not a category of feedback key ${key} (${values.join(", ")})`);
        }
        const labels = (categories ?? []).map((c) => c.label).filter((l) => l != null);
        if (typeof value === "string" && !labels.includes(value)) {
            throw invalidField(["body", "value"], `Value ${value} is not a category of feedback key ${key} (${labels.join(", ")})`);
        }
    }
}

export class FeedbackStore {
    private items: FeedbackRecord[];
    private readonly store: Store<FeedbackRecord[]>;

    constructor(
        private readonly clock: Clock,
        private readonly model: EvaluationModel,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "feedback.json");
        this.items = this.store.load() ?? [];
    }

    reset(): void {
        this.items = [];
        this.store.save(this.items);
    }

    /**
     * Stores a feedback on a traced run (or on a project alone: `session_id`, no run), as `POST /feedback` does; throws
     * the route's errors (the run unknown: 404; the score outside its key's config: 422; the id taken: 409).
     */
    storeFeedback(tenantId: string, body: FeedbackCreateRequest): FeedbackRecord {
        const runId = (body.run_id ?? body.trace_id)?.toLowerCase() ?? null;
        const run = runId ? this.model.links.run(tenantId, runId) : undefined;
        if (runId && !run) throw new EmulatorError(404, { detail: `Run ${runId} not found` });
        if (!runId && !body.session_id) throw invalidField(["body", "run_id"], "A feedback names a run or a project (session_id)");
        fitsConfig(this.model.configOf(tenantId, body.key), body.score, body.value);
        const id = (body.id ?? randomUUID()).toLowerCase();
        if (this.items.some((f) => f.id === id)) throw new EmulatorError(409, { detail: `Feedback ${id} already exists` });
        const now = this.clock.iso();
        const f: FeedbackRecord = {
            id,
            tenant_id: tenantId,
            key: body.key,
            score: body.score ?? null,
            value: body.value ?? null,
            comment: body.comment ?? null,
            correction: body.correction ?? null,
            feedback_group_id: body.feedback_group_id ?? null,
            comparative_experiment_id: body.comparative_experiment_id ?? null,
            run_id: runId,
            session_id: run?.session_id ?? body.session_id?.toLowerCase() ?? null,
            trace_id: run?.trace_id ?? null,
            start_time: run?.start_time ?? body.start_time ?? null,
            is_root: run ? run.parent_run_id === null : false,
            feedback_source: {
                type: body.feedback_source?.type ?? "api",
                metadata: body.feedback_source?.metadata ?? null,
                user_id: null,
                ls_user_id: null,
                user_name: null,
            },
            extra: body.extra ?? null,
            created_at: now,
            modified_at: now,
        };
        this.items.push(f);
        this.store.save(this.items);
        return f;
    }

    get(tenantId: string, id: string): FeedbackRecord {
        const f = this.items.find((x) => x.id === id.toLowerCase() && x.tenant_id === tenantId);
        if (!f) throw new EmulatorError(404, { detail: `Feedback ${id} not found` });
        return f;
    }

    /** The workspace's feedback that the query names, newest first. */
    list(tenantId: string, q: FeedbackQuery): FeedbackRecord[] {
        const lower = (xs: string[]) => new Set(xs.map((x) => x.toLowerCase()));
        const [runs, sessions] = [lower(q.runs), lower(q.sessions)];
        return this.items
            .filter((f) => f.tenant_id === tenantId)
            .filter((f) => !runs.size || (f.run_id !== null && runs.has(f.run_id)))
            .filter((f) => !q.keys.length || q.keys.includes(f.key))
            .filter((f) => !sessions.size || (f.session_id !== null && sessions.has(f.session_id)))
            .filter((f) => !q.sources.length || q.sources.includes(f.feedback_source.type))
            .filter((f) => q.hasScore === undefined || (f.score !== null) === q.hasScore)
            .filter((f) => q.hasComment === undefined || (f.comment !== null) === q.hasComment)
            .reverse();
    }

    /** Changes the fields given; a new score or value must still fit the key's config. */
    update(tenantId: string, id: string, change: FeedbackChange): FeedbackRecord {
        const f = this.get(tenantId, id);
        const score = change.score !== undefined ? change.score : f.score;
        const value = change.value !== undefined ? change.value : f.value;
        fitsConfig(this.model.configOf(tenantId, f.key), score, value);
        Object.assign(f, { score, value });
        if (change.comment !== undefined) f.comment = change.comment;
        if (change.correction !== undefined) f.correction = change.correction;
        f.modified_at = this.clock.iso();
        this.store.save(this.items);
        return f;
    }

    delete(tenantId: string, id: string): void {
        const f = this.get(tenantId, id);
        this.items = this.items.filter((x) => x !== f);
        this.store.save(this.items);
    }
}
