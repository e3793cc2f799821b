/**
 * Access policies of the organization (docs/service.md R13.8): `/api/v1/platform/orgs/current/access-policies[/{id}]`
 * (the description's `/v1/platform/...` routed here by core/server.ts routedPath) and their attachment to roles
 * (`.../roles/{role_id}/access-policies[/{id}]`, or `role_ids` in the create), kept in `--state-dir`
 * (`access-policies.json`). A policy's name is unique (409); a policy still attached to a role is refused deletion
 * (409 naming the roles); an attachment to a role the organization does not hold is 404. Bodies parse with the
 * strict schemas of the shared wire contract; what they refuse is 400 `{error}`, as the platform answers (every
 * platform path: core/server.ts PLATFORM_PATH).
 */
import { randomUUID } from "node:crypto";
import {
    AccessPolicyCreateRequestSchema,
    AccessPolicyUpdateRequestSchema,
    AttachPoliciesRequestSchema,
    type AccessPolicyCreateRequest,
} from "../../provider/api/schemas/accessPolicies";
import type { Clock } from "../core/clock";
import { conflict, EmulatorError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store } from "../core/store";

interface PolicyRecord extends Omit<AccessPolicyCreateRequest, "role_ids"> {
    id: string;
    created_at: string;
    updated_at: string;
}
interface State {
    policies: PolicyRecord[];
    /** Role id to the ids of the policies attached to it. */
    attachments: Record<string, string[]>;
}

const BASE = "/api/v1/platform/orgs/current";

const ok = (body: unknown = {}) => ({ status: 200, body });

export class AccessPolicies {
    private s: State;
    private readonly store: Store<State>;

    /** `roleExists(id)`: whether the organization holds role `id` (an attachment of a deleted role no longer counts). */
    constructor(
        private readonly clock: Clock,
        private readonly roleExists: (id: string) => boolean,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "access-policies.json");
        this.s = this.store.load() ?? { policies: [], attachments: {} };
    }

    reset(): void {
        this.s = { policies: [], attachments: {} };
        this.store.save(this.s);
    }

    private get(id: string): PolicyRecord {
        const p = this.s.policies.find((x) => x.id === id);
        if (!p) throw new EmulatorError(404, { detail: `Access policy ${id} not found` });
        return p;
    }

    /** The live roles policy `id` is attached to. */
    private rolesOf(id: string): string[] {
        return Object.entries(this.s.attachments)
            .filter(([role, ids]) => ids.includes(id) && this.roleExists(role))
            .map(([role]) => role);
    }

    /** As the description's `authz_internal.AccessPolicy` answers it: a description always a string. */
    private view = (p: PolicyRecord) => ({ ...p, description: p.description ?? "", role_ids: this.rolesOf(p.id) });

    private nameFree(name: string, except?: string): void {
        if (this.s.policies.some((p) => p.name === name && p.id !== except)) throw conflict(`Access policy ${name} already exists`);
    }

    /** Role `role` holds policies `ids` too (idempotent; saved by the caller). */
    private held(role: string, ids: string[]): void {
        this.s.attachments[role] = [...new Set([...(this.s.attachments[role] ?? []), ...ids])];
    }

    private requireRole(role: string): string {
        if (!this.roleExists(role)) throw new EmulatorError(404, { detail: `Role ${role} not found` });
        return role;
    }

    register(router: Router): void {
        router
            .on("GET", `${BASE}/access-policies`, () => ok({ access_policies: this.s.policies.map(this.view) }))
            .on("POST", `${BASE}/access-policies`, (c) => {
                const { role_ids, ...body } = parse(AccessPolicyCreateRequestSchema, c.body, "body");
                this.nameFree(body.name);
                // The roles to attach it to, checked before anything is made (the description's 404).
                for (const role of role_ids ?? []) this.requireRole(role);
                const now = this.clock.iso();
                const p: PolicyRecord = { ...body, id: randomUUID(), created_at: now, updated_at: now };
                this.s.policies.push(p);
                for (const role of role_ids ?? []) this.held(role, [p.id]);
                this.store.save(this.s);
                // 201, as the description's create answers (its DELETE 204).
                return { status: 201, body: this.view(p) };
            })
            .on("GET", `${BASE}/access-policies/{id}`, (c) => ok(this.view(this.get(c.params.id))))
            .on("PATCH", `${BASE}/access-policies/{id}`, (c) => {
                const p = this.get(c.params.id);
                const body = parse(AccessPolicyUpdateRequestSchema, c.body, "body");
                if (body.name) this.nameFree(body.name, p.id);
                for (const [k, v] of Object.entries(body)) if (v !== undefined) (p as unknown as Record<string, unknown>)[k] = v;
                p.updated_at = this.clock.iso();
                this.store.save(this.s);
                return ok(this.view(p));
            })
            .on("DELETE", `${BASE}/access-policies/{id}`, (c) => {
                const p = this.get(c.params.id);
                const roles = this.rolesOf(p.id);
                if (roles.length) throw conflict(`Access policy ${p.id} is attached to roles ${roles.join(", ")}: detach it first.`);
                this.s.policies = this.s.policies.filter((x) => x.id !== p.id);
                this.store.save(this.s);
                return { status: 204 };
            });
        this.registerAttachments(router);
    }

    private attach(c: RequestContext): void {
        const role = this.requireRole(c.params.role_id);
        const access_policy_ids = parse(AttachPoliciesRequestSchema, c.body, "body").access_policy_ids ?? [];
        for (const id of access_policy_ids) this.get(id);
        this.held(role, access_policy_ids);
        this.store.save(this.s);
    }

    private registerAttachments(router: Router): void {
        router
            .on("GET", `${BASE}/roles/{role_id}/access-policies`, (c) => {
                const ids = this.s.attachments[this.requireRole(c.params.role_id)] ?? [];
                return ok(this.s.policies.filter((p) => ids.includes(p.id)).map(this.view));
            })
            // The description's path (204), and the other shape public sources show (200).
            .on("POST", `${BASE}/access-policies/roles/{role_id}/access-policies`, (c) => (this.attach(c), { status: 204 }))
            .on("POST", `${BASE}/roles/{role_id}/access-policies`, (c) => (this.attach(c), ok()))
            .on("DELETE", `${BASE}/roles/{role_id}/access-policies/{id}`, (c) => {
                const role = this.requireRole(c.params.role_id);
                const held = this.s.attachments[role] ?? [];
                if (!held.includes(c.params.id)) throw new EmulatorError(404, { detail: `Access policy ${c.params.id} is not attached to role ${role}` });
                this.s.attachments[role] = held.filter((x) => x !== c.params.id);
                this.store.save(this.s);
                return ok();
            });
    }
}
