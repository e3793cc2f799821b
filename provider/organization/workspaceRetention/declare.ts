/**
 * The WorkspaceRetention, declared once (kit/declare.ts): a workspace's retention settings (docs/service.md R11),
 * which exist once per workspace: the default trace tier of its new projects, whether it was applied to every
 * existing project, and how many days its long-lived traces are kept. provider.ts holds what a table cannot say.
 */
import { RETENTION_TIERS } from "../../api/schemas/settings";
import { boolean, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const workspaceRetention = resource({
    name: "WorkspaceRetention",
    description:
        "The retention settings of a LangSmith workspace, which exist once per workspace: creating it takes them over from the service's defaults, deleting it puts the defaults back (`longlived`, not applied to existing projects, 400 long-lived days); never a 404. A `TracingProject`'s own `traceTier` wins over the default.",
    inputs: {
        defaultTraceTier: string(
            "The tier of the workspace's new projects that name none: `longlived` (kept 400 days, or `longLivedTtlDays`) or `shortlived` (14 days). Changed in place.",
            { required: true, values: RETENTION_TIERS, onChange: "update" },
        ),
        applyToAllProjects: boolean(
            "Whether the tier is also set on every existing project, and on the traces they hold, when it is applied (each `up` that changes the tier or this): `shortlived` deletes their long-lived traces older than 14 days at once (warned at preview). Default false. Changed in place.",
            { default: false, onChange: "update" },
        ),
        longLivedTtlDays: number(
            "How many days the workspace keeps its long-lived traces (1 or more; the service's default: 400), for the traces written from then on (fewer are warned at preview). Absent: left as it is. Changed in place.",
            {
                integer: true,
                onChange: "update",
            },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        tenantId: string("The workspace whose settings these are (the given `workspaceId`, else the provider's).", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type WorkspaceRetentionInputs = Inputs<typeof workspaceRetention>;
export type WorkspaceRetentionOutputs = Outputs<typeof workspaceRetention>;
