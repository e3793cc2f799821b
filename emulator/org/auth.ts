/**
 * Authentication and access of every request to the emulated service (docs/service.md 5, R7 rules 1-6), for
 * every area: who the key speaks for (core/principal.ts), which workspace the request speaks to, and whether
 * the key may do what it asks there.
 *
 * - A key the emulator did not make is the organization admin's, as before service keys existed: any non-empty
 *   key (or one of `--api-key`), in any workspace, `X-Tenant-Id` or, on the paths where the clients omit it,
 *   the key's own workspace.
 * - A service key made here: 401 once deleted or expired; a workspace-scoped one speaks to its first workspace
 *   when `X-Tenant-Id` is absent and gets 403 for a workspace it was not given; an organization-scoped one
 *   needs `X-Tenant-Id` on workspace paths (403). Its roles' permissions are checked (`required`).
 * - A workspace deleted through the API answers 404 to every workspace path.
 * - Renaming or deleting a workspace needs `X-Tenant-Id` naming it (403 otherwise) and `workspaces:manage` there.
 * - A deployment's agent server (`/__agents/{id}`, no `X-Tenant-Id`) answers a workspace-scoped key only when the
 *   deployment is in one of its workspaces (403 otherwise).
 */
import { forbidden, unauthorized } from "../core/errors";
import type { Principal } from "../core/principal";
import type { OrgModel } from "./model";
import { servicePrincipal } from "./keys";

export interface AuthRequest {
    method: string;
    path: string;
    key?: string;
    tenantHeader?: string;
    /** The path is a workspace's (not tenantless). */
    needsTenant: boolean;
    /** Without `X-Tenant-Id`, the path speaks to the admin key's own workspace (the tracing API). */
    keyScoped: boolean;
}

export interface Access {
    principal: Principal;
    tenantId?: string;
}

export class Authenticator {
    constructor(
        private readonly org: OrgModel,
        private readonly allowed: Set<string> | undefined,
        readonly keyWorkspace: (key: string) => string,
        private readonly deploymentWorkspace: (deploymentId: string) => string | undefined = () => undefined,
        /** Tokens made outside the service keys (personal access tokens, API keys: tokens.ts). */
        private readonly tokens?: { principal(key: string): Principal | undefined },
    ) {}

    /** The workspace a request speaks to, judging nothing (for the request log). */
    tenantOf(r: AuthRequest): string | undefined {
        try {
            return r.key ? this.tenant(r, this.principal(r.key)) : r.tenantHeader;
        } catch {
            return r.tenantHeader;
        }
    }

    /** Judges a request: 401, 403 or 404 as the service answers; else who it speaks for and where. */
    check(r: AuthRequest): Access {
        if (!r.key) throw unauthorized();
        const principal = this.principal(r.key);
        const tenantId = this.tenant(r, principal);
        const operatedOn = workspaceOperation(r);
        if (r.needsTenant || operatedOn) this.checkWorkspace(principal, tenantId);
        else this.checkAgentServer(principal, r.path);
        const need = required(r.method, r.path);
        if (need && principal.kind === "service") checkPermission(principal, need, tenantId);
        return { principal, tenantId };
    }

    private principal(key: string): Principal {
        const service = servicePrincipal(this.org, key) ?? this.tokens?.principal(key);
        if (service) return service;
        if (this.allowed && !this.allowed.has(key)) throw unauthorized();
        return { kind: "admin", key };
    }

    private tenant(r: AuthRequest, p: Principal): string | undefined {
        if (r.tenantHeader) return r.tenantHeader;
        if (p.kind === "admin") return r.keyScoped ? (p.workspace ?? this.keyWorkspace(p.key)) : undefined;
        return p.scope === "workspace" ? p.workspaces[0] : undefined;
    }

    private checkAgentServer(p: Principal, path: string): void {
        const id = /^\/__agents\/([^/]+)/.exec(path)?.[1];
        if (id) agentServerCheck(p, this.deploymentWorkspace(id));
    }

    private checkWorkspace(p: Principal, tenantId: string | undefined): void {
        if (!tenantId) {
            throw forbidden(
                p.kind === "service"
                    ? "X-Tenant-Id header is required: an organization-scoped API key speaks to no workspace by default."
                    : "X-Tenant-Id header is required.",
            );
        }
        if (p.kind === "service" && p.scope === "workspace" && !p.workspaces.includes(tenantId))
            throw forbidden(`This API key has no access to workspace ${tenantId}.`);
        // A workspace deleted through the API: 404 (liveWorkspace words it).
        if (this.org.workspace(tenantId)?.is_deleted) this.org.liveWorkspace(tenantId);
    }
}

/** An agent server's deployment must be in a workspace-scoped key's workspaces. */
function agentServerCheck(p: Principal, ws: string | undefined): void {
    if (ws && p.kind === "service" && p.scope === "workspace" && !p.workspaces.includes(ws)) throw forbidden(`This API key has no access to workspace ${ws}.`);
}

type Need = { scope: "organization" | "workspace"; permission: string };

