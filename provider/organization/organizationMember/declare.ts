/**
 * The OrganizationMember, declared once (kit/declare.ts): somebody in the LangSmith organization, named by email,
 * with an organization role and the workspaces they join with a workspace role (docs/service.md R7). Anybody
 * not yet in the organization is invited, and is a pending member until they accept (by email, outside the
 * API). provider.ts holds what a table cannot say.
 */
import { list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { emailField, memberOutputs } from "../workspaceMember/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const organizationMember = resource({
    name: "OrganizationMember",
    description:
        "A member of the LangSmith organization, by email, with an organization role and the workspaces they join (with one workspace role in each). Anybody not yet in the organization is invited (a pending member until they accept by email): `status` says which. Removing it ends the membership, or cancels the invitation.",
    inputs: {
        email: emailField,
        roleId: string(
            "The organization role: a role's id or a built-in one by name, `ORGANIZATION_ADMIN`, `ORGANIZATION_OPERATOR`, `ORGANIZATION_USER` or `ORGANIZATION_VIEWER`. A workspace role here fails at preview. Changed in place (a pending invitation is sent again, with a warning).",
            { default: "ORGANIZATION_USER", onChange: "update" },
        ),
        workspaceIds: list(
            "The workspaces (their ids) the person joins. Changed in place: an active member is added to or removed from them; a pending invitation that gains one is sent again, with a warning.",
            string("A workspace id."),
            {
                default: [],
                onChange: "update",
            },
        ),
        workspaceRoleId: string(
            "The role in each of `workspaceIds`: a role's id or `WORKSPACE_ADMIN`, `WORKSPACE_USER` (Editor) or `WORKSPACE_VIEWER`. An organization role here fails at preview. Changed in place, a pending invitation's too.",
            { default: "WORKSPACE_VIEWER", onChange: "update" },
        ),
    },
    outputs: {
        ...memberOutputs("the organization"),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type OrganizationMemberInputs = Inputs<typeof organizationMember>;
export type OrganizationMemberOutputs = Outputs<typeof organizationMember>;
