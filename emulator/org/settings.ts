/**
 * The settings that govern tracing (docs/service.md R11), kept with the organization (`org.json`):
 *
 * - **Usage limits** per workspace (`/api/v1/usage-limits`): one per type (`monthly_traces`,
 *   `monthly_longlived_traces`). `PUT` upserts: with `id` that limit changes (its type too, if no other holds
 *   it), without one a new limit is made, refused (409) while the workspace already has one of that type
 *   (**decided**: the description says only "upsert"). `DELETE /{id}` removes one (404 when there is none).
 *   Ingest past a limit is refused (`admit`, called by the tracing area before it keeps anything): 429, the
 *   status the service's documentation gives for usage limits, with the decided words of `overLimit`.
 *   A trace counts once, in the calendar month (UTC, the emulator's clock) its root run was first posted.
 * - **Retention** (TTL settings): a workspace's (`/api/v1/ttl-settings`) and the organization's
 *   (`/api/v1/orgs/ttl-settings`) default trace tier for new projects, and whether it was applied to every
 *   existing project (`apply_to_all_projects`: the projects' tier set once, at the PUT). Settings exist once
 *   per scope: a PUT replaces them; there is no DELETE (putting the defaults back is a PUT). A workspace's
 *   long-lived days (`/workspaces/current/ttl-settings`, default 400, `is_custom` once set). A new project's
 *   tier, when its create names none: the workspace's default, else the organization's, else `longlived`.
 */
import { randomUUID } from "node:crypto";
import {
    DEFAULT_LONGLIVED_DAYS,
    LonglivedDaysUpdateSchema,
    TtlSettingsUpsertSchema,
    UsageLimitUpsertSchema,
    type RetentionTier,
    type UsageLimit,
} from "../../provider/api/schemas/settings";
import { EmulatorError, badRequest, conflict, requireUuid } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { ORGANIZATION_ID, type OrgModel, type TtlRecord } from "./model";

/** Sets the tier of every project of a workspace (undefined: of every workspace without settings of its own). */
export type ApplyTier = (tenantId: string | undefined, tier: RetentionTier, keep: (tenantId: string) => boolean) => void;

const ORG_SCOPE = "";
const ok = (body: unknown = {}) => ({ status: 200, body });

/** The tier a new project of the workspace gets when its create names none. */
export function defaultTier(org: OrgModel, tenantId: string): RetentionTier {
    const s = org.state.settings;
    return s.ttl[tenantId]?.default_trace_tier ?? s.ttl[ORG_SCOPE]?.default_trace_tier ?? "longlived";
}

/** The days a long-lived trace of the workspace is kept. */
export const longlivedDays = (org: OrgModel, tenantId: string): number => org.state.settings.longlivedDays[tenantId] ?? DEFAULT_LONGLIVED_DAYS;

/** The refusal of ingest past a limit (decided words: docs/service.md R11). */
function overLimit(l: UsageLimit, used: number): EmulatorError {
    const what = l.limit_type === "monthly_traces" ? "traces" : "long-lived traces";
    return new EmulatorError(429, {
        detail: `Usage limit exceeded: this workspace's ${l.limit_type} limit is ${l.limit_value} ${what} a month and ${used} were ingested this month.`,
    });
}

/**
 * Admits the new traces of one ingest request (`traces` root runs, `longlived` of them in long-lived projects),
 * answering how to count them once they are kept, or refuses the whole request (429) when it would go past a
 * limit of the workspace.
 */
export function admit(org: OrgModel, tenantId: string, traces: number, longlived: number): () => void {
    if (!traces) return () => undefined;
    const month = org.clock.iso().slice(0, 7);
    const s = org.state.settings;
    const held = s.usage[tenantId]?.month === month ? s.usage[tenantId] : { month, traces: 0, longlived: 0 };
    for (const l of s.usageLimits.filter((x) => x.tenant_id === tenantId)) {
        const [used, adding] = l.limit_type === "monthly_traces" ? [held.traces, traces] : [held.longlived, longlived];
        if (adding && used + adding > l.limit_value) throw overLimit(l, used);
    }
    return () => {
        s.usage[tenantId] = { month, traces: held.traces + traces, longlived: held.longlived + longlived };
        org.save();
    };
}

function upsertLimit(org: OrgModel, tenantId: string, body: unknown): UsageLimit {
    const b = parse(UsageLimitUpsertSchema, body, "body");
    if (b.limit_value < 0) throw badRequest(`limit_value must be 0 or more (got ${b.limit_value}).`);
    const s = org.state.settings;
    const mine = s.usageLimits.filter((l) => l.tenant_id === tenantId);
    const same = mine.find((l) => l.limit_type === b.limit_type && l.id !== b.id);
    const now = org.clock.iso();
    const old = b.id ? mine.find((l) => l.id === b.id) : undefined;
    if (same) throw conflict(`This workspace already has a ${b.limit_type} usage limit (${same.id}): change that one (its id in the body).`);
    if (old) return (Object.assign(old, { limit_type: b.limit_type, limit_value: b.limit_value, updated_at: now }), org.save(), old);
    const made: UsageLimit = {
        id: b.id ?? randomUUID(),
        tenant_id: tenantId,
        limit_type: b.limit_type,
        limit_value: b.limit_value,
        created_at: now,
        updated_at: now,
    };
    s.usageLimits.push(made);
    org.save();
    return made;
}

