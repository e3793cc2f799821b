/**
 * The `BulkExport` resource users declare (a one-off export of traces): its arguments and outputs, and the
 * class handed to Pulumi. Its work is provider/impl/bulkExport/oneOffExport.ts; docs/bulkExport.md.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ExportArgs } from "./exports";

/** The provider object serialized into the state (a module of this package; see providers/forward.ts). */
import provider = require("../providers/bulkExport");

export interface BulkExportTimeouts {
    /** Seconds to wait for `Completed` after creating (default 3600). */
    create?: number;
    /** Seconds to wait when a later `up` resumes the wait (default 3600). */
    update?: number;
    /** Seconds `destroy` may spend cancelling it (default 300). */
    delete?: number;
}

export interface BulkExportArgs extends ExportArgs {
    /** The tracing project's id (a uuid); or set `allExperiments` instead. */
    sessionId?: pulumi.Input<string>;
    /**
     * Export every experiment of the workspace instead of one tracing project (the LangSmith cloud exports
     * at most 250 of them); exactly one of `sessionId` and `allExperiments` is given.
     */
    allExperiments?: pulumi.Input<boolean>;
    /** ISO 8601 with a time zone; exclusive; after `startTime`. */
    endTime: pulumi.Input<string>;
    /** Wait for `Completed` (default true); a failed export then fails the `up` with its runs' errors. */
    waitForCompletion?: pulumi.Input<boolean>;
    timeouts?: pulumi.Input<BulkExportTimeouts>;
}

/**
 * A one-off bulk export of a tracing project's runs from `startTime` to `endTime`. Any change to what it
 * exports replaces it (the old one is cancelled first if still running). A failed, cancelled or timed-out
 * export stays in the stack and the next `up` exports again.
 */
export class BulkExport extends pulumi.dynamic.Resource {
    declare public readonly destinationId: pulumi.Output<string>;
    declare public readonly sessionId: pulumi.Output<string | undefined>;
    declare public readonly allExperiments: pulumi.Output<boolean | undefined>;
    declare public readonly startTime: pulumi.Output<string>;
    declare public readonly endTime: pulumi.Output<string>;
    declare public readonly filter: pulumi.Output<string | undefined>;
    declare public readonly exportFields: pulumi.Output<string[] | undefined>;
    declare public readonly formatVersion: pulumi.Output<"v1" | "v2_beta">;
    /** `Completed` after a successful `up` that waited. */
    declare public readonly status: pulumi.Output<string>;
    declare public readonly rowsWritten: pulumi.Output<number>;
    declare public readonly filesWritten: pulumi.Output<number>;
    declare public readonly finishedAt: pulumi.Output<string | null>;
    declare public readonly schemaVersion: pulumi.Output<number>;

    constructor(name: string, args: BulkExportArgs, opts?: pulumi.CustomResourceOptions) {
        const outputs = ["status", "rowsWritten", "filesWritten", "finishedAt", "schemaVersion"];
        super(provider, name, { ...args, ...Object.fromEntries(outputs.map((k) => [k, undefined])) }, opts, "langsmith", "BulkExport");
    }
}
