/**
 * The wire contract of the LLM gateway's policies (docs/service.md R19.1): `/v1/platform/gateway-policies[/{id}]` in
 * the description (`gateway_policies.*`), with what real-service-notes.md §10 adds (rate limits, guards' PII rules and
 * timeout action, `X-Gateway-*` header matchers). `config` is an object whose shape depends on `policy_type`: the
 * description's two shapes and the decided rate-limit one (R19.1). Requests are strict; answers tolerant of fields
 * this provider does not read. Also the gateway's OpenAI-compatible chat completion (R19.2), as the check sends it.
 */
import { z } from "zod";

export const POLICY_TYPES = ["spend_cap", "default_spend_cap", "rate_limit", "default_rate_limit", "guard"] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];
/** A policy's family: a create whose matchers equal an existing policy's of its family updates that policy (R19.1). */
export const FAMILY: Readonly<Record<PolicyType, "spend" | "rate" | "guard">> = {
    spend_cap: "spend",
    default_spend_cap: "spend",
    rate_limit: "rate",
    default_rate_limit: "rate",
    guard: "guard",
};
/** The default policies: a matcher with the value `""` stands for each value of its key (a child per value). */
export const isDefaultType = (t: string): boolean => t === "default_spend_cap" || t === "default_rate_limit";
export const SPEND_WINDOWS = ["hourly", "daily", "weekly", "monthly"] as const;
export const RATE_WINDOWS = ["minute", "hour"] as const;
export const RATE_UNITS = ["requests", "tokens"] as const;
export const TIMEOUT_ACTIONS = ["block", "allow"] as const;
/** The PII kinds a guard's rules name (decided: R19.1). */
export const PII_RULES = ["email", "phone", "ssn", "credit_card", "ip_address", "person_name", "address"] as const;
/** The matcher keys the service itself knows; any other key is a request header's (`X-Gateway-Customer`: `customer`). */
export const BUILTIN_KEYS = ["organization_id", "workspace_id", "user_id", "api_key_id", "run_rule_id"] as const;
export const HEADER_PREFIX = "X-Gateway-";
/** A header's name as a matcher's key: the prefix dropped, the rest lower snake case (`X-Gateway-My-Team`: `my_team`). */
export const headerKey = (header: string): string => header.slice(HEADER_PREFIX.length).toLowerCase().replace(/-/g, "_");
/** A matcher's key as the header a client sends (`my_team`: `X-Gateway-My-Team`). */
export const keyHeader = (key: string): string =>
    HEADER_PREFIX +
    key
        .split("_")
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join("-");
/** A header name a matcher takes: `X-Gateway-` then letters, digits and dashes. */
export const HEADER_NAME = /^x-gateway-[a-z0-9]+(-[a-z0-9]+)*$/i;

export const SubjectMatcherSchema = z.object({ key: z.string().min(1), value: z.string() }).strict();
export type SubjectMatcher = z.infer<typeof SubjectMatcherSchema>;

export const SpendCapConfigSchema = z.object({ window: z.enum(SPEND_WINDOWS), limit_usd: z.number().positive() }).strict();
export const RateLimitConfigSchema = z.object({ unit: z.enum(RATE_UNITS), window: z.enum(RATE_WINDOWS), limit: z.number().int().positive() }).strict();
export const GuardConfigSchema = z
    .object({
        version: z.literal(1),
        detect: z.object({ pii: z.boolean().optional(), secrets: z.boolean().optional() }).strict(),
        pii: z
            .object({ rules: z.array(z.enum(PII_RULES)) })
            .strict()
            .optional(),
        timeout_seconds: z.number().min(0.1).max(30).optional(),
        timeout_action: z.enum(TIMEOUT_ACTIONS).optional(),
    })
    .strict();
export type SpendCapConfig = z.infer<typeof SpendCapConfigSchema>;
export type RateLimitConfig = z.infer<typeof RateLimitConfigSchema>;
export type GuardConfig = z.infer<typeof GuardConfigSchema>;

/** The config schema of a policy type. */
export const configSchemaOf = (t: PolicyType) =>
    FAMILY[t] === "spend" ? SpendCapConfigSchema : FAMILY[t] === "rate" ? RateLimitConfigSchema : GuardConfigSchema;

export const GatewayPolicyCreateRequestSchema = z
    .object({
        name: z.string().min(1),
        description: z.string().optional(),
        policy_type: z.enum(POLICY_TYPES),
        action: z.literal("block").optional(),
        subject_matchers: z.array(SubjectMatcherSchema).min(1),
        config: z.record(z.string(), z.unknown()),
        priority: z.number().int().optional(),
        enabled: z.boolean().optional(),
    })
    .strict();
export type GatewayPolicyCreateRequest = z.infer<typeof GatewayPolicyCreateRequestSchema>;

/** PATCH gateway-policies/{id}: absent fields stay; `policy_type` is immutable (not in the body). */
export const GatewayPolicyUpdateRequestSchema = GatewayPolicyCreateRequestSchema.omit({ policy_type: true }).partial().strict();
export type GatewayPolicyUpdateRequest = z.infer<typeof GatewayPolicyUpdateRequestSchema>;

export const GatewayPolicySchema = z
    .object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullish(),
        policy_type: z.string(),
        action: z.string().nullish(),
        subject_matchers: z.array(z.object({ key: z.string(), value: z.string() })),
        config: z.record(z.string(), z.unknown()),
        priority: z.number().nullish(),
        enabled: z.boolean(),
        organization_id: z.string().nullish(),
        current_spend_usd: z.number().nullish(),
        parent_policy_id: z.string().nullish(),
        is_system_generated: z.boolean().nullish(),
        created_at: z.string().nullish(),
        updated_at: z.string().nullish(),
    })
    .passthrough();
export type GatewayPolicy = z.infer<typeof GatewayPolicySchema>;

/** The gateway's error body (`gateway_policies.errorResponse`, and the gateway's own refusals: R19.2). */
export const GatewayErrorSchema = z.object({ error: z.string() }).passthrough();

/** An OpenAI-compatible chat completion request, as far as the gateway reads it (R19.2). */
export const ChatCompletionRequestSchema = z
    .object({
        model: z.string().min(1),
        messages: z.array(z.object({ role: z.string(), content: z.string() }).passthrough()).min(1),
        max_tokens: z.number().int().positive().optional(),
    })
    .passthrough();
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

export const ChatCompletionSchema = z
    .object({
        id: z.string(),
        object: z.literal("chat.completion"),
        model: z.string(),
        choices: z.array(z.object({ index: z.number(), message: z.object({ role: z.string(), content: z.string() }), finish_reason: z.string() })),
        usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }),
    })
    .passthrough();
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;
