/**
 * The wire contract of a dataset's examples, versions, tags, splits and share (docs/service.md R14): what
 * `POST /examples`, `POST` and `PATCH /examples/bulk`, `PATCH /examples/{id}`, `PUT /datasets/{id}/tags` and
 * `PUT /datasets/{id}/splits` take (strict: the emulator refuses an unknown field with 422, as the service does),
 * and what the service answers (tolerant of fields this provider does not read).
 */
import { z } from "zod";
import { dateTime } from "./common";

const uuid = z.string().uuid();
const jsonObject = z.record(z.string(), z.unknown());
/** A split or several (`base` when none is given at creation). */
const split = z.union([z.string(), z.array(z.string())]).nullish();

/** An example to make (`ExampleCreate`): one of `POST /examples/bulk`'s list, or `POST /examples`'s body. */
export const ExampleCreateSchema = z
    .object({
        id: uuid.nullish(),
        dataset_id: uuid,
        inputs: jsonObject.nullish(),
        outputs: jsonObject.nullish(),
        metadata: jsonObject.nullish(),
        split,
        source_run_id: uuid.nullish(),
        use_source_run_io: z.boolean().optional(),
        use_source_run_attachments: z.array(z.string()).optional(),
        use_legacy_message_format: z.boolean().optional(),
        created_at: z.string().nullish(),
    })
    .strict();
export type ExampleCreate = z.infer<typeof ExampleCreateSchema>;
export const ExampleBulkCreateSchema = z.array(ExampleCreateSchema);

const attachmentsOperations = z.object({ rename: z.record(z.string(), z.string()).optional(), retain: z.array(z.string()).optional() }).strict();

/** A change of an example (`ExampleUpdate`): a field given replaces it. */
export const ExampleUpdateSchema = z
    .object({
        dataset_id: uuid.nullish(),
        inputs: jsonObject.nullish(),
        outputs: jsonObject.nullish(),
        metadata: jsonObject.nullish(),
        split,
        attachments_operations: attachmentsOperations.nullish(),
        overwrite: z.boolean().optional(),
    })
    .strict();
export type ExampleUpdate = z.infer<typeof ExampleUpdateSchema>;

/** `PATCH /examples/{id}`'s body: the Python client also sends the example's `id` there (the path's; any other is ignored). */
export const ExampleUpdateOneSchema = ExampleUpdateSchema.extend({ id: uuid.optional() }).strict();

/** One of `PATCH /examples/bulk`'s list (`ExampleUpdateWithID`). */
export const ExampleUpdateWithIdSchema = ExampleUpdateSchema.extend({ id: uuid }).strict();
export type ExampleUpdateWithId = z.infer<typeof ExampleUpdateWithIdSchema>;
export const ExampleBulkUpdateSchema = z.array(ExampleUpdateWithIdSchema);

/** An example as the service answers it (`Example`); its split is `metadata.dataset_split`. */
export const ExampleSchema = z
    .object({
        id: z.string(),
        dataset_id: z.string(),
        name: z.string().nullish(),
        inputs: jsonObject,
        outputs: jsonObject.nullish(),
        metadata: jsonObject.nullish(),
        source_run_id: z.string().nullish(),
        created_at: z.string().nullish(),
        modified_at: z.string().nullish(),
    })
    .passthrough();
export type Example = z.infer<typeof ExampleSchema>;
export const ExampleListSchema = z.array(ExampleSchema);

/** A version of a dataset (`DatasetVersion`): its time, and the tags naming it. */
export const DatasetVersionSchema = z.object({ as_of: z.string(), tags: z.array(z.string()).nullish() }).passthrough();
export type DatasetVersion = z.infer<typeof DatasetVersionSchema>;
export const DatasetVersionListSchema = z.array(DatasetVersionSchema);

/** `PUT /datasets/{id}/tags` (`PutDatasetVersionsSchema`): the tag, and the time of the version it names (or `latest`). */
export const PutDatasetTagSchema = z.object({ as_of: z.union([dateTime, z.string()]), tag: z.string() }).strict();
export type PutDatasetTag = z.infer<typeof PutDatasetTagSchema>;

/** `PUT /datasets/{id}/splits`: examples put in (or, with `remove`, taken out of) a split. */
export const PutDatasetSplitsSchema = z.object({ split_name: z.string(), examples: z.array(uuid), remove: z.boolean().optional() }).strict();

/** A dataset's public share (`DatasetShareSchema`); the token is a secret. */
export const DatasetShareSchema = z.object({ dataset_id: z.string(), share_token: z.string() }).passthrough();
export type DatasetShare = z.infer<typeof DatasetShareSchema>;
