/**
 * The wire contract of the playground's saved model configurations (docs/service.md R8.7): `/api/v1/playground-
 * settings`. Requests are strict (the emulator refuses an unknown field with 422); answers are tolerant.
 * `settings` is a serialized LangChain chat model (`{lc: 1, type: "constructor", id: [...], kwargs: {...}}`),
 * its API key a secret reference by name (`{lc: 1, type: "secret", id: ["OPENAI_API_KEY"]}`).
 */
import { z } from "zod";

const nullableString = z.string().nullish();
const options = z.object({ requests_per_second: z.number().int().nullish() }).strict().nullish();
const oauth = {
    oauth_enabled: z.boolean().nullish(),
    oauth_token_url: nullableString,
    oauth_client_id: nullableString,
    oauth_client_secret: nullableString,
    oauth_token_endpoint_auth_method: z.enum(["client_secret_basic", "client_secret_post"]).nullish(),
    oauth_params: z.record(z.string(), z.array(z.string())).nullish(),
    oauth_headers: z.record(z.string(), z.array(z.string())).nullish(),
};
const availability = {
    available_in_playground: z.boolean().nullish(),
    available_in_evaluators: z.boolean().nullish(),
    available_in_agent_builder: z.boolean().nullish(),
    available_in_polly: z.boolean().nullish(),
    available_in_insights_heavy: z.boolean().nullish(),
    available_in_insights_light: z.boolean().nullish(),
};

/** POST /api/v1/playground-settings body (`PlaygroundSettingsCreateRequest`). */
export const PlaygroundCreateRequestSchema = z
    .object({
        name: nullableString,
        description: nullableString,
        settings: z.record(z.string(), z.unknown()),
        options,
        settings_type: z.enum(["complex", "simple"]).optional(),
        ...oauth,
    })
    .strict();
export type PlaygroundCreateRequest = z.infer<typeof PlaygroundCreateRequestSchema>;

/** PATCH /api/v1/playground-settings/{id} body (`PlaygroundSettingsUpdateRequest`): absent fields stay. */
export const PlaygroundUpdateRequestSchema = z
    .object({
        name: nullableString,
        description: nullableString,
        settings: z.record(z.string(), z.unknown()).nullish(),
        options,
        ...availability,
        ...oauth,
    })
    .strict();
export type PlaygroundUpdateRequest = z.infer<typeof PlaygroundUpdateRequestSchema>;

/** A saved configuration as the service answers it (`PlaygroundSettingsResponse`). */
export const PlaygroundSettingsSchema = z
    .object({
        id: z.string(),
        name: nullableString,
        description: nullableString,
        settings: z.record(z.string(), z.unknown()),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type PlaygroundSettings = z.infer<typeof PlaygroundSettingsSchema>;
export const PlaygroundSettingsListSchema = z.array(PlaygroundSettingsSchema);
