/**
 * The evaluation and review area (docs/service.md R9) on the tracing API, under `/api/v1` and under no prefix
 * (Router.onApi): feedback configs (`/feedback-configs`, named by key), annotation queues (`/annotation-queues[/{id}]`)
 * and the runs in them (`.../runs`, `.../run/{index}`, `.../size`, `.../total_size`), and feedback (`/feedback`).
 * Routes parse with the request schemas of the shared wire contract; the models decide (model.ts, feedback.ts).
 *
 * `model.addRunsToQueue` and `feedback.storeFeedback` are what a rule engine calls to act on a traced run.
 */
import {
    AnnotationQueueCreateRequestSchema,
    AnnotationQueueUpdateRequestSchema,
    FeedbackConfigCreateRequestSchema,
    FeedbackConfigUpdateRequestSchema,
    FeedbackCreateRequestSchema,
    QueueRunsAddRequestSchema,
    QueueRunsDeleteRequestSchema,
} from "../../provider/api/schemas/evaluation";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { EmulatorError, invalidField, requireUuid, requireUuidAt } from "../core/errors";
import { boolParam, page, pagination, parse, type RequestContext, type Router, uuidParams } from "../core/http";
import { FeedbackStore, type FeedbackRecord } from "./feedback";
import { EvaluationModel, type EvaluationLinks, type FeedbackConfigRecord, type QueueRecord, type QueueRunRecord } from "./model";

export interface EvaluationArea extends Area {
    readonly model: EvaluationModel;
    readonly feedback: FeedbackStore;
}

/** `links.runView`: a traced run as `GET /runs/{id}` answers it (the queue's runs are answered so). */
export function evaluationArea(o: {
    clock: Clock;
    stateDir?: string;
    links: EvaluationLinks & { runView(tenantId: string, runId: string): Record<string, unknown> | undefined };
}): EvaluationArea {
    const model = new EvaluationModel(o.clock, o.links, o.stateDir);
    const feedback = new FeedbackStore(o.clock, model, o.stateDir);
    return {
        name: "evaluation",
        model,
        feedback,
        keyWorkspace: [/^(\/api\/v1)?\/(feedback|feedback-configs|annotation-queues)(\/|$)/],
        notEmulated: [
            /^(\/api\/v1)?\/annotation-queues\/(populate|status)(\/|$)/,
            /^(\/api\/v1)?\/annotation-queues\/[^/]+\/(export|runs\/by-key|runs\/resolve)(\/|$)/,
            /^(\/api\/v1)?\/feedback\/(tokens|eager)(\/|$)/,
            /^(\/api\/v1)?\/platform\/annotation-queues(\/|$)/,
        ],
        register(router) {
            registerConfigs(router, model);
            registerQueues(router, model);
            registerQueueRuns(router, model, o.links.runView);
            registerFeedback(router, feedback);
        },
        reset: () => {
            model.reset();
            feedback.reset();
        },
    };
}

/** A config as the service answers it (`FeedbackConfigSchema`; `id` and `is_enforced` newer than the description). */
const configView = ({ tenant_id, feedback_key, feedback_config, is_lower_score_better, modified_at, id, is_enforced }: FeedbackConfigRecord) => ({
    feedback_key,
    feedback_config,
    tenant_id,
    modified_at,
    is_lower_score_better,
    id,
    is_enforced,
});

/** `/feedback-configs`: list (`key` repeated, `name_contains`, paged), create, update and delete by key (or `id`). */
function registerConfigs(router: Router, model: EvaluationModel): void {
    router
        .onApi("GET", "/feedback-configs", (c) => {
            const keys = c.query.getAll("key");
            if (keys.length > 50) throw invalidField(["query", "key"], "List should have at most 50 items after validation", "too_long");
            boolParam(c, "read_after_write");
            boolParam(c, "include_all_configs");
            const all = model.listConfigs(c.tenantId, {
                keys,
                nameContains: c.query.get("name_contains") ?? undefined,
                desc: boolParam(c, "sort_by_desc", true) ?? true,
            });
            return { status: 200, body: page(c, all, { maxLimit: 100 }).map(configView) };
        })
        .onApi("POST", "/feedback-configs", (c) => ({
            status: 200,
            body: configView(model.createConfig(c.tenantId, parse(FeedbackConfigCreateRequestSchema, c.body, "body"))),
        }))
        .onApi("PATCH", "/feedback-configs", (c) => ({
            status: 200,
            body: configView(model.updateConfig(c.tenantId, parse(FeedbackConfigUpdateRequestSchema, c.body, "body"))),
        }))
        .onApi("DELETE", "/feedback-configs", (c) => {
            const key = c.query.get("feedback_key") ?? undefined;
            const id = c.query.get("id") ?? undefined;
            if (key === undefined && id === undefined) throw invalidField(["query", "feedback_key"], "Field required", "missing");
            model.deleteConfig(c.tenantId, key, id === undefined ? undefined : requireUuidAt(id, ["query", "id"]));
            return { status: 204 };
        });
}

