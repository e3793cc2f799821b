/**
 * The GatewayPolicy's dynamic provider (its fields: declare.ts; the wire: wire.ts). At preview: the type's block
 * (`spendCap`, `rateLimit`) required, a cap not a positive amount, a limit under 1, a header matcher that is not
 * `X-Gateway-...`, a policy with no matcher, a default policy without its `perSubject`, and a second resource of the
 * program with identical matchers in the policy's family (kit/scope.ts: the service keeps one policy per family and
 * matchers) are refused naming the field and the fix. A create meets the service's upsert (docs/service.md R19.1): it
 * looks first, and a policy of the family with the same matchers that this stack does not hold is refused naming it,
 * unless LANGSMITH_ADOPT_IDS names it (kit/adoption.ts). An update is one PATCH of the whole policy (its type aside: a
 * change replaces). `read` with only an id is `pulumi import`; it answers the current spend, which a refresh keeps as the
 * last `up` saw it (it moves with every request: a clean stack's refresh shows no change).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { GatewayPoliciesClient } from "../../api/gatewayPolicies";
import { HEADER_NAME, isDefaultType, type GatewayPolicy } from "../../api/schemas/gatewayPolicies";
import { withoutIdentity } from "../../kit/autoname";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { onlyOnePerScope } from "../../kit/scope";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { SCHEMA_VERSION, gatewayPolicy, type GatewayPolicyInputs, type GatewayPolicyOutputs } from "./declare";
import { MATCHER_FIELDS, bodyOf, identityOf, inputsOf, matchersOf } from "./wire";

export const GATEWAY_POLICY_DIFF = diffTableOf(gatewayPolicy.inputs);

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** The matchers: header names `X-Gateway-...` with a value, and at least one matcher (or a default's subject). */
function checkMatchers(c: Checker, news: Record<string, unknown>): void {
    const m = obj(news.matchers);
    if (!m || !known(news.matchers)) return;
    const headers = obj(m.headers) ?? {};
    for (const [h, v] of Object.entries(headers)) {
        if (!HEADER_NAME.test(h))
            c.fail(
                `matchers.headers["${h}"]`,
                `a header matcher must name an \`X-Gateway-...\` header, as clients send it (\`X-Gateway-${h.replace(/^x-(gateway-?)?/i, "").replace(/[^A-Za-z0-9-]/g, "-") || "Customer"}\`): the gateway matches no other header`,
            );
        if (v === "")
            c.fail(
                `matchers.headers["${h}"]`,
                `matchers.headers["${h}"] is empty: give the value to match, or make a default policy with \`perSubject: "${h}"\` to cap each value on its own`,
            );
    }
    const fixed = Object.keys(MATCHER_FIELDS).filter((f) => m[f] !== undefined).length + Object.keys(headers).length;
    // A default policy without its subject is perSubject's to say.
    if (fixed === 0 && news.perSubject === undefined && !isDefaultType(String(news.policyType)))
        c.fail(
            "matchers",
            "matchers names nothing: give at least one of workspaceId, apiKeyId, userId, organizationId or headers (a policy on every request: organizationId)",
        );
}

/** A default policy's subject: required, a matcher field or an `X-Gateway-...` header. */
function checkPerSubject(c: Checker, news: Record<string, unknown>): void {
    const t = news.policyType;
    if (typeof t !== "string" || !isDefaultType(t)) return;
    const s = news.perSubject;
    if (s === undefined || s === null) {
        c.fail(
            "perSubject",
            `perSubject is required for a ${t}: the subject each value of which gets its own limit (\`X-Gateway-Customer\`, \`apiKeyId\`, \`workspaceId\`, \`userId\`)`,
        );
        return;
    }
    if (typeof s === "string" && known(s) && !(s in MATCHER_FIELDS) && !HEADER_NAME.test(s))
        c.fail(
            "perSubject",
            `perSubject ${JSON.stringify(s)} is neither workspaceId, apiKeyId, userId, organizationId nor an \`X-Gateway-...\` header (\`X-Gateway-Customer\`)`,
        );
}

