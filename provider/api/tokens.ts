/**
 * The organization's non-human identities and their tokens (docs/service.md R21): service accounts, personal
 * access tokens (a service account's named by `X-Service-Account-Id`, R21.2), a workspace's API keys (its id as
 * `X-Tenant-Id`) and SCIM tokens. A token's create is sent once and never again after an ambiguous failure: its
 * answer alone holds the secret, so the caller (organization/tokens/lifecycle.ts) looks for the token it may
 * have made instead. The service has no read of one token: the lists are read.
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import {
    ApiKeySchema,
    SERVICE_ACCOUNT_HEADER,
    ScimTokenSchema,
    ServiceAccountSchema,
    type ApiKey,
    type ApiKeyCreateRequest,
    type ScimToken,
    type ServiceAccount,
    type ServiceAccountCreateRequest,
} from "./schemas/tokens";

const SERVICE_ACCOUNTS = "/api/v1/service-accounts";
const PATS = "/api/v1/orgs/current/personal-access-tokens";
const API_KEYS = "/api/v1/api-key";
const SCIM_TOKENS = "/v1/platform/orgs/current/scim/tokens";
const Nothing = z.unknown();
const at = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

export class TokensClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the API at `o.baseUrl` (`X-API-Key`; `o.tenantId`: the workspace of its API keys). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): TokensClient {
        return new TokensClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    /** This client with operations bounded by `deadline` (epoch ms). */
    withDeadline(deadline: number): TokensClient {
        return new TokensClient(this.http, deadline);
    }

    private call<T>(
        method: string,
        p: string,
        schema: z.ZodType<T>,
        o: { body?: unknown; headers?: Record<string, string>; tenantId?: string } = {},
    ): Promise<T> {
        return this.http.request(method, p, { schema, expect: [200, 201, 204], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    /**
     * The organization's maximum lifetime of a new personal access token or API key, in days (null: none), from
     * `GET /api/v1/orgs/current/info`; undefined when it cannot be read (the check then leaves it to the service).
     */
    async maxExpiryDays(): Promise<{ max_pat_expiry_days?: number | null; max_api_key_expiry_days?: number | null } | undefined> {
        const Info = z.object({ max_pat_expiry_days: z.number().nullish(), max_api_key_expiry_days: z.number().nullish() }).passthrough();
        return this.call("GET", "/api/v1/orgs/current/info", Info).catch(() => undefined);
    }

    /** The base URL of the organization's SCIM API (LangSmith's SCIM guide: `<API URL>/scim/v2`). */
    get scimUrl(): string {
        return `${this.http.baseUrl.replace(/\/api-host$/, "")}/scim/v2`;
    }

    // ---- service accounts ----

    listServiceAccounts(): Promise<ServiceAccount[]> {
        return this.call("GET", SERVICE_ACCOUNTS, z.array(ServiceAccountSchema));
    }

    /** Sends the create once (the caller looks for an account a lost answer made, by name). */
    createServiceAccount(body: ServiceAccountCreateRequest): Promise<ServiceAccount> {
        return this.call("POST", SERVICE_ACCOUNTS, ServiceAccountSchema, { body });
    }

    /** Deletes an account (its tokens stop working); one already gone is done. */
    async deleteServiceAccount(id: string): Promise<void> {
        await this.call("DELETE", at(SERVICE_ACCOUNTS, id), Nothing).catch(undefinedOn404);
    }

    // ---- personal access tokens ----

    listPersonalAccessTokens(): Promise<ApiKey[]> {
        return this.call("GET", PATS, z.array(ApiKeySchema));
    }

    /** Sends the create once; `serviceAccountId`: the account the token is made for (R21.2). */
    createPersonalAccessToken(body: ApiKeyCreateRequest, serviceAccountId?: string): Promise<ApiKey> {
        return this.call("POST", PATS, ApiKeySchema, { body, headers: serviceAccountId ? { [SERVICE_ACCOUNT_HEADER]: serviceAccountId } : undefined });
    }

    async deletePersonalAccessToken(id: string): Promise<void> {
        await this.call("DELETE", at(PATS, id), Nothing).catch(undefinedOn404);
    }

    // ---- a workspace's API keys ----

    listApiKeys(workspaceId: string): Promise<ApiKey[]> {
        return this.call("GET", API_KEYS, z.array(ApiKeySchema), { tenantId: workspaceId });
    }

    createApiKey(workspaceId: string, body: ApiKeyCreateRequest): Promise<ApiKey> {
        return this.call("POST", API_KEYS, ApiKeySchema, { body, tenantId: workspaceId });
    }

    async deleteApiKey(workspaceId: string, id: string): Promise<void> {
        await this.call("DELETE", at(API_KEYS, id), Nothing, { tenantId: workspaceId }).catch(undefinedOn404);
    }

    // ---- SCIM tokens ----

    listScimTokens(): Promise<ScimToken[]> {
        return this.call("GET", SCIM_TOKENS, z.array(ScimTokenSchema));
    }

    createScimToken(description: string): Promise<ScimToken> {
        return this.call("POST", SCIM_TOKENS, ScimTokenSchema, { body: { description } });
    }

    updateScimToken(id: string, description: string): Promise<ScimToken> {
        return this.call("PATCH", at(SCIM_TOKENS, id), ScimTokenSchema, { body: { description } });
    }

    async deleteScimToken(id: string): Promise<void> {
        await this.call("DELETE", at(SCIM_TOKENS, id), Nothing).catch(undefinedOn404);
    }
}