/** A queue as a read answers it (`AnnotationQueueSchemaWithRubric`); a default dataset deleted since reads as none. */
function queueView(model: EvaluationModel, q: QueueRecord) {
    const { session_ids: _s, default_dataset, ...rest } = q;
    const dataset = default_dataset && model.links.datasetExists(q.tenant_id, default_dataset) ? default_dataset : null;
    return { ...rest, default_dataset: dataset, source_rule_id: null, run_rule_id: null, assigned_reviewers: [] };
}

/** `/annotation-queues[/{queue_id}]`: create, list (with `total_runs`, no rubric), read, update, delete (one, or `?queue_ids=`). */
function registerQueues(router: Router, model: EvaluationModel): void {
    const id = (c: RequestContext) => requireUuid(c.params.queue_id, "queue_id").toLowerCase();
    const withRubric = (q: QueueRecord) => queueView(model, q);
    router
        .onApi("POST", "/annotation-queues", (c) => ({
            status: 200,
            body: withRubric(model.createQueue(c.tenantId, parse(AnnotationQueueCreateRequestSchema, c.body, "body"))),
        }))
        .onApi("GET", "/annotation-queues", (c) => {
            const queueType = c.query.get("queue_type");
            if (queueType !== null && !["single", "pairwise"].includes(queueType)) {
                throw invalidField(["query", "queue_type"], "Input should be 'single' or 'pairwise'", "enum");
            }
            const dataset = c.query.get("dataset_id");
            const all = model.listQueues(c.tenantId, {
                ids: uuidParams(c, "ids"),
                name: c.query.get("name") ?? undefined,
                nameContains: c.query.get("name_contains") ?? undefined,
                datasetId: dataset === null ? undefined : requireUuidAt(dataset, ["query", "dataset_id"]),
                desc: boolParam(c, "sort_by_desc", true) ?? true,
            });
            const listed = queueType === "pairwise" ? [] : page(c, all, { defaultLimit: 100, maxLimit: 100 });
            return {
                status: 200,
                body: listed.map(({ rubric_items: _r, rubric_instructions: _i, ...q }) => ({
                    ...withRubric(q as QueueRecord),
                    total_runs: model.queueRuns(q as QueueRecord).length,
                })),
            };
        })
        .onApi("DELETE", "/annotation-queues", (c) => {
            const ids = uuidParams(c, "queue_ids");
            if (!ids.length) throw invalidField(["query", "queue_ids"], "Field required", "missing");
            for (const q of ids) model.deleteQueue(c.tenantId, q);
            return { status: 200, body: {} };
        })
        .onApi("GET", "/annotation-queues/{queue_id}", (c) => ({ status: 200, body: withRubric(model.queue(c.tenantId, id(c))) }))
        .onApi("PATCH", "/annotation-queues/{queue_id}", (c) => ({
            status: 200,
            body: withRubric(model.updateQueue(c.tenantId, id(c), parse(AnnotationQueueUpdateRequestSchema, c.body, "body"))),
        }))
        .onApi("DELETE", "/annotation-queues/{queue_id}", (c) => {
            model.deleteQueue(c.tenantId, id(c));
            return { status: 200, body: {} };
        });
}

/** A run in a queue as the queue's reads answer it (`RunSchemaWithAnnotationQueueInfo`). */
type RunView = (tenantId: string, runId: string) => Record<string, unknown> | undefined;
function queueRunView(runView: RunView, tenantId: string, r: QueueRunRecord) {
    return {
        ...runView(tenantId, r.run_id),
        queue_run_id: r.id,
        added_at: r.added_at,
        effective_added_at: r.added_at,
        last_reviewed_time: r.last_reviewed_time,
        source_proposed_example_id: r.source_proposed_example_id,
        reserved_by: [],
        completed_by: [],
    };
}

