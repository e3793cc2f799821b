/**
 * The Role's dynamic provider (its fields: declare.ts). Its permissions are checked at preview against the
 * workspace permissions this provider knows (docs/service.md R7: the service's description and its newer names):
 * an organization permission fails (custom roles hold workspace permissions only); a name the provider does not
 * know is a warning naming the nearest known one, since the service may know more, and the service's answer
 * decides (its refusal names `permissions` and keeps its words). A create beside a role of the same name is refused with its id unless
 * LANGSMITH_ADOPT_IDS names it (then it is set to the program's); a lost answer is looked up by the name
 * (api/organization.ts `createRole`). An update sends the three fields (the service's PATCH takes them so). A
 * delete the service refuses while a member, an invitation or a service key holds the role says so in its words.
 * `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AccessPoliciesClient } from "../../api/accessPolicies";
import { BadRequestError, ConflictError } from "../../api/errors";
import type { OrganizationClient } from "../../api/organization";
import { BUILT_IN_ROLE_TITLES, ORGANIZATION_PERMISSIONS, WORKSPACE_PERMISSIONS, type Role, type RoleRequest } from "../../api/schemas/organization";
import { Checker } from "../../kit/check";
import type { ProviderOf, Stored } from "../../kit/declare";
import { diffByTable, diffTableOf, sameValue } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { ResourceInitError, messageOf } from "../../kit/initError";
import { Service } from "../../kit/service";
import { nearest } from "../../kit/spelling";
import { known } from "../../kit/unknown";
import { SCHEMA_VERSION, role, type RoleInputs, type RoleOutputs } from "./declare";

export const ROLE_DIFF = diffTableOf(role.inputs);

export interface RoleProviderOptions {
    /** The organization's administration client (default: the configured service's). */
    organization?: () => OrganizationClient;
    /** The organization's access policies (default: the configured service's). */
    policies?: () => AccessPoliciesClient;
}

/** The display names of the built-in roles (docs/service.md R7), the same in every organization: a custom role cannot take one. */
const BUILT_IN_ROLE_NAMES = Object.values(BUILT_IN_ROLE_TITLES);

/** Why `p` cannot be in a custom role (`fail`), or why it may not be (`warn`: a name this provider does not know), or undefined. */
export function permissionProblem(p: string): { fail?: string; warn?: string } | undefined {
    if (WORKSPACE_PERMISSIONS.includes(p)) return undefined;
    if (ORGANIZATION_PERMISSIONS.includes(p))
        return {
            fail: `${JSON.stringify(p)} is an organization permission: custom roles hold workspace permissions only (an organization role is given to a member by the organization, not by a Role)`,
        };
    return {
        warn: `${JSON.stringify(p)} is no workspace permission this provider knows: did you mean ${JSON.stringify(nearest(p, WORKSPACE_PERMISSIONS))}? (docs/role.md lists them). Sent as it is: the service decides, and names it if it refuses it.`,
    };
}

export function checkRole(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("Role", role.inputs, news);
    const perms = news.permissions;
    if (Array.isArray(perms)) {
        if (perms.length === 0) c.fail("permissions", "permissions must name at least one workspace permission");
        perms.forEach((p, i) => {
            const why = typeof p === "string" && known(p) ? permissionProblem(p) : undefined;
            if (why?.fail) c.fail(`permissions[${i}]`, why.fail);
            if (why?.warn) c.warn(`permissions[${i}]`, why.warn);
        });
    }
    if (typeof news.name === "string" && news.name.trim() !== news.name) c.fail("name", `name ${JSON.stringify(news.name)} must not begin or end with spaces`);
    else if (typeof news.name === "string" && BUILT_IN_ROLE_NAMES.includes(news.name))
        c.fail("name", `name ${JSON.stringify(news.name)} is a built-in role's (${BUILT_IN_ROLE_NAMES.join(", ")}): give this one another name`);
    return c.done(inputs);
}

export function createRoleProvider(o: RoleProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const org = o.organization ?? (() => service.organization());
    const policies = o.policies ?? (() => service.accessPolicies());
    const provider: ProviderOf<typeof role> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkRole(news), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(ROLE_DIFF, olds, news);
        },
        create: (inputs) => createRole(org(), policies, inputs),
        read: (id, props) => readRole(org(), policies, id, props),
        async update(id, olds, news) {
            const r = await refusedPermissions(org().updateRole(id, body(news)));
            await attachPolicies(policies, id, news.accessPolicyIds, olds.accessPolicyIds);
            return { outs: outputs(news, r) };
        },
        async delete(id, props) {
            // Its policies first: the service may refuse to delete a policy a deleted role's attachment still names.
            if (props.accessPolicyIds?.length) await attachPolicies(policies, id, [], props.accessPolicyIds);
            await org()
                .deleteRole(id)
                .catch((e: unknown) => {
                    if (e instanceof ConflictError)
                        throw new Error(`Role ${id}: the service refuses to delete it while it is held (${e.detail}): remove those first.`);
                    throw e;
                });
        },
    };
    return provider;
}

