/**
 * The routes of organization and workspace administration (docs/service.md R7), all under `/api/v1`:
 * workspaces, roles and permissions, organization and workspace members, service keys, workspace secrets.
 * Bodies parse with the strict schemas of provider/api/schemas/organization.ts; the model decides. Who may call
 * what was checked before (auth.ts); what depends on more than a permission is checked here.
 *
 * Test-only (`/__admin`, no key): `POST /__admin/org/invitations/accept {email}` (the invited person accepts),
 * `GET /__admin/org/secrets/{workspace_id}/{key}` (a secret's value, `{value}`), `GET /__admin/org` (the state,
 * key hashes and sealed values included), `PUT /__admin/org/permissions {extra: [names]}` (permissions a newer
 * service knows beyond the catalogue).
 */
import { z } from "zod";
import {
    MemberRoleRequestSchema,
    OrgInviteRequestSchema,
    OrgMemberPatchRequestSchema,
    RoleRequestSchema,
    SecretPutRequestSchema,
    SecretsUpsertRequestSchema,
    ServiceKeyCreateRequestSchema,
    ServiceKeyUpdateRequestSchema,
    WorkspaceCreateRequestSchema,
    WorkspaceMemberRequestSchema,
    WorkspaceUpdateRequestSchema,
} from "../../provider/api/schemas/organization";
import { EmulatorError, forbidden, requireUuid } from "../core/errors";
import { page, parse, type RequestContext, type Router } from "../core/http";
import type { Principal } from "../core/principal";
import type { Authenticator } from "./auth";
import { createKey, deleteKey, keyView, updateKey } from "./keys";
import * as members from "./members";
import { ORGANIZATION_ID, type OrgModel, type WorkspaceRecord } from "./model";
import { builtInRole, permissionCatalogue } from "./roles";
import { deleteSecret, listSecrets, putSecret, secretValue, upsertSecrets } from "./secrets";

const WS = "/api/v1/workspaces";
const ORG = "/api/v1/orgs/current";
const ok = (body: unknown = {}) => ({ status: 200, body });
const principalOf = (c: RequestContext): Principal => c.principal ?? { kind: "admin", key: "" };
const emailsOf = (c: RequestContext) => c.query.getAll("emails");

export function orgRoutes(router: Router, org: OrgModel, auth: Authenticator): void {
    workspaceRoutes(router, org, auth);
    roleRoutes(router, org);
    orgMemberRoutes(router, org, auth);
    workspaceMemberRoutes(router, org);
    keyRoutes(router, org, auth);
    secretRoutes(router, org);
    adminRoutes(router, org);
}

/** Whether a workspace may be named in a body: a live one of the organization, or the admin key's own (recorded then). */
function knownTo(org: OrgModel, auth: Authenticator, p: Principal): (id: string) => boolean {
    return (id) => {
        if (p.kind === "admin" && id === auth.keyWorkspace(p.key)) org.ensureDefault(id);
        const w = org.workspace(id);
        return Boolean(w && !w.is_deleted);
    };
}

/** A workspace as a create or a rename answers it (`Tenant`): no role of the caller's. */
function workspaceView(w: WorkspaceRecord) {
    return { ...w, organization_id: ORGANIZATION_ID, is_personal: false, data_plane_url: null };
}

/** A workspace as the list answers it (`TenantForUser`): with the caller's role in it (the admin's key: Admin). */
function workspaceForUser(w: WorkspaceRecord, p: Principal) {
    const role = p.kind === "service" ? p.role : builtInRole("WORKSPACE_ADMIN");
    return { ...workspaceView(w), role_id: role.id, role_name: role.name, permissions: role.permissions, read_only: false };
}

function workspaceRoutes(router: Router, org: OrgModel, auth: Authenticator): void {
    const id = (c: RequestContext) => requireUuid(c.params.workspace_id, "workspace_id");
    router
        .on("GET", WS, (c) => {
            const p = principalOf(c);
            if (p.kind === "admin") org.ensureDefault(auth.keyWorkspace(p.key));
            const deleted = /^(true|1)$/i.test(c.query.get("include_deleted") ?? "");
            const visible = org.state.workspaces.filter(
                (w) => (deleted || !w.is_deleted) && (p.kind === "admin" || p.scope === "organization" || p.workspaces.includes(w.id)),
            );
            return ok(visible.map((w) => workspaceForUser(w, p)));
        })
        .on("POST", WS, (c) => ok(workspaceView(org.createWorkspace(parse(WorkspaceCreateRequestSchema, c.body, "body")))))
        .on("PATCH", `${WS}/{workspace_id}`, (c) =>
            ok(workspaceView(org.renameWorkspace(id(c), parse(WorkspaceUpdateRequestSchema, c.body, "body").display_name))),
        )
        .on("DELETE", `${WS}/{workspace_id}`, (c) => (org.deleteWorkspace(id(c)), ok()));
    // Renaming and deleting need X-Tenant-Id naming the workspace: auth.ts refuses them before they get here.
}

