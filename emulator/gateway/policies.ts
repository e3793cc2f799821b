/**
 * The LLM gateway's policies (docs/service.md R19.1): `/v1/platform/gateway-policies[/{id}]` (routed under
 * `/api/v1/platform/...`), kept in `--state-dir` (`gateway-policies.json`, with their spend and rate counters).
 *
 * - A create whose matchers equal an existing policy's of the same family (spend caps, rate limits, guards) updates
 *   that policy in place (its id kept, 201 all the same), as the description says; it takes over a child a default
 *   policy materialized (its `parent_policy_id` cleared). Names are unique in the organization (409).
 * - `config` must have the shape of the policy's type (400 naming the field); a matcher's key is one the service
 *   knows or a header's (`customer` for `X-Gateway-Customer`); a default policy has exactly one matcher whose value is
 *   `""` (its subject), any other policy none.
 * - A PATCH that makes the matchers equal another policy's of the family is 409; editing a default policy updates
 *   its children's config, action, enabled and priority; deleting it deletes them.
 * - The answers carry `current_spend_usd` for the spend caps (their counter's spend in the current window).
 */
import { randomUUID } from "node:crypto";
import {
    BUILTIN_KEYS,
    FAMILY,
    GatewayPolicyCreateRequestSchema,
    GatewayPolicyUpdateRequestSchema,
    configSchemaOf,
    isDefaultType,
    type PolicyType,
    type SubjectMatcher,
} from "../../provider/api/schemas/gatewayPolicies";
import type { Clock } from "../core/clock";
import { platformError } from "../core/errors";
import { parse, type Router } from "../core/http";
import { Store } from "../core/store";
import { ORGANIZATION_ID } from "../org/model";
import { type Counter, spendUsd } from "./enforce";

export interface PolicyRecord {
    id: string;
    name: string;
    description: string;
    policy_type: PolicyType;
    action: string;
    subject_matchers: SubjectMatcher[];
    config: Record<string, unknown>;
    priority: number;
    enabled: boolean;
    organization_id: string;
    parent_policy_id?: string;
    is_system_generated: boolean;
    created_at: string;
    updated_at: string;
}
export interface GatewayState {
    policies: PolicyRecord[];
    /** Each policy's counter of its current window, by policy id. */
    counters: Record<string, Counter>;
}

const BASE = "/api/v1/platform/gateway-policies";
const KEY = /^[a-z0-9]+(_[a-z0-9]+)*$/;

/** The matchers as one comparable text (their order does not matter). */
export const matcherText = (ms: SubjectMatcher[]): string =>
    ms
        .map((m) => `${m.key}=${m.value}`)
        .sort()
        .join("&");

export class GatewayPolicies {
    s: GatewayState;
    private readonly store: Store<GatewayState>;

