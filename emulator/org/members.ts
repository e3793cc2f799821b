/**
 * Members and invitations (docs/service.md R7): an invitation by email to the organization, naming the
 * workspaces (and the workspace role) the person joins on acceptance, is until then a pending member of the
 * organization and of each of those workspaces. Accepting happens by email on the service; here a test accepts
 * with `POST /__admin/org/invitations/accept` (`accept`). An active organization member joins more workspaces
 * through `POST /api/v1/workspaces/current/members`. Emails compare ignoring case; a malformed one is a 422 in
 * the words of the service's email type.
 */
import { randomUUID } from "node:crypto";
import type { OrgInviteRequest, WorkspaceMemberRequest } from "../../provider/api/schemas/organization";
import { EmulatorError, conflict, invalidField } from "../core/errors";
import { ORGANIZATION_ID, type InviteRecord, type MemberRecord, type OrgModel } from "./model";
import { builtInRole } from "./roles";

const normal = (email: string) => email.trim().toLowerCase();

/** Why an email is not one the service takes, or undefined. */
function emailProblem(email: string): string | undefined {
    const parts = email.trim().split("@");
    if (parts.length !== 2) return "An email address must have exactly one @-sign.";
    const [local, domain] = parts;
    if (!local || /\s/.test(email.trim())) return "There must be something before the @-sign, and no spaces.";
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(domain)) return `The domain name ${domain} is not valid.`;
    return undefined;
}

const roleName = (org: OrgModel, id: string) => org.role(id)?.name ?? null;

/** An active member of the organization as its lists answer one (`OrgMemberIdentity`). */
export function orgMemberView(org: OrgModel, m: MemberRecord) {
    const { org_role_id, workspaces, ...rest } = m;
    return {
        ...rest,
        organization_id: ORGANIZATION_ID,
        read_only: false,
        full_name: null,
        role_id: org_role_id,
        role_name: roleName(org, org_role_id),
        access_scope: "organization",
        tenant_ids: Object.keys(workspaces),
        is_disabled: false,
    };
}

/** An active member of a workspace as its lists answer one (`MemberIdentity`): the workspace identity and role. */
export function workspaceMemberView(org: OrgModel, m: MemberRecord, tenantId: string) {
    const { tenant_ids: _all, ...member } = orgMemberView(org, m);
    return { ...member, ...identityView(org, m, tenantId), org_role_id: m.org_role_id, org_role_name: roleName(org, m.org_role_id) };
}

/** What adding a member to a workspace answers (`Identity`): the identity there, without the person's email or name. */
export function identityView(org: OrgModel, m: MemberRecord, tenantId: string) {
    const w = m.workspaces[tenantId];
    return {
        id: w.id,
        organization_id: ORGANIZATION_ID,
        tenant_id: tenantId,
        created_at: w.created_at,
        user_id: m.user_id,
        ls_user_id: m.ls_user_id,
        read_only: false,
        role_id: w.role_id,
        role_name: roleName(org, w.role_id),
        access_scope: "workspace",
    };
}

/** An invitation as pending member of the organization, or (`tenantId`) of one of its workspaces. */
export function pendingView(org: OrgModel, i: InviteRecord, tenantId?: string) {
    const roleId = tenantId ? i.workspace_role_id : i.org_role_id;
    return {
        id: i.id,
        email: i.email,
        role_id: roleId,
        role_name: roleName(org, roleId),
        org_role_id: i.org_role_id,
        org_role_name: roleName(org, i.org_role_id),
        workspace_ids: i.workspace_ids,
        workspace_role_id: i.workspace_role_id,
        tenant_id: tenantId ?? null,
        organization_id: ORGANIZATION_ID,
        created_at: i.created_at,
    };
}

/** Only the members (or invitations) whose email is among `emails`, when any are asked for. */
export const byEmails = <T extends { email: string }>(items: T[], emails: string[]) =>
    emails.length ? items.filter((x) => emails.map(normal).includes(normal(x.email))) : items;

/**
 * POST /api/v1/workspaces/current/members/batch, one item: an invitation into this workspace, which a workspace's
 * own administrator may send (no organization permission needed). **Decided**: `role_id` is the workspace role
 * (default Admin); the person joins the organization as an Organization User.
 */
export function inviteToWorkspace(org: OrgModel, tenantId: string, body: OrgInviteRequest): InviteRecord {
    return invite(org, { email: body.email, workspace_ids: [tenantId], workspace_role_id: body.role_id ?? body.workspace_role_id }, () => true);
}

/** PATCH /api/v1/workspaces/current/members/{id}/pending: the workspace role a pending member will have (no second email). */
export function setPendingRole(org: OrgModel, tenantId: string, id: string, roleId: string): InviteRecord {
    const i = findInvite(org, id);
    if (!i.workspace_ids.includes(tenantId)) throw new EmulatorError(404, { detail: `Pending member ${id} not found.` });
    i.workspace_role_id = org.roleOf(roleId, "workspace").id;
    org.save();
    return i;
}

