/**
 * How the emulated gateway enforces its policies on a request (docs/service.md R19.2): which policies match the
 * request's subject, the children a default policy materializes for a subject value it has not seen, and each
 * policy's counter over its window (fixed windows of the emulator's clock: a minute, an hour, a UTC day, a week from
 * Monday, a calendar month, so tests move them with `/__admin/clock/advance`).
 *
 * A request is refused with 429 when a rate limit it matches would go past its count (requests, or its prompt and
 * answer tokens) and else with 402 when a spend cap would go past its limit; only a request let through is counted,
 * in every policy it matches (a disabled spend cap counts spend too, and refuses nothing). Spend is counted in
 * picodollars (whole numbers: no rounding drift).
 */
import { randomUUID } from "node:crypto";
import { FAMILY, isDefaultType, type RateLimitConfig, type SpendCapConfig } from "../../provider/api/schemas/gatewayPolicies";
import type { GatewayPolicies, PolicyRecord } from "./policies";

export interface Counter {
    windowStart: number;
    requests: number;
    tokens: number;
    /** Spend in picodollars (1e-12 USD). */
    spendPico: number;
}

export const PICO = 1e12;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When the window holding `now` starts, and when it ends. */
export function windowOf(window: string, now: number): { start: number; end: number } {
    const d = new Date(now);
    switch (window) {
        case "minute":
            return { start: now - (now % MINUTE), end: now - (now % MINUTE) + MINUTE };
        case "hour":
        case "hourly":
            return { start: now - (now % HOUR), end: now - (now % HOUR) + HOUR };
        case "daily":
            return { start: now - (now % DAY), end: now - (now % DAY) + DAY };
        case "weekly": {
            const start = now - (now % DAY) - ((d.getUTCDay() + 6) % 7) * DAY;
            return { start, end: start + 7 * DAY };
        }
        default: {
            const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
            return { start, end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
        }
    }
}

/** A policy's counter for the window holding `now` (a new window starts at zero). */
function counterAt(c: Counter | undefined, p: PolicyRecord, now: number): Counter {
    const { start } = windowOf(String(p.config.window), now);
    return c && c.windowStart === start ? c : { windowStart: start, requests: 0, tokens: 0, spendPico: 0 };
}

/** A spend cap's spend in its current window, in USD. */
export const spendUsd = (c: Counter | undefined, p: PolicyRecord, now: number): number => counterAt(c, p, now).spendPico / PICO;

/** The request's subject: each matcher key it has a value for (`workspace_id`, `api_key_id`, a header's key...). */
export type Subject = Record<string, string>;

export interface Refusal {
    status: 429 | 402;
    policy: PolicyRecord;
    retryAfterS: number;
}

export class Enforcer {
    constructor(private readonly policies: GatewayPolicies) {}

    /** The children the default policies matching `subject` have for its values, made if missing. */
    private materialize(subject: Subject): void {
        const s = this.policies.s;
        for (const parent of s.policies.filter((p) => isDefaultType(p.policy_type))) {
            const open = parent.subject_matchers.find((m) => m.value === "");
            const value = open && subject[open.key];
            if (!open || !value || !parent.subject_matchers.every((m) => m.value === "" || subject[m.key] === m.value)) continue;
            const matchers = parent.subject_matchers.map((m) => (m === open ? { key: m.key, value } : m));
            const type = parent.policy_type === "default_spend_cap" ? "spend_cap" : "rate_limit";
            if (this.policies.sameMatchers(type, matchers)) continue;
            const now = this.policies.clock.iso();
            s.policies.push({
                ...parent,
                id: randomUUID(),
                name: `${parent.name} (${open.key}=${value})`,
                policy_type: type,
                subject_matchers: matchers,
                parent_policy_id: parent.id,
                is_system_generated: true,
                created_at: now,
                updated_at: now,
            });
        }
    }

    /** The policies that apply to `subject` (children materialized first), defaults and guards aside. */
    matching(subject: Subject): PolicyRecord[] {
        this.materialize(subject);
        return this.policies.s.policies
            .filter((p) => !isDefaultType(p.policy_type) && FAMILY[p.policy_type] !== "guard")
            .filter((p) => p.subject_matchers.every((m) => subject[m.key] === m.value))
            .sort((a, b) => a.priority - b.priority);
    }

    /** Judges a request of `tokens` costing `costPico`: the refusal, or undefined and the request counted. */
    admit(subject: Subject, tokens: number, costPico: number): Refusal | undefined {
        const now = this.policies.clock.now();
        const counters = this.policies.s.counters;
        const matched = this.matching(subject);
        const refusal = this.rateRefusal(matched, tokens, now) ?? this.spendRefusal(matched, costPico, now);
        if (!refusal)
            for (const p of matched) {
                const c = counterAt(counters[p.id], p, now);
                counters[p.id] = { ...c, requests: c.requests + 1, tokens: c.tokens + tokens, spendPico: c.spendPico + costPico };
            }
        this.policies.save();
        return refusal;
    }

    private rateRefusal(matched: PolicyRecord[], tokens: number, now: number): Refusal | undefined {
        for (const p of matched.filter((x) => x.enabled && FAMILY[x.policy_type] === "rate")) {
            const cfg = p.config as RateLimitConfig;
            const c = counterAt(this.policies.s.counters[p.id], p, now);
            const after = cfg.unit === "requests" ? c.requests + 1 : c.tokens + tokens;
            if (after > cfg.limit) return { status: 429, policy: p, retryAfterS: Math.ceil((windowOf(cfg.window, now).end - now) / 1000) };
        }
        return undefined;
    }

    private spendRefusal(matched: PolicyRecord[], costPico: number, now: number): Refusal | undefined {
        for (const p of matched.filter((x) => x.enabled && FAMILY[x.policy_type] === "spend")) {
            const cfg = p.config as SpendCapConfig;
            const c = counterAt(this.policies.s.counters[p.id], p, now);
            if (c.spendPico + costPico > Math.round(cfg.limit_usd * PICO))
                return { status: 402, policy: p, retryAfterS: Math.ceil((windowOf(cfg.window, now).end - now) / 1000) };
        }
        return undefined;
    }
}