/** Custom roles are the Organization Admin's (an Operator's key may not manage them). */
function requireOrgAdmin(c: RequestContext, what: string): void {
    const p = principalOf(c);
    if (p.kind === "service" && p.orgRole?.name !== "ORGANIZATION_ADMIN") throw forbidden(`${what} needs the Organization Admin role.`);
}

function roleRoutes(router: Router, org: OrgModel): void {
    const id = (c: RequestContext) => requireUuid(c.params.role_id, "role_id");
    const body = (c: RequestContext) => (requireOrgAdmin(c, "Managing custom roles"), parse(RoleRequestSchema, c.body, "body"));
    router
        .on("GET", "/api/v1/orgs/permissions", () => ok(permissionCatalogue(org.extraPermissions)))
        .on("GET", `${ORG}/roles`, () => ok(org.roles()))
        .on("POST", `${ORG}/roles`, (c) => ok(org.createRole(body(c))))
        .on("PATCH", `${ORG}/roles/{role_id}`, (c) => ok(org.updateRole(id(c), body(c))))
        .on("DELETE", `${ORG}/roles/{role_id}`, (c) => (requireOrgAdmin(c, "Managing custom roles"), ok(org.deleteRole(id(c)))));
}

/** Member lists as the service pages them: 50 by default, at most 500 (`limit`, `offset`). */
const members50 = <T>(c: RequestContext, items: T[]) => page(c, items, { defaultLimit: 50, maxLimit: 500 });

function orgMemberRoutes(router: Router, org: OrgModel, auth: Authenticator): void {
    const id = (c: RequestContext) => requireUuid(c.params.identity_id, "identity_id");
    const active = (c: RequestContext) =>
        members.byEmails(
            org.state.members.map((m) => members.orgMemberView(org, m)),
            emailsOf(c),
        );
    const pending = (c: RequestContext) =>
        members.byEmails(
            org.state.invites.map((i) => members.pendingView(org, i)),
            emailsOf(c),
        );
    const invite = (c: RequestContext, b: unknown) =>
        members.pendingView(org, members.invite(org, parse(OrgInviteRequestSchema, b, "body"), knownTo(org, auth, principalOf(c))));
    router
        .on("GET", `${ORG}/members`, (c) => ok({ organization_id: ORGANIZATION_ID, members: active(c), pending: pending(c) }))
        .on("GET", `${ORG}/members/active`, (c) => ok(members50(c, active(c))))
        .on("GET", `${ORG}/members/pending`, (c) => ok(members50(c, pending(c))))
        .on("POST", `${ORG}/members`, (c) => ok(invite(c, c.body)))
        .on("POST", `${ORG}/members/batch`, (c) => ok(parse(z.array(z.unknown()), c.body, "body").map((b) => invite(c, b))))
        // The service answers a role change with no member (`{}`): clients read the member again.
        .on("PATCH", `${ORG}/members/{identity_id}`, (c) => {
            const role = parse(OrgMemberPatchRequestSchema, c.body, "body").role_id;
            members.setOrgRole(org, id(c), role ?? members.orgMember(org, id(c)).org_role_id);
            return ok();
        })
        .on("DELETE", `${ORG}/members/{identity_id}`, (c) => (members.removeOrgMember(org, id(c)), ok()))
        .on("DELETE", `${ORG}/members/{identity_id}/pending`, (c) => (members.cancelInvite(org, id(c)), ok()));
}