/** POST /api/v1/orgs/current/members (and each item of `/batch`): a pending invitation. */
export function invite(org: OrgModel, body: OrgInviteRequest, known: (id: string) => boolean): InviteRecord {
    const problem = emailProblem(body.email);
    if (problem) throw invalidField(["body", "email"], `value is not a valid email address: ${problem}`);
    const email = normal(body.email);
    if (org.state.members.some((m) => m.email === email)) throw conflict(`${email} is already a member of the organization.`);
    if (org.state.invites.some((i) => i.email === email)) throw conflict(`${email} already has a pending invitation.`);
    for (const id of body.workspace_ids ?? []) if (!known(id)) throw new EmulatorError(400, { detail: `Workspace ${id} not found.` });
    const record: InviteRecord = {
        id: randomUUID(),
        email,
        org_role_id: org.roleOf(body.role_id ?? builtInRole("ORGANIZATION_USER").id, "organization").id,
        workspace_ids: [...new Set(body.workspace_ids ?? [])],
        workspace_role_id: org.roleOf(body.workspace_role_id ?? builtInRole("WORKSPACE_ADMIN").id, "workspace").id,
        created_at: org.clock.iso(),
    };
    org.state.invites.push(record);
    org.save();
    return record;
}

/** The emulator's stand-in for the invited person accepting: an active member, in the invitation's workspaces. */
export function accept(org: OrgModel, email: string): MemberRecord {
    const i = org.state.invites.find((x) => x.email === normal(email));
    if (!i) throw new EmulatorError(404, { detail: `No pending invitation for ${email}.` });
    const now = org.clock.iso();
    const m: MemberRecord = {
        id: randomUUID(),
        user_id: randomUUID(),
        ls_user_id: randomUUID(),
        email: i.email,
        org_role_id: i.org_role_id,
        created_at: now,
        workspaces: {},
    };
    for (const ws of i.workspace_ids) m.workspaces[ws] = { id: randomUUID(), role_id: i.workspace_role_id, created_at: now };
    org.state.invites = org.state.invites.filter((x) => x !== i);
    org.state.members.push(m);
    org.save();
    return m;
}

export function cancelInvite(org: OrgModel, id: string): void {
    findInvite(org, id);
    org.state.invites = org.state.invites.filter((x) => x.id !== id);
    org.save();
}

/** A workspace's pending member removed: the workspace leaves the invitation, cancelled when none is left. */
export function cancelWorkspaceInvite(org: OrgModel, tenantId: string, id: string): void {
    const i = findInvite(org, id);
    if (!i.workspace_ids.includes(tenantId)) throw new EmulatorError(404, { detail: `Pending member ${id} not found.` });
    i.workspace_ids = i.workspace_ids.filter((x) => x !== tenantId);
    if (!i.workspace_ids.length) org.state.invites = org.state.invites.filter((x) => x !== i);
    org.save();
}

function findInvite(org: OrgModel, id: string): InviteRecord {
    const i = org.state.invites.find((x) => x.id === id);
    if (!i) throw new EmulatorError(404, { detail: `Pending member ${id} not found.` });
    return i;
}

export function orgMember(org: OrgModel, identityId: string): MemberRecord {
    const m = org.state.members.find((x) => x.id === identityId);
    if (!m) throw new EmulatorError(404, { detail: `Member ${identityId} not found.` });
    return m;
}

export function setOrgRole(org: OrgModel, identityId: string, roleId: string): MemberRecord {
    const m = orgMember(org, identityId);
    m.org_role_id = org.roleOf(roleId, "organization").id;
    org.save();
    return m;
}

export function removeOrgMember(org: OrgModel, identityId: string): void {
    orgMember(org, identityId);
    org.state.members = org.state.members.filter((x) => x.id !== identityId);
    org.save();
}

/** POST /api/v1/workspaces/current/members: an active organization member joins the workspace. */
export function addToWorkspace(org: OrgModel, tenantId: string, body: WorkspaceMemberRequest): MemberRecord {
    const m = org.state.members.find(
        (x) =>
            (body.org_identity_id && x.id === body.org_identity_id) ||
            (body.user_id && x.user_id === body.user_id) ||
            (body.ls_user_id && x.ls_user_id === body.ls_user_id),
    );
    if (!m) throw new EmulatorError(404, { detail: "No active organization member has that id: invite the person to the organization first." });
    if (m.workspaces[tenantId]) throw conflict(`${m.email} is already a member of workspace ${tenantId}.`);
    const role = org.roleOf(body.role_id ?? builtInRole("WORKSPACE_ADMIN").id, "workspace");
    m.workspaces[tenantId] = { id: randomUUID(), role_id: role.id, created_at: org.clock.iso() };
    org.save();
    return m;
}

export function workspaceMember(org: OrgModel, tenantId: string, identityId: string): MemberRecord {
    const m = org.state.members.find((x) => x.workspaces[tenantId]?.id === identityId);
    if (!m) throw new EmulatorError(404, { detail: `Member ${identityId} not found.` });
    return m;
}

export function setWorkspaceRole(org: OrgModel, tenantId: string, identityId: string, roleId: string): MemberRecord {
    const m = workspaceMember(org, tenantId, identityId);
    m.workspaces[tenantId].role_id = org.roleOf(roleId, "workspace").id;
    org.save();
    return m;
}

export function removeFromWorkspace(org: OrgModel, tenantId: string, identityId: string): void {
    const m = workspaceMember(org, tenantId, identityId);
    delete m.workspaces[tenantId];
    org.save();
}
