/**
 * The wire contract of datasets (docs/service.md R5): what `POST/PATCH /api/v1/datasets` take (strict: the
 * emulator refuses an unknown field with 422, as the service does) and what the service answers (tolerant
 * of fields this provider does not read). A dataset's name is unique in its workspace; its data type is
 * fixed at creation; its examples are data, not infrastructure (the SDKs write them).
 */
import { z } from "zod";
import { dateTime, filledString } from "./common";

const nullableString = z.string().nullish();
const jsonObject = z.record(z.string(), z.unknown()).nullish();

/** What a dataset's examples hold: key-value pairs, LLM prompts and completions, or chat messages. */
export const DATA_TYPES = ["kv", "llm", "chat"] as const;

/**
 * POST /api/v1/datasets body. The metadata travels under `extra.metadata`, as the official clients send it
 * (the Python client also always sends `transformations`, null when none).
 */
export const DatasetCreateRequestSchema = z
    .object({
        id: nullableString,
        name: filledString,
        description: nullableString,
        data_type: z.enum(DATA_TYPES).nullish(),
        inputs_schema_definition: jsonObject,
        outputs_schema_definition: jsonObject,
        transformations: z.array(z.unknown()).nullish(),
        tag_value_ids: z.array(z.string()).nullish(),
        created_at: dateTime.nullish(),
        externally_managed: z.boolean().nullish(),
        extra: jsonObject,
    })
    .strict();
export type DatasetCreateRequest = z.infer<typeof DatasetCreateRequestSchema>;

/**
 * PATCH /api/v1/datasets/{id} body: absent fields are left as they are. `patch_examples` changes examples, which
 * the emulator does not keep (501 when given); `transformations` and `baseline_experiment_id` are kept.
 */
export const DatasetUpdateRequestSchema = z
    .object({
        name: nullableString,
        description: nullableString,
        inputs_schema_definition: jsonObject,
        outputs_schema_definition: jsonObject,
        metadata: jsonObject,
        transformations: z.array(z.unknown()).nullish(),
        baseline_experiment_id: nullableString,
        patch_examples: jsonObject,
    })
    .strict();
export type DatasetUpdateRequest = z.infer<typeof DatasetUpdateRequestSchema>;

/** A dataset as the service answers it. */
export const DatasetSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        tenant_id: z.string(),
        created_at: z.string(),
        modified_at: nullableString,
        description: nullableString,
        data_type: nullableString,
        inputs_schema_definition: jsonObject,
        outputs_schema_definition: jsonObject,
        metadata: jsonObject,
        example_count: z.number().nullish(),
    })
    .passthrough();
export type Dataset = z.infer<typeof DatasetSchema>;
export const DatasetListSchema = z.array(DatasetSchema);
