/**
 * Access policies of the organization (docs/service.md R13.8): made, read, changed, deleted, and attached to roles.
 * Every create is sent once: a lost answer is looked up by the policy's name (decided unique in the organization)
 * instead of being sent again. Organization paths: no workspace is named.
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import { AccessPolicySchema, type AccessPolicy, type AccessPolicyCreateRequest, type AccessPolicyUpdateRequest } from "./schemas/accessPolicies";

const BASE = "/api/v1/platform/orgs/current";
const Nothing = z.unknown();
const at = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join("/");

export class AccessPoliciesClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the API at `o.baseUrl` (`X-API-Key`; no workspace). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): AccessPoliciesClient {
        return new AccessPoliciesClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    private call<T>(method: string, p: string, schema: z.ZodType<T>, body?: unknown, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201, 204], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    async list(): Promise<AccessPolicy[]> {
        // `ListAccessPoliciesResponse`: the list under `access_policies`.
        return (await this.call("GET", at("access-policies"), z.object({ access_policies: z.array(AccessPolicySchema).nullish() }))).access_policies ?? [];
    }

    tryGet(id: string): Promise<AccessPolicy | undefined> {
        return this.call("GET", at("access-policies", id), AccessPolicySchema).catch(undefinedOn404);
    }

    async findByName(name: string): Promise<AccessPolicy | undefined> {
        return (await this.list()).find((p) => p.name === name);
    }

    async create(body: AccessPolicyCreateRequest): Promise<AccessPolicy> {
        const { value } = await createOnce(
            () => this.call("POST", at("access-policies"), AccessPolicySchema, body),
            () => this.findByName(body.name),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: (e) => e instanceof ConflictError },
        );
        return value;
    }

    update(id: string, body: AccessPolicyUpdateRequest): Promise<AccessPolicy> {
        return this.call("PATCH", at("access-policies", id), AccessPolicySchema, body, { idempotent: true });
    }

    async delete(id: string): Promise<void> {
        await this.call("DELETE", at("access-policies", id), Nothing).catch(undefinedOn404);
    }

    /** The policies attached to role `roleId`. */
    attached(roleId: string): Promise<AccessPolicy[]> {
        return this.call("GET", at("roles", roleId, "access-policies"), z.array(AccessPolicySchema));
    }

    /**
     * Attaches policies to a role (one already attached stays attached: idempotent), at the path the description
     * has (`.../access-policies/roles/{role_id}/access-policies`, answered 204).
     */
    async attach(roleId: string, ids: string[]): Promise<void> {
        if (ids.length)
            await this.call("POST", at("access-policies", "roles", roleId, "access-policies"), Nothing, { access_policy_ids: ids }, { idempotent: true });
    }

    /** Detaches a policy from a role; one not attached is done. */
    async detach(roleId: string, id: string): Promise<void> {
        await this.call("DELETE", at("roles", roleId, "access-policies", id), Nothing).catch(undefinedOn404);
    }
}
