/**
 * The routes of the organization's non-human identities (docs/service.md R21; the model: tokens.ts): service
 * accounts (`/api/v1/service-accounts`), personal access tokens (`/api/v1/orgs/current/personal-access-tokens`, a
 * service account's named by `X-Service-Account-Id`) and workspace API keys (`/api/v1/api-key`, in the request's
 * workspace). auth.ts has checked the permission of the path; what depends on the body or on whose token it is
 * (an Organization Admin for another's token) is checked here. Each token is answered once, by its create.
 */
import {
    ApiKeyCreateRequestSchema,
    SERVICE_ACCOUNT_HEADER,
    ServiceAccountCreateRequestSchema,
    type ApiKeyCreateRequest,
} from "../../provider/api/schemas/tokens";
import { badRequest, forbidden, requireUuid, EmulatorError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import type { Principal } from "../core/principal";
import { hashOf } from "./keys";
import { ORGANIZATION_ID } from "./model";
import { builtInRole } from "./roles";
import { newSecret, type ServiceAccountRecord, type TokenModel, type TokenOwner, type TokenRecord } from "./tokens";

const ok = (body: unknown = {}) => ({ status: 200, body });
const principalOf = (c: RequestContext): Principal => c.principal ?? { kind: "admin", key: "" };
const isOrgAdmin = (p: Principal) => p.kind === "admin" || p.orgRole?.name === "ORGANIZATION_ADMIN";

export function tokenRoutes(router: Router, m: TokenModel, keyWorkspace: (key: string) => string): void {
    serviceAccountRoutes(router, m, keyWorkspace);
    patRoutes(router, m, keyWorkspace);
    apiKeyRoutes(router, m);
}

function serviceAccountView(a: ServiceAccountRecord) {
    const { identity_id, workspaces, ...shown } = a;
    return { ...shown, organization_id: ORGANIZATION_ID, default_workspace_id: workspaces[0]?.workspace_id ?? null };
}

function serviceAccountRoutes(router: Router, m: TokenModel, keyWorkspace: (key: string) => string): void {
    const base = "/api/v1/service-accounts";
    router
        .on("GET", base, () => ok(m.state.serviceAccounts.map(serviceAccountView)))
        .on("POST", base, (c) => {
            if (!isOrgAdmin(principalOf(c))) throw forbidden("Managing service accounts needs the Organization Admin role.");
            const body = parse(ServiceAccountCreateRequestSchema, c.body, "body");
            if (body.name.trim() === "") throw badRequest("A service account's name must not be blank.");
            const p = principalOf(c);
            // The admin key's own workspace is the organization's, recorded when first named (as a service key's: routes.ts knownTo).
            if (p.kind === "admin")
                for (const w of body.workspaces) if (w.workspace_id === (p.workspace ?? keyWorkspace(p.key))) m.org.ensureDefault(w.workspace_id);
            const workspaces = body.workspaces.map((w) => {
                const ws = m.org.workspace(w.workspace_id);
                if (!ws || ws.is_deleted) throw badRequest(`Workspace ${w.workspace_id} not found.`);
                return { workspace_id: w.workspace_id, role_id: m.org.roleOf(w.role_id ?? builtInRole("WORKSPACE_USER").id, "workspace").id };
            });
            const at = m.clock.iso();
            const a: ServiceAccountRecord = { id: m.newId(), name: body.name, identity_id: m.newId(), workspaces, created_at: at, updated_at: at };
            m.state.serviceAccounts.push(a);
            m.save();
            return ok({ ...serviceAccountView(a), organization_identity_id: a.identity_id });
        })
        .on("DELETE", `${base}/{service_account_id}`, (c) => {
            if (!isOrgAdmin(principalOf(c))) throw forbidden("Managing service accounts needs the Organization Admin role.");
            const a = m.serviceAccount(requireUuid(c.params.service_account_id, "service_account_id"));
            // Its tokens go with it: 401 from now on.
            for (const t of m.state.tokens.filter((t) => t.owner.kind === "service-account" && t.owner.id === a.id)) m.revoke(t.hash);
            m.state.tokens = m.state.tokens.filter((t) => !(t.owner.kind === "service-account" && t.owner.id === a.id));
            m.state.serviceAccounts = m.state.serviceAccounts.filter((x) => x !== a);
            m.save();
            return ok(serviceAccountView(a));
        });
}

/** A token as listed (`APIKeyGetResponse`): never the token itself. */
function tokenView(m: TokenModel, t: TokenRecord) {
    const { hash, owner, kind, default_workspace_id, ...shown } = t;
    const name = (id: string | null | undefined) => (id ? (m.org.workspace(id)?.display_name ?? null) : null);
    return {
        ...shown,
        read_only: false,
        default_workspace_name: name(default_workspace_id),
        workspace_names: workspacesOf(m, owner).map((id) => name(id) ?? id),
    };
}

function workspacesOf(m: TokenModel, o: TokenOwner): string[] {
    if (o.kind === "service") return o.workspaces;
    if (o.kind === "workspace") return [o.workspace];
    if (o.kind === "service-account") return m.state.serviceAccounts.find((a) => a.id === o.id)?.workspaces.map((w) => w.workspace_id) ?? [];
    return [];
}

/** Who a personal access token made by this request belongs to: the caller, or the service account the header names (an Organization Admin's request). */
function patOwner(m: TokenModel, c: RequestContext, keyWorkspace: (key: string) => string): TokenOwner {
    const p = principalOf(c);
    const named = c.headers[SERVICE_ACCOUNT_HEADER.toLowerCase()];
    if (typeof named === "string" && named) {
        if (!isOrgAdmin(p)) throw forbidden("Making a service account's token needs the Organization Admin role.");
        return { kind: "service-account", id: m.serviceAccount(requireUuid(named, SERVICE_ACCOUNT_HEADER)).id };
    }
    if (p.kind === "admin") return { kind: "admin", workspace: p.workspace ?? keyWorkspace(p.key) };
    return { kind: "service", scope: p.scope, workspaces: p.workspaces, role_id: p.role.id, org_role_id: p.orgRole?.id ?? null };
}

function makeToken(m: TokenModel, kind: TokenRecord["kind"], owner: TokenOwner, body: ApiKeyCreateRequest & { description: string }) {
    const pat = kind === "pat";
    const limit = pat ? "max_pat_expiry_days" : "max_api_key_expiry_days";
    const expires = m.expiry(body.expires_at, m.limits()[limit], limit);
    const { secret, short } = newSecret(pat ? "lsv2_pt_" : "lsv2_sk_");
    const t: TokenRecord = {
        id: m.newId(),
        kind,
        description: body.description,
        hash: hashOf(secret),
        short_key: short,
        owner,
        default_workspace_id: body.default_workspace_id ?? null,
        expires_at: expires,
        created_at: m.clock.iso(),
        last_used_at: null,
    };
    m.state.tokens.push(t);
    m.save();
    return { ...tokenView(m, t), key: secret };
}

function patRoutes(router: Router, m: TokenModel, keyWorkspace: (key: string) => string): void {
    const base = "/api/v1/orgs/current/personal-access-tokens";
    const pats = () => m.state.tokens.filter((t) => t.kind === "pat");
    router
        .on("GET", base, (c) =>
            ok(
                pats()
                    .filter((t) => isOrgAdmin(principalOf(c)) || ownedBy(t, principalOf(c)))
                    .map((t) => tokenView(m, t)),
            ),
        )
        .on("POST", base, (c) => {
            const owner = patOwner(m, c, keyWorkspace);
            return ok(makeToken(m, "pat", owner, parse(ApiKeyCreateRequestSchema, c.body ?? {}, "body")));
        })
        .on("DELETE", `${base}/{pat_id}`, (c) => {
            const t = findToken(m, "pat", requireUuid(c.params.pat_id, "pat_id"));
            if (!isOrgAdmin(principalOf(c)) && !ownedBy(t, principalOf(c)))
                throw forbidden("Deleting another's personal access token needs the Organization Admin role.");
            return ok(dropToken(m, t));
        });
}

/** Whether a non-admin caller made the token (a service key's tokens carry its scope and roles, not its id: same scope and workspaces). */
function ownedBy(t: TokenRecord, p: Principal): boolean {
    return p.kind === "service" && t.owner.kind === "service" && t.owner.role_id === p.role.id && t.owner.workspaces.join() === p.workspaces.join();
}

function apiKeyRoutes(router: Router, m: TokenModel): void {
    const base = "/api/v1/api-key";
    const inWorkspace = (c: RequestContext) =>
        m.state.tokens.filter((t) => t.kind === "api-key" && t.owner.kind === "workspace" && t.owner.workspace === c.tenantId);
    router
        .on("GET", base, (c) => ok(inWorkspace(c).map((t) => tokenView(m, t))))
        .on("POST", base, (c) => {
            const body = parse(ApiKeyCreateRequestSchema, c.body ?? {}, "body");
            if (body.org_role_id) throw badRequest("org_role_id cannot be set for a workspace API key.");
            const role = m.org.roleOf(body.role_id ?? builtInRole(body.read_only ? "WORKSPACE_VIEWER" : "WORKSPACE_ADMIN").id, "workspace");
            return ok(makeToken(m, "api-key", { kind: "workspace", workspace: c.tenantId, role_id: role.id }, body));
        })
        .on("DELETE", `${base}/{api_key_id}`, (c) => {
            const id = requireUuid(c.params.api_key_id, "api_key_id");
            const t = inWorkspace(c).find((x) => x.id === id);
            if (!t) throw new EmulatorError(404, { detail: `API key ${id} not found.` });
            return ok(dropToken(m, t));
        });
}

function findToken(m: TokenModel, kind: TokenRecord["kind"], id: string): TokenRecord {
    const t = m.state.tokens.find((x) => x.kind === kind && x.id === id);
    if (!t) throw new EmulatorError(404, { detail: `Personal access token ${id} not found.` });
    return t;
}

function dropToken(m: TokenModel, t: TokenRecord) {
    const view = tokenView(m, t);
    m.revoke(t.hash);
    m.state.tokens = m.state.tokens.filter((x) => x !== t);
    m.save();
    return view;
}
