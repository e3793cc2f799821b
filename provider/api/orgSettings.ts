/**
 * The organization's edge settings (docs/service.md R20): its SAML SSO settings, its own settings (`orgs/current/info`)
 * and a workspace's prompt hub handle. Made on the HTTP client of the organization's administration (no workspace:
 * SSO, settings) or of a workspace's (`X-Tenant-Id`: its handle). The SSO create is sent once: a lost answer is
 * looked up (the organization holds one) instead of sent again.
 */
import { z } from "zod";
import type { HttpClient } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    OrganizationInfoSchema,
    SsoProviderSchema,
    TenantSchema,
    type OrganizationInfo,
    type OrganizationUpdate,
    type SsoProvider,
    type SsoSettingsCreate,
    type SsoSettingsUpdate,
    type Tenant,
} from "./schemas/orgSettings";

const SSO = "/api/v1/orgs/current/sso-settings";
const INFO = "/api/v1/orgs/current/info";

export class OrgSettingsClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** The settings an administration client speaks to (the organization's, or a workspace's handle), over its HTTP client. */
    static of(admin: { http: HttpClient; deadline?: number }): OrgSettingsClient {
        return new OrgSettingsClient(admin.http, admin.deadline);
    }

    private call<T>(method: string, p: string, schema: z.ZodType<T>, body?: unknown, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    // ---- SSO ----

    listSso(): Promise<SsoProvider[]> {
        return this.call("GET", SSO, z.array(SsoProviderSchema));
    }

    /** The organization's SSO settings (one per organization), if any. */
    async sso(): Promise<SsoProvider | undefined> {
        return (await this.listSso())[0];
    }

    async createSso(body: SsoSettingsCreate): Promise<SsoProvider> {
        const { value } = await createOnce(
            () => this.call("POST", SSO, SsoProviderSchema, body),
            () => this.sso(),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: (e) => e instanceof ConflictError },
        );
        return value;
    }

    updateSso(id: string, body: SsoSettingsUpdate): Promise<SsoProvider> {
        return this.call("PATCH", `${SSO}/${encodeURIComponent(id)}`, SsoProviderSchema, body, { idempotent: true });
    }

    async deleteSso(id: string): Promise<void> {
        await this.call("DELETE", `${SSO}/${encodeURIComponent(id)}`, z.unknown(), undefined, { idempotent: true }).catch(undefinedOn404);
    }

    // ---- the organization's own settings ----

    info(): Promise<OrganizationInfo> {
        return this.call("GET", INFO, OrganizationInfoSchema);
    }

    updateInfo(body: OrganizationUpdate): Promise<OrganizationInfo> {
        return this.call("PATCH", INFO, OrganizationInfoSchema, body, { idempotent: true });
    }

    // ---- a workspace's hub handle (the client's workspace) ----

    tenant(): Promise<Tenant> {
        return this.call("GET", "/api/v1/settings", TenantSchema);
    }

    setHandle(handle: string): Promise<Tenant> {
        // Idempotent: the same handle set again is answered as it is (docs/service.md R20.3).
        return this.call("POST", "/api/v1/settings/handle", TenantSchema, { tenant_handle: handle }, { idempotent: true });
    }
}
