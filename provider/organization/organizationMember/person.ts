/**
 * An OrganizationMember as the organization holds them now (docs/service.md R7), and how the provider brings
 * them to the program's roles and workspaces. An active member: the organization role (`PATCH
 * /orgs/current/members/{id}`), each workspace joined (`POST /workspaces/current/members`, by the organization
 * identity) or left (`DELETE .../members/{id}` there), each workspace's role (`PATCH` there). A pending
 * invitation: its workspace role changed in each of its workspaces (no second email); any other change cancels
 * it and invites again (the service has no change of an invitation's organization role or workspaces), with a
 * warning, since the person gets a second email.
 */
import type { OrganizationClient } from "../../api/organization";
import { claim } from "../../kit/adoption";
import { warn } from "../../kit/warn";
import { membership } from "../workspaceMember/declare";

/** The person in the organization now. */
export interface Person {
    status: "active" | "pending";
    identityId: string;
    userId: string | null;
    email: string;
    /** Organization role id. */
    roleId: string;
    workspaceIds: string[];
    /** Workspace role id per workspace. */
    workspaceRoles: Record<string, string>;
}

/** What the program wants, as ids. */
export interface Wanted {
    email: string;
    roleId: string;
    workspaceIds: string[];
    workspaceRoleId: string;
}

/** The organization's client, and a workspace's administration client by its id. */
export interface Clients {
    org: OrganizationClient;
    admin: (workspaceId: string) => OrganizationClient;
}

/**
 * The person of `email`, active (with the role in each workspace of `roles` they are in, read there: the other
 * workspaces are not the resource's to read) or pending; undefined when neither.
 */
export async function findPerson(c: Clients, email: string, roles: string[]): Promise<Person | undefined> {
    const { member, pending } = await c.org.findOrgPerson(email);
    if (member) {
        const workspaceIds = member.tenant_ids ?? [];
        const workspaceRoles: Record<string, string> = {};
        for (const ws of workspaceIds.filter((x) => roles.includes(x))) {
            const there = (await c.admin(ws).listMembers(member.email)).find((m) => m.email.toLowerCase() === member.email.toLowerCase());
            if (there?.role_id) workspaceRoles[ws] = there.role_id;
        }
        const roleId = (member.org_role_id as string | undefined) ?? member.role_id ?? "";
        return { status: "active", identityId: member.id, userId: member.user_id ?? null, email: member.email, roleId, workspaceIds, workspaceRoles };
    }
    if (!pending) return undefined;
    const workspaceIds = pending.workspace_ids ?? [];
    const wsRole = pending.workspace_role_id ?? "";
    return {
        status: "pending",
        identityId: pending.id,
        userId: null,
        email: pending.email,
        roleId: pending.org_role_id ?? pending.role_id ?? "",
        workspaceIds,
        workspaceRoles: Object.fromEntries(workspaceIds.map((ws) => [ws, wsRole])),
    };
}

/** Sends the invitation of `w`: a pending member. */
export async function invite(c: Clients, w: Wanted): Promise<Person> {
    const p = await c.org.inviteToOrganization({ email: w.email, role_id: w.roleId, workspace_ids: w.workspaceIds, workspace_role_id: w.workspaceRoleId });
    return {
        status: "pending",
        identityId: p.id,
        userId: null,
        email: w.email,
        roleId: w.roleId,
        workspaceIds: w.workspaceIds,
        workspaceRoles: Object.fromEntries(w.workspaceIds.map((ws) => [ws, w.workspaceRoleId])),
    };
}

/**
 * Brings an active member to `w`; `managed`: the workspaces the state says this resource joined (only those are
 * left: another workspace the person is in is another's, a WorkspaceMember's, docs/organizationMember.md).
 */
async function activeTo(c: Clients, p: Person, w: Wanted, managed: string[]): Promise<void> {
    if (p.roleId !== w.roleId) await c.org.setOrgMemberRole(p.identityId, w.roleId);
    // Already in one of its workspaces: a WorkspaceMember's until now, maybe, whose delete in this run must leave it.
    for (const ws of w.workspaceIds.filter((x) => p.workspaceIds.includes(x))) claim(membership(ws, p.email));
    for (const ws of w.workspaceIds.filter((x) => !p.workspaceIds.includes(x)))
        await c.admin(ws).addMember({ org_identity_id: p.identityId, role_id: w.workspaceRoleId }, p.email);
    for (const ws of p.workspaceIds.filter((x) => managed.includes(x) && !w.workspaceIds.includes(x))) {
        const there = (await c.admin(ws).listMembers(p.email))[0];
        if (there) await c.admin(ws).removeMember(there.id);
    }
    for (const ws of w.workspaceIds.filter((x) => p.workspaceIds.includes(x) && p.workspaceRoles[x] !== w.workspaceRoleId)) {
        const there = (await c.admin(ws).listMembers(p.email))[0];
        if (there) await c.admin(ws).setMemberRole(there.id, w.workspaceRoleId);
    }
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Brings the person found to `w`, in place where the service can; answers them as they are then. */
export async function converge(c: Clients, p: Person, w: Wanted, managed: string[]): Promise<Person> {
    if (p.status === "active") {
        await activeTo(c, p, w, managed);
        return (await findPerson(c, w.email, w.workspaceIds)) ?? p;
    }
    if (p.roleId === w.roleId && sameSet(p.workspaceIds, w.workspaceIds)) {
        if (Object.values(p.workspaceRoles).some((r) => r !== w.workspaceRoleId))
            for (const ws of w.workspaceIds) await c.admin(ws).setPendingRole(p.identityId, w.workspaceRoleId);
        return { ...p, workspaceRoles: Object.fromEntries(w.workspaceIds.map((ws) => [ws, w.workspaceRoleId])) };
    }
    await warn(
        `OrganizationMember ${w.email}: the service cannot change a pending invitation's organization role or workspaces, so it was cancelled and sent again (a second email).`,
    );
    await c.org.cancelOrgInvite(p.identityId);
    return invite(c, w);
}
