/**
 * The ScheduledExport, declared once (kit/declare.ts): an export every `intervalHours`. Exports cannot be
 * edited, so every change of the export itself re-creates it inside `update` (the resource keeps its id);
 * provider.ts holds what a table cannot say: where the new export resumes, what was covered.
 */
import { boolean, list, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { exportArguments } from "../traceExport/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const orFalse = (v: unknown): unknown => v ?? false;

export const scheduledExport = resource({
    name: "ScheduledExport",
    description:
        "A scheduled bulk export: every `intervalHours` from `startTime`, the service spawns an export of the window that just ended (at its end plus 10 minutes). Exports cannot be edited, so any change cancels the running one and starts a new one *where the old one's last window ended*: no window is exported twice or skipped. The resource keeps its id; `exportId` is the current export. `refresh` notices an export cancelled or failed outside Pulumi, and the next `up` starts it again the same way.",
    inputs: {
        ...exportArguments("update", true),
        intervalHours: number("Hours per window, 1 to 168.", { required: true, integer: true, onChange: "update" }),
        cancelSpawnedOnDelete: boolean("On delete, also cancel the spawned exports that are not final (default false: they finish).", {
            default: false,
            onChange: "local",
            wire: false,
        }),
        resumeAtNewDestination: boolean(
            "When `destinationId` moves to a destination that writes elsewhere (another endpoint, bucket or prefix): `true` starts there where the windows exported so far end (only new windows go there); `false` (default) exports every window since `startTime` there. A destination writing to the same place (a renamed one) always continues where the old one stopped.",
            { onChange: "local", wire: false, compareAs: orFalse },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        exportId: string("The export the schedule runs as now."),
        effectiveStartTime: string("Where the current export started (`startTime`, or the end of what earlier exports covered)."),
        previousExportIds: list("Earlier exports of this schedule, cancelled by updates, oldest first.", string("An export id.")),
        status: string("Status of the current export (`IntervalScheduled` while it runs)."),
        schemaVersion: number("Version of the output shape.", { stable: true }),
        coverage: map(
            "End of the last exported window per stream, `<place>#<sessionId>` (`<destinationId>/<sessionId>` in states written before places): where a re-created export resumes when the program returns to a stream. Absent in states written before it.",
            string("A timestamp."),
            { hidden: true },
        ),
        retriedFrom: map(
            "Per stream, the start of the failed windows a re-created export already exported again (each is retried once).",
            string("A timestamp."),
            { hidden: true },
        ),
    },
});

export type ScheduledExportInputs = Inputs<typeof scheduledExport>;
export type ScheduledExportOutputs = Outputs<typeof scheduledExport>;
