/**
 * The wire contract of evaluation and review (docs/service.md R9): feedback configs (`/api/v1/feedback-configs`, one per
 * feedback key), annotation queues (`/api/v1/annotation-queues[/{id}]`) and the runs in them, and feedback
 * (`/api/v1/feedback`). Requests the provider sends are strict (the emulator refuses an unknown field with 422), except
 * a feedback's create, which the official clients fill with fields of their own; answers are tolerant of fields this
 * provider does not read.
 */
import { z } from "zod";
import { dateTime, filledString } from "./common";

/** A uuid as the service's framework reads one (any version). */
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");
const nullableString = z.string().nullish();
const metadata = z.record(z.string(), z.unknown()).nullish();

export const FEEDBACK_TYPES = ["continuous", "categorical", "freeform"] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** A category of a categorical feedback key (`FeedbackCategory`): its score, and the label a reviewer sees. */
export const FeedbackCategorySchema = z.object({ value: z.number(), label: z.string().min(1).nullish() }).strict();

/**
 * What scores a key takes (`FeedbackConfig`): continuous between `min` and `max`, categorical among `categories`, or
 * freeform. The description checks no more than the shapes; the service's own rules (docs/service.md R9.1) are
 * `feedbackConfigProblems`.
 */
export const FeedbackConfigBodySchema = z
    .object({
        type: z.enum(FEEDBACK_TYPES),
        min: z.number().nullish(),
        max: z.number().nullish(),
        categories: z.array(FeedbackCategorySchema).nullish(),
    })
    .strict();
export type FeedbackConfigBody = z.infer<typeof FeedbackConfigBodySchema>;

/**
 * The rules a feedback config must keep (docs/service.md R9.1, decided): `min` not above `max`; a categorical key has
 * at least one category, their values distinct; min and max belong to a continuous key, categories to a categorical
 * one. Answers `[field, message]` pairs (the provider words them as property errors at preview; the emulator as 422s).
 */
export function feedbackConfigProblems(c: FeedbackConfigBody): Array<[field: "min" | "max" | "categories", message: string]> {
    const out: Array<["min" | "max" | "categories", string]> = [];
    if (c.type === "continuous") {
        if (c.min != null && c.max != null && c.min > c.max) out.push(["min", `min (${c.min}) is above max (${c.max})`]);
        if (c.categories?.length) out.push(["categories", "categories belong to a categorical key, not a continuous one"]);
    } else {
        if (c.min != null) out.push(["min", `min belongs to a continuous key, not a ${c.type} one`]);
        if (c.max != null) out.push(["max", `max belongs to a continuous key, not a ${c.type} one`]);
    }
    if (c.type === "categorical") {
        const values = (c.categories ?? []).map((x) => x.value);
        const twice = values.find((v, i) => values.indexOf(v) !== i);
        if (values.length === 0) out.push(["categories", "categories must hold at least one category for a categorical key"]);
        else if (twice !== undefined) out.push(["categories", `categories must have distinct values (${twice} is there twice)`]);
    }
    if (c.type === "freeform" && c.categories?.length) out.push(["categories", "categories belong to a categorical key, not a freeform one"]);
    return out;
}

/** POST /api/v1/feedback-configs body (`CreateFeedbackConfigSchema`; `is_enforced`: newer than the description, the Python client sends it). */
export const FeedbackConfigCreateRequestSchema = z
    .object({
        feedback_key: filledString,
        feedback_config: FeedbackConfigBodySchema,
        is_lower_score_better: z.boolean().nullish(),
        is_enforced: z.boolean().nullish(),
    })
    .strict();
export type FeedbackConfigCreateRequest = z.infer<typeof FeedbackConfigCreateRequestSchema>;

/** PATCH /api/v1/feedback-configs body (`UpdateFeedbackConfigSchema`): absent fields stay; `id`: the Python client's `config_id`. */
export const FeedbackConfigUpdateRequestSchema = z
    .object({
        feedback_key: z.string(),
        id: uuid.nullish(),
        feedback_config: FeedbackConfigBodySchema.nullish(),
        is_lower_score_better: z.boolean().nullish(),
        is_enforced: z.boolean().nullish(),
    })
    .strict();
export type FeedbackConfigUpdateRequest = z.infer<typeof FeedbackConfigUpdateRequestSchema>;

/** A feedback config as the service answers it (`FeedbackConfigSchema`). */
export const FeedbackConfigSchema = z
    .object({
        feedback_key: z.string(),
        feedback_config: z
            .object({
                type: z.enum(FEEDBACK_TYPES),
                min: z.number().nullish(),
                max: z.number().nullish(),
                categories: z.array(z.object({ value: z.number(), label: nullableString }).passthrough()).nullish(),
            })
            .passthrough(),
        tenant_id: z.string(),
        modified_at: z.string(),
        is_lower_score_better: z.boolean().nullish(),
    })
    .passthrough();
export type FeedbackConfig = z.infer<typeof FeedbackConfigSchema>;

/** A rubric item of a queue (`AnnotationQueueRubricItemSchema`): a feedback key a reviewer scores, with what its values and scores mean. */
export const RubricItemSchema = z
    .object({
        feedback_key: filledString,
        description: nullableString,
        value_descriptions: z.record(z.string(), z.string()).nullish(),
        score_descriptions: z.record(z.string(), z.string()).nullish(),
        is_required: z.boolean().nullish(),
        is_assertion: z.boolean().nullish(),
    })
    .strict();
