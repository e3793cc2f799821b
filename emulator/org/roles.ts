/**
 * The permissions the organization knows and its built-in roles (docs/service.md R7): the catalogue
 * `GET /api/v1/orgs/permissions` answers, the seven system roles with the permissions the operations reference
 * gives them, and the checks a custom role's permissions pass. Built-in role ids are derived from their names
 * (the same on every emulator; on the service they differ between installations: clients look them up by name).
 *
 * The catalogue starts as the one the provider knows (provider/api/schemas/organization.ts, itself checked
 * against the service's description in tests/contract); a test adds the names a newer service knows with
 * `PUT /__admin/org/permissions` (the provider warns about a name it does not know, and the service decides).
 */
import { ORGANIZATION_PERMISSIONS, WORKSPACE_PERMISSIONS, type AccessScope, type Role } from "../../provider/api/schemas/organization";
import { stableUuid } from "../core/ids";

export { ORGANIZATION_PERMISSIONS, WORKSPACE_PERMISSIONS };

export function permissionCatalogue(extra: readonly string[] = []): Array<{ name: string; description: string; access_scope: AccessScope }> {
    const entry = (access_scope: AccessScope) => (name: string) => ({ name, description: name.replace(/[:_-]/g, " "), access_scope });
    return [...ORGANIZATION_PERMISSIONS.map(entry("organization")), ...[...WORKSPACE_PERMISSIONS, ...extra].map(entry("workspace"))];
}

/**
 * What a Workspace Editor may not do (the operations reference), and what a Viewer may do. **Decided** where the
 * reference is silent: an Editor manages no secrets, keys or model configurations (every `workspaces:manage*`).
 */
const EDITOR_LACKS = new Set([
    "projects:create",
    "projects:delete",
    "runs:delete",
    "datasets:delete",
    "datasets:share",
    "annotation-queues:delete",
    "deployments:delete",
    "workspaces:manage",
    "workspaces:manage-members",
    "workspaces:manage-secrets",
    "workspaces:manage-keys",
    "workspaces:manage-model-configs",
    "bulk-exports:manage",
    "fleet:read-admin-config",
    "fleet:write-admin-config",
]);
const viewerMay = (p: string) => p.endsWith(":read") || p === "datasets:download";

const builtIn = (name: string, display_name: string, access_scope: AccessScope, permissions: readonly string[], description: string): Role => ({
    id: stableUuid(`built-in role ${name}`, "4", "8"),
    name,
    display_name,
    description,
    organization_id: null,
    permissions: [...permissions],
    access_scope,
});

export const BUILT_IN_ROLES: readonly Role[] = [
    builtIn("ORGANIZATION_ADMIN", "Organization Admin", "organization", ORGANIZATION_PERMISSIONS, "Full control of the organization"),
    builtIn("ORGANIZATION_OPERATOR", "Organization Operator", "organization", ORGANIZATION_PERMISSIONS, "Manages workspaces and non-admin members"),
    builtIn("ORGANIZATION_USER", "Organization User", "organization", ["organization:read", "organization:pats:create"], "Reads the organization"),
    builtIn("ORGANIZATION_VIEWER", "Organization Viewer", "organization", ["organization:read"], "Reads the organization, no tokens"),
    builtIn("WORKSPACE_ADMIN", "Admin", "workspace", WORKSPACE_PERMISSIONS, "Every permission in the workspace"),
    builtIn(
        "WORKSPACE_USER",
        "Editor",
        "workspace",
        WORKSPACE_PERMISSIONS.filter((p) => !EDITOR_LACKS.has(p)),
        "Most permissions in the workspace",
    ),
    builtIn("WORKSPACE_VIEWER", "Viewer", "workspace", WORKSPACE_PERMISSIONS.filter(viewerMay), "Reads the workspace"),
];

export const builtInRole = (name: string): Role => {
    const r = BUILT_IN_ROLES.find((x) => x.name === name);
    if (!r) throw new Error(`no built-in role ${name}`);
    return r;
};

/**
 * A custom role's permissions: known (the catalogue, with `extra`: names a newer service knows), workspace-level,
 * at least one (docs/service.md R7); the problem, or undefined.
 */
export function permissionsProblem(permissions: string[], extra: readonly string[] = []): string | undefined {
    if (permissions.length === 0) return "A role needs at least one permission.";
    const unknown = permissions.filter((p) => !WORKSPACE_PERMISSIONS.includes(p) && !ORGANIZATION_PERMISSIONS.includes(p) && !extra.includes(p));
    if (unknown.length) return `Unknown permission(s): ${unknown.join(", ")}.`;
    const org = permissions.filter((p) => ORGANIZATION_PERMISSIONS.includes(p));
    if (org.length) return `Custom roles may hold workspace permissions only: ${org.join(", ")}.`;
    return undefined;
}
