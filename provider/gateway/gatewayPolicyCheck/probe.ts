/**
 * What a GatewayPolicyCheck sends and how it judges the answers (docs/service.md R19.3): the fewest requests that
 * prove a limit. A rate limit of N requests: N that must pass, then one that must get 429. A token limit: the first
 * request's tokens (as the gateway counts them) tell how many fit; those pass, the next gets 429. A spend cap: the
 * first request's price is read from the policy's spend before and after it; the requests that still fit pass, the
 * next gets 402. Then, if the program names another subject, one request as it must pass. Every request asks for one
 * answer token (`max_tokens: 1`) with the program's prompt. Nothing is retried: each request is counted.
 */
import { sendCompletion, type GatewayAnswer, type GatewayPoliciesClient } from "../../api/gatewayPolicies";
import type { GatewayPolicy } from "../../api/schemas/gatewayPolicies";
import type { CheckedRateLimit, CheckedSpendCap, GatewayPolicyCheckInputs } from "./declare";

/** What one step sent and got (the declaration's `GatewayPolicyCheckStep`). */
type Step = {
    step: string;
    headers?: Record<string, string>;
    sent: number;
    expectedStatus: number;
    statuses: number[];
    tokens?: number;
    error?: string;
};

export class CheckFailedError extends Error {}

/** The tokens one request is counted as by the emulated gateway's rule (R19.2), for the preview's estimate. */
export const estimatedTokens = (prompt: string): number => Math.max(1, Math.ceil(prompt.length / 4)) + 1;

/** What the preview says it will send (R19.3): how many requests, to which model, through where. */
export function planText(i: Partial<GatewayPolicyCheckInputs>, gateway: string): string {
    const other = i.otherHeaders ? 1 : 0;
    const to = `to model ${i.model} through ${gateway}`;
    const r = i.rateLimit as CheckedRateLimit | undefined;
    const cap = i.spendCap as CheckedSpendCap | undefined;
    if (r?.unit === "requests")
        return `will send ${r.limit + 1 + other} requests ${to}: ${r.limit} that must pass, 1 that must get 429${other ? ", 1 as the other subject" : ""}`;
    if (r?.unit === "tokens") {
        const n = Math.floor(r.limit / estimatedTokens(i.prompt ?? "")) + 1 + other;
        return `will send about ${n} requests ${to} (as many as the token limit lets through, the gateway's count deciding, then 1 that must get 429${other ? ", 1 as the other subject" : ""})`;
    }
    if (cap)
        return `will send requests ${to} until the spend cap of $${cap.limitUsd} is reached (the first request's price decides how many; at most ${i.maxRequests}), then 1 that must get 402${other ? ", 1 as the other subject" : ""}`;
    return `will send requests ${to} once the limit to prove is known`;
}

export interface ProbeContext {
    inputs: GatewayPolicyCheckInputs;
    gatewayUrl: string;
    apiKey: string;
    policies: GatewayPoliciesClient;
}

class Prober {
    sent = 0;
    steps: Step[] = [];
    constructor(private readonly c: ProbeContext) {}

    send(headers: Record<string, string> | undefined): Promise<GatewayAnswer> {
        this.sent++;
        const i = this.c.inputs;
        if (this.sent > (i.maxRequests ?? 100))
            throw new CheckFailedError(`it would send more than maxRequests (${i.maxRequests}) requests: raise maxRequests, or lower the limit`);
        return sendCompletion({
            baseUrl: this.c.gatewayUrl,
            provider: i.provider ?? "openai",
            apiKey: this.c.apiKey,
            model: i.model ?? "",
            prompt: i.prompt ?? "",
            headers,
        });
    }

    /** Sends `n` requests as `headers` (`first` already sent counts as one), each expected to get `expected`. */
    async step(name: string, headers: Record<string, string> | undefined, n: number, expected: number, first?: GatewayAnswer): Promise<void> {
        const s: Step = { step: name, headers, sent: 0, expectedStatus: expected, statuses: [], tokens: 0 };
        this.steps.push(s);
        for (let k = 0; k < n; k++) {
            const a = k === 0 && first ? first : await this.send(headers);
            s.sent++;
            s.statuses.push(a.status);
            s.tokens = (s.tokens ?? 0) + (a.completion?.usage.total_tokens ?? 0);
            if (a.error) s.error = a.error;
            if (a.status !== expected)
                throw new CheckFailedError(
                    `step ${name}: request ${k + 1} of ${n} got ${a.status}${a.error ? ` (${a.error})` : ""} where ${expected} was expected${expected === 200 && (a.status === 429 || a.status === 402) ? ": the window already held traffic of this subject (another client, or a check less than a window ago): run it again in the next window" : ""}`,
                );
        }
    }
}

function sameLimit(i: GatewayPolicyCheckInputs, p: GatewayPolicy): void {
    const c = p.config;
    const r = i.rateLimit as CheckedRateLimit | undefined;
    const cap = i.spendCap as CheckedSpendCap | undefined;
    const ok = r ? c.limit === r.limit && c.unit === r.unit && c.window === r.window : c.limit_usd === cap?.limitUsd && c.window === cap?.window;
    if (!ok) throw new CheckFailedError(`policy ${p.id} holds ${JSON.stringify(c)}, not the limit given: pass the policy's own \`rateLimit\` or \`spendCap\``);
    if (!p.enabled) throw new CheckFailedError(`policy ${p.id} is disabled: the gateway enforces nothing of it`);
}

/** Runs the check: every step, or a CheckFailedError saying which step got what. */
export async function probe(c: ProbeContext): Promise<{ requestsSent: number; steps: Step[] }> {
    const i = c.inputs;
    const policy = await c.policies.tryGet(i.policyId);
    if (!policy) throw new CheckFailedError(`policy ${i.policyId} does not exist`);
    sameLimit(i, policy);
    const p = new Prober(c);
    const rate = i.rateLimit as CheckedRateLimit | undefined;
    const cap = i.spendCap as CheckedSpendCap | undefined;
    const first = await p.send(i.headers);
    if (rate) {
        const per = first.completion?.usage.total_tokens ?? 1;
        const within = rate.unit === "requests" ? rate.limit : Math.floor(rate.limit / per);
        await p.step("within", i.headers, within, 200, within > 0 ? first : undefined);
        await p.step("past", i.headers, 1, 429, within > 0 ? undefined : first);
    } else if (cap) {
        const before = policy.current_spend_usd ?? 0;
        const after = (await c.policies.tryGet(i.policyId))?.current_spend_usd ?? 0;
        const cost = after - before;
        if (first.status === 200 && !(cost > 0))
            throw new CheckFailedError(`policy ${i.policyId} counted no spend for a request as ${JSON.stringify(i.headers ?? {})}: do the headers reach it?`);
        const within = first.status === 200 ? 1 + Math.floor((cap.limitUsd - after) / cost + 1e-9) : 0;
        await p.step("within", i.headers, within, 200, within > 0 ? first : undefined);
        await p.step("past", i.headers, 1, 402, within > 0 ? undefined : first);
    }
    if (i.otherHeaders) await p.step("other", i.otherHeaders, 1, 200);
    return { requestsSent: p.sent, steps: p.steps };
}