    constructor(
        readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "gateway-policies.json");
        this.s = this.store.load() ?? { policies: [], counters: {} };
    }

    reset(): void {
        this.s = { policies: [], counters: {} };
        this.save();
    }

    save(): void {
        this.store.save(this.s);
    }

    get(id: string): PolicyRecord {
        const p = this.s.policies.find((x) => x.id === id);
        if (!p) throw platformError(404, `gateway policy ${id} not found`);
        return p;
    }

    view = (p: PolicyRecord): Record<string, unknown> => {
        const { parent_policy_id, ...rest } = p;
        const spend = FAMILY[p.policy_type] === "spend" ? { current_spend_usd: spendUsd(this.s.counters[p.id], p, this.clock.now()) } : {};
        return { ...rest, ...(parent_policy_id ? { parent_policy_id } : {}), ...spend };
    };

    /** The policy of `type`'s family whose matchers are `ms`, if any (but `except`). */
    sameMatchers(type: PolicyType, ms: SubjectMatcher[], except?: string): PolicyRecord | undefined {
        const text = matcherText(ms);
        return this.s.policies.find((p) => p.id !== except && FAMILY[p.policy_type] === FAMILY[type] && matcherText(p.subject_matchers) === text);
    }

    private nameFree(name: string, except?: string): void {
        const other = this.s.policies.find((p) => p.name === name && p.id !== except);
        if (other) throw platformError(409, `a gateway policy named ${JSON.stringify(name)} already exists (${other.id})`);
    }

    register(router: Router): void {
        router
            .on("GET", BASE, () => ({ status: 200, body: this.s.policies.map(this.view) }))
            .on("POST", BASE, (c) => ({ status: 201, body: this.view(this.create(c.body)) }))
            .on("GET", `${BASE}/{id}`, (c) => ({ status: 200, body: this.view(this.get(c.params.id)) }))
            .on("PATCH", `${BASE}/{id}`, (c) => ({ status: 200, body: this.view(this.update(c.params.id, c.body)) }))
            .on("DELETE", `${BASE}/{id}`, (c) => {
                const p = this.get(c.params.id);
                this.s.policies = this.s.policies.filter((x) => x.id !== p.id && x.parent_policy_id !== p.id);
                for (const id of Object.keys(this.s.counters)) if (!this.s.policies.some((x) => x.id === id)) delete this.s.counters[id];
                this.save();
                return { status: 204 };
            });
    }

    /** A create, or the update of the policy of its family with its matchers (R19.1). */
    create(raw: unknown): PolicyRecord {
        const body = parse(GatewayPolicyCreateRequestSchema, raw, "body");
        checkMatchers(body.policy_type, body.subject_matchers);
        const config = checkConfig(body.policy_type, body.config);
        const held = this.sameMatchers(body.policy_type, body.subject_matchers);
        this.nameFree(body.name, held?.id);
        const now = this.clock.iso();
        const fields = {
            name: body.name,
            description: body.description ?? held?.description ?? "",
            policy_type: body.policy_type,
            action: body.action ?? "block",
            config,
            priority: body.priority ?? held?.priority ?? 0,
            enabled: body.enabled ?? held?.enabled ?? true,
            updated_at: now,
        };
        if (held) {
            Object.assign(held, fields, { parent_policy_id: undefined, is_system_generated: false });
            this.save();
            return held;
        }
        const p: PolicyRecord = {
            ...fields,
            id: randomUUID(),
            subject_matchers: body.subject_matchers,
            organization_id: ORGANIZATION_ID,
            is_system_generated: false,
            created_at: now,
        };
        this.s.policies.push(p);
        this.save();
        return p;
    }

    update(id: string, raw: unknown): PolicyRecord {
        const p = this.get(id);
        const body = parse(GatewayPolicyUpdateRequestSchema, raw, "body");
        if (body.subject_matchers) {
            checkMatchers(p.policy_type, body.subject_matchers);
            const other = this.sameMatchers(p.policy_type, body.subject_matchers, p.id);
            if (other) throw platformError(409, `gateway policy ${other.id} (${other.name}) of the same family already has these subject_matchers`);
        }
        if (body.name) this.nameFree(body.name, p.id);
        const config = body.config ? checkConfig(p.policy_type, body.config) : undefined;
        const set = { ...body, ...(config ? { config } : {}) };
        for (const [k, v] of Object.entries(set)) if (v !== undefined) (p as unknown as Record<string, unknown>)[k] = v;
        p.updated_at = this.clock.iso();
        // The default policy is its children's template (the description's cascade).
        for (const child of this.s.policies.filter((x) => x.parent_policy_id === p.id))
            Object.assign(child, { config: p.config, action: p.action, enabled: p.enabled, priority: p.priority, updated_at: p.updated_at });
        this.save();
        return p;
    }
}

/** A matcher's key and value as the service takes them for a policy of `type` (400 otherwise). */
function checkMatchers(type: PolicyType, ms: SubjectMatcher[]): void {
    for (const [i, m] of ms.entries()) {
        if (!(BUILTIN_KEYS as readonly string[]).includes(m.key) && !KEY.test(m.key))
            throw platformError(
                400,
                `subject_matchers[${i}].key ${JSON.stringify(m.key)} is neither one of ${BUILTIN_KEYS.join(", ")} nor a header's key (lower snake case)`,
            );
    }
    if (new Set(ms.map((m) => m.key)).size !== ms.length) throw platformError(400, "subject_matchers name a key twice");
    const open = ms.filter((m) => m.value === "").length;
    if (isDefaultType(type) && open !== 1)
        throw platformError(400, `a ${type} needs exactly one subject matcher with the value "" (its subject); it has ${open}`);
    if (!isDefaultType(type) && open > 0) throw platformError(400, `a ${type} takes no subject matcher with an empty value (only a default policy does)`);
}

/** The config of a policy of `type`, as its schema reads it (400 naming the field otherwise). */
function checkConfig(type: PolicyType, config: Record<string, unknown>): Record<string, unknown> {
    const r = configSchemaOf(type).safeParse(config);
    if (r.success) return r.data;
    const words = r.error.issues.map((i) => `config.${i.path.join(".")}: ${i.message}`).join("; ");
    throw platformError(400, `config does not fit a ${type}: ${words}`);
}