/** The type's block: required, and its amounts. */
function checkBlock(c: Checker, news: Record<string, unknown>): void {
    const t = news.policyType;
    const cap = obj(news.spendCap);
    const rate = obj(news.rateLimit);
    if ((t === "spend_cap" || t === "default_spend_cap") && news.spendCap === undefined)
        c.fail("spendCap", `spendCap is required for a ${t}: \`spendCap: { limitUsd: 10, window: "daily" }\``);
    if ((t === "rate_limit" || t === "default_rate_limit") && news.rateLimit === undefined)
        c.fail("rateLimit", `rateLimit is required for a ${t}: \`rateLimit: { limit: 60, unit: "requests", window: "minute" }\``);
    const usd = cap?.limitUsd;
    if (typeof usd === "number" && !(usd > 0))
        c.fail(
            "spendCap.limitUsd",
            `spendCap.limitUsd ${usd} is not a positive amount: a cap is more than 0 US dollars (to block everything, disable the requests' key instead)`,
        );
    const limit = rate?.limit;
    if (typeof limit === "number" && !(limit >= 1))
        c.fail("rateLimit.limit", `rateLimit.limit ${limit} is under 1: a rate limit lets at least one request (or token) through a window`);
    const secs = obj(news.guard)?.timeoutSeconds;
    if (typeof secs === "number" && !(secs >= 0.1 && secs <= 30))
        c.fail("guard.timeoutSeconds", `guard.timeoutSeconds ${secs} is outside 0.1 to 30 seconds, what the service takes`);
}

export function checkGatewayPolicy(args: Record<string, unknown>) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("GatewayPolicy", gatewayPolicy.inputs, news);
    checkMatchers(c, news);
    checkPerSubject(c, news);
    checkBlock(c, news);
    const ready = typeof news.policyType === "string" && known(news.matchers) && known(news.perSubject) && !c.failures.length;
    const scope = ready ? identityOf(news.policyType as string, matchersOf(inputs as GatewayPolicyInputs)) : undefined;
    onlyOnePerScope(c, {
        resource: "GatewayPolicy",
        identity,
        parts: [scope],
        property: "matchers",
        what: `the gateway policy of family and matchers ${scope}`,
        exists: "the service keeps one policy per family (spend caps, rate limits, guards) and matchers, and a second create updates the first",
    });
    return c.done(inputs);
}

function refusal(i: GatewayPolicyInputs, held: GatewayPolicy): string {
    const child = held.parent_policy_id ? ` (made by default policy ${held.parent_policy_id} for one subject)` : "";
    return alreadyExistsMessage({
        what: `GatewayPolicy ${JSON.stringify(i.name)}: the organization already holds gateway policy ${held.id} (${JSON.stringify(held.name)}, ${held.policy_type})${child} with the same matchers`,
        existing: "the service keeps one policy per family and matchers: this create would silently update that one",
        id: held.id,
        ifTheirs: "change this policy's matchers, or leave that policy to what manages it",
        why: "the service keeps no mark of which stack made a policy.",
    });
}

function outputs(i: GatewayPolicyInputs, p: GatewayPolicy): GatewayPolicyOutputs {
    return {
        ...i,
        currentSpendUsd: p.current_spend_usd ?? null,
        organizationId: p.organization_id ?? "",
        createdAt: p.created_at ?? "",
        schemaVersion: SCHEMA_VERSION,
    };
}

export function createGatewayPolicyProvider(o: { policies?: () => GatewayPoliciesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const policies = o.policies ?? (() => service.gatewayPolicies());
    const provider: ProviderOf<typeof gatewayPolicy> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkGatewayPolicy(news), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(GATEWAY_POLICY_DIFF, olds, news);
        },
        async create(inputs) {
            const pc = policies();
            const body = bodyOf(inputs);
            const key = identityOf(body.policy_type, body.subject_matchers);
            const held = (await pc.list()).find((p) => identityOf(p.policy_type, p.subject_matchers) === key);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            const made = await pc.create(body);
            return { id: made.id, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const held = await policies().tryGet(id);
            const read = held && inputsOf(held);
            if (!held || !read) return {};
            // A refresh keeps the spend the last `up` saw: it moves with every request through the gateway, and the
            // refresh of a clean stack shows no change (docs/gatewayPolicy.md; getGatewayPolicies reads it live).
            const seen = props?.currentSpendUsd;
            const spend = seen === undefined ? held.current_spend_usd : seen;
            return { id, props: outputs(read, { ...held, current_spend_usd: spend }), inputs: read };
        },
        async update(id, _olds, news) {
            const { policy_type: _, ...body } = bodyOf(news);
            return { outs: outputs(news, await policies().update(id, body)) };
        },
        async delete(id) {
            await policies().delete(id);
        },
    };
    return provider;
}

export const gatewayPolicyProvider = createGatewayPolicyProvider();
