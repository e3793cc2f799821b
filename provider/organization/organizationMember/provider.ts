/**
 * The OrganizationMember's dynamic provider (its fields: declare.ts; what the organization holds and how it is
 * changed: person.ts). At preview the email is checked as the service's email type would (the same check as
 * WorkspaceMember's), and both roles for their scope: an organization role given as `workspaceRoleId`, or a
 * workspace role as `roleId`, fails on its property before anything is sent (a role id is looked up when the
 * roles can be read in time). A create invites the person to the organization with the role, naming the
 * workspaces and their role (a lost answer is looked up by the email); somebody already in the organization
 * (or invited) is refused unless LANGSMITH_ADOPT_IDS names the email (then brought to the program's roles and
 * workspaces). Whatever the state says, every operation finds the person by email (active first, then
 * pending), so that an invitation accepted since is an active member (`status` an output, never a diff), and a
 * delete ends the membership or cancels the invitation, whichever it is then. `read` with only an id is
 * `pulumi import` (the email). The resource owns the organization role, its invitation, and of an active member's
 * workspaces those it joined (the state's `workspaceIds`): a refresh reads those alone and an update leaves only
 * those, so a WorkspaceMember's workspace is never read, changed or left (docs/organizationMember.md).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import type { Role } from "../../api/schemas/organization";
import { Checker, UUID_RE } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, sameValue } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { workspaceFailures } from "../../kit/workspace";
import { roleIdFor, roleInputOf, roleProblem, roleSpellingProblem } from "../serviceKey/roles";
import { normalEmail } from "../workspaceMember/declare";
import { emailProblem, rolesAtPreview } from "../workspaceMember/provider";
import { SCHEMA_VERSION, organizationMember, type OrganizationMemberInputs, type OrganizationMemberOutputs } from "./declare";
import { converge, findPerson, invite, type Clients, type Person, type Wanted } from "./person";

export const ORGANIZATION_MEMBER_DIFF = diffTableOf(organizationMember.inputs);

export interface OrganizationMemberProviderOptions {
    /** The organization's administration client (default: the configured service's). */
    organization?: () => OrganizationClient;
    /** The administration client of a workspace (default: the configured service's). */
    admin?: (workspaceId: string) => OrganizationClient;
}

/** The two role inputs and their scopes (a role of the other scope is named as the input that takes it). */
const ROLE_INPUTS = [
    ["roleId", "organization"],
    ["workspaceRoleId", "workspace"],
] as const;

const emailOf = (v: string) => normalEmail(v) as string;

/** The check of a member's arguments; `roles`: the organization's, when a role id is to be looked up and they could be read. */
export function checkOrganizationMember(news: Record<string, unknown>, roles?: Role[]) {
    const c = new Checker();
    const inputs = c.declaration("OrganizationMember", organizationMember.inputs, news);
    if (typeof news.email === "string" && known(news.email) && news.email !== "") {
        const why = emailProblem(news.email);
        if (why) c.fail("email", `email ${JSON.stringify(news.email)} is not an email address the service takes: ${why}`);
    }
    for (const [property, scope] of ROLE_INPUTS) {
        const v = news[property];
        if (typeof v !== "string" || !known(v) || v === "") continue;
        const why = roleSpellingProblem(property, v, scope, ROLE_INPUTS) ?? (roles && UUID_RE.test(v) ? roleProblem(roles, property, v, scope) : undefined);
        if (why) c.fail(property, why);
    }
    const ids = Array.isArray(news.workspaceIds) ? news.workspaceIds : [];
    ids.forEach((ws, i) => {
        for (const f of workspaceFailures(ws, `workspaceIds[${i}]`)) c.fail(f.property, f.reason);
        if (known(ws) && ids.indexOf(ws) !== i) c.fail(`workspaceIds[${i}]`, `workspaceIds names ${ws} twice`);
    });
    return c.done(inputs);
}

/** The program's roles as ids (the roles' list read once). */
function wanted(roles: Role[], i: OrganizationMemberInputs): Wanted {
    return {
        email: emailOf(i.email),
        roleId: roleIdFor(roles, "roleId", i.roleId, "organization", "OrganizationMember"),
        workspaceIds: i.workspaceIds,
        workspaceRoleId: roleIdFor(roles, "workspaceRoleId", i.workspaceRoleId, "workspace", "OrganizationMember"),
    };
}

function alreadyThere(p: Person): Error {
    return new Error(
        alreadyExistsMessage({
            what: `OrganizationMember: ${p.email} is already ${p.status === "pending" ? "invited to" : "a member of"} the organization`,
            existing: "a person is in an organization once",
            id: p.email,
            ifTheirs: "leave them to what manages them, or take them into this stack with `pulumi import` (docs/organizationMember.md)",
            why: "the service keeps no mark of which stack invited a person, so the provider cannot tell one this stack's interrupted run invited from another's.",
        }),
    );
}

