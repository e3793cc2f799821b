/**
 * Wire contract of bulk export (docs/service.md 2.7-2.9, 3.3, 4.3, 4.4; R4; the public OpenAPI description of bulk export).
 *
 * Responses are parsed leniently (unknown fields pass, unknown status words are kept as strings);
 * requests are strict, for the emulator to refuse unknown fields with a 422 as the service does.
 *
 * Wire values: the real service sends capitalized status words (`Completed`, `IntervalScheduled`), prose writes
 * them upper-case (docs/service.md 3.3): compare with `sameStatus`. The destination type is `s3` on the wire; the stand-in
 * `objstore` of docs/service.md R1 is accepted and mapped (`normalizeDestinationType`).
 */
import { z } from "zod";

/** Export statuses as the service spells them (docs/service.md 3.3: prose writes them upper-case). */
export const EXPORT_STATUSES = ["Created", "Running", "Completed", "Failed", "Cancelled", "TimedOut", "IntervalScheduled"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** Export-run statuses: the same without IntervalScheduled. */
export const EXPORT_RUN_STATUSES = ["Created", "Running", "Completed", "Failed", "Cancelled", "TimedOut"] as const;
export type ExportRunStatus = (typeof EXPORT_RUN_STATUSES)[number];
/** Statuses an export never leaves (docs/service.md 3.3: a cancelled export cannot be restarted). */
export const EXPORT_FINAL: readonly ExportStatus[] = ["Completed", "Failed", "Cancelled", "TimedOut"];

/** Case-insensitive status comparison (`COMPLETED`, `Completed` and `completed` are the same). */
export const sameStatus = (a: string | null | undefined, b: string): boolean => (a ?? "").toLowerCase() === b.toLowerCase();
/** Whether a status (any case) is final. */
export const isFinalExportStatus = (s: string | null | undefined): boolean => EXPORT_FINAL.some((f) => sameStatus(s, f));

/** The destination type on the wire, and its stand-in (docs/service.md R1). */
export const DESTINATION_TYPE = "s3";
export function normalizeDestinationType(t: string | null | undefined): string | undefined {
    if (t == null) return undefined;
    return t === "objstore" ? DESTINATION_TYPE : t;
}

/** Exportable run fields (docs/service.md 2.8), the set `export_fields` may name. */
export const EXPORTABLE_FIELDS = [
    "id",
    "tenant_id",
    "session_id",
    "trace_id",
    "parent_run_id",
    "parent_run_ids",
    "reference_example_id",
    "name",
    "run_type",
    "start_time",
    "end_time",
    "status",
    "is_root",
    "dotted_order",
    "trace_tier",
    "inputs",
    "outputs",
    "error",
    "extra",
    "events",
    "tags",
    "feedback_stats",
    "total_tokens",
    "prompt_tokens",
    "completion_tokens",
    "total_cost",
    "prompt_cost",
    "completion_cost",
    "first_token_time",
] as const;
export type ExportableField = (typeof EXPORTABLE_FIELDS)[number];

export const FORMAT_VERSIONS = ["v1", "v2_beta"] as const;
export const COMPRESSIONS = ["none", "gzip", "snappy", "zstandard"] as const;
/** Display names the service accepts. */
export const DISPLAY_NAME_RE = /^[a-zA-Z0-9\-_ ']+$/;

/** Fields older self-hosted installations do not know (docs/service.md 9): the versions that bring each. */
export const FIELD_SINCE = {
    session_token: { packaging: "0.10.34", application: "0.10.91" },
    interval_hours: { packaging: "0.10.42", application: "0.10.109" },
    export_fields: { packaging: "0.12.11", application: "0.12.42" },
} as const;
export type VersionedField = keyof typeof FIELD_SINCE;

const nullableString = z.string().nullish();

// ---- destinations ----

const destinationConfigFields = {
    /** 3 to 63 characters (the service's description; S3's own rule). */
    bucket_name: z.string().min(3).max(63).nullish(),
    prefix: z.string().nullish(),
    region: nullableString,
    endpoint_url: nullableString,
    include_bucket_in_prefix: z.boolean().nullish(),
    config_kwargs_s3: z
        .object({ addressing_style: z.enum(["auto", "virtual", "path"]).nullish() })
        .passthrough()
        .nullish(),
    /** The description's: extra arguments of the S3 calls, kept as given. */
    s3_additional_kwargs: z.record(z.string(), z.unknown()).nullish(),
    /** The description's: a role to assume instead of keys, on SaaS hosted on GCP only (docs/service.md R5): refused elsewhere (400). */
    aws_role_arn: nullableString,
};
export const DestinationConfigSchema = z.object(destinationConfigFields).passthrough();
export type DestinationConfig = z.infer<typeof DestinationConfigSchema>;

export const DestinationCredentialsSchema = z
    .object({ access_key_id: z.string().min(1), secret_access_key: z.string().min(1), session_token: nullableString })
    .strict();
export type DestinationCredentials = z.infer<typeof DestinationCredentialsSchema>;

/** POST /api/v1/bulk-exports/destinations body. */
export const DestinationCreateRequestSchema = z
    .object({
        destination_type: z.string().default(DESTINATION_TYPE),
        display_name: z.string().min(1),
        config: z.object(destinationConfigFields).strict(),
        credentials: DestinationCredentialsSchema.nullish(),
    })
    .strict();
export type DestinationCreateRequest = z.input<typeof DestinationCreateRequestSchema>;

/** PATCH /api/v1/bulk-exports/destinations/{id} body: rotates the credentials only. */
export const DestinationUpdateRequestSchema = z.object({ credentials: DestinationCredentialsSchema }).strict();
export type DestinationUpdateRequest = z.infer<typeof DestinationUpdateRequestSchema>;

/** A destination as the service answers: never any secret value, only which credential keys are set. */
export const DestinationSchema = z
    .object({
        id: z.string(),
        destination_type: z.string().nullish(),
        display_name: z.string(),
        config: DestinationConfigSchema,
        tenant_id: nullableString,
        created_at: nullableString,
        updated_at: nullableString,
        credentials_keys: z.array(z.string()).nullish(),
    })
    .passthrough();
export type Destination = z.infer<typeof DestinationSchema>;
export const DestinationListSchema = z.array(DestinationSchema);

// ---- exports ----

const exportRequestFields = {
    bulk_export_destination_id: z.string(),
    /** Absent when `all_experiments` is true. */
    session_id: nullableString,
    /** Every experiment of the workspace instead of one tracing project (a later addition, docs/service.md R5). */
    all_experiments: z.boolean().nullish(),
    start_time: z.string(),
    end_time: nullableString,
    filter: nullableString,
    format: z.string().nullish(),
    format_version: z.string().nullish(),
    compression: z.string().nullish(),
    interval_hours: z.number().int().nullish(),
    export_fields: z.array(z.string()).nullish(),
};

/** POST /api/v1/bulk-exports body (one-off with end_time, scheduled with interval_hours). */
export const ExportCreateRequestSchema = z
    .object({
        ...exportRequestFields,
        format: z.enum(["Parquet"]).nullish(),
        format_version: z.enum(FORMAT_VERSIONS).nullish(),
        compression: z.enum(COMPRESSIONS).nullish(),
    })
    .strict();
export type ExportCreateRequest = z.infer<typeof ExportCreateRequestSchema>;

/** PATCH /api/v1/bulk-exports/{id} body: only cancellation exists (the description's default status). */
export const ExportUpdateRequestSchema = z.object({ status: z.literal("Cancelled").default("Cancelled") }).strict();

export const ExportSchema = z
    .object({
        ...exportRequestFields,
        id: z.string(),
        tenant_id: nullableString,
        status: z.string(),
        created_at: nullableString,
        updated_at: nullableString,
        finished_at: nullableString,
        source_bulk_export_id: nullableString,
    })
    .passthrough();
export type BulkExportRecord = z.infer<typeof ExportSchema>;

/** A scheduled export (not one of its windows) that has not finished: it never ends by itself. */
export const isRunningSchedule = (x: BulkExportRecord): boolean => !x.source_bulk_export_id && !!x.interval_hours && !isFinalExportStatus(x.status);
export const ExportListSchema = z.array(ExportSchema);

/** One run of an export (a date partition), with its progress and its errors keyed `retry_N`. */
export const ExportRunSchema = z
    .object({
        id: z.string(),
        bulk_export_id: z.string(),
        status: z.string(),
        retry_number: z.number().int().nullish(),
        errors: z.record(z.string(), z.unknown()).nullish(),
        created_at: nullableString,
        updated_at: nullableString,
        finished_at: nullableString,
        start_time: nullableString,
        end_time: nullableString,
        metadata: z
            .object({
                prefix: z.string().nullish(),
                start_time: nullableString,
                end_time: nullableString,
                result: z
                    .object({
                        rows_written: z.number().int(),
                        exported_files: z.array(z.string()),
                        export_path: z.string().nullish(),
                        latest_cursor: nullableString,
                    })
                    .passthrough()
                    .nullish(),
            })
            .passthrough()
            .nullish(),
    })
    .passthrough();
export type ExportRun = z.infer<typeof ExportRunSchema>;
export const ExportRunListSchema = z.array(ExportRunSchema);
