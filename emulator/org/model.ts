/**
 * The organization (docs/service.md R7): its workspaces and roles, and the state the other org files work on
 * (members.ts, keys.ts, secrets.ts), kept in `--state-dir` (`org.json`; secret values sealed, service keys
 * kept as their SHA-256 only). One organization per emulator.
 *
 * Workspaces made here are recorded; every other workspace id a request names in `X-Tenant-Id` still works as
 * before (an unrecorded workspace of the organization admin's key, docs/emulator.md "Authentication"). A
 * key's own workspace is recorded as "Default Workspace" the first time the organization is asked about it.
 * A workspace is deleted only when it holds nothing (`holdings`: deployments, tracing projects, datasets,
 * destinations, running exports), then stays listed with `is_deleted`.
 */
import { randomUUID } from "node:crypto";
import type { Role, RoleRequest, WorkspaceCreateRequest } from "../../provider/api/schemas/organization";
import type { RetentionTier, UsageLimit } from "../../provider/api/schemas/settings";
import type { Clock } from "../core/clock";
import { EmulatorError, badRequest, conflict } from "../core/errors";
import { stableUuid } from "../core/ids";
import { Store, type Sealed } from "../core/store";
import { BUILT_IN_ROLES, permissionsProblem } from "./roles";

export const ORGANIZATION_ID = stableUuid("the organization", "4", "8");

export interface WorkspaceRecord {
    id: string;
    display_name: string;
    tenant_handle: string | null;
    created_at: string;
    is_deleted: boolean;
}

export interface MemberRecord {
    /** The organization identity id. */
    id: string;
    user_id: string;
    ls_user_id: string;
    email: string;
    org_role_id: string;
    created_at: string;
    /** Per workspace: its identity id there and the workspace role. */
    workspaces: Record<string, { id: string; role_id: string; created_at: string }>;
}

export interface InviteRecord {
    id: string;
    email: string;
    org_role_id: string;
    workspace_ids: string[];
    workspace_role_id: string;
    created_at: string;
}

export interface KeyRecord {
    id: string;
    description: string;
    /** SHA-256 of the key, hex: the key itself is never kept. */
    hash: string;
    short_key: string;
    access_scope: "organization" | "workspace";
    role_id: string;
    org_role_id: string | null;
    workspaces: string[];
    expires_at: string | null;
    created_at: string;
    created_by: string | null;
    last_used_at: string | null;
}

export interface SecretRecord {
    value: Sealed;
    configs: unknown[] | null;
    updated_at: string;
}

/** A scope's retention settings (settings.ts). */
export interface TtlRecord {
    id: string;
    tenant_id: string | null;
    default_trace_tier: RetentionTier;
    apply_to_all_projects: boolean;
    created_at: string;
    updated_at: string;
}

/** What the settings (settings.ts) keep in the organization's state. */
export interface SettingsState {
    usageLimits: UsageLimit[];
    /** By workspace id; the organization's under `""`. */
    ttl: Record<string, TtlRecord>;
    /** A workspace's long-lived days, when set. */
    longlivedDays: Record<string, number>;
    /** Traces ingested per workspace in the month named (`YYYY-MM`). */
    usage: Record<string, { month: string; traces: number; longlived: number }>;
}

export const emptySettings = (): SettingsState => ({ usageLimits: [], ttl: {}, longlivedDays: {}, usage: {} });

export interface OrgState {
    workspaces: WorkspaceRecord[];
    customRoles: Role[];
    members: MemberRecord[];
    invites: InviteRecord[];
    keys: KeyRecord[];
    /** Hashes of deleted keys: they answer 401, never fall back to the admin's "any key". */
    revoked: string[];
    /** Workspace id -> secret key -> sealed value. */
    secrets: Record<string, Record<string, SecretRecord>>;
    /** Usage limits and retention (settings.ts). */
    settings: SettingsState;
}

const empty = (): OrgState => ({ workspaces: [], customRoles: [], members: [], invites: [], keys: [], revoked: [], secrets: {}, settings: emptySettings() });

/** What a workspace still holds, by kind (`deployments`, `tracing projects`, ...), named. */
export type Holdings = (workspaceId: string) => Array<{ kind: string; names: string[] }>;

export class OrgModel {
    state: OrgState;
    readonly store: Store<OrgState>;
    /** Permissions a newer service knows beyond the catalogue (`PUT /__admin/org/permissions`; not kept in `--state-dir`). */
    extraPermissions: string[] = [];

