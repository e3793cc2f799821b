/**
 * The wire contract of the automations (docs/service.md R10): saved evaluators (`/api/v1/platform/evaluators`,
 * `evaluators.*` in the description), run rules (`/api/v1/runs/rules`, `RunRules*Schema`) and alert rules
 * (`/api/v1/platform/alerts/{session_id}`, `alerts.*`). Requests are strict (the emulator refuses an unknown
 * field); answers are tolerant of fields this provider does not read.
 */
import { z } from "zod";
import { dateTime, filledString } from "./common";

const nullableString = z.string().nullish();
const uuidish = z.string().uuid().nullish();

export const EVALUATOR_TYPES = ["llm", "code"] as const;
export const CODE_LANGUAGES = ["python", "javascript"] as const;

/** A saved LLM-as-judge evaluator: a prompt of the hub (its handle and commit or tag) and how run fields fill its variables. */
export const LlmEvaluatorSchema = z
    .object({
        prompt_repo_handle: z.string().optional(),
        commit_hash_or_tag: z.string().optional(),
        variable_mapping: z.record(z.string(), z.unknown()).optional(),
        num_few_shot_examples: z.number().int().optional(),
        use_corrections_dataset: z.boolean().optional(),
    })
    .strict();
export const CodeEvaluatorSchema = z.object({ code: z.string().optional(), language: z.string().optional() }).strict();

/** POST /api/v1/platform/evaluators (`evaluators.CreateEvaluatorRequest`). */
export const EvaluatorCreateRequestSchema = z
    .object({
        name: z.string().optional(),
        type: z.string().optional(),
        llm_evaluator: LlmEvaluatorSchema.optional(),
        code_evaluator: CodeEvaluatorSchema.optional(),
    })
    .strict();
export type EvaluatorCreateRequest = z.infer<typeof EvaluatorCreateRequestSchema>;

/** PATCH /api/v1/platform/evaluators/{id} (`evaluators.UpdateEvaluatorRequest`): absent fields stay. */
export const EvaluatorUpdateRequestSchema = EvaluatorCreateRequestSchema.omit({ type: true });
export type EvaluatorUpdateRequest = z.infer<typeof EvaluatorUpdateRequestSchema>;

/** A saved evaluator as answered (`evaluators.Evaluator`), with the run rules using it. */
export const EvaluatorSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        type: z.string(),
        llm_evaluator: z.record(z.string(), z.unknown()).nullish(),
        code_evaluator: z.object({ code: z.string().optional(), language: z.string().optional() }).passthrough().nullish(),
        feedback_keys: z.array(z.string()).nullish(),
        run_rules: z.array(z.object({ id: z.string() }).passthrough()).nullish(),
        created_at: z.string().optional(),
        updated_at: z.string().optional(),
    })
    .passthrough();
export type Evaluator = z.infer<typeof EvaluatorSchema>;

/** A webhook of a run rule (`RunRulesWebhookSchema`): its headers carry credentials. */
export const RuleWebhookSchema = z.object({ url: z.string(), headers: z.record(z.string(), z.string()).nullish() }).strict();
/** An inline LLM evaluator of a rule (`EvaluatorTopLevel`). */
export const InlineEvaluatorSchema = z
    .object({
        structured: z
            .object({
                hub_ref: nullableString,
                prompt: z.array(z.tuple([z.string(), z.string()])).nullish(),
                template_format: nullableString,
                schema: z.record(z.string(), z.unknown()).nullish(),
                variable_mapping: z.record(z.string(), z.string()).nullish(),
                model: z.record(z.string(), z.unknown()).nullish(),
            })
            .strict(),
    })
    .strict();
/** An inline code evaluator of a rule (`CodeEvaluatorTopLevel`). */
export const InlineCodeEvaluatorSchema = z.object({ code: z.string(), language: z.enum(CODE_LANGUAGES).nullish() }).strict();