export type RubricItem = z.infer<typeof RubricItemSchema>;

/** A count the description leaves unbounded that the emulator keeps at 1 or more (docs/service.md R9.2, decided: a rule of its own, a `value_error`). */
const atLeastOne = z.number().refine((n) => Number.isInteger(n) && n >= 1, "must be a whole number, at least 1");

/** The fields a queue's create and update share. */
const queueFields = {
    description: nullableString,
    default_dataset: uuid.nullish(),
    num_reviewers_per_item: atLeastOne.nullish(),
    enable_reservations: z.boolean().nullish(),
    reservation_minutes: atLeastOne.nullish(),
    rubric_items: z.array(RubricItemSchema).nullish(),
    rubric_instructions: nullableString,
    metadata,
};

/** POST /api/v1/annotation-queues body (`AnnotationQueueCreateSchema`); `id` chosen by the caller, as the official clients do. */
export const AnnotationQueueCreateRequestSchema = z
    .object({
        name: filledString,
        id: uuid.optional(),
        created_at: dateTime.optional(),
        updated_at: dateTime.optional(),
        reviewer_access_mode: z.string().optional(),
        session_ids: z.array(uuid).nullish(),
        ...queueFields,
    })
    .strict();
export type AnnotationQueueCreateRequest = z.infer<typeof AnnotationQueueCreateRequestSchema>;

/** PATCH /api/v1/annotation-queues/{queue_id} body (`AnnotationQueueUpdateSchema`): absent fields stay, `null` clears. */
export const AnnotationQueueUpdateRequestSchema = z
    .object({
        name: filledString.nullish(),
        reviewer_access_mode: z.enum(["any", "assigned"]).nullish(),
        ...queueFields,
    })
    .strict();
export type AnnotationQueueUpdateRequest = z.infer<typeof AnnotationQueueUpdateRequestSchema>;

/** An annotation queue as the service answers it (`AnnotationQueueSchemaWithRubric` by id; the list's `...WithSize` lacks the rubric). */
export const AnnotationQueueSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        tenant_id: z.string(),
        description: nullableString,
        default_dataset: nullableString,
        num_reviewers_per_item: z.number().nullish(),
        enable_reservations: z.boolean().nullish(),
        reservation_minutes: z.number().nullish(),
        metadata,
        rubric_items: z.array(RubricItemSchema.passthrough()).nullish(),
        rubric_instructions: nullableString,
        queue_type: z.string().optional(),
        created_at: z.string().optional(),
        updated_at: z.string().optional(),
        total_runs: z.number().optional(),
    })
    .passthrough();
export type AnnotationQueue = z.infer<typeof AnnotationQueueSchema>;

/**
 * POST /api/v1/annotation-queues/{queue_id}/runs body: run ids, or objects naming them (`AddRunToQueueRequest`,
 * the deprecated `AnnotationQueueRunAddSchema`).
 */
export const QueueRunsAddRequestSchema = z.union([
    z.array(uuid),
    z.array(
        z
            .object({
                run_id: uuid,
                source_proposed_example_id: uuid.nullish(),
                start_time: dateTime.nullish(),
                session_id: uuid.nullish(),
                trace_id: uuid.nullish(),
                parent_run_id: uuid.nullish(),
                trace_tier: z.enum(["longlived", "shortlived"]).nullish(),
            })
            .strict(),
    ),
]);

/** POST /api/v1/annotation-queues/{queue_id}/runs/delete body (`AnnotationQueueBulkDeleteRunsRequest`). */
export const QueueRunsDeleteRequestSchema = z
    .object({ delete_all: z.boolean().optional(), run_ids: z.array(uuid).nullish(), exclude_run_ids: z.array(uuid).nullish() })
    .strict();

/** A run's place in a queue (`AnnotationQueueRunSchema`). */
export const QueueRunSchema = z
    .object({ id: z.string(), run_id: z.string(), queue_id: z.string(), added_at: z.string().optional(), last_reviewed_time: nullableString })
    .passthrough();
export type QueueRun = z.infer<typeof QueueRunSchema>;

/**
 * POST /api/v1/feedback body (`FeedbackCreateSchema`). Not strict: the official clients send fields of their own
 * (`extend_trace_retention`, `address`), which the service's framework ignores.
 */
export const FeedbackCreateRequestSchema = z
    .object({
        key: filledString.pipe(z.string().max(180)),
        id: uuid.optional(),
        run_id: uuid.nullish(),
        trace_id: uuid.nullish(),
        session_id: uuid.nullish(),
        score: z.union([z.number(), z.boolean()]).nullish(),
        value: z.union([z.number(), z.boolean(), z.string(), z.record(z.string(), z.unknown())]).nullish(),
        comment: nullableString,
        correction: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
        feedback_group_id: uuid.nullish(),
        comparative_experiment_id: uuid.nullish(),
        start_time: dateTime.nullish(),
        created_at: dateTime.optional(),
        modified_at: dateTime.optional(),
        feedback_source: z
            .object({ type: z.enum(["app", "api", "model", "auto_eval"]).optional(), metadata: z.record(z.string(), z.unknown()).nullish() })
            .passthrough()
            .nullish(),
        feedback_config: FeedbackConfigBodySchema.nullish(),
        error: z.boolean().nullish(),
        extra: z.record(z.string(), z.unknown()).nullish(),
    })
    .passthrough();
export type FeedbackCreateRequest = z.infer<typeof FeedbackCreateRequestSchema>;
