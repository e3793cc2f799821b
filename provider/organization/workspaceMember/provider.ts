/**
 * The WorkspaceMember's dynamic provider (its fields: declare.ts). The email is checked at preview as the
 * service's email type would, and the role too: a built-in name (resolved in the role list at `up`) or a role
 * id, looked up at preview when known (an unknown one, or an organization role, fails before anything is
 * sent). A create adds an active organization member to the workspace at once, and invites anybody else
 * into the workspace with the role (the workspace-level invitation, which the workspace's own administrator
 * may send): a pending member. Whatever the state says, every
 * operation finds the person in the workspace by email (active first, then pending), so that an invitation
 * accepted since is an active member (its `status` an output, never a diff), a pending one is kept by refresh
 * (never dropped and invited again), and a delete removes the member or cancels the invitation, whichever it
 * is then. A new role changes in place, a pending invitation's too (docs/service.md R7: no second email; an
 * installation without that change cancels and invites again). `read` with only an id is `pulumi import`
 * (`<email>` or `<workspaceId>/<email>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { PermissionDeniedError, routeMissing } from "../../api/errors";
import type { OrganizationClient } from "../../api/organization";
import { BUILT_IN_WORKSPACE_ROLES, type Member, type PendingMember, type Role } from "../../api/schemas/organization";
import { claimedThisRun } from "../../kit/adoption";
import { Checker, UUID_RE } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { nearest } from "../../kit/spelling";
import { builtInRoleHint, builtInRoleList } from "../serviceKey/roles";
import { known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { checkWorkspaceId, located, noneInGoneWorkspace, withWorkspaces, workspaceAdmins } from "../../kit/workspaceAdmin";
import { SCHEMA_VERSION, membership, normalEmail, workspaceMember, type WorkspaceMemberInputs, type WorkspaceMemberOutputs } from "./declare";

export const WORKSPACE_MEMBER_DIFF = diffTableOf(workspaceMember.inputs);

export interface WorkspaceMemberProviderOptions {
    /** The administration client of a workspace (default: the configured service's). */
    admin?: (workspaceId: string) => OrganizationClient;
    /** The organization's administration client (default: the configured service's). */
    organization?: () => OrganizationClient;
}

/** The person as the workspace holds them now. */
interface Found {
    status: "active" | "pending";
    identityId: string;
    userId: string | null;
    roleId: string;
}

/** How long a preview may spend reading the roles before it leaves the role id to `up` (ms). */
const ROLES_AT_PREVIEW_MS = 3_000;

const emailOf = (v: string) => normalEmail(v) as string;

/** Why the service's email type would refuse `email`, or undefined. */
export function emailProblem(email: string): string | undefined {
    const at = email.trim().split("@");
    if (at.length !== 2) return "it must have exactly one @";
    if (at[0] === "" || /\s/.test(email.trim())) return "it must have something before the @, and no spaces";
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(at[1])) return `${JSON.stringify(at[1])} is not a domain name`;
    return undefined;
}

/** Why `roleId` names no workspace role (`roles`: the organization's, when they could be read), or undefined. */
export function roleProblem(roleId: string, roles: Role[] | undefined): string | undefined {
    if ((BUILT_IN_WORKSPACE_ROLES as readonly string[]).includes(roleId)) return undefined;
    if (!UUID_RE.test(roleId))
        return `roleId ${JSON.stringify(roleId)} is neither a role id (a uuid) nor a built-in workspace role (${builtInRoleList("workspace")})${builtInRoleHint(roleId, "workspace") || `: did you mean ${nearest(roleId, BUILT_IN_WORKSPACE_ROLES)}?`}`;
    const r = roles?.find((x) => x.id === roleId);
    if (roles && !r) return `roleId ${roleId} is no role of the organization (its roles: GET /api/v1/orgs/current/roles)`;
    if (r && r.access_scope !== "workspace") return `roleId ${roleId} is the organization role ${r.name}: a member of a workspace holds a workspace role`;
    return undefined;
}

/** The role `roleId` names, or an error saying why none. */
function resolveRole(roles: Role[], roleId: string): Role {
    const r = roles.find((x) => x.id === roleId || (!x.organization_id && x.name === roleId && x.access_scope === "workspace"));
    const why = roleProblem(roleId, roles) ?? (r ? undefined : `roleId ${JSON.stringify(roleId)}: the service lists no such role`);
    if (why || !r) throw new Error(`WorkspaceMember: ${why}`);
    return r;
}