/** POST /api/v1/runs/rules and PATCH .../{id} (`RunRulesCreateSchema`, `RunRulesUpdateSchema`: the same fields). */
export const RunRuleWriteRequestSchema = z
    .object({
        display_name: filledString,
        sampling_rate: z.number(),
        session_id: uuidish,
        dataset_id: uuidish,
        is_enabled: z.boolean().optional(),
        filter: nullableString,
        trace_filter: nullableString,
        tree_filter: nullableString,
        backfill_from: dateTime.nullish(),
        use_corrections_dataset: z.boolean().optional(),
        num_few_shot_examples: z.number().int().nullish(),
        extend_only: z.boolean().optional(),
        transient: z.boolean().optional(),
        add_to_annotation_queue_id: uuidish,
        add_to_dataset_id: uuidish,
        add_to_dataset_prefer_correction: z.boolean().optional(),
        evaluators: z.array(InlineEvaluatorSchema).nullish(),
        code_evaluators: z.array(InlineCodeEvaluatorSchema).nullish(),
        evaluator_id: uuidish,
        alerts: z.array(z.record(z.string(), z.unknown())).nullish(),
        webhooks: z.array(RuleWebhookSchema).nullish(),
        evaluator_version: z.number().int().nullish(),
        create_alignment_queue: z.boolean().optional(),
        include_extended_stats: z.boolean().optional(),
        group_by: z.literal("thread_id").nullish(),
        spend_limit: z.record(z.string(), z.unknown()).nullish(),
        tracer_session_issue_id: uuidish,
    })
    .strict();
export type RunRuleWriteRequest = z.infer<typeof RunRuleWriteRequestSchema>;

/** A run rule as answered (`RunRulesSchema`). */
export const RunRuleSchema = z
    .object({
        id: z.string(),
        display_name: z.string(),
        sampling_rate: z.number(),
        is_enabled: z.boolean().optional(),
        session_id: nullableString,
        dataset_id: nullableString,
        filter: nullableString,
        trace_filter: nullableString,
        tree_filter: nullableString,
        backfill_from: nullableString,
        add_to_annotation_queue_id: nullableString,
        add_to_dataset_id: nullableString,
        evaluator_id: nullableString,
        evaluators: z.array(z.unknown()).nullish(),
        code_evaluators: z.array(z.object({ code: z.string(), language: nullableString }).passthrough()).nullish(),
        webhooks: z.array(z.object({ url: z.string(), headers: z.record(z.string(), z.string()).nullish() }).passthrough()).nullish(),
    })
    .passthrough();
export type RunRule = z.infer<typeof RunRuleSchema>;

export const ALERT_ATTRIBUTES = ["latency", "error_count", "feedback_score", "run_latency", "run_count", "total_cost"] as const;
export const ALERT_AGGREGATIONS = ["avg", "sum", "pct"] as const;
export const ALERT_OPERATORS = ["gte", "lte", "gt", "lt"] as const;
export const ALERT_TARGETS = ["webhook", "pagerduty", "dynatrace"] as const;

/** The rule of an alert (`alerts.AlertRuleBase`). */
export const AlertRuleBodySchema = z
    .object({
        id: z.string().optional(),
        name: z.string(),
        description: z.string(),
        type: z.enum(["threshold", "change"]),
        attribute: z.enum(ALERT_ATTRIBUTES),
        aggregation: z.enum(ALERT_AGGREGATIONS),
        window_minutes: z.number().int().min(1).max(60),
        operator: z.enum(ALERT_OPERATORS),
        threshold: z.number().optional(),
        threshold_multiplier: z.number().optional(),
        threshold_window_minutes: z.number().int().max(60).optional(),
        filter: z.string().optional(),
        denominator_filter: z.string().optional(),
    })
    .strict();
/** An action of an alert (`alerts.AlertActionBase`): its `config` an object, or the JSON of one as some clients send it. */
export const AlertActionBodySchema = z
    .object({
        id: z.string().optional(),
        alert_rule_id: z.string().optional(),
        target: z.enum(ALERT_TARGETS),
        config: z.union([z.record(z.string(), z.unknown()), z.string()]),
    })
    .strict();
/** POST /api/v1/platform/alerts/{session_id} and PATCH .../{id} (`alerts.CreateAlertRuleRequest`, `UpdateAlertRuleRequest`). */
export const AlertWriteRequestSchema = z.object({ rule: AlertRuleBodySchema, actions: z.array(AlertActionBodySchema) }).strict();
export type AlertWriteRequest = z.infer<typeof AlertWriteRequestSchema>;

/** An alert as answered (`alerts.AlertRuleResponse`). */
export const AlertSchema = z
    .object({
        rule: z.object({ id: z.string(), session_id: z.string().optional() }).passthrough(),
        actions: z.array(z.object({ target: z.string(), config: z.unknown() }).passthrough()),
    })
    .passthrough();
export type Alert = z.infer<typeof AlertSchema>;

/**
 * How the service keeps an evaluator's code (docs/service.md R10.1, decided): line ends as `\n`, no whitespace at
 * the end of a line or of the code. The provider compares code through it, so what the service rewrote never diffs.
 */
export const normalizeCode = (code: string): string =>
    code
        .replace(/\r\n?/g, "\n")
        .split("\n")
        .map((l) => l.replace(/[ \t]+$/, ""))
        .join("\n")
        .replace(/\s+$/, "");
