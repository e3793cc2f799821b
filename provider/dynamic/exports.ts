/** What ScheduledExport and BulkExport share: the arguments of an export (spec 2.8), but what it reads (each says). */
import type * as pulumi from "@pulumi/pulumi";

export interface ExportArgs {
    /** The ExportDestination's id. */
    destinationId: pulumi.Input<string>;
    /** ISO 8601 with a time zone, e.g. `2026-11-01T00:00:00Z`. Runs from here (inclusive). */
    startTime: pulumi.Input<string>;
    /** Trace filter, e.g. `and(eq(run_type, "llm"), gt(total_tokens, 500))`; absent: every run. */
    filter?: pulumi.Input<string>;
    /** Columns to export (spec 2.8's exportable fields); absent: all. */
    exportFields?: pulumi.Input<pulumi.Input<string>[]>;
    /** `v1` (default) or `v2_beta` (typed columns). */
    formatVersion?: pulumi.Input<"v1" | "v2_beta">;
    /** Parquet codec: `none`, `gzip`, `snappy` or `zstandard`; absent: the service's default. */
    compression?: pulumi.Input<"none" | "gzip" | "snappy" | "zstandard">;
}
