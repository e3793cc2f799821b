/**
 * The bulk-export area's records and their status machines (docs/service.md 3.3, as data on the lifecycle engine's
 * table type). Records are what the service answers plus a few private fields (named with a leading `_`,
 * never sent: see `publicView`) that the worker needs to resume after a restart.
 *
 * Export statuses: Created -> Running -> Completed, with Failed, TimedOut and Cancelled as branches; a
 * scheduled export goes Created -> IntervalScheduled and stays there until cancelled. Export-run statuses:
 * the same without IntervalScheduled, plus Running -> Created when an attempt fails and the run is
 * requeued for a retry (docs/service.md 7, 8).
 */
import type { ExportRunStatus, ExportStatus } from "../../provider/api/schemas/bulkExport";
import { IllegalTransitionError, legalMove, type LifecycleTable } from "../core/lifecycle";
import type { Sealed } from "../core/store";

export const EXPORT_TABLE: LifecycleTable<ExportStatus> = {
    next: { Created: "Running", Running: "Completed" },
    branches: {
        Created: ["IntervalScheduled", "Cancelled"],
        Running: ["Failed", "TimedOut", "Cancelled"],
        IntervalScheduled: ["Cancelled"],
    },
    terminal: ["Completed", "Failed", "Cancelled", "TimedOut"],
};

export const RUN_TABLE: LifecycleTable<ExportRunStatus> = {
    next: { Created: "Running", Running: "Completed" },
    branches: {
        Created: ["Cancelled", "TimedOut", "Failed"],
        Running: ["Created", "Failed", "TimedOut", "Cancelled"],
    },
    terminal: ["Completed", "Failed", "Cancelled", "TimedOut"],
};

export interface StatusEntry<S extends string> {
    status: S;
    at: string;
}

export interface DestinationRecord {
    id: string;
    tenant_id: string;
    destination_type: "s3";
    display_name: string;
    config: {
        bucket_name: string;
        prefix: string;
        region?: string | null;
        endpoint_url?: string | null;
        include_bucket_in_prefix: boolean;
        config_kwargs_s3?: { addressing_style?: "auto" | "virtual" | "path" | null } | null;
    };
    /** Which credential keys are set (the service never answers their values). */
    credentials_keys: string[];
    created_at: string;
    updated_at: string;
    /** The credentials, encrypted; absent: environment credentials (self-hosted). */
    _credentials?: Sealed;
}

export interface ExportRecord {
    id: string;
    tenant_id: string;
    bulk_export_destination_id: string;
    /** null when `all_experiments` is true. */
    session_id: string | null;
    all_experiments: boolean;
    start_time: string;
    end_time: string | null;
    filter: string | null;
    format: "Parquet";
    format_version: "v1" | "v2_beta";
    compression: "none" | "gzip" | "snappy" | "zstandard";
    interval_hours: number | null;
    export_fields: string[] | null;
    source_bulk_export_id: string | null;
    status: ExportStatus;
    created_at: string;
    updated_at: string;
    finished_at: string | null;
    _history: Array<StatusEntry<ExportStatus>>;
    /** Scheduled: start (epoch ms) of the next window to spawn. */
    _nextWindow?: number;
}

export interface RunRecord {
    id: string;
    bulk_export_id: string;
    status: ExportRunStatus;
    retry_number: number;
    errors: Record<string, string>;
    created_at: string;
    updated_at: string;
    finished_at: string | null;
    start_time: string;
    end_time: string;
    metadata: {
        prefix: string;
        start_time: string;
        end_time: string;
        result: { rows_written: number; exported_files: string[]; export_path: string; latest_cursor: string | null };
    };
    _history: Array<StatusEntry<ExportRunStatus>>;
    /** Source runs of the partition consumed up to the last file written (the resume point). */
    _cursor: number;
    /** The tracing project it reads; absent in stores written before: its export's session_id. */
    _sessionId?: string;
    /** A requeued run waits until then (epoch ms on the emulator clock). */
    _notBefore?: number;
    /** When the current attempt started (epoch ms), for the run timeout. */
    _attemptStart?: number;
}

/** Moves a record into `to` at `at` (ISO), refusing what its table does not declare. */
export function moveTo<S extends string>(
    table: LifecycleTable<S>,
    rec: { status: S; updated_at: string; _history: Array<StatusEntry<S>> },
    to: S,
    at: string,
): void {
    if (!legalMove(table, rec.status, to)) throw new IllegalTransitionError(rec.status, to);
    rec.status = to;
    rec.updated_at = at;
    rec._history.push({ status: to, at });
}

/** A record as the service answers it: private fields left out. */
export function publicView<T extends object>(rec: T): Partial<T> {
    return Object.fromEntries(Object.entries(rec).filter(([k]) => !k.startsWith("_"))) as Partial<T>;
}
