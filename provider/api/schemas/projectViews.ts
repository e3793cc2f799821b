/**
 * The wire contract of a tracing project's saved views (docs/service.md R5 "Saved views"; the description's
 * `FilterView`, `FilterViewCreate`, `FilterViewUpdate`, `FilterViewRename`, `FilterViewType`) under
 * `/api/v1/sessions/{session_id}/views`: a named set of filters and a time range the UI opens the project's runs with.
 * Requests are strict (the emulator refuses an unknown field with 422); answers are tolerant of fields this provider
 * does not read.
 */
import { z } from "zod";
import { dateTime, filledString } from "./common";

export const VIEW_TYPES = ["runs", "threads", "single_run"] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

/** What a create and an update may say beside the name (the description's nullable fields). */
const viewFields = {
    filter_string: z.string().nullish(),
    trace_filter_string: z.string().nullish(),
    tree_filter_string: z.string().nullish(),
    description: z.string().nullish(),
    start_time: dateTime.nullish(),
    end_time: dateTime.nullish(),
    duration: z.string().nullish(),
};

export const ViewCreateRequestSchema = z.object({ display_name: filledString, type: z.enum(VIEW_TYPES).optional(), ...viewFields }).strict();
export type ViewCreateRequest = z.infer<typeof ViewCreateRequestSchema>;

/** Absent fields stay; a nullable one given null is cleared (decided, docs/service.md R5 "Saved views"). */
export const ViewUpdateRequestSchema = z.object({ display_name: filledString.nullish(), type: z.enum(VIEW_TYPES).nullish(), ...viewFields }).strict();
export type ViewUpdateRequest = z.infer<typeof ViewUpdateRequestSchema>;

export const ViewRenameRequestSchema = z.object({ display_name: filledString, description: z.string().nullish() }).strict();
export type ViewRenameRequest = z.infer<typeof ViewRenameRequestSchema>;

export const ViewSchema = z
    .object({
        id: z.string(),
        session_id: z.string().nullish(),
        display_name: z.string(),
        description: z.string().nullish(),
        type: z.enum(VIEW_TYPES).default("runs"),
        filter_string: z.string().nullish(),
        trace_filter_string: z.string().nullish(),
        tree_filter_string: z.string().nullish(),
        start_time: z.string().nullish(),
        end_time: z.string().nullish(),
        duration: z.string().nullish(),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type View = z.infer<typeof ViewSchema>;
