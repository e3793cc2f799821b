/**
 * The wire contract of run queries (docs/service.md R5 "Reading traced runs"): what the official clients'
 * `list_runs` / `listRuns` post to `/runs/query` (`BodyParamsForRunsQuerySchema`), and what their newer `runs.query`
 * posts to `/api/v2/runs/query` (`query.QueryRunsRequestBody`). The provider sends neither; the emulator parses them here. Both take what
 * LangSmith's description declares and, unlike the other request schemas, ignore a field it does not (decided: the
 * official Python client's `read_run(load_child_runs=True)` sends `session_id` beside the declared fields, and the
 * v2 clients newer fields such as `include_subtree_usage`).
 */
import { z } from "zod";
import { dateTime } from "./common";

/** What a run's `run_type` may be (`RunTypeEnum`). */
export const RUN_TYPES = ["llm", "chain", "tool", "retriever", "embedding", "prompt", "parser"] as const;

/** The columns `/runs/query` may select (`RunSelect`). */
export const RUN_SELECTS = [
    "id",
    "name",
    "run_type",
    "start_time",
    "end_time",
    "status",
    "error",
    "extra",
    "events",
    "inputs",
    "inputs_preview",
    "inputs_s3_urls",
    "inputs_or_signed_url",
    "outputs",
    "outputs_preview",
    "outputs_s3_urls",
    "outputs_or_signed_url",
    "s3_urls",
    "error_or_signed_url",
    "events_or_signed_url",
    "extra_or_signed_url",
    "serialized_or_signed_url",
    "parent_run_id",
    "manifest_id",
    "manifest_s3_id",
    "manifest",
    "session_id",
    "serialized",
    "reference_example_id",
    "reference_dataset_id",
    "total_tokens",
    "prompt_tokens",
    "prompt_token_details",
    "completion_tokens",
    "completion_token_details",
    "total_cost",
    "prompt_cost",
    "prompt_cost_details",
    "completion_cost",
    "completion_cost_details",
    "price_model_id",
    "first_token_time",
    "trace_id",
    "dotted_order",
    "last_queued_at",
    "feedback_stats",
    "child_run_ids",
    "parent_run_ids",
    "tags",
    "in_dataset",
    "app_path",
    "share_token",
    "trace_tier",
    "trace_first_received_at",
    "ttl_seconds",
    "trace_upgrade",
    "thread_id",
    "trace_min_max_start_time",
    "messages",
    "inserted_at",
] as const;
export type RunSelect = (typeof RUN_SELECTS)[number];

/** What `/runs/query` selects when the body names nothing (the description's default of `select`): every column but these. */
const NOT_BY_DEFAULT: readonly RunSelect[] = [
    "inputs_preview",
    "inputs_s3_urls",
    "inputs_or_signed_url",
    "outputs_preview",
    "outputs_s3_urls",
    "outputs_or_signed_url",
    "s3_urls",
    "error_or_signed_url",
    "events_or_signed_url",
    "extra_or_signed_url",
    "serialized_or_signed_url",
    "child_run_ids",
    "trace_min_max_start_time",
    "messages",
    "inserted_at",
];
export const DEFAULT_RUN_SELECT: readonly RunSelect[] = RUN_SELECTS.filter((c) => !NOT_BY_DEFAULT.includes(c));

/** A UUID as the service's framework reads one (32 hex digits, any version, dashes optional), in its canonical form. */
const uuid = z
    .string()
    .regex(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i, "Input should be a valid UUID")
    .transform((s) =>
        s
            .toLowerCase()
            .replace(/-/g, "")
            .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-"),
    );
const uuids = z.array(uuid).nullish();
const text = z.string().nullish();
const flag = z.boolean().nullish();

