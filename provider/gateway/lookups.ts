/**
 * `getGatewayPolicies`: the organization's LLM gateway policies (docs/service.md R19.1) with each spend cap's current
 * spend, the children default policies materialized among them (`parentPolicyId`), in the resource's own shape
 * (gatewayPolicy/wire.ts), for programs and dashboards that read what another stack or the UI made. Filtered by type
 * or name if asked. Nothing is changed.
 */
import type { GatewayPoliciesClient } from "../api/gatewayPolicies";
import { POLICY_TYPES } from "../api/schemas/gatewayPolicies";
import { boolean, list, lookup, number, object, string, type FunctionInputs, type FunctionResult } from "../kit/declare";
import { guard, matchers, rateLimit, spendCap } from "./gatewayPolicy/declare";
import { inputsOf } from "./gatewayPolicy/wire";

const without = <F extends { appliesIf?: unknown; onChange?: unknown; required?: unknown }>(f: F) => {
    const { appliesIf: _a, onChange: _o, required: _r, ...rest } = f;
    return rest;
};

const policy = object("GatewayPolicyInfo", "A gateway policy as the service holds it.", {
    id: string("The policy's id (`pulumi import` takes it).", { required: true }),
    name: string("Its name.", { required: true }),
    description: string("What it is for."),
    policyType: string("`spend_cap`, `default_spend_cap`, `rate_limit`, `default_rate_limit` or `guard`.", { required: true }),
    matchers: without(matchers),
    perSubject: string("A default policy's subject (`X-Gateway-Customer`, `apiKeyId`...)."),
    spendCap: without(spendCap),
    rateLimit: without(rateLimit),
    guard: without(guard),
    priority: number("Its order among the policies matching a request.", { required: true }),
    enabled: boolean("Whether the gateway enforces it.", { required: true }),
    currentSpendUsd: number("A spend cap's spend in its current window, in US dollars."),
    parentPolicyId: string("The default policy that materialized it, for one subject value."),
    isSystemGenerated: boolean("Whether the service made it (a default policy's child)."),
});

export const getGatewayPoliciesFunction = lookup({
    name: "getGatewayPolicies",
    description:
        "Lists the organization's LLM gateway policies with each spend cap's current spend (in its current window), the children default policies made for each subject value among them; optionally only those of one type, or of one name.",
    args: {
        policyType: string("Only the policies of this type.", { values: POLICY_TYPES }),
        name: string("Only the policy of this exact name."),
    },
    result: {
        policies: list("The policies, in the service's order.", policy, { required: true }),
        totalSpendUsd: number("The spend of the spend caps listed, added up.", { required: true }),
    },
});

export type GetGatewayPoliciesArgs = FunctionInputs<typeof getGatewayPoliciesFunction>;
export type GetGatewayPoliciesResult = FunctionResult<typeof getGatewayPoliciesFunction>;

export async function getGatewayPolicies(pc: GatewayPoliciesClient, args: GetGatewayPoliciesArgs): Promise<GetGatewayPoliciesResult> {
    const all = (await pc.list()).filter((p) => (!args.policyType || p.policy_type === args.policyType) && (!args.name || p.name === args.name));
    const policies = all.map((p) => ({
        id: p.id,
        ...inputsOf(p),
        ...(p.current_spend_usd !== undefined && p.current_spend_usd !== null ? { currentSpendUsd: p.current_spend_usd } : {}),
        ...(p.parent_policy_id ? { parentPolicyId: p.parent_policy_id } : {}),
        isSystemGenerated: p.is_system_generated ?? false,
    }));
    const totalSpendUsd = all.reduce((n, p) => n + (p.current_spend_usd ?? 0), 0);
    return { policies, totalSpendUsd } as GetGatewayPoliciesResult;
}