function workspaceMemberRoutes(router: Router, org: OrgModel): void {
    const base = `${WS}/current/members`;
    const id = (c: RequestContext) => requireUuid(c.params.identity_id, "identity_id");
    const view = (c: RequestContext, m: Parameters<typeof members.workspaceMemberView>[1]) => members.workspaceMemberView(org, m, c.tenantId);
    const active = (c: RequestContext) =>
        members.byEmails(
            org.state.members.filter((m) => m.workspaces[c.tenantId]).map((m) => view(c, m)),
            emailsOf(c),
        );
    const pending = (c: RequestContext) =>
        members.byEmails(
            org.state.invites.filter((i) => i.workspace_ids.includes(c.tenantId)).map((i) => members.pendingView(org, i, c.tenantId)),
            emailsOf(c),
        );
    const role = (c: RequestContext) => parse(MemberRoleRequestSchema, c.body, "body").role_id;
    router
        .on("GET", base, (c) => ok({ tenant_id: c.tenantId, members: active(c), pending: pending(c) }))
        .on("GET", `${base}/active`, (c) => ok(members50(c, active(c))))
        .on("GET", `${base}/pending`, (c) => ok(members50(c, pending(c))))
        .on("POST", base, (c) =>
            ok(members.identityView(org, members.addToWorkspace(org, c.tenantId, parse(WorkspaceMemberRequestSchema, c.body, "body")), c.tenantId)),
        )
        .on("POST", `${base}/batch`, (c) =>
            ok(
                parse(z.array(z.unknown()), c.body, "body").map((b) =>
                    members.pendingView(org, members.inviteToWorkspace(org, c.tenantId, parse(OrgInviteRequestSchema, b, "body")), c.tenantId),
                ),
            ),
        )
        .on("PATCH", `${base}/{identity_id}`, (c) => (members.setWorkspaceRole(org, c.tenantId, id(c), role(c)), ok()))
        .on("PATCH", `${base}/{identity_id}/pending`, (c) => ok(members.pendingView(org, members.setPendingRole(org, c.tenantId, id(c), role(c)), c.tenantId)))
        .on("DELETE", `${base}/{identity_id}`, (c) => (members.removeFromWorkspace(org, c.tenantId, id(c)), ok()))
        .on("DELETE", `${base}/{identity_id}/pending`, (c) => (members.cancelWorkspaceInvite(org, c.tenantId, id(c)), ok()));
}

function keyRoutes(router: Router, org: OrgModel, auth: Authenticator): void {
    const base = `${ORG}/service-keys`;
    const id = (c: RequestContext) => requireUuid(c.params.key_id, "key_id");
    router
        .on("GET", base, () => ok(org.state.keys.map((k) => keyView(org, k))))
        .on("POST", base, (c) => {
            const p = principalOf(c);
            return ok(createKey(org, parse(ServiceKeyCreateRequestSchema, c.body, "body"), p, knownTo(org, auth, p)));
        })
        .on("PATCH", `${base}/{key_id}`, (c) => {
            requireOrgAdmin(c, "Changing a service key's roles");
            return ok(updateKey(org, id(c), parse(ServiceKeyUpdateRequestSchema, c.body, "body")));
        })
        .on("DELETE", `${base}/{key_id}`, (c) => ok(deleteKey(org, id(c))));
}

function secretRoutes(router: Router, org: OrgModel): void {
    const base = `${WS}/current/secrets`;
    router
        .on("GET", base, (c) => ok(listSecrets(org, c.tenantId, /^(true|1)$/i.test(c.query.get("include_configs") ?? ""))))
        .on("POST", base, (c) => (upsertSecrets(org, c.tenantId, parse(SecretsUpsertRequestSchema, c.body, "body")), ok()))
        .on("PUT", `${base}/{key}`, (c) => ok(putSecret(org, c.tenantId, c.params.key, parse(SecretPutRequestSchema, c.body ?? {}, "body"))))
        .on("DELETE", `${base}/{key}`, (c) => (deleteSecret(org, c.tenantId, c.params.key), { status: 204 }));
}

function adminRoutes(router: Router, org: OrgModel): void {
    const pub = { public: true };
    router
        .on("GET", "/__admin/org", () => ok(org.state), pub)
        .on(
            "PUT",
            "/__admin/org/permissions",
            (c) => ok({ extra: (org.extraPermissions = parse(z.object({ extra: z.array(z.string()) }), c.body, "body").extra) }),
            pub,
        )
        .on(
            "POST",
            "/__admin/org/invitations/accept",
            (c) => ok(members.orgMemberView(org, members.accept(org, parse(z.object({ email: z.string() }), c.body, "body").email))),
            pub,
        )
        .on(
            "GET",
            "/__admin/org/secrets/{workspace_id}/{key}",
            (c) => {
                const value = secretValue(org, c.params.workspace_id, c.params.key);
                if (value === undefined) throw new EmulatorError(404, { detail: `No secret ${c.params.key} in workspace ${c.params.workspace_id}.` });
                return ok({ value });
            },
            pub,
        );
}