/**
 * Brings the role's attached policies to `wanted` (undefined: not managed, nothing read or sent). An attach sends
 * every wanted policy, not just the missing ones: right whether the service adds them (the emulator) or takes
 * them as the role's whole set (as a public provider reads it): docs/service.md R13.8.
 */
async function attachPolicies(policies: () => AccessPoliciesClient, id: string, wanted: string[] | undefined, had: string[] | undefined): Promise<void> {
    if (wanted === undefined && had === undefined) return;
    const pc = policies();
    const now = (await pc.attached(id)).map((p) => p.id);
    const all = [...new Set(wanted ?? [])];
    for (const p of now) if (!all.includes(p)) await pc.detach(id, p);
    if (all.some((p) => !now.includes(p))) await pc.attach(id, all);
}

/** A create: the role (or the one of its name, when adopted), then its policies; a role made whose policies fail is recorded. */
async function createRole(
    client: OrganizationClient,
    policies: () => AccessPoliciesClient,
    inputs: RoleInputs & Stored,
): Promise<{ id: string; outs: RoleOutputs }> {
    const holder = (await client.listRoles()).find((r) => r.display_name === inputs.name);
    const r = await refusedPermissions(holder ? adopted(client, holder, inputs) : client.createRole(body(inputs)));
    await attachPolicies(policies, r.id, inputs.accessPolicyIds, undefined).catch((e: unknown) => {
        throw new ResourceInitError(`Role ${r.id} was made, but attaching its access policies failed: ${messageOf(e)}`, r.id, {
            ...outputs({ ...inputs, accessPolicyIds: [] }, r),
            __provider: inputs.__provider,
        });
    });
    return { id: r.id, outs: outputs(inputs, r) };
}

/** A read (with only an id: `pulumi import`): the role, and its policies when the state manages them or at an import (then only when there are some). */
async function readRole(
    client: OrganizationClient,
    policies: () => AccessPoliciesClient,
    id: string,
    props: (Partial<RoleOutputs> & Stored) | undefined,
): Promise<{ id?: string; props?: RoleOutputs; inputs?: RoleInputs }> {
    const r = (await client.listRoles()).find((x) => x.id === id);
    if (!r) return {};
    const inputs = inputsOf(r, props);
    if (!props || Object.keys(props).length === 0 || props.accessPolicyIds !== undefined) {
        const ids = (await policies().attached(id)).map((p) => p.id);
        const same = props?.accessPolicyIds && sameValue([...new Set(props.accessPolicyIds)].sort(), [...ids].sort());
        if (ids.length || props?.accessPolicyIds) inputs.accessPolicyIds = same ? props.accessPolicyIds : ids.sort();
    }
    return { id, props: outputs(inputs, r), inputs };
}

/** A role write the service refuses (400) for its permissions, said of the property, in the service's words. */
async function refusedPermissions(write: Promise<Role>): Promise<Role> {
    return write.catch((e: unknown) => {
        if (e instanceof BadRequestError && /permission/i.test(e.detail))
            throw new Error(`Role: permissions: the service refused them: ${e.detail} (nothing was changed)`);
        throw e;
    });
}

/** The role that already has the program's name: taken in when LANGSMITH_ADOPT_IDS names it, refused otherwise (a built-in one always). */
async function adopted(client: OrganizationClient, holder: Role, inputs: RoleInputs): Promise<Role> {
    if (!holder.organization_id)
        throw new Error(`Role: ${JSON.stringify(inputs.name)} is the name of the built-in role ${holder.name}: give this one another name.`);
    if (adoptionAsked(holder.id)) return client.updateRole(holder.id, body(inputs));
    throw new Error(
        alreadyExistsMessage({
            what: `Role: the organization already holds custom role ${holder.id} named ${JSON.stringify(inputs.name)}`,
            existing: "role names are unique in an organization",
            id: holder.id,
            ifTheirs: "give this one another name",
            why: "the service keeps no mark of which stack made a role, so the provider cannot tell one this stack's interrupted run made from another's.",
        }),
    );
}

const body = (i: RoleInputs): RoleRequest => ({ display_name: i.name, description: i.description ?? "", permissions: i.permissions });

/** The inputs as the service says them; the permissions in the state's order when they are the same set. */
function inputsOf(r: Role, props: Partial<RoleOutputs> | undefined): RoleInputs {
    const sameSet = props?.permissions && sameValue([...new Set(props.permissions)].sort(), [...new Set(r.permissions)].sort());
    return {
        name: r.display_name,
        ...(r.description ? { description: r.description } : {}),
        permissions: sameSet ? props.permissions! : [...r.permissions].sort(),
    };
}

function outputs(i: RoleInputs, r: Role): RoleOutputs {
    return { ...i, roleName: r.name, accessScope: r.access_scope, schemaVersion: SCHEMA_VERSION };
}

export const roleProvider = createRoleProvider();