/** `/annotation-queues/{queue_id}/runs...`: add, list (paged), read by index, count, change, take out (one, or many). */
function registerQueueRuns(router: Router, model: EvaluationModel, runView: RunView): void {
    const queueOf = (c: RequestContext) => model.queue(c.tenantId, requireUuid(c.params.queue_id, "queue_id"));
    /** The queue's runs still traced (a run of a deleted project is gone from its queues too). */
    const present = (c: RequestContext) => model.queueRuns(queueOf(c)).filter((r) => runView(c.tenantId, r.run_id));
    const size = (n: number) => ({ status: 200, body: { size: n } });
    router
        .onApi("POST", "/annotation-queues/{queue_id}/runs", (c) => {
            const body = parse(QueueRunsAddRequestSchema, c.body, "body");
            const runs = body.map((r) => (typeof r === "string" ? { run_id: r } : r));
            return { status: 200, body: model.addRunsToQueue(c.tenantId, queueOf(c).id, runs) };
        })
        .onApi("GET", "/annotation-queues/{queue_id}/runs", (c) => {
            const status = c.query.get("status");
            if (status !== null && !["needs_my_review", "needs_others_review", "completed"].includes(status)) {
                throw invalidField(["query", "status"], "Input should be 'needs_my_review', 'needs_others_review' or 'completed'", "literal_error");
            }
            boolParam(c, "include_stats");
            // Nothing is ever completed or archived in the emulator (model.ts).
            const all = status === "completed" || status === "needs_others_review" || boolParam(c, "archived") ? [] : present(c);
            const { limit, offset } = pagination(c.query, 100, 100);
            return { status: 200, body: all.slice(offset, offset + limit).map((r) => queueRunView(runView, c.tenantId, r)) };
        })
        .onApi("GET", "/annotation-queues/{queue_id}/run/{index}", (c) => {
            const index = Number(c.params.index);
            if (!Number.isInteger(index))
                throw invalidField(["path", "index"], "Input should be a valid integer, unable to parse string as an integer", "int_parsing");
            const r = present(c)[index];
            if (!r || index < 0) throw new EmulatorError(404, { detail: `No run at index ${index} of annotation queue ${c.params.queue_id}` });
            return { status: 200, body: queueRunView(runView, c.tenantId, r) };
        })
        .onApi("GET", "/annotation-queues/{queue_id}/size", (c) => size(c.query.get("status") === "completed" ? 0 : present(c).length))
        .onApi("GET", "/annotation-queues/{queue_id}/total_size", (c) => size(present(c).length))
        .onApi("GET", "/annotation-queues/{queue_id}/total_archived", (c) => (queueOf(c), size(0)))
        .onApi("PATCH", "/annotation-queues/{queue_id}/runs/{queue_run_id}", (c) => {
            const body = (c.body ?? {}) as { last_reviewed_time?: string | null };
            model.reviewQueueRun(c.tenantId, queueOf(c).id, requireUuid(c.params.queue_run_id, "queue_run_id"), body.last_reviewed_time ?? null);
            return { status: 200, body: {} };
        })
        .onApi("DELETE", "/annotation-queues/{queue_id}/runs/{queue_run_id}", (c) => {
            model.removeQueueRun(c.tenantId, queueOf(c).id, requireUuid(c.params.queue_run_id, "queue_run_id"));
            return { status: 200, body: {} };
        })
        .onApi("POST", "/annotation-queues/{queue_id}/runs/delete", (c) => {
            const body = parse(QueueRunsDeleteRequestSchema, c.body ?? {}, "body");
            model.removeQueueRuns(c.tenantId, queueOf(c).id, {
                all: body.delete_all ?? false,
                runIds: body.run_ids ?? [],
                exclude: body.exclude_run_ids ?? [],
            });
            return { status: 200, body: {} };
        })
        .onApi("GET", "/annotation-queues/{run_id}/queues", (c) => ({
            status: 200,
            body: model.queuesOfRun(c.tenantId, requireUuid(c.params.run_id, "run_id")).map((q) => {
                const { rubric_items: _r, rubric_instructions: _i, ...v } = queueView(model, q);
                return v;
            }),
        }));
}

/** A feedback as the service answers it (`FeedbackSchema`: no tenant). */
const feedbackView = ({ tenant_id: _t, ...f }: FeedbackRecord) => f;

/** `/feedback[/{feedback_id}]`: create, list (by run, key, project, source; paged), read, change, delete. */
function registerFeedback(router: Router, feedback: FeedbackStore): void {
    const id = (c: RequestContext) => requireUuid(c.params.feedback_id, "feedback_id");
    router
        .onApi("POST", "/feedback", (c) => ({
            status: 200,
            body: feedbackView(feedback.storeFeedback(c.tenantId, parse(FeedbackCreateRequestSchema, c.body, "body"))),
        }))
        .onApi("GET", "/feedback", (c) => {
            const all = feedback.list(c.tenantId, {
                runs: uuidParams(c, "run"),
                keys: c.query.getAll("key"),
                sessions: uuidParams(c, "session"),
                sources: c.query.getAll("source"),
                hasScore: boolParam(c, "has_score"),
                hasComment: boolParam(c, "has_comment"),
            });
            return { status: 200, body: page(c, all, { defaultLimit: 100, maxLimit: 100 }).map(feedbackView) };
        })
        .onApi("GET", "/feedback/{feedback_id}", (c) => ({ status: 200, body: feedbackView(feedback.get(c.tenantId, id(c))) }))
        .onApi("PATCH", "/feedback/{feedback_id}", (c) => {
            const change = parse(
                FeedbackCreateRequestSchema.pick({ score: true, value: true, comment: true, correction: true }).strict(),
                c.body ?? {},
                "body",
            );
            return { status: 200, body: feedbackView(feedback.update(c.tenantId, id(c), change)) };
        })
        .onApi("DELETE", "/feedback/{feedback_id}", (c) => {
            feedback.delete(c.tenantId, id(c));
            return { status: 200, body: {} };
        });
}
