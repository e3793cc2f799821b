/**
 * The wire contract of tracing projects, which the service calls sessions (docs/service.md R5): what
 * `POST/PATCH /api/v1/sessions` take (strict: the emulator refuses an unknown field with 422, as the service
 * does) and what the service answers (tolerant of fields this provider does not read). A project's name is
 * unique in its workspace; `trace_tier` is its retention.
 */
import { z } from "zod";
import { dateTime, filledString } from "./common";

const nullableString = z.string().nullish();
const metadata = z.record(z.string(), z.unknown()).nullish();

/** Retention of a project's traces: long-lived (400 days) or short-lived (14 days). */
export const TRACE_TIERS = ["longlived", "shortlived"] as const;

/** POST /api/v1/sessions body. Without a name the service names the project itself (the emulator: `project-<id>`). */
export const SessionCreateRequestSchema = z
    .object({
        id: nullableString,
        name: filledString.nullish(),
        description: nullableString,
        extra: metadata,
        reference_dataset_id: nullableString,
        default_dataset_id: nullableString,
        trace_tier: z.enum(TRACE_TIERS).nullish(),
        start_time: dateTime.nullish(),
        end_time: dateTime.nullish(),
        // An experiment's figures, sent by the official clients' create_project (not by this provider).
        num_examples: z.number().int().nullish(),
        num_repetitions: z.number().int().nullish(),
        evaluator_keys: z.array(z.string()).nullish(),
        tag_value_ids: z.array(z.string()).nullish(),
    })
    .strict();
export type SessionCreateRequest = z.infer<typeof SessionCreateRequestSchema>;

/** PATCH /api/v1/sessions/{id} body: absent or null fields are left as they are. */
export const SessionUpdateRequestSchema = z
    .object({
        name: nullableString,
        description: nullableString,
        extra: metadata,
        default_dataset_id: nullableString,
        trace_tier: z.enum(TRACE_TIERS).nullish(),
        end_time: dateTime.nullish(),
    })
    .strict();
export type SessionUpdateRequest = z.infer<typeof SessionUpdateRequestSchema>;

/** A tracing project as the service answers it (counters and last-run time are computed by the service). */
export const SessionSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        tenant_id: z.string(),
        start_time: z.string(),
        end_time: nullableString,
        description: nullableString,
        extra: metadata,
        reference_dataset_id: nullableString,
        trace_tier: nullableString,
        run_count: z.number().nullish(),
        last_run_start_time: nullableString,
    })
    .passthrough();
export type Session = z.infer<typeof SessionSchema>;
export const SessionListSchema = z.array(SessionSchema);