/** The check of a member's arguments; `roles`: the organization's roles, when a role id is to be looked up and could be read. */
export function checkWorkspaceMember(news: Record<string, unknown>, providerWorkspace: string | undefined, roles?: Role[]) {
    const c = new Checker();
    const inputs = c.declaration("WorkspaceMember", workspaceMember.inputs, news);
    if (typeof news.email === "string" && known(news.email) && news.email !== "") {
        const why = emailProblem(news.email);
        if (why) c.fail("email", `email ${JSON.stringify(news.email)} is not an email address the service takes: ${why}`);
    }
    if (typeof news.roleId === "string" && known(news.roleId) && news.roleId !== "") {
        const why = roleProblem(news.roleId, roles);
        if (why) c.fail("roleId", why);
    }
    checkWorkspaceId(c, news.workspaceId, providerWorkspace, "WorkspaceMember");
    return c.done(inputs);
}

/** The person in the workspace: an active member by email, else a pending one; undefined when neither (or the workspace is gone). */
async function find(client: OrganizationClient, email: string): Promise<Found | undefined> {
    const e = emailOf(email);
    const active = (await client.listMembers(e).catch(noneInGoneWorkspace<Member & { email: string }>)).find((m) => emailOf(m.email) === e);
    if (active) return { status: "active", identityId: active.id, userId: active.user_id ?? null, roleId: active.role_id ?? "" };
    const pending = (await client.listPendingMembers(e).catch(noneInGoneWorkspace<PendingMember>)).find((p) => emailOf(p.email) === e);
    return pending && { status: "pending", identityId: pending.id, userId: null, roleId: pending.role_id ?? "" };
}

/** The organization's client, and the workspace a member is in with its client. */
interface Where {
    org: OrganizationClient;
    ws: string;
    client: OrganizationClient;
}

/**
 * Brings the person into the workspace with `roleId`: added at once when an active organization member, invited
 * into the workspace otherwise (the workspace-level invitation, which a workspace's own administrator may send).
 * A key that may not read the organization's members (a workspace-scoped one) invites: the service says if the
 * person is already there.
 */
async function join({ org, ws, client }: Where, email: string, roleId: string): Promise<Found> {
    const e = emailOf(email);
    const everyone = await org.listOrgMembers().catch((err: unknown) => {
        if (err instanceof PermissionDeniedError) return undefined;
        throw err;
    });
    const m = everyone?.members.find((x) => emailOf(x.email) === e);
    if (m) {
        const added = await client.addMember({ org_identity_id: m.id, role_id: roleId }, e);
        return { status: "active", identityId: added.id, userId: added.user_id ?? null, roleId };
    }
    const elsewhere = everyone?.pending.find((x) => emailOf(x.email) === e);
    if (elsewhere)
        throw new Error(
            `WorkspaceMember: ${e} has a pending invitation to the organization (to workspaces ${(elsewhere.workspace_ids ?? []).join(", ") || "none"}) ` +
                `that does not name workspace ${ws}, and the service neither adds a workspace to an invitation nor sends a second one. ` +
                "Once they accept it, run `pulumi up` again (they are then added at once); or cancel that invitation first. Nothing was sent.",
        );
    const inv = await client.inviteToWorkspace(e, roleId);
    return { status: "pending", identityId: inv.id, userId: null, roleId };
}

/**
 * Gives the person found the role, in place: an active member's (the service answers nothing: read again), or a
 * pending invitation's (no second email). An installation older than the pending role change cancels the
 * invitation and sends it again, and says so.
 */
async function inLine(w: Where, email: string, f: Found, roleId: string): Promise<Found> {
    if (f.roleId === roleId) return f;
    if (f.status === "active") {
        await w.client.setMemberRole(f.identityId, roleId);
        return { ...((await find(w.client, email)) ?? f), roleId };
    }
    try {
        await w.client.setPendingRole(f.identityId, roleId);
        return { ...f, roleId };
    } catch (e) {
        if (!routeMissing(e)) throw e;
    }
    await warn(
        `WorkspaceMember ${emailOf(email)}: this installation cannot change a pending invitation's role, so it was cancelled and sent again (a second email).`,
    );
    await w.client.cancelPendingMember(f.identityId);
    return join(w, email, roleId);
}

/** The refusal of a create beside the person already in the workspace (LANGSMITH_ADOPT_IDS=<workspaceId>/<email> takes them in). */
function alreadyThere(email: string, ws: string, here: Found): Error {
    return new Error(
        alreadyExistsMessage({
            what: `WorkspaceMember: ${email} is already ${here.status === "pending" ? "invited to" : "a member of"} workspace ${ws} (role ${here.roleId})`,
            existing: "a person is in a workspace once",
            id: `${ws}/${email}`,
            ifTheirs: "leave them to what manages them, or take them into this stack with `pulumi import` (docs/workspaceMember.md)",
            why: "the service keeps no mark of which stack added a member, so the provider cannot tell one this stack's interrupted run added from another's.",
        }),
    );
}

