/**
 * The BulkExport, declared once (kit/declare.ts): a one-off export of traces. Any change to what it
 * exports replaces it; provider.ts holds the wait for its end and what a failed one does.
 */
import { boolean, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { exportArguments } from "../traceExport/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** Wait limits in seconds when `timeouts` does not say. */
export const DEFAULT_EXPORT_TIMEOUTS = { create: 3600, update: 3600, delete: 300 } as const;

const isTrue = (v: unknown): unknown => v === true;

const timeouts = object("BulkExportTimeouts", "Wait limits in seconds (Pulumi's `customTimeouts` win when given).", {
    create: number("Seconds to wait for `Completed` after creating (default 3600)."),
    update: number("Seconds to wait when a later `up` resumes the wait (default 3600)."),
    delete: number("Seconds `destroy` may spend cancelling it (default 300)."),
});

export const bulkExport = resource({
    name: "BulkExport",
    description:
        "A one-off bulk export of a tracing project's runs from `startTime` to `endTime`. Any change to what it exports replaces it (the old one is cancelled first if still running). A failed, cancelled or timed-out export stays in the stack and the next `up` exports again.",
    inputs: {
        ...exportArguments("replace", false),
        endTime: string("ISO 8601 with a time zone; exclusive; after `startTime`.", { required: true, onChange: "replace" }),
        allExperiments: boolean(
            "Export every experiment of the workspace instead of one tracing project (the LangSmith cloud exports at most 250 of them); exactly one of `sessionId` and `allExperiments` is given.",
            { onChange: "replace", compareAs: isTrue },
        ),
        waitForCompletion: boolean("Wait for `Completed` (default true); a failed export then fails the `up` with its runs' errors.", {
            default: true,
            onChange: "local",
            wire: false,
        }),
        timeouts: { ...timeouts, onChange: "local", wire: false },
        workspaceId: workspaceIdField,
    },
    outputs: {
        status: string("`Completed` after a successful `up` that waited."),
        rowsWritten: number("Rows the export wrote."),
        filesWritten: number("Files the export wrote."),
        finishedAt: string("When it finished.", { nullable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type BulkExportInputs = Inputs<typeof bulkExport>;
export type BulkExportOutputs = Outputs<typeof bulkExport>;
