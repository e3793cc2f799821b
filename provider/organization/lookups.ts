/**
 * Look-ups of the organization's objects (the Terraform providers' data sources): `getWorkspace`, `getWorkspaces`,
 * `getRole` and `getServiceKey` (never the key itself: the service answers it once, at creation). One implementation
 * behind both front doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 * Each looks up by id or by name (exactly one), and fails naming what it looked for when there is none.
 */
import type { OrganizationClient } from "../api/organization";
import type { Role, ServiceKey, Workspace } from "../api/schemas/organization";
import { oneOf } from "../kit/check";
import { boolean, list, lookup, object, string, type FunctionInputs, type FunctionResult, type Value } from "../kit/declare";

const workspaceFields = {
    id: string("The workspace's id (a resource's `workspaceId`).", { required: true }),
    displayName: string("Its name.", { required: true }),
    tenantHandle: string("Its prompt-hub handle, if it has one."),
    organizationId: string("The organization that holds it."),
    isPersonal: boolean("Whether it is a personal workspace.", { required: true }),
    createdAt: string("When it was made.", { required: true }),
};

const workspaceInfoType = object("WorkspaceInfo", "A workspace of the organization.", workspaceFields);
type WorkspaceInfo = Value<typeof workspaceInfoType>;

export const getWorkspaceFunction = lookup({
    name: "getWorkspace",
    description: "Looks up a workspace of the organization by id or by its exact name (one of them); fails naming it when there is none.",
    args: { id: string("The workspace's id."), displayName: string("Its exact name.") },
    result: workspaceFields,
});

export const getWorkspacesFunction = lookup({
    name: "getWorkspaces",
    description: "Lists the organization's workspaces (deleted ones aside), by name prefix if given.",
    args: { namePrefix: string("Only those whose name starts with this (any case).") },
    result: { workspaces: list("The workspaces, by name.", workspaceInfoType, { required: true }) },
});

export const getRoleFunction = lookup({
    name: "getRole",
    description:
        "Looks up a role by id or by name (one of them): a custom role by its display name, a built-in one by its name (`WORKSPACE_ADMIN`) or title (`Admin`). A member's or service key's `roleId` takes its id.",
    args: { id: string("The role's id."), name: string("Its display name, or a built-in role's name.") },
    result: {
        id: string("The role's id.", { required: true }),
        name: string("Its display name.", { required: true }),
        roleName: string("Its name as the service keeps it (`WORKSPACE_ADMIN`, `CUSTOM_...`).", { required: true }),
        description: string("What it is for."),
        permissions: list("The permissions it grants.", string("A permission."), { required: true }),
        accessScope: string("Where it applies: `workspace` or `organization`.", { required: true }),
        builtIn: boolean("Whether it is a built-in role (not a `Role` resource's).", { required: true }),
    },
});

export const getServiceKeyFunction = lookup({
    name: "getServiceKey",
    description:
        "Looks up a service key of the organization by id or by its exact description (one of them); never the key itself (the service answers it only at creation).",
    args: { id: string("The key's id."), description: string("Its exact description.") },
    result: {
        id: string("The key's id.", { required: true }),
        description: string("Its description.", { required: true }),
        shortKey: string("The key's visible part (`lsv2_sk_...`), to recognise it; not the key.", { required: true }),
        accessScope: string("`organization` or `workspace`.", { required: true }),
        roleId: string("Its workspace role, if any."),
        orgRoleId: string("Its organization role, if any."),
        workspaceNames: list("The workspaces it reaches.", string("A workspace's name.")),
        expiresAt: string("When it expires, if it does."),
        createdAt: string("When it was made."),
    },
});

export type GetWorkspaceArgs = FunctionInputs<typeof getWorkspaceFunction>;
export type GetWorkspacesArgs = FunctionInputs<typeof getWorkspacesFunction>;
export type GetRoleArgs = FunctionInputs<typeof getRoleFunction>;
export type GetServiceKeyArgs = FunctionInputs<typeof getServiceKeyFunction>;

const workspaceOf = (w: Workspace): WorkspaceInfo => ({
    id: w.id,
    displayName: w.display_name,
    tenantHandle: w.tenant_handle ?? undefined,
    organizationId: w.organization_id ?? undefined,
    isPersonal: w.is_personal,
    createdAt: w.created_at,
});

export async function getWorkspace(org: OrganizationClient, args: GetWorkspaceArgs): Promise<FunctionResult<typeof getWorkspaceFunction>> {
    const { by, value } = oneOf("getWorkspace", args, "id", "displayName");
    const w = (await org.listWorkspaces()).find((x) => (by === "id" ? x.id === value.toLowerCase() : x.display_name === value));
    if (!w) throw new Error(`getWorkspace: the organization holds no workspace ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    return workspaceOf(w);
}

export async function getWorkspaces(org: OrganizationClient, args: GetWorkspacesArgs): Promise<FunctionResult<typeof getWorkspacesFunction>> {
    const prefix = (args.namePrefix ?? "").toLowerCase();
    const all = (await org.listWorkspaces()).filter((w) => w.display_name.toLowerCase().startsWith(prefix));
    const workspaces: WorkspaceInfo[] = all.sort((a, b) => a.display_name.localeCompare(b.display_name)).map(workspaceOf);
    return { workspaces };
}

export async function getRole(org: OrganizationClient, args: GetRoleArgs): Promise<FunctionResult<typeof getRoleFunction>> {
    const { by, value } = oneOf("getRole", args, "id", "name");
    const matches = (r: Role) => (by === "id" ? r.id === value : r.display_name === value || (!r.organization_id && r.name === value));
    const r = (await org.listRoles()).find(matches);
    if (!r) throw new Error(`getRole: the organization holds no role ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    return {
        id: r.id,
        name: r.display_name,
        roleName: r.name,
        description: r.description ?? undefined,
        permissions: r.permissions,
        accessScope: r.access_scope,
        builtIn: !r.organization_id,
    };
}

export async function getServiceKey(org: OrganizationClient, args: GetServiceKeyArgs): Promise<FunctionResult<typeof getServiceKeyFunction>> {
    const { by, value } = oneOf("getServiceKey", args, "id", "description");
    const found = (await org.listServiceKeys()).filter((k) => (by === "id" ? k.id === value : k.description === value));
    if (!found.length) throw new Error(`getServiceKey: the organization holds no service key ${by === "id" ? "of id" : "described"} ${JSON.stringify(value)}`);
    if (found.length > 1)
        throw new Error(
            `getServiceKey: ${found.length} service keys are described ${JSON.stringify(value)} (${found.map((k) => k.id).join(", ")}): look one up by id`,
        );
    return serviceKeyOf(found[0]);
}

/** What a look-up answers of a key: never `key` (the service answers it only at creation, and it is no look-up's to show). */
function serviceKeyOf(k: ServiceKey): FunctionResult<typeof getServiceKeyFunction> {
    return {
        id: k.id,
        description: k.description,
        shortKey: k.short_key,
        accessScope: k.access_scope,
        roleId: k.role_id ?? undefined,
        orgRoleId: k.org_role_id ?? undefined,
        workspaceNames: k.workspace_names ?? undefined,
        expiresAt: k.expires_at ?? undefined,
        createdAt: k.created_at ?? undefined,
    };
}
