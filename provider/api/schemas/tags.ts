/**
 * The wire contract of resource tags (docs/service.md R13): a workspace's tag keys
 * (`/api/v1/workspaces/current/tag-keys`), their values (`.../tag-keys/{id}/tag-values`), the taggings that put a
 * value on an object (`/api/v1/workspaces/current/taggings`) and the reads by object (`/tags`, `/tags/resource`).
 * Request bodies are strict (the emulator refuses an unknown field with 422); answers are tolerant of fields this
 * provider does not read. The kinds of object the service tags are the description's `ResourceType` enum.
 */
import { z } from "zod";

/** What the service can tag (`ResourceType` of the description). */
export const TAGGABLE_TYPES = [
    "dashboard",
    "dataset",
    "deployment",
    "evaluator",
    "experiment",
    "fleet_integration",
    "mcp_server",
    "project",
    "prompt",
    "queue",
    "sandbox",
] as const;
export type TaggableType = (typeof TAGGABLE_TYPES)[number];

/** The longest key or value the service takes (`maxLength` of the description). */
export const TAG_TEXT_MAX = 255;

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");
const text = z.string().min(1).max(TAG_TEXT_MAX);
const nullableString = z.string().nullish();

/** POST tag-keys (`TagKeyCreate`). */
export const TagKeyCreateRequestSchema = z.object({ key: text, description: nullableString }).strict();
export type TagKeyCreateRequest = z.infer<typeof TagKeyCreateRequestSchema>;
/** PATCH tag-keys/{id} (`TagKeyUpdate`): absent or null fields stay as they are. */
export const TagKeyUpdateRequestSchema = z.object({ key: text.nullish(), description: nullableString }).strict();
export type TagKeyUpdateRequest = z.infer<typeof TagKeyUpdateRequestSchema>;

/** POST tag-keys/{id}/tag-values (`TagValueCreate`). */
export const TagValueCreateRequestSchema = z.object({ value: text, description: nullableString }).strict();
export type TagValueCreateRequest = z.infer<typeof TagValueCreateRequestSchema>;
/** PATCH tag-keys/{id}/tag-values/{id} (`TagValueUpdate`). */
export const TagValueUpdateRequestSchema = z.object({ value: text.nullish(), description: nullableString }).strict();
export type TagValueUpdateRequest = z.infer<typeof TagValueUpdateRequestSchema>;

/** POST taggings (`TaggingCreate`). */
export const TaggingCreateRequestSchema = z.object({ tag_value_id: uuid, resource_type: z.enum(TAGGABLE_TYPES), resource_id: uuid }).strict();
export type TaggingCreateRequest = z.infer<typeof TaggingCreateRequestSchema>;

export const TagKeySchema = z.object({
    id: z.string(),
    key: z.string(),
    description: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
});
export type TagKey = z.infer<typeof TagKeySchema>;

export const TagValueSchema = z.object({
    id: z.string(),
    tag_key_id: z.string(),
    value: z.string(),
    description: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
});
export type TagValue = z.infer<typeof TagValueSchema>;

export const TaggingSchema = z.object({
    id: z.string(),
    tag_value_id: z.string(),
    resource_type: z.string(),
    resource_id: z.string(),
    created_at: z.string(),
});
export type Tagging = z.infer<typeof TaggingSchema>;

/** GET tags: every key with its values (`TagKeyWithValues`). */
export const TagKeyWithValuesSchema = TagKeySchema.extend({ values: z.array(TagValueSchema).default([]) });
export type TagKeyWithValues = z.infer<typeof TagKeyWithValuesSchema>;

/** GET tags/resource: the keys and values on one object, each value with its taggings (`TagKeyWithValuesAndTaggings`). */
export const TagKeyOnResourceSchema = TagKeySchema.extend({
    values: z.array(TagValueSchema.extend({ taggings: z.array(TaggingSchema).default([]) })).default([]),
});
export type TagKeyOnResource = z.infer<typeof TagKeyOnResourceSchema>;
