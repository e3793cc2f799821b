/**
 * The organization's non-human identities and their tokens (docs/service.md R21): service accounts, personal
 * access tokens (the caller's, or a service account's), workspace API keys and SCIM tokens, kept in `--state-dir`
 * (`tokens.json`; a token only as its SHA-256). Every token made here authenticates as the real one does: a
 * personal access token or an API key as `X-API-Key`, with the permissions of who it belongs to; a SCIM token as
 * the bearer of the SCIM API (scim.ts). A deleted token (or one of a deleted service account) answers 401, and so
 * does an expired one, by the emulator's clock; the organization's `max_pat_expiry_days` and
 * `max_api_key_expiry_days` (its settings, `PATCH /api/v1/orgs/current/info`: orgInfo.ts) bound a new token's expiry.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Clock } from "../core/clock";
import { EmulatorError, badRequest, invalidField, unauthorized } from "../core/errors";
import type { Principal } from "../core/principal";
import { Store } from "../core/store";
import { hashOf } from "./keys";
import type { OrgModel } from "./model";
import { builtInRole } from "./roles";

/** Whom a token acts for: the organization admin (in a workspace), a service key's scope and roles, a service account, a workspace. */
export type TokenOwner =
    | { kind: "admin"; workspace: string }
    | { kind: "service"; scope: "organization" | "workspace"; workspaces: string[]; role_id: string; org_role_id: string | null }
    | { kind: "service-account"; id: string }
    | { kind: "workspace"; workspace: string; role_id: string };

export interface TokenRecord {
    id: string;
    kind: "pat" | "api-key";
    description: string;
    hash: string;
    short_key: string;
    owner: TokenOwner;
    default_workspace_id: string | null;
    expires_at: string | null;
    created_at: string;
    last_used_at: string | null;
}

export interface ServiceAccountRecord {
    id: string;
    name: string;
    identity_id: string;
    workspaces: Array<{ workspace_id: string; role_id: string }>;
    created_at: string;
    updated_at: string;
}

export interface ScimTokenRecord {
    id: string;
    description: string;
    hash: string;
    short_token: string;
    created_at: string;
    updated_at: string;
    last_used_at: string | null;
}

/** The organization's limits on a new token's lifetime (null: none), as `GET /api/v1/orgs/current/info` names them. */
export interface TokenLimits {
    max_pat_expiry_days: number | null;
    max_api_key_expiry_days: number | null;
}

interface TokenState {
    serviceAccounts: ServiceAccountRecord[];
    tokens: TokenRecord[];
    scimTokens: ScimTokenRecord[];
    /** Hashes of deleted tokens: 401 for good. */
    revoked: string[];
}

const empty = (): TokenState => ({
    serviceAccounts: [],
    tokens: [],
    scimTokens: [],
    revoked: [],
});

/** The token limits of the organization's settings (OrganizationInfo: orgInfo.ts). */
export const tokenLimits = (info: Record<string, unknown>): TokenLimits => ({
    max_pat_expiry_days: (info.max_pat_expiry_days as number | null | undefined) ?? null,
    max_api_key_expiry_days: (info.max_api_key_expiry_days as number | null | undefined) ?? null,
});

/** A new secret with the service's prefix (`lsv2_pt_`), and its redacted form. */
export function newSecret(prefix: string): { secret: string; short: string } {
    const secret = `${prefix}${randomBytes(16).toString("hex")}_${randomBytes(5).toString("hex")}`;
    return { secret, short: `${prefix}...${secret.slice(-4)}` };
}

export class TokenModel {
    state: TokenState;
    private readonly store: Store<TokenState>;

    /** `limits`: the organization's settings' token limits, read at each create. */
    constructor(
        readonly org: OrgModel,
        readonly clock: Clock,
        readonly limits: () => TokenLimits,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "tokens.json");
        this.state = { ...empty(), ...this.store.load() };
    }

    reset(): void {
        this.state = empty();
        this.save();
    }

    save(): void {
        this.store.save(this.state);
    }

    /** The principal of a personal access token or API key made here; undefined for any other key; 401 for a deleted or expired one. */
    principal(key: string): Principal | undefined {
        const hash = hashOf(key);
        if (this.state.revoked.includes(hash)) throw unauthorized();
        const t = this.state.tokens.find((x) => x.hash === hash);
        if (!t) return undefined;
        if (this.expired(t.expires_at)) throw unauthorized("API key has expired.");
        t.last_used_at = this.clock.iso();
        return this.principalOf(t, key);
    }

    private principalOf(t: TokenRecord, key: string): Principal {
        const o = t.owner;
        if (o.kind === "admin") return { kind: "admin", key, workspace: t.default_workspace_id ?? o.workspace };
        if (o.kind === "workspace") return this.servicePrincipal(t.id, "workspace", [o.workspace], o.role_id, null);
        if (o.kind === "service") return this.servicePrincipal(t.id, o.scope, o.workspaces, o.role_id, o.org_role_id);
        const sa = this.state.serviceAccounts.find((a) => a.id === o.id);
        if (!sa) throw unauthorized();
        const ws = sa.workspaces.map((w) => w.workspace_id);
        const first = t.default_workspace_id && ws.includes(t.default_workspace_id) ? t.default_workspace_id : ws[0];
        const order = first ? [first, ...ws.filter((w) => w !== first)] : ws;
        const p = this.servicePrincipal(t.id, "workspace", order, sa.workspaces.find((w) => w.workspace_id === first)?.role_id, null);
        return p.kind === "service" ? { ...p, roleIn: Object.fromEntries(sa.workspaces.map((w) => [w.workspace_id, this.role(w.role_id)])) } : p;
    }

    private servicePrincipal(
        keyId: string,
        scope: "organization" | "workspace",
        workspaces: string[],
        roleId: string | undefined,
        orgRoleId: string | null,
    ): Principal {
        const orgRole = orgRoleId ? (this.org.role(orgRoleId) ?? null) : null;
        return { kind: "service", keyId, scope, workspaces, role: this.role(roleId), orgRole };
    }

    private role(id: string | undefined) {
        return (id && this.org.role(id)) || builtInRole("WORKSPACE_VIEWER");
    }

    expired(at: string | null): boolean {
        return Boolean(at && Date.parse(at) <= this.clock.now());
    }

    /** An ISO date-time in the future, within `maxDays` (the organization's limit, named `limit`), normalized; null when absent. */
    expiry(given: string | null | undefined, maxDays: number | null, limit: string): string | null {
        if (!given) {
            if (maxDays !== null) throw badRequest(`expires_at is required: the organization's ${limit} is ${maxDays} days.`);
            return null;
        }
        const at = Date.parse(given);
        if (Number.isNaN(at)) throw invalidField(["body", "expires_at"], "Input should be a valid datetime", "datetime_parsing");
        if (at <= this.clock.now()) throw badRequest("expires_at must be in the future.");
        if (maxDays !== null && at > this.clock.now() + maxDays * 86_400_000)
            throw badRequest(`expires_at is beyond the organization's ${limit} (${maxDays} days).`);
        return new Date(at).toISOString();
    }

    /** Deletes a token (401 from then on). */
    revoke(hash: string): void {
        this.state.revoked.push(hash);
    }

    serviceAccount(id: string): ServiceAccountRecord {
        const sa = this.state.serviceAccounts.find((a) => a.id === id);
        if (!sa) throw new EmulatorError(404, { detail: `Service account ${id} not found.` });
        return sa;
    }

    newId(): string {
        return randomUUID();
    }
}