/** POST /runs/query (`/api/v1` or bare) body: `BodyParamsForRunsQuerySchema`. */
export const RunsQueryRequestSchema = z.object({
    id: uuids,
    trace: uuid.nullish(),
    parent_run: uuid.nullish(),
    run_type: z.enum(RUN_TYPES).nullish(),
    session: uuids,
    reference_example: uuids,
    execution_order: z.number().int().min(1).max(1).nullish(),
    start_time: dateTime.nullish(),
    end_time: dateTime.nullish(),
    error: flag,
    query: text,
    filter: text,
    trace_filter: text,
    tree_filter: text,
    is_root: flag,
    data_source_type: z.enum(["current", "historical", "lite", "root_lite", "runs_feedbacks_rmt_wide"]).nullish(),
    skip_pagination: flag,
    search_filter: text,
    use_experimental_search: z.boolean().optional(),
    cursor: text,
    limit: z.number().int().min(1).max(100).optional(),
    select: z.array(z.enum(RUN_SELECTS)).optional(),
    order: z.enum(["asc", "desc"]).optional(),
    skip_prev_cursor: z.boolean().optional(),
});
export type RunsQueryRequest = z.infer<typeof RunsQueryRequestSchema>;

/** The fields `/api/v2/runs/query` may select (`query.RunSelectField`); without `selects` a run is its `id` alone. */
export const RUN_SELECT_FIELDS = [
    "ID",
    "NAME",
    "RUN_TYPE",
    "STATUS",
    "START_TIME",
    "END_TIME",
    "LATENCY_SECONDS",
    "FIRST_TOKEN_TIME",
    "ERROR",
    "ERROR_PREVIEW",
    "EXTRA",
    "METADATA",
    "EVENTS",
    "INPUTS",
    "INPUTS_PREVIEW",
    "OUTPUTS",
    "OUTPUTS_PREVIEW",
    "MANIFEST",
    "PARENT_RUN_IDS",
    "PROJECT_ID",
    "TRACE_ID",
    "THREAD_ID",
    "DOTTED_ORDER",
    "IS_ROOT",
    "REFERENCE_EXAMPLE_ID",
    "REFERENCE_DATASET_ID",
    "TOTAL_TOKENS",
    "PROMPT_TOKENS",
    "COMPLETION_TOKENS",
    "TOTAL_COST",
    "PROMPT_COST",
    "COMPLETION_COST",
    "PROMPT_TOKEN_DETAILS",
    "COMPLETION_TOKEN_DETAILS",
    "PROMPT_COST_DETAILS",
    "COMPLETION_COST_DETAILS",
    "PRICE_MODEL_ID",
    "TAGS",
    "APP_PATH",
    "ATTACHMENTS",
    "THREAD_EVALUATION_TIME",
    "IS_IN_DATASET",
    "SHARE_URL",
    "FEEDBACK_STATS",
] as const;
export type RunSelectField = (typeof RUN_SELECT_FIELDS)[number];

/** POST /api/v2/runs/query body: `query.QueryRunsRequestBody` (`ai_search` is the clients' name of `ai_query`). */
export const RunsQueryV2RequestSchema = z.object({
    ai_query: text,
    ai_search: text,
    cursor: text,
    filter: text,
    has_error: flag,
    ids: uuids,
    is_root: flag,
    max_start_time: dateTime.nullish(),
    min_start_time: dateTime.nullish(),
    page_size: z.number().int().min(1).max(1000).nullish(),
    project_ids: uuids,
    reference_dataset_id: uuid.nullish(),
    reference_examples: uuids,
    run_type: z.enum(RUN_TYPES.map((t) => t.toUpperCase()) as [string, ...string[]]).nullish(),
    selects: z.array(z.enum(RUN_SELECT_FIELDS)).nullish(),
    sort_order: z.enum(["ASC", "DESC"]).nullish(),
    trace_filter: text,
    trace_id: uuid.nullish(),
    tree_filter: text,
});
export type RunsQueryV2Request = z.infer<typeof RunsQueryV2RequestSchema>;