function deleteLimit(org: OrgModel, tenantId: string, id: string): void {
    const s = org.state.settings;
    if (!s.usageLimits.some((l) => l.id === id && l.tenant_id === tenantId)) throw new EmulatorError(404, { detail: `Usage limit ${id} not found.` });
    s.usageLimits = s.usageLimits.filter((l) => l.id !== id);
    org.save();
}

const ttlView = (org: OrgModel, r: TtlRecord) => ({
    ...r,
    organization_id: ORGANIZATION_ID,
    configured_by: "user",
    longlived_ttl_days: r.tenant_id ? longlivedDays(org, r.tenant_id) : DEFAULT_LONGLIVED_DAYS,
});

function putTtl(org: OrgModel, scope: string, body: unknown, apply: ApplyTier) {
    const b = parse(TtlSettingsUpsertSchema, body, "body");
    const s = org.state.settings;
    const now = org.clock.iso();
    const old = s.ttl[scope];
    const r: TtlRecord = {
        id: old?.id ?? randomUUID(),
        tenant_id: scope || null,
        default_trace_tier: b.default_trace_tier,
        apply_to_all_projects: b.apply_to_all_projects,
        created_at: old?.created_at ?? now,
        updated_at: now,
    };
    s.ttl[scope] = r;
    // The organization's applies to the workspaces that have no settings of their own.
    if (b.apply_to_all_projects) apply(scope || undefined, b.default_trace_tier, (ws) => scope !== ORG_SCOPE || !s.ttl[ws]);
    org.save();
    return ttlView(org, r);
}

function daysView(org: OrgModel, tenantId: string) {
    const days = org.state.settings.longlivedDays[tenantId];
    return { tenant_id: tenantId, longlived_ttl_days: days ?? DEFAULT_LONGLIVED_DAYS, is_custom: days !== undefined };
}

function putDays(org: OrgModel, tenantId: string, body: unknown) {
    const days = parse(LonglivedDaysUpdateSchema, body, "body").longlived_ttl_days;
    if (days === undefined) return daysView(org, tenantId);
    if (days < 1) throw new EmulatorError(400, { error: `longlived_ttl_days must be 1 or more (got ${days})` });
    org.state.settings.longlivedDays[tenantId] = days;
    org.save();
    return daysView(org, tenantId);
}

const scopeOf = (body: unknown): string => {
    const t = (body as { tenant_id?: unknown } | null)?.tenant_id;
    return typeof t === "string" ? t : ORG_SCOPE;
};

export function settingsRoutes(router: Router, org: OrgModel, apply: ApplyTier): void {
    const s = () => org.state.settings;
    const mine = (c: RequestContext) => s().usageLimits.filter((l) => l.tenant_id === c.tenantId);
    router
        .on("GET", "/api/v1/usage-limits", (c) => ok(mine(c)))
        .on("GET", "/api/v1/usage-limits/org", () => ok(s().usageLimits))
        .on("PUT", "/api/v1/usage-limits", (c) => ok(upsertLimit(org, c.tenantId, c.body)))
        .on(
            "DELETE",
            "/api/v1/usage-limits/{usage_limit_id}",
            (c) => (deleteLimit(org, c.tenantId, requireUuid(c.params.usage_limit_id, "usage_limit_id")), ok()),
        )
        .on("GET", "/api/v1/ttl-settings", (c) => ok(s().ttl[c.tenantId] ? [ttlView(org, s().ttl[c.tenantId])] : []))
        .on("PUT", "/api/v1/ttl-settings", (c) => ok(putTtl(org, c.tenantId, c.body, apply)))
        .on("GET", "/api/v1/orgs/ttl-settings", () => ok(Object.values(s().ttl).map((r) => ttlView(org, r))))
        // The organization's own, or (`tenant_id` in the body) a workspace's.
        .on("PUT", "/api/v1/orgs/ttl-settings", (c) => ok(putTtl(org, scopeOf(c.body), c.body, apply)))
        // The description writes it without `/api/v1`; the service answers both, as it does its other paths.
        .on("GET", "/workspaces/current/ttl-settings", (c) => ok(daysView(org, c.tenantId)))
        .on("PUT", "/workspaces/current/ttl-settings", (c) => ok(putDays(org, c.tenantId, c.body)))
        .on("GET", "/api/v1/workspaces/current/ttl-settings", (c) => ok(daysView(org, c.tenantId)))
        .on("PUT", "/api/v1/workspaces/current/ttl-settings", (c) => ok(putDays(org, c.tenantId, c.body)));
}
