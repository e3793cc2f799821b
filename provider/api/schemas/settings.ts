/**
 * The wire contract of the settings that govern tracing (docs/service.md R11): usage limits per workspace
 * (`/api/v1/usage-limits`) and the retention settings (TTL settings) of a workspace and of the organization
 * (`/api/v1/ttl-settings`, `/api/v1/orgs/ttl-settings`, and a workspace's long-lived days under
 * `/workspaces/current/ttl-settings`). Request bodies are strict (the emulator refuses an unknown field with
 * 422); answers are tolerant of fields this provider does not read.
 */
import { z } from "zod";

/** An integer of any size, as the service's framework takes one (zod's `int()` stops at the safe integers). */
const integer = z.number().refine((v) => Number.isInteger(v), "Input should be a valid integer");
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");

/** The kinds of usage limit: all traces of a month, or the long-lived (extended retention) ones. One of each per workspace. */
export const USAGE_LIMIT_TYPES = ["monthly_traces", "monthly_longlived_traces"] as const;
export type UsageLimitType = (typeof USAGE_LIMIT_TYPES)[number];

/** The retention tiers of a trace: long-lived (400 days by default) or short-lived (14 days). */
export const RETENTION_TIERS = ["longlived", "shortlived"] as const;
export type RetentionTier = (typeof RETENTION_TIERS)[number];

/** The days a long-lived trace is kept when nobody chose otherwise (docs/service.md R11). */
export const DEFAULT_LONGLIVED_DAYS = 400;
/** The days a short-lived trace is kept. */
export const SHORTLIVED_DAYS = 14;

/** PUT /api/v1/usage-limits body: with `id`, that limit changed; without, a new one (its type not yet limited). */
export const UsageLimitUpsertSchema = z
    .object({
        limit_type: z.enum(USAGE_LIMIT_TYPES),
        limit_value: integer,
        id: uuid.optional(),
    })
    .strict();
export type UsageLimitUpsert = z.infer<typeof UsageLimitUpsertSchema>;

/** A usage limit as answered. */
export const UsageLimitSchema = z
    .object({
        id: z.string(),
        tenant_id: z.string(),
        limit_type: z.enum(USAGE_LIMIT_TYPES),
        limit_value: z.number(),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type UsageLimit = z.infer<typeof UsageLimitSchema>;

/** PUT /api/v1/ttl-settings (a workspace's) and /api/v1/orgs/ttl-settings (the organization's) body. */
export const TtlSettingsUpsertSchema = z
    .object({
        tenant_id: uuid.nullish(),
        default_trace_tier: z.enum(RETENTION_TIERS),
        apply_to_all_projects: z.boolean().default(false),
    })
    .strict();
export type TtlSettingsUpsert = z.input<typeof TtlSettingsUpsertSchema>;

/** TTL settings as answered: `tenant_id` null for the organization's own. */
export const TtlSettingsSchema = z
    .object({
        id: z.string(),
        organization_id: z.string(),
        tenant_id: z.string().nullish(),
        default_trace_tier: z.enum(RETENTION_TIERS),
        apply_to_all_projects: z.boolean().nullish(),
        longlived_ttl_days: z.number().nullish(),
        configured_by: z.string().nullish(),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type TtlSettings = z.infer<typeof TtlSettingsSchema>;

/** PUT /workspaces/current/ttl-settings body: the days a workspace keeps its long-lived traces (absent: unchanged, as the description allows). */
export const LonglivedDaysUpdateSchema = z.object({ longlived_ttl_days: integer.optional() }).strict();

/** GET and PUT /workspaces/current/ttl-settings answer: `is_custom` false while the default holds. */
export const LonglivedDaysSchema = z.object({ tenant_id: z.string(), longlived_ttl_days: z.number(), is_custom: z.boolean() }).passthrough();
export type LonglivedDays = z.infer<typeof LonglivedDaysSchema>;
