/**
 * The TracingProject, declared once (kit/declare.ts): a tracing project (the service's session,
 * docs/service.md R5), what traced code writes runs into and what bulk exports read (`sessionId`). Its name
 * is unique in a workspace and changes in place (the service's PATCH takes it); the dataset an experiment
 * compares against is fixed at creation. provider.ts holds what a table cannot say.
 */
import { TRACE_TIERS } from "../../api/schemas/sessions";
import { any, map, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField, workspaceObjectOutputs } from "../../kit/workspace";
import { tagsField } from "../../kit/tags";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const tracingProject = resource({
    name: "TracingProject",
    description:
        "A LangSmith tracing project: where traced code writes its runs, and what a `ScheduledExport` or `BulkExport` reads (its `id` is their `sessionId`). Renamed in place; `pulumi refresh` shows changes made in the UI; `pulumi destroy` deletes it (and its runs) once no running export reads it.",
    inputs: {
        name: string(
            "The project's name, unique in the workspace (what traced code names with `LANGSMITH_PROJECT`). Renamed in place. Optional: left out, the project is named after the resource (`traces-3f9c2a1`) and keeps that name.",
            { filled: true, autoname: {}, onChange: "update" },
        ),
        description: string("What the project holds.", { onChange: "update" }),
        metadata: map("Metadata of the project (the service keeps it under `extra.metadata`).", any("A value."), { onChange: "update", wire: false }),
        traceTier: string(
            "Retention of its traces: `longlived` (the default: 400 days) or `shortlived` (14 days). Changed in place; it applies to traces written from then on.",
            { values: TRACE_TIERS, onChange: "update" },
        ),
        referenceDatasetId: string("For an experiment: the dataset (its id) it ran over. Fixed at creation: a change replaces the project.", {
            onChange: "replace",
        }),
        tags: tagsField,
        workspaceId: workspaceIdField,
    },
    outputs: workspaceObjectOutputs,
});

export type TracingProjectInputs = Inputs<typeof tracingProject>;
export type TracingProjectOutputs = Outputs<typeof tracingProject>;
