/**
 * The `ScheduledExport` resource users declare (an export every `intervalHours`): its arguments and
 * outputs, and the class handed to Pulumi. Its work is provider/impl/bulkExport/scheduledExport.ts;
 * docs/scheduledExport.md.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ExportArgs } from "./exports";

/** The provider object serialized into the state (a module of this package; see providers/forward.ts). */
import provider = require("../providers/scheduledExport");

export interface ScheduledExportArgs extends ExportArgs {
    /** The tracing project's id (a uuid). */
    sessionId: pulumi.Input<string>;
    /** Hours per window, 1 to 168. */
    intervalHours: pulumi.Input<number>;
    /** On delete, also cancel the spawned exports that are not final (default false: they finish). */
    cancelSpawnedOnDelete?: pulumi.Input<boolean>;
    /**
     * When `destinationId` moves to a destination that writes elsewhere (another endpoint, bucket or prefix):
     * `true` starts there where the windows exported so far end (only new windows go there); `false`
     * (default) exports every window since `startTime` there. A destination writing to the same place (a
     * renamed one) always continues where the old one stopped.
     */
    resumeAtNewDestination?: pulumi.Input<boolean>;
}

/**
 * A scheduled bulk export: every `intervalHours` from `startTime`, the service spawns an export of the
 * window that just ended (at its end plus 10 minutes). Exports cannot be edited, so any change cancels
 * the running one and starts a new one *where the old one's last window ended*: no window is exported
 * twice or skipped. The resource keeps its id; `exportId` is the current export. `refresh` notices an
 * export cancelled or failed outside Pulumi, and the next `up` starts it again the same way.
 */
export class ScheduledExport extends pulumi.dynamic.Resource {
    declare public readonly destinationId: pulumi.Output<string>;
    declare public readonly sessionId: pulumi.Output<string>;
    declare public readonly startTime: pulumi.Output<string>;
    declare public readonly intervalHours: pulumi.Output<number>;
    declare public readonly filter: pulumi.Output<string | undefined>;
    declare public readonly exportFields: pulumi.Output<string[] | undefined>;
    declare public readonly formatVersion: pulumi.Output<"v1" | "v2_beta">;
    declare public readonly compression: pulumi.Output<string | undefined>;
    declare public readonly cancelSpawnedOnDelete: pulumi.Output<boolean>;
    declare public readonly resumeAtNewDestination: pulumi.Output<boolean | undefined>;
    /** The export the schedule runs as now. */
    declare public readonly exportId: pulumi.Output<string>;
    /** Where the current export started (`startTime`, or the end of what earlier exports covered). */
    declare public readonly effectiveStartTime: pulumi.Output<string>;
    /** Earlier exports of this schedule, cancelled by updates. */
    declare public readonly previousExportIds: pulumi.Output<string[]>;
    /** Status of the current export (`IntervalScheduled` while it runs). */
    declare public readonly status: pulumi.Output<string>;
    declare public readonly spawnedCount: pulumi.Output<number>;
    /** End of the last window spawned (null before the first). */
    declare public readonly lastWindowEnd: pulumi.Output<string | null>;
    /** Spawned exports of the current export by status. */
    declare public readonly spawnedStatuses: pulumi.Output<Record<string, number>>;
    declare public readonly schemaVersion: pulumi.Output<number>;

    constructor(name: string, args: ScheduledExportArgs, opts?: pulumi.CustomResourceOptions) {
        const outputs = ["exportId", "effectiveStartTime", "previousExportIds", "status", "spawnedCount", "lastWindowEnd", "spawnedStatuses", "schemaVersion"];
        super(provider, name, { ...args, ...Object.fromEntries(outputs.map((k) => [k, undefined])) }, opts, "langsmith", "ScheduledExport");
    }
}
