/**
 * The OrganizationRetention, declared once (kit/declare.ts): the organization's retention settings
 * (docs/service.md R11), which exist once: the default trace tier of the new projects of workspaces without
 * settings of their own, and whether it was applied to their existing projects. provider.ts holds what a
 * table cannot say.
 */
import { RETENTION_TIERS } from "../../api/schemas/settings";
import { boolean, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const organizationRetention = resource({
    name: "OrganizationRetention",
    description:
        "The retention settings of the LangSmith organization, which exist once: creating it takes them over from the service's defaults, deleting it puts the defaults back (`longlived`, not applied to existing projects); never a 404. A workspace's own settings (`WorkspaceRetention`) and a `TracingProject`'s own `traceTier` win over them.",
    inputs: {
        defaultTraceTier: string(
            "The tier of new projects, in workspaces without retention settings of their own, that name none: `longlived` or `shortlived`. Changed in place.",
            { required: true, values: RETENTION_TIERS, onChange: "update" },
        ),
        applyToAllProjects: boolean(
            "Whether the tier is also set on the existing projects of those workspaces, and on the traces they hold, when it is applied: `shortlived` deletes their long-lived traces older than 14 days at once (warned at preview). Default false. Changed in place.",
            { default: false, onChange: "update" },
        ),
    },
    outputs: {
        organizationId: string("The organization whose settings these are.", { stable: true }),
        longLivedTtlDays: number(
            "How many days the organization keeps long-lived traces, as the service answers it (the description has no way to set it for the organization; a workspace's: `WorkspaceRetention`).",
            {
                nullable: true,
            },
        ),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type OrganizationRetentionInputs = Inputs<typeof organizationRetention>;
export type OrganizationRetentionOutputs = Outputs<typeof organizationRetention>;
