/**
 * The shapes of the bulk-export resources' inputs (the Args of resources/*.ts in camelCase, normalized by
 * check.ts) and stored outputs, and their constants. Outputs carry `schemaVersion` so later versions can
 * read what this one wrote.
 */

/** Version of the output shapes written by this provider. */
export const SCHEMA_VERSION = 1;

/** Wait limits in seconds of a one-off export when `timeouts` does not say. */
export const DEFAULT_EXPORT_TIMEOUTS = { create: 3600, update: 3600, delete: 300 } as const;

export interface DestinationConfigInputs {
    bucketName: string;
    prefix: string;
    region?: string;
    endpointUrl?: string;
    includeBucketInPrefix: boolean;
    addressingStyle?: "auto" | "virtual" | "path";
}

export interface DestinationCredentialsInputs {
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
}

export interface ExportDestinationInputs {
    displayName: string;
    config: DestinationConfigInputs;
    /** Absent: environment credentials (self-hosted installations only). */
    credentials?: DestinationCredentialsInputs;
}

export interface ExportDestinationOutputs extends ExportDestinationInputs {
    schemaVersion: number;
    destinationType: string;
    /** Which credential keys the service holds (never their values). */
    credentialsKeys: string[];
    createdAt: string | null;
}

/** What both kinds of export take. */
export interface ExportInputs {
    destinationId: string;
    /** The tracing project; absent only on a BulkExport of all experiments. */
    sessionId?: string;
    /** ISO 8601, canonical (`Date#toISOString`). */
    startTime: string;
    filter?: string;
    exportFields?: string[];
    formatVersion: "v1" | "v2_beta";
    compression?: "none" | "gzip" | "snappy" | "zstandard";
}

export interface ScheduledExportInputs extends ExportInputs {
    sessionId: string;
    intervalHours: number;
    cancelSpawnedOnDelete: boolean;
    /** A move to a destination writing elsewhere starts where the windows exported so far end (default: at startTime). */
    resumeAtNewDestination?: boolean;
}

export interface BulkExportInputs extends ExportInputs {
    /** Every experiment of the workspace instead of `sessionId`. */
    allExperiments?: boolean;
    endTime: string;
    waitForCompletion: boolean;
    timeouts?: { create?: number; update?: number; delete?: number };
}

export interface ScheduledExportOutputs extends ScheduledExportInputs {
    schemaVersion: number;
    /** The export the schedule runs as now (a change cancels it and makes another; the resource id stays). */
    exportId: string;
    /** Where the current export started: `startTime`, or the end of what earlier exports already covered. */
    effectiveStartTime: string;
    /** Earlier exports of this schedule, cancelled by updates, oldest first. */
    previousExportIds: string[];
    status: string;
    spawnedCount: number;
    /** End of the last window the schedule's exports (current and earlier) exported of this project to this place; null before the first. */
    lastWindowEnd: string | null;
    /**
     * End of the last exported window per stream, `<place>#<sessionId>` (`<destinationId>/<sessionId>` in
     * states written before places): where a re-created export resumes when the program returns to a stream.
     * Absent in states written before it (read as the one stream of `lastWindowEnd`).
     */
    coverage?: Record<string, string>;
    /** Per stream, the start of the failed windows a re-created export already exported again (each is retried once). */
    retriedFrom?: Record<string, string>;
    /** Spawned exports of the current export by status, e.g. `{"Completed": 3, "Running": 1}`. */
    spawnedStatuses: Record<string, number>;
}

export interface BulkExportOutputs extends BulkExportInputs {
    schemaVersion: number;
    status: string;
    rowsWritten: number;
    filesWritten: number;
    finishedAt: string | null;
}
