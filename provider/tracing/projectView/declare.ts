/**
 * The ProjectView, declared once (kit/declare.ts): a saved view of a tracing project (docs/service.md R5 "Saved
 * views"): its name, type, filters and time range, what the UI opens the project's runs with. Its project is its
 * parent (a change replaces it); a new `displayName` is the service's rename, in place; the rest changes in place (one
 * PATCH). Its id is `<sessionId>:<viewId>` (the service names a view under its project): `pulumi import` takes that.
 */
import { VIEW_TYPES } from "../../api/schemas/projectViews";
import { instant } from "../../kit/diff";
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const projectView = resource({
    name: "ProjectView",
    description:
        "A saved view of a tracing project: a name, a type (`runs`, `threads`, `single_run`), filters in the trace query syntax (checked at preview) and a time range, which the UI opens the project's runs with. Its project is fixed (a change replaces it); a new `displayName` is the service's rename, in place; the rest changes in place. Imported by `<sessionId>:<viewId>`.",
    inputs: {
        sessionId: string("The tracing project it is a view of (a `TracingProject`'s id). A change replaces it.", { required: true, onChange: "replace" }),
        displayName: string("Its name in the project's views. Changed by the service's rename, in place.", { required: true, onChange: "update" }),
        description: string("What it shows. Updated in place.", { onChange: "update" }),
        type: string("What it lists: `runs` (the default), `threads` or `single_run`. Updated in place.", {
            values: VIEW_TYPES,
            default: "runs",
            onChange: "update",
        }),
        filter: string('The runs shown, in the trace query syntax (`eq(run_type, "llm")`; checked at preview). Updated in place.', {
            onChange: "update",
        }),
        traceFilter: string("A filter on each run's trace root (the same syntax). Updated in place.", { onChange: "update" }),
        treeFilter: string("A filter some run of each trace must match (the same syntax). Updated in place.", { onChange: "update" }),
        startTime: string("The start of the time range shown (ISO 8601 with a zone). Updated in place.", { onChange: "update", compareAs: instant }),
        endTime: string("The end of the time range shown (ISO 8601 with a zone), after `startTime`. Updated in place.", {
            onChange: "update",
            compareAs: instant,
        }),
        duration: string("A time range relative to now instead of `startTime` (`7d`, `24h`), as the UI keeps it. Updated in place.", {
            onChange: "update",
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        viewId: string("The service's id of the view (the resource's id is `<sessionId>:<viewId>`).", { stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ProjectViewInputs = Inputs<typeof projectView>;
export type ProjectViewOutputs = Outputs<typeof projectView>;