/** The organization's roles when `roleId` is a role id to look up at preview; undefined otherwise, and when they cannot be read in time (`up` says so then). */
export async function rolesAtPreview(org: () => OrganizationClient, roleId: unknown): Promise<Role[] | undefined> {
    if (typeof roleId !== "string" || !known(roleId) || !UUID_RE.test(roleId)) return undefined;
    return Promise.resolve()
        .then(() =>
            org()
                .withDeadline(Date.now() + ROLES_AT_PREVIEW_MS)
                .listRoles(),
        )
        .catch(() => undefined);
}

export function createWorkspaceMemberProvider(o: WorkspaceMemberProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const configured = () => service.config().workspaceId;
    const admin = workspaceAdmins(() => service, "WorkspaceMember", o.admin);
    const org = o.organization ?? (() => service.organization());

    const provider: ProviderOf<typeof workspaceMember> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            const roles = await rolesAtPreview(org, news.roleId);
            return service.check((cfg) => checkWorkspaceMember(news, cfg.workspaceId, roles), "organization");
        },
        async diff(_id, olds, news) {
            const [ol, nw] = withWorkspaces(olds, news, configured);
            return diffByTable(WORKSPACE_MEMBER_DIFF, ol, nw);
        },
        async create(inputs) {
            const w = { org: org(), ...admin(inputs.workspaceId) };
            const role = resolveRole(await w.org.listRoles(), inputs.roleId);
            const email = emailOf(inputs.email);
            const here = await find(w.client, email);
            // Adopted as `<workspaceId>/<email>`: an email alone would name that person in every workspace of the program.
            if (here && !adoptionAsked(`${w.ws}/${email}`)) throw alreadyThere(email, w.ws, here);
            const f = here ? await inLine(w, email, here, role.id) : await join(w, email, role.id);
            return { id: email, outs: outputs(inputs, w.ws, role.id, f) };
        },
        async read(id, props) {
            const at = located(id, props && { ...props, name: props.email });
            const { ws, client } = admin(at.workspaceId);
            const f = await find(client, at.name);
            if (!f) return {};
            // The role as the program names it, unless it changed elsewhere (or this is an import): then as the service does.
            const same = props?.roleId && f.roleId === props.resolvedRoleId;
            const roleId = same ? props.roleId : builtInName(await org().listRoles(), f.roleId);
            const inputs = prune({
                email: props?.email ?? at.name,
                roleId,
                workspaceId: at.named ? at.workspaceId : props?.workspaceId,
            }) as WorkspaceMemberInputs;
            return { id, props: outputs(inputs, ws, f.roleId, f), inputs };
        },
        async update(_id, olds, news) {
            const w = { org: org(), ...admin(olds.tenantId ?? news.workspaceId) };
            const role = resolveRole(await w.org.listRoles(), news.roleId);
            const here = await find(w.client, olds.email);
            if (!here)
                throw new Error(
                    `WorkspaceMember: ${emailOf(olds.email)} is no longer in workspace ${w.ws}: \`pulumi refresh\`, then \`pulumi up\` brings them back.`,
                );
            return { outs: outputs(news, w.ws, role.id, await inLine(w, olds.email, here, role.id)) };
        },
        async delete(id, props) {
            const at = located(id, props && { ...props, name: props.email });
            const { ws, client } = admin(at.workspaceId);
            if (claimedThisRun(membership(ws, at.name))) {
                await warn(`WorkspaceMember ${at.name} in ${ws}: left in the workspace: an OrganizationMember of this run names it now (its workspaceIds).`);
                return;
            }
            const f = await find(client, at.name);
            if (f?.status === "active") await client.removeMember(f.identityId);
            if (f?.status === "pending") await client.cancelPendingMember(f.identityId);
        },
    };
    return provider;
}

/** A built-in workspace role's name for its id (as programs name it), else the id. */
export function builtInName(roles: Role[], roleId: string): string {
    const r = roles.find((x) => x.id === roleId);
    return r && !r.organization_id && (BUILT_IN_WORKSPACE_ROLES as readonly string[]).includes(r.name) ? r.name : roleId;
}

function outputs(i: WorkspaceMemberInputs, tenantId: string, resolvedRoleId: string, f: Found): WorkspaceMemberOutputs {
    return { ...i, status: f.status, identityId: f.identityId, userId: f.userId, tenantId, resolvedRoleId, schemaVersion: SCHEMA_VERSION };
}

export const workspaceMemberProvider = createWorkspaceMemberProvider();