/** Workspace paths and the resource their permissions name (docs/service.md R7 rule 6). */
const RESOURCES: Array<[RegExp, string]> = [
    [/^\/v2\/(deployments|listeners)/, "deployments"],
    [/^(\/api\/v1)?\/sessions/, "projects"],
    [/^(\/api\/v1)?\/runs/, "runs"],
    [/^(\/api\/v1)?\/datasets/, "datasets"],
    [/^\/api\/v1\/bulk-exports/, "bulk-exports"],
    [/^\/api\/v1\/workspaces\/current\/members/, "members"],
    [/^\/api\/v1\/workspaces\/current\/secrets/, "secrets"],
    [/^(\/api\/v1\/(usage-limits|ttl-settings)|\/workspaces\/current\/ttl-settings)/, "settings"],
    // The workspace's tools, Fleet MCP servers and features' models (docs/service.md R18.4): its settings.
    [/^\/api\/v1\/platform\/(tools|fleet\/mcp-servers|features)(\/|$)/, "settings"],
    // A workspace's hub handle (docs/service.md R20.3): set by its administrators.
    [/^(\/api\/v1)?\/settings\/handle\/?$/, "settings"],
];
const ACTIONS: Record<string, string> = { GET: "read", HEAD: "read", POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" };

/** A workspace's own path: renaming and deleting it are operations on that workspace (docs/service.md R7 rule 4). */
const WORKSPACE_ITSELF = /^\/api\/v1\/workspaces\/(?!current(?:\/|$))([^/]+)\/?$/;

/**
 * The permission a request needs, if any: the operations reference's (docs/service.md R7 rule 6), coarsened to
 * one per method where the reference gives one per resource. What depends on the body (an organization-wide key
 * needs the Organization Admin) is the route's to check.
 */
export function required(method: string, path: string): Need | undefined {
    const read = method === "GET" || method === "HEAD";
    const ws = (permission: string): Need => ({ scope: "workspace", permission });
    const org = (permission: string): Need => ({ scope: "organization", permission });
    if (/^\/api\/v1\/workspaces\/?$/.test(path)) return read ? undefined : org("organization:manage");
    if (WORKSPACE_ITSELF.test(path)) return read ? undefined : ws("workspaces:manage");
    if (/^\/api\/v1\/orgs\/(permissions|current\/roles)\/?$/.test(path) && read) return undefined;
    // A workspace-scoped key is made by any organization member (an Organization User too); the route asks more of an organization-wide one.
    if (/^\/api\/v1\/orgs\/current\/service-keys\/?$/.test(path)) return org("organization:read");
    const token = tokenNeed(method, path);
    if (token) return token;
    if (path.startsWith("/api/v1/orgs/")) return org(read ? "organization:read" : "organization:manage");
    // The LLM gateway's policies are the organization's (docs/service.md R19.1: OrganizationRead, OrganizationManage).
    if (path.startsWith("/api/v1/platform/gateway-policies")) return org(read ? "organization:read" : "organization:manage");
    // The platform's view of the organization's settings (docs/service.md R20.2).
    if (/^\/api\/v1\/platform\/orgs\/current\/info\/?$/.test(path)) return org("organization:read");
    const resource = RESOURCES.find(([re]) => re.test(path))?.[1];
    if (!resource) return undefined;
    if (resource === "runs") return ws(read ? "runs:read" : "runs:create");
    if (resource === "bulk-exports") return ws(read ? "bulk-exports:read" : "bulk-exports:manage");
    if (resource === "members") return ws(read ? "workspaces:read" : "workspaces:manage-members");
    if (resource === "secrets") return ws(read ? "workspaces:read" : "workspaces:manage-secrets");
    if (resource === "settings") return ws(read ? "workspaces:read" : "workspaces:manage");
    if (resource === "deployments" && /\/redeploy\/?$/.test(path)) return ws("deployments:update");
    return ws(`${resource}:${ACTIONS[method] ?? "read"}`);
}

/**
 * Renaming or deleting a workspace speaks to that workspace: `X-Tenant-Id` must name it (403 otherwise, as the
 * service judges such a request against no workspace), and the key must reach it.
 */
function workspaceOperation(r: AuthRequest): string | undefined {
    const id = WORKSPACE_ITSELF.exec(r.path)?.[1];
    if (!id || r.method === "GET" || r.method === "HEAD") return undefined;
    if (r.tenantHeader !== id)
        throw forbidden(
            `Renaming or deleting workspace ${id} is an operation on that workspace: send X-Tenant-Id: ${id} (the request named ${r.tenantHeader ?? "none"}).`,
        );
    return id;
}

/**
 * What the tokens' paths need (docs/service.md R21.5): service accounts and SCIM tokens an Organization Admin's
 * `organization:manage`; a personal access token of one's own `organization:pats:create` (a token of another's,
 * or a service account's, the route asks the Organization Admin for); a workspace API key `workspaces:manage-keys`.
 */
function tokenNeed(method: string, path: string): Need | undefined {
    const read = method === "GET" || method === "HEAD";
    if (/^\/api\/v1\/service-accounts(\/|$)/.test(path)) return { scope: "organization", permission: read ? "organization:read" : "organization:manage" };
    if (/^\/api\/v1\/platform\/orgs\/current\/scim\//.test(path)) return { scope: "organization", permission: "organization:manage" };
    if (/^\/api\/v1\/orgs\/current\/personal-access-tokens(\/|$)/.test(path))
        return { scope: "organization", permission: read ? "organization:read" : "organization:pats:create" };
    if (/^\/api\/v1\/api-key(\/|$)/.test(path)) return { scope: "workspace", permission: read ? "workspaces:read" : "workspaces:manage-keys" };
    return undefined;
}

function checkPermission(p: Extract<Principal, { kind: "service" }>, need: Need, tenantId?: string): void {
    if (need.scope === "workspace") {
        const role = (tenantId && p.roleIn?.[tenantId]) || p.role;
        if (!role.permissions.includes(need.permission)) throw forbidden(`This API key's role ${role.name} lacks the permission ${need.permission}.`);
        return;
    }
    const base = `This operation needs an organization-scoped API key with the ${need.permission} permission`;
    if (!p.orgRole) throw forbidden(`${base}; this key is scoped to workspaces ${p.workspaces.join(", ")}.`);
    if (!p.orgRole.permissions.includes(need.permission)) throw forbidden(`${base}; this key's organization role ${p.orgRole.name} lacks it.`);
}
