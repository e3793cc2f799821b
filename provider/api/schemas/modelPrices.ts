/**
 * The wire contract of the workspace's model price map (docs/service.md R15): `/api/v1/model-price-map[/{id}]`, the
 * price per token of the models whose name an entry's `match_pattern` matches, from which the service derives the
 * cost of traced LLM runs. Requests are the description's `ModelPriceMapCreateSchema` and `ModelPriceMapUpdateSchema`
 * (strict: the emulator refuses an unknown field with 422); the answers, which the description leaves untyped, are
 * read tolerantly.
 */
import { z } from "zod";

/** Where the service looks for a run's model name in its invocation parameters, in order (the description's default `match_path`). */
export const DEFAULT_MATCH_PATH = ["model", "model_name", "model_id", "model_path", "endpoint_name"] as const;

/**
 * A price per token: a number, or a decimal number as a string (the description's `number | string`; a string that is
 * no decimal is the service's own refusal, on its field: docs/service.md R15.2).
 */
const price = z.union([z.number(), z.string()]);
const prices = z.record(z.string(), price).nullish();

/** POST /api/v1/model-price-map (`ModelPriceMapCreateSchema`); PUT .../{id} takes the same whole entry (`ModelPriceMapUpdateSchema`). */
export const ModelPriceCreateRequestSchema = z
    .object({
        name: z.string(),
        start_time: z.string().nullish(),
        match_path: z.array(z.string()).optional(),
        match_pattern: z.string(),
        prompt_cost: price,
        completion_cost: price,
        prompt_cost_details: prices,
        completion_cost_details: prices,
        provider: z.string().nullish(),
    })
    .strict();
export type ModelPriceCreateRequest = z.infer<typeof ModelPriceCreateRequestSchema>;

/** PUT /api/v1/model-price-map/{id}: the whole entry again (every field the create has; an absent optional one is cleared). */
export const ModelPriceUpdateRequestSchema = ModelPriceCreateRequestSchema;
export type ModelPriceUpdateRequest = ModelPriceCreateRequest;

const answeredPrice = z.union([z.number(), z.string()]);

/** An entry as the service answers it; `tenant_id` null for the service's built-in entries (docs/service.md R15.1). */
export const ModelPriceSchema = z.looseObject({
    id: z.string(),
    tenant_id: z.string().nullish(),
    name: z.string(),
    start_time: z.string().nullish(),
    match_path: z.array(z.string()).nullish(),
    match_pattern: z.string(),
    prompt_cost: answeredPrice,
    completion_cost: answeredPrice,
    prompt_cost_details: z.record(z.string(), answeredPrice).nullish(),
    completion_cost_details: z.record(z.string(), answeredPrice).nullish(),
    provider: z.string().nullish(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

export const ModelPriceListSchema = z.array(ModelPriceSchema);

/**
 * An entry's `match_pattern` as a regular expression, as the service (Python `re`) reads it: a leading `(?i)` is the
 * ignore-case flag and `(?P<name>...)` a named group, which JavaScript writes otherwise (docs/service.md R15.3).
 * Throws the engine's SyntaxError for a pattern that does not compile; the provider's check and the emulator share it.
 */
export function matchPatternRegExp(pattern: string): RegExp {
    const ignoreCase = pattern.startsWith("(?i)");
    const body = (ignoreCase ? pattern.slice(4) : pattern).replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, "\\k<$1>");
    return new RegExp(body, ignoreCase ? "i" : "");
}
