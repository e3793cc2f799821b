/**
 * The settings that govern tracing (docs/service.md R11): a workspace's usage limits, its retention settings
 * and long-lived days, and the organization's retention settings. Made on the HTTP client of a workspace's
 * administration (`X-Tenant-Id`: the workspace), or of the organization's for its own settings.
 *
 * A usage limit's create is a `PUT` without id: sent once, and a lost answer is looked up by its type (one per
 * type in a workspace, so the limit of that type made since is ours); a 409 on the second attempt means the first
 * took effect. Retention settings exist once per scope: their `PUT`s replace them and are retried as any PUT.
 */
import { z } from "zod";
import type { HttpClient } from "./client";
import { ConflictError } from "./errors";
import { createOnce } from "./reconcile";
import {
    LonglivedDaysSchema,
    TtlSettingsSchema,
    UsageLimitSchema,
    type LonglivedDays,
    type TtlSettings,
    type TtlSettingsUpsert,
    type UsageLimit,
    type UsageLimitType,
} from "./schemas/settings";

const LIMITS = "/api/v1/usage-limits";
const WORKSPACE_TTL = "/api/v1/ttl-settings";
const ORG_TTL = "/api/v1/orgs/ttl-settings";
const WORKSPACE_DAYS = "/workspaces/current/ttl-settings";

export class SettingsClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** The settings of the workspace (or organization) an administration client speaks to, over its HTTP client. */
    static of(admin: { http: HttpClient; deadline?: number }): SettingsClient {
        return new SettingsClient(admin.http, admin.deadline);
    }

    private get<T>(p: string, schema: z.ZodType<T>): Promise<T> {
        return this.http.request("GET", p, { schema, deadline: this.deadline }).then((r) => r.data);
    }

    private put<T>(p: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
        return this.http.request("PUT", p, { body, schema, deadline: this.deadline }).then((r) => r.data);
    }

    // ---- usage limits of the client's workspace ----

    listUsageLimits(): Promise<UsageLimit[]> {
        return this.get(LIMITS, z.array(UsageLimitSchema));
    }

    /** Makes the workspace's limit of a type (none may exist yet); a lost answer is looked up by the type. */
    async createUsageLimit(type: UsageLimitType, value: number): Promise<UsageLimit> {
        const { value: made } = await createOnce(
            () =>
                this.http
                    .request("PUT", LIMITS, {
                        body: { limit_type: type, limit_value: value },
                        schema: UsageLimitSchema,
                        idempotent: false,
                        deadline: this.deadline,
                    })
                    .then((r) => r.data),
            async () => (await this.listUsageLimits()).find((l) => l.limit_type === type && l.limit_value === value),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: (e) => e instanceof ConflictError },
        );
        return made;
    }

    /** Changes a limit by its id (an upsert: retried as any PUT). */
    updateUsageLimit(id: string, type: UsageLimitType, value: number): Promise<UsageLimit> {
        return this.put(LIMITS, { id, limit_type: type, limit_value: value }, UsageLimitSchema);
    }

    /** Deletes a limit; one already gone is done. */
    async deleteUsageLimit(id: string): Promise<void> {
        await this.http.request("DELETE", `${LIMITS}/${encodeURIComponent(id)}`, { expect: [200, 204], deadline: this.deadline }).catch((e: unknown) => {
            if ((e as { status?: number }).status !== 404) throw e;
        });
    }

    // ---- retention ----

    /** The workspace's retention settings, undefined while it has none of its own (the defaults hold). */
    async workspaceRetention(): Promise<TtlSettings | undefined> {
        return (await this.get(WORKSPACE_TTL, z.array(TtlSettingsSchema)))[0];
    }

    putWorkspaceRetention(body: TtlSettingsUpsert): Promise<TtlSettings> {
        return this.put(WORKSPACE_TTL, body, TtlSettingsSchema);
    }

    /** The organization's own retention settings (`tenant_id` null among the list), undefined while the defaults hold. */
    async organizationRetention(): Promise<TtlSettings | undefined> {
        return (await this.get(ORG_TTL, z.array(TtlSettingsSchema))).find((s) => !s.tenant_id);
    }

    putOrganizationRetention(body: TtlSettingsUpsert): Promise<TtlSettings> {
        return this.put(ORG_TTL, body, TtlSettingsSchema);
    }

    /** The days the workspace keeps long-lived traces (`is_custom` false: the default). */
    longlivedDays(): Promise<LonglivedDays> {
        return this.get(WORKSPACE_DAYS, LonglivedDaysSchema);
    }

    putLonglivedDays(days: number): Promise<LonglivedDays> {
        return this.put(WORKSPACE_DAYS, { longlived_ttl_days: days }, LonglivedDaysSchema);
    }
}
