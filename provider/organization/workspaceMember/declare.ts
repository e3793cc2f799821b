/**
 * The WorkspaceMember, declared once (kit/declare.ts): somebody in a workspace with a workspace role
 * (docs/service.md R7), named by email. An active member of the organization joins the workspace at once;
 * anybody else is invited to the organization naming the workspace, and is a pending member until they
 * accept (by email, outside the API). provider.ts holds what a table cannot say.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** An email as the service compares it: trimmed, lowercase. */
export const normalEmail = (v: unknown): unknown => (typeof v === "string" ? v.trim().toLowerCase() : v);

/** A person's membership of a workspace, as kit/adoption.ts `claim` names it: an OrganizationMember's or a WorkspaceMember's. */
export const membership = (workspaceId: string, email: string): string => `membership:${workspaceId}:${String(normalEmail(email))}`;

export const MEMBER_STATUSES = ["active", "pending"] as const;

/** A member's email, declared once for WorkspaceMember and OrganizationMember. */
export const emailField = string("The person's email, compared trimmed and ignoring case. Checked at preview. A change replaces the member.", {
    required: true,
    onChange: "replace",
    compareAs: normalEmail,
});

/** A member's status and ids, declared once for WorkspaceMember and OrganizationMember (`where`: in the workspace, in the organization). */
export const memberOutputs = (where: string) => ({
    status: string(`\`active\` (in ${where}) or \`pending\` (invited, not yet accepted). An acceptance shows at the next refresh; never a change.`, {
        values: MEMBER_STATUSES,
    }),
    identityId: string(`The member's identity id in ${where} (active), or the invitation's id (pending).`),
    userId: string("The member's user id; null while pending.", { nullable: true }),
});

export const workspaceMember = resource({
    name: "WorkspaceMember",
    description:
        "A member of a LangSmith workspace, by email, with a workspace role. An active member of the organization joins at once; anybody else is invited (a pending member until they accept by email): `status` says which. Removing it removes the member, or cancels the invitation.",
    inputs: {
        email: emailField,
        roleId: string(
            "The workspace role: a role's id (a `Role`'s `id`) or a built-in one by name, `WORKSPACE_ADMIN`, `WORKSPACE_USER` (Editor) or `WORKSPACE_VIEWER`. Changed in place, a pending invitation's too (an installation that cannot change one cancels it and invites again, with a warning).",
            { required: true, onChange: "update" },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        ...memberOutputs("the workspace"),
        tenantId: string("The workspace that holds it (the given `workspaceId`, else the provider's).", { stable: true }),
        resolvedRoleId: string("The id of the role `roleId` names.", { hidden: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type WorkspaceMemberInputs = Inputs<typeof workspaceMember>;
export type WorkspaceMemberOutputs = Outputs<typeof workspaceMember>;