/**
 * The workspaces of `p` that are the resource's (docs/organizationMember.md, "Who owns what"): a pending invitation's
 * are all its own; of an active member's, those the state records (the resource joined them; any other is another's,
 * a WorkspaceMember's), none for an import.
 */
function owned(p: Person, props: Partial<OrganizationMemberOutputs> | undefined): string[] {
    if (p.status === "pending") return p.workspaceIds;
    return (props?.workspaceIds ?? []).filter((ws) => p.workspaceIds.includes(ws));
}

/**
 * The inputs as the service says them, of the workspaces the resource owns: the recorded spelling of a role while it
 * names the same role, the workspaces in the state's order when the same set.
 */
function inputsOf(roles: Role[], p: Person, props: Partial<OrganizationMemberOutputs> | undefined): OrganizationMemberInputs {
    const workspaceIds = owned(p, props);
    const wsRoles = [...new Set(workspaceIds.flatMap((ws) => p.workspaceRoles[ws] ?? []))];
    // Workspaces in different roles: one not the program's shows, so the next `up` sets them all.
    const recordedWs = props?.workspaceRoleId && findId(roles, props.workspaceRoleId);
    const wsRole = wsRoles.find((r) => r !== recordedWs) ?? wsRoles[0];
    const same = props?.workspaceIds && sameValue([...props.workspaceIds].sort(), [...workspaceIds].sort());
    return {
        email: props?.email ?? p.email,
        roleId: roleInputOf(roles, p.roleId, props?.roleId) ?? "ORGANIZATION_USER",
        workspaceIds: same ? props.workspaceIds! : workspaceIds,
        workspaceRoleId: (wsRole ? roleInputOf(roles, wsRole, props?.workspaceRoleId) : props?.workspaceRoleId) ?? "WORKSPACE_VIEWER",
    };
}

const findId = (roles: Role[], v: string) => roles.find((r) => r.id === v || (!r.organization_id && r.name === v))?.id;

export function createOrganizationMemberProvider(o: OrganizationMemberProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const org = o.organization ?? (() => service.organization());
    const clients = (): Clients => ({ org: org(), admin: o.admin ?? ((ws) => service.workspaceAdmin(ws)) });
    const provider: ProviderOf<typeof organizationMember> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            const roles = await rolesAtPreview(
                org,
                [news.roleId, news.workspaceRoleId].find((v) => typeof v === "string" && UUID_RE.test(v)),
            );
            return service.check(() => checkOrganizationMember(news, roles), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(ORGANIZATION_MEMBER_DIFF, olds, news);
        },
        async create(inputs) {
            const c = clients();
            const w = wanted(await c.org.listRoles(), inputs);
            const here = await findPerson(c, w.email, w.workspaceIds);
            if (here && !adoptionAsked(w.email)) throw alreadyThere(here);
            // Adopted: joins the program's workspaces; leaves none (those it is in are not yet the resource's).
            const p = here ? await converge(c, here, w, []) : await invite(c, w);
            return { id: w.email, outs: outputs(inputs, p) };
        },
        async read(id, props) {
            const c = clients();
            const p = await findPerson(c, props?.email ?? id, props?.workspaceIds ?? []);
            if (!p) return {};
            const inputs = inputsOf(await c.org.listRoles(), p, props);
            return { id, props: outputs(inputs, p), inputs };
        },
        async update(_id, olds, news) {
            const c = clients();
            const w = wanted(await c.org.listRoles(), news);
            const p = await findPerson(c, olds.email, [...new Set([...(olds.workspaceIds ?? []), ...w.workspaceIds])]);
            if (!p)
                throw new Error(
                    `OrganizationMember: ${emailOf(olds.email)} is no longer in the organization: \`pulumi refresh\`, then \`pulumi up\` invites them again.`,
                );
            return { outs: outputs(news, await converge(c, p, w, olds.workspaceIds ?? [])) };
        },
        async delete(id, props) {
            const c = clients();
            const p = await findPerson(c, props?.email ?? id, []);
            if (p?.status === "active") await c.org.removeOrgMember(p.identityId);
            if (p?.status === "pending") await c.org.cancelOrgInvite(p.identityId);
        },
    };
    return provider;
}

function outputs(i: OrganizationMemberInputs, p: Person): OrganizationMemberOutputs {
    return { ...i, status: p.status, identityId: p.identityId, userId: p.userId, schemaVersion: SCHEMA_VERSION };
}

export const organizationMemberProvider = createOrganizationMemberProvider();
