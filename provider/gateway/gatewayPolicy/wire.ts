/**
 * A GatewayPolicy's inputs on the wire and back (docs/service.md R19.1): the program's matchers (`workspaceId`,
 * `headers: {"X-Gateway-Customer": "acme"}`) as the service's `subject_matchers` (`workspace_id`, `customer`), a
 * default policy's `perSubject` as the matcher whose value is `""`, and the type's block as `config`.
 */
import {
    BUILTIN_KEYS,
    FAMILY,
    HEADER_PREFIX,
    headerKey,
    keyHeader,
    type GatewayPolicy,
    type GatewayPolicyCreateRequest,
    type PolicyType,
    type SubjectMatcher,
} from "../../api/schemas/gatewayPolicies";
import { prune } from "../../kit/diff";
import type { GatewayPolicyInputs } from "./declare";

/** The program's matcher fields and the service's keys. */
export const MATCHER_FIELDS = { workspaceId: "workspace_id", apiKeyId: "api_key_id", userId: "user_id", organizationId: "organization_id" } as const;
type MatcherField = keyof typeof MATCHER_FIELDS;
const FIELD_OF: Record<string, MatcherField> = Object.fromEntries(Object.entries(MATCHER_FIELDS).map(([f, k]) => [k, f as MatcherField]));

/** A matcher's key for a field or header name (`workspaceId`: `workspace_id`; `X-Gateway-Customer`: `customer`). */
export const keyOf = (name: string): string => (name in MATCHER_FIELDS ? MATCHER_FIELDS[name as MatcherField] : headerKey(name));

/** The service's matchers of a program's inputs (fixed ones, then a default policy's subject with `""`). */
export function matchersOf(i: Pick<GatewayPolicyInputs, "matchers" | "perSubject">): SubjectMatcher[] {
    const m = i.matchers ?? {};
    const out: SubjectMatcher[] = [];
    for (const f of Object.keys(MATCHER_FIELDS) as MatcherField[]) if (typeof m[f] === "string") out.push({ key: MATCHER_FIELDS[f], value: m[f] as string });
    for (const [h, v] of Object.entries(m.headers ?? {})) out.push({ key: headerKey(h), value: v });
    if (i.perSubject) out.push({ key: keyOf(i.perSubject), value: "" });
    return out;
}

/** The text the service identifies a policy by: its family and its matchers, in any order. */
export const identityOf = (type: string, ms: SubjectMatcher[]): string =>
    `${FAMILY[type as PolicyType] ?? type}|${ms
        .map((m) => `${m.key}=${m.value}`)
        .sort()
        .join("&")}`;

function configOf(i: GatewayPolicyInputs): Record<string, unknown> {
    if (i.spendCap) return { window: i.spendCap.window, limit_usd: i.spendCap.limitUsd };
    if (i.rateLimit) return { unit: i.rateLimit.unit, window: i.rateLimit.window, limit: i.rateLimit.limit };
    const g = i.guard ?? { pii: true, secrets: true };
    return prune({
        version: 1,
        detect: { pii: g.pii ?? true, secrets: g.secrets ?? true },
        pii: g.piiRules ? { rules: g.piiRules } : undefined,
        timeout_seconds: g.timeoutSeconds,
        timeout_action: g.timeoutAction,
    }) as Record<string, unknown>;
}

/** The whole policy on the wire (a PATCH sends it whole too, without its type: `""` clears the description). */
export function bodyOf(i: GatewayPolicyInputs): GatewayPolicyCreateRequest {
    return {
        name: i.name,
        description: i.description ?? "",
        policy_type: i.policyType,
        action: "block",
        subject_matchers: matchersOf(i),
        config: configOf(i),
        priority: i.priority ?? 0,
        enabled: i.enabled ?? true,
    };
}

const num = (v: unknown) => (typeof v === "number" ? v : undefined);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

function blockOf(type: string, c: Record<string, unknown>): Partial<GatewayPolicyInputs> {
    const family = FAMILY[type as PolicyType];
    if (family === "spend") return { spendCap: { limitUsd: num(c.limit_usd) ?? 0, window: c.window as never } };
    if (family === "rate") return { rateLimit: { limit: num(c.limit) ?? 0, unit: c.unit as never, window: c.window as never } };
    const detect = (c.detect ?? {}) as Record<string, unknown>;
    const rules = (c.pii as { rules?: unknown } | undefined)?.rules;
    return {
        guard: prune({
            pii: detect.pii !== false,
            secrets: detect.secrets !== false,
            piiRules: Array.isArray(rules) ? rules : undefined,
            timeoutSeconds: num(c.timeout_seconds),
            timeoutAction: str(c.timeout_action),
        }) as never,
    };
}

/** The inputs as the service says them (refresh, import). */
export function inputsOf(p: GatewayPolicy): GatewayPolicyInputs {
    const matchers: Record<string, unknown> = {};
    const headers: Record<string, string> = {};
    let perSubject: string | undefined;
    for (const m of p.subject_matchers) {
        const builtin = (BUILTIN_KEYS as readonly string[]).includes(m.key);
        const name = builtin ? (FIELD_OF[m.key] ?? m.key) : keyHeader(m.key);
        if (m.value === "") perSubject = name;
        else if (builtin) matchers[name] = m.value;
        else headers[name] = m.value;
    }
    if (Object.keys(headers).length) matchers.headers = headers;
    return prune({
        name: p.name,
        description: p.description || undefined,
        policyType: p.policy_type,
        matchers,
        perSubject,
        ...blockOf(p.policy_type, p.config),
        priority: p.priority ?? 0,
        enabled: p.enabled,
    }) as GatewayPolicyInputs;
}

/** Whether a header name is one a matcher takes (`X-Gateway-` and more). */
export const isGatewayHeader = (h: string): boolean => h.toLowerCase().startsWith(HEADER_PREFIX.toLowerCase()) && h.length > HEADER_PREFIX.length;
