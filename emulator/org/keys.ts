/**
 * Service keys (docs/service.md R7): made, listed, re-roled and deleted through
 * `/api/v1/orgs/current/service-keys`, and looked up by the key a request carries. The key is answered once,
 * by the create; only its SHA-256 is kept. A deleted key's hash is kept too, so that it answers 401 instead of
 * falling back to the organization admin's "any key"; an expired key answers 401 as well.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { ServiceKeyCreateRequest, ServiceKeyUpdateRequest } from "../../provider/api/schemas/organization";
import { EmulatorError, badRequest, forbidden, invalidField, unauthorized } from "../core/errors";
import type { Principal } from "../core/principal";
import type { KeyRecord, OrgModel } from "./model";
import { builtInRole } from "./roles";

export const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

/** The principal of a key the emulator made; undefined for any other key; 401 for a deleted or expired one. */
export function servicePrincipal(org: OrgModel, key: string): Principal | undefined {
    const hash = hashOf(key);
    if (org.state.revoked.includes(hash)) throw unauthorized();
    const k = org.state.keys.find((x) => x.hash === hash);
    if (!k) return undefined;
    if (k.expires_at && Date.parse(k.expires_at) <= org.clock.now()) throw unauthorized("API key has expired.");
    k.last_used_at = org.clock.iso();
    const role = org.role(k.role_id) ?? builtInRole("WORKSPACE_VIEWER");
    const orgRole = k.org_role_id ? (org.role(k.org_role_id) ?? null) : null;
    return { kind: "service", keyId: k.id, scope: k.access_scope, workspaces: k.workspaces, role, orgRole };
}

/** A key as listed: never the key itself. */
export function keyView(org: OrgModel, k: KeyRecord) {
    const { hash, workspaces, ...shown } = k;
    return { ...shown, workspace_names: workspaces.map((id) => org.workspace(id)?.display_name ?? id) };
}

/**
 * POST /api/v1/orgs/current/service-keys: the key, shown this once. `known(id)` says whether a workspace may be
 * named (a live workspace of the organization, or the caller's own).
 */
export function createKey(org: OrgModel, body: ServiceKeyCreateRequest, by: Principal, known: (id: string) => boolean) {
    const scoped = Boolean(body.workspaces?.length);
    if (scoped && body.org_role_id) throw badRequest("org_role_id cannot be set for a workspace-scoped key.");
    if (!scoped && by.kind === "service" && by.orgRole?.name !== "ORGANIZATION_ADMIN")
        throw forbidden("An organization-wide service key can only be made with the Organization Admin role.");
    const expires = expiryOf(org, body.expires_at);
    for (const id of body.workspaces ?? []) if (!known(id)) throw badRequest(`Workspace ${id} not found.`);
    const role = org.roleOf(body.role_id ?? builtInRole("WORKSPACE_ADMIN").id, "workspace");
    const orgRole = scoped ? null : org.roleOf(body.org_role_id ?? builtInRole("ORGANIZATION_USER").id, "organization");
    const key = `lsv2_sk_${randomBytes(16).toString("hex")}_${randomBytes(5).toString("hex")}`;
    const record: KeyRecord = {
        id: randomUUID(),
        description: body.description,
        hash: hashOf(key),
        short_key: `lsv2_sk_...${key.slice(-4)}`,
        access_scope: scoped ? "workspace" : "organization",
        role_id: role.id,
        org_role_id: orgRole?.id ?? null,
        workspaces: [...new Set(body.workspaces ?? [])],
        expires_at: expires,
        created_at: org.clock.iso(),
        created_by: by.kind === "service" ? by.keyId : null,
        last_used_at: null,
    };
    org.state.keys.push(record);
    org.save();
    return { ...keyView(org, record), key };
}

/** An ISO date-time in the future, normalized; null when absent (a key that never expires). */
function expiryOf(org: OrgModel, given: string | null | undefined): string | null {
    if (!given) return null;
    const at = Date.parse(given);
    if (Number.isNaN(at)) throw invalidField(["body", "expires_at"], "Input should be a valid datetime", "datetime_parsing");
    if (at <= org.clock.now()) throw badRequest("expires_at must be in the future.");
    return new Date(at).toISOString();
}

export function updateKey(org: OrgModel, id: string, body: ServiceKeyUpdateRequest) {
    const k = findKey(org, id);
    if (body.org_role_id && k.access_scope === "workspace") throw badRequest("org_role_id cannot be set for a workspace-scoped key.");
    if (body.role_id) k.role_id = org.roleOf(body.role_id, "workspace").id;
    if (body.org_role_id) k.org_role_id = org.roleOf(body.org_role_id, "organization").id;
    org.save();
    return keyView(org, k);
}

/** Deletes a key (401 from then on); answers it as listed. */
export function deleteKey(org: OrgModel, id: string) {
    const k = findKey(org, id);
    org.state.keys = org.state.keys.filter((x) => x !== k);
    org.state.revoked.push(k.hash);
    org.save();
    return keyView(org, k);
}

function findKey(org: OrgModel, id: string): KeyRecord {
    const k = org.state.keys.find((x) => x.id === id);
    if (!k) throw new EmulatorError(404, { detail: `Service key ${id} not found.` });
    return k;
}