    constructor(
        readonly clock: Clock,
        private readonly holdings: Holdings,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "org.json");
        const saved = this.store.load();
        this.state = { ...empty(), ...saved, settings: { ...emptySettings(), ...saved?.settings } };
    }

    reset(): void {
        this.state = empty();
        this.extraPermissions = [];
        this.save();
    }

    save(): void {
        this.store.save(this.state);
    }

    // ---- workspaces ----

    workspace(id: string): WorkspaceRecord | undefined {
        return this.state.workspaces.find((w) => w.id === id);
    }

    /** A live workspace, or 404. */
    liveWorkspace(id: string): WorkspaceRecord {
        const w = this.workspace(id);
        if (!w || w.is_deleted) throw new EmulatorError(404, { detail: `Workspace ${id} not found.` });
        return w;
    }

    /** Records a key's own workspace as the organization's default one, once. */
    ensureDefault(id: string): void {
        if (this.workspace(id)) return;
        this.state.workspaces.push({ id, display_name: "Default Workspace", tenant_handle: null, created_at: this.clock.iso(), is_deleted: false });
        this.save();
    }

    createWorkspace(body: WorkspaceCreateRequest): WorkspaceRecord {
        const id = body.id ?? randomUUID();
        if (this.workspace(id)) throw conflict(`Workspace ${id} already exists.`);
        if (body.tenant_handle && this.state.workspaces.some((w) => w.tenant_handle === body.tenant_handle))
            throw conflict(`Workspace handle ${body.tenant_handle} is already taken.`);
        const w: WorkspaceRecord = {
            id,
            display_name: body.display_name,
            tenant_handle: body.tenant_handle ?? null,
            created_at: this.clock.iso(),
            is_deleted: false,
        };
        this.state.workspaces.push(w);
        this.save();
        return w;
    }

    renameWorkspace(id: string, displayName: string): WorkspaceRecord {
        const w = this.liveWorkspace(id);
        w.display_name = displayName;
        this.save();
        return w;
    }

    /** Refused (409) while the workspace holds objects, naming them; then its members, invitations and secrets go. */
    deleteWorkspace(id: string): void {
        const w = this.liveWorkspace(id);
        const held = this.holdings(id).filter((h) => h.names.length);
        if (held.length) {
            const what = held.map((h) => `${h.kind} [${h.names.join(", ")}]`).join(", ");
            throw conflict(`Workspace ${id} still holds objects: ${what}; delete them first.`);
        }
        w.is_deleted = true;
        for (const m of this.state.members) delete m.workspaces[id];
        for (const i of this.state.invites) i.workspace_ids = i.workspace_ids.filter((x) => x !== id);
        delete this.state.secrets[id];
        const settings = this.state.settings;
        settings.usageLimits = settings.usageLimits.filter((l) => l.tenant_id !== id);
        delete settings.ttl[id];
        delete settings.longlivedDays[id];
        this.save();
    }

    // ---- roles ----

    roles(): Role[] {
        return [...BUILT_IN_ROLES, ...this.state.customRoles];
    }

    role(id: string): Role | undefined {
        return this.roles().find((r) => r.id === id);
    }

    /** The role `id` of `scope`, or a 400 saying what is wrong with it. */
    roleOf(id: string, scope: Role["access_scope"]): Role {
        const r = this.role(id);
        if (!r) throw badRequest(`Role ${id} not found.`);
        if (r.access_scope !== scope) throw badRequest(`Role ${id} is ${article(r.access_scope)} role; ${article(scope)} role is needed.`);
        return r;
    }

    createRole(body: RoleRequest): Role {
        this.checkRole(body, undefined);
        const id = randomUUID();
        const role: Role = {
            id,
            name: `CUSTOM_${id.slice(0, 8).toUpperCase()}`,
            display_name: body.display_name,
            description: body.description,
            organization_id: ORGANIZATION_ID,
            permissions: [...new Set(body.permissions)],
            access_scope: "workspace",
        };
        this.state.customRoles.push(role);
        this.save();
        return role;
    }

    updateRole(id: string, body: RoleRequest): Role {
        const role = this.customRole(id);
        this.checkRole(body, id);
        Object.assign(role, { display_name: body.display_name, description: body.description, permissions: [...new Set(body.permissions)] });
        this.save();
        return role;
    }

    /** Refused (409) while a member, an invitation or a service key holds the role, naming them; answers the role deleted. */
    deleteRole(id: string): Role {
        const role = this.customRole(id);
        const users = [
            ...this.state.members.filter((m) => Object.values(m.workspaces).some((w) => w.role_id === id)).map((m) => `member ${m.email}`),
            ...this.state.invites.filter((i) => i.workspace_role_id === id).map((i) => `invitation of ${i.email}`),
            ...this.state.keys.filter((k) => k.role_id === id).map((k) => `service key ${k.id}`),
        ];
        if (users.length) throw conflict(`Role ${id} is still held by: ${users.join(", ")}.`);
        this.state.customRoles = this.state.customRoles.filter((r) => r.id !== id);
        this.save();
        return role;
    }

    private customRole(id: string): Role {
        const r = this.role(id);
        if (!r) throw new EmulatorError(404, { detail: `Role ${id} not found.` });
        if (!r.organization_id) throw badRequest("Built-in roles cannot be changed.");
        return r;
    }

    private checkRole(body: RoleRequest, self: string | undefined): void {
        const problem = permissionsProblem(body.permissions, this.extraPermissions);
        if (problem) throw badRequest(problem);
        if (this.roles().some((r) => r.id !== self && r.display_name === body.display_name))
            throw conflict(`A role named ${body.display_name} already exists.`);
    }
}

const article = (scope: string) => (scope === "organization" ? "an organization" : "a workspace");
