/**
 * What ScheduledExport and BulkExport both declare: the arguments of a trace export (what it reads, where
 * it writes, in what form), each compared as the service means it, so that a service answering the same
 * export in another form is no change (refresh would otherwise cancel and re-create it): `exportFields` as
 * a set, `filter` by its parsed form, `formatVersion` with its default, timestamps as the instant they name.
 */
import { canonicalFilter } from "../../api/filter";
import { COMPRESSIONS, EXPORTABLE_FIELDS, FORMAT_VERSIONS } from "../../api/schemas/bulkExport";
import { list, string, type OnChange, type Shape } from "../../kit/declare";
import { asSet, instant } from "../../kit/diff";
import { known } from "../../kit/unknown";

const parsedFilter = (v: unknown): unknown => (typeof v === "string" && known(v) ? canonicalFilter(v) : v);

/**
 * The fields of an export, each with `onChange` (a scheduled export re-creates itself in place, a one-off
 * export is replaced) and the tracing project `sessionId` required or not (a one-off export may read every
 * experiment instead).
 */
export function exportArguments<C extends OnChange, R extends boolean>(onChange: C, sessionRequired: R) {
    return {
        destinationId: string("The ExportDestination's id.", { required: true, onChange, wire: "bulk_export_destination_id" }),
        sessionId: string(sessionRequired ? "The tracing project's id (a uuid)." : "The tracing project's id (a uuid); or set `allExperiments` instead.", {
            required: sessionRequired,
            onChange,
        }),
        startTime: string("ISO 8601 with a time zone, e.g. `2026-11-01T00:00:00Z`. Runs from here (inclusive).", {
            required: true,
            onChange,
            compareAs: instant,
        }),
        filter: string('Trace filter, e.g. `and(eq(run_type, "llm"), gt(total_tokens, 500))`; absent: every run.', { onChange, compareAs: parsedFilter }),
        exportFields: list(`Columns to export (${EXPORTABLE_FIELDS.join(", ")}); absent: all.`, string("A column."), { onChange, compareAs: asSet() }),
        formatVersion: string("`v1` (default) or `v2_beta` (typed columns).", { values: FORMAT_VERSIONS, default: "v1", onChange }),
        compression: string(
            "Parquet codec: `none`, `gzip`, `snappy` or `zstandard`; absent: the service's default, and not managed (another codec read by an import or a refresh is no change).",
            { values: COMPRESSIONS, onChange },
        ),
    };
}

/** What both kinds of export take, once checked. */
export type ExportInputs = Shape<ReturnType<typeof exportArguments<"update", false>>>;
