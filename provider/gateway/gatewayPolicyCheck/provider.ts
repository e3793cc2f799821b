/**
 * The GatewayPolicyCheck's dynamic provider: proves, at `pulumi up`, that the LLM gateway enforces a GatewayPolicy
 * (docs/service.md R19.3), by the requests of probe.ts. It owns nothing on the service: `create`/`update` run the
 * check (a failed one fails the `up` with the step, what was expected and what came), `read` keeps the last result
 * (a drift check stays green), `delete` does nothing. A change of the policy's id or limit, the subjects, the model,
 * the provider route, the prompt or the gateway's URL runs it again; `maySpend` and `maxRequests` alone do not.
 *
 * The preview says how many requests it will send, to which model and through where (a warning on `policyId`). Only a
 * local emulator (an endpoint on a loopback address) is free: anywhere else each request may be a paid model call,
 * and the check is refused unless `maySpend` is true.
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { HEADER_NAME, RATE_UNITS, RATE_WINDOWS, SPEND_WINDOWS } from "../../api/schemas/gatewayPolicies";
import { REGION_ENDPOINTS } from "../../config";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { gatewayPolicyCheck, type GatewayPolicyCheckInputs, type GatewayPolicyCheckOutputs } from "./declare";
import { CheckFailedError, planText, probe } from "./probe";

export const GATEWAY_POLICY_CHECK_DIFF = diffTableOf(gatewayPolicyCheck.inputs);

/** The US cloud's gateway (R19.2); a regional or self-hosted one is the program's to name. */
export const CLOUD_GATEWAY = "https://gateway.smith.langchain.com";

/** Whether `url` is on a loopback address: a local emulator, where requests cost nothing (R19.3). */
export function isLocal(url: string): boolean {
    try {
        const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
        return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
    } catch {
        return false;
    }
}

/** The gateway the check sends to: the program's, else the local emulator's or the US cloud's; undefined elsewhere. */
export function gatewayOf(i: Pick<GatewayPolicyCheckInputs, "gatewayUrl">, endpoint: string): string | undefined {
    if (i.gatewayUrl) return i.gatewayUrl.replace(/\/+$/, "");
    if (isLocal(endpoint)) return `${endpoint.replace(/\/+$/, "")}/gateway`;
    return endpoint === REGION_ENDPOINTS.us ? CLOUD_GATEWAY : undefined;
}

function checkHeaders(c: Checker, field: "headers" | "otherHeaders", v: unknown): void {
    if (!v || typeof v !== "object" || !known(v)) return;
    for (const h of Object.keys(v))
        if (!HEADER_NAME.test(h))
            c.fail(`${field}["${h}"]`, `${field} names only \`X-Gateway-...\` headers (the subject the policy matches): ${JSON.stringify(h)} is not one`);
}

/** The limit given (the policy's own `rateLimit` or `spendCap`), as far as it is known: its shape (the declaration leaves it untyped). */
function checkLimits(c: Checker, news: Record<string, unknown>): void {
    const r = news.rateLimit as Record<string, unknown> | undefined | null;
    if (r && known(r)) {
        if (known(r.limit) && !(Number.isInteger(r.limit) && (r.limit as number) >= 1))
            c.fail("rateLimit.limit", "rateLimit.limit must be a whole number, 1 or more: pass `policy.rateLimit`");
        if (known(r.unit) && !(RATE_UNITS as readonly unknown[]).includes(r.unit))
            c.fail("rateLimit.unit", `rateLimit.unit must be one of ${RATE_UNITS.join(", ")}`);
        if (known(r.window) && !(RATE_WINDOWS as readonly unknown[]).includes(r.window))
            c.fail("rateLimit.window", `rateLimit.window must be one of ${RATE_WINDOWS.join(", ")}`);
    }
    const s = news.spendCap as Record<string, unknown> | undefined | null;
    if (s && known(s)) {
        if (known(s.limitUsd) && !(typeof s.limitUsd === "number" && s.limitUsd > 0))
            c.fail("spendCap.limitUsd", "spendCap.limitUsd must be a positive amount: pass `policy.spendCap`");
        if (known(s.window) && !(SPEND_WINDOWS as readonly unknown[]).includes(s.window))
            c.fail("spendCap.window", `spendCap.window must be one of ${SPEND_WINDOWS.join(", ")}`);
    }
}

export function checkGatewayPolicyCheck(news: Record<string, unknown>, endpoint: string | undefined) {
    const c = new Checker();
    const inputs = c.declaration("GatewayPolicyCheck", gatewayPolicyCheck.inputs, news) as Partial<GatewayPolicyCheckInputs>;
    checkLimits(c, news);
    if (news.rateLimit == null && news.spendCap == null)
        c.fail("rateLimit", "give the limit to prove: `rateLimit: policy.rateLimit` or `spendCap: policy.spendCap` (one of them)");
    if (news.rateLimit !== undefined && news.spendCap !== undefined)
        c.fail("spendCap", "give one limit to prove: rateLimit or spendCap, not both (a check each)");
    checkHeaders(c, "headers", news.headers);
    checkHeaders(c, "otherHeaders", news.otherHeaders);
    if (endpoint !== undefined) {
        const gateway = known(news.gatewayUrl) ? gatewayOf(inputs, endpoint) : "the gateway given";
        if (!gateway)
            c.fail(
                "gatewayUrl",
                `gatewayUrl is required with the endpoint ${endpoint}: name the gateway of that installation (the US cloud's is ${CLOUD_GATEWAY})`,
            );
        else if (!isLocal(gateway) && known(news.maySpend) && inputs.maySpend !== true)
            c.fail(
                "maySpend",
                `the check sends requests through ${gateway}, where each may be a paid model call: set \`maySpend: true\` to let it (it ${planText(inputs, gateway).replace(/^will /, "would ")})`,
            );
        else if (gateway && !c.failures.length) c.warn("policyId", `GatewayPolicyCheck ${planText(inputs, gateway)}`);
    }
    return c.done(inputs as Record<string, unknown>);
}

export function createGatewayPolicyCheckProvider(): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const run = async (inputs: GatewayPolicyCheckInputs): Promise<GatewayPolicyCheckOutputs> => {
        const cfg = service.config();
        const gatewayUrl = gatewayOf(inputs, cfg.endpoint);
        if (!gatewayUrl) throw new Error(`GatewayPolicyCheck: gatewayUrl is required with the endpoint ${cfg.endpoint}`);
        if (!isLocal(gatewayUrl) && inputs.maySpend !== true)
            throw new Error(`GatewayPolicyCheck: maySpend must be true to send requests through ${gatewayUrl}`);
        const started = Date.now();
        try {
            const r = await probe({ inputs, gatewayUrl, apiKey: cfg.apiKey, policies: service.gatewayPolicies() });
            // Built as a record: the outputs' declared type is too deep for the compiler to compare a spread with (TS2589).
            const outs: Record<string, unknown> = { ...inputs, ...r, checkedAt: new Date().toISOString(), durationMs: Date.now() - started, schemaVersion: 1 };
            return outs as unknown as GatewayPolicyCheckOutputs;
        } catch (e) {
            const why = e instanceof CheckFailedError || e instanceof Error ? e.message : String(e);
            throw new Error(`GatewayPolicyCheck of policy ${inputs.policyId} through ${gatewayUrl}: ${why.split(cfg.apiKey).join("[redacted]")}`);
        }
    };
    const provider: ProviderOf<typeof gatewayPolicyCheck> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check((cfg) => checkGatewayPolicyCheck(news, cfg.endpoint), "organization");
        },
        async diff(_id, olds, news) {
            const { changes, updates } = diffByTable(GATEWAY_POLICY_CHECK_DIFF, olds, news);
            return { changes, replaces: [], updates };
        },
        async create(inputs) {
            return { id: randomUUID(), outs: await run(inputs) };
        },
        async read(id, props?) {
            return { id, props };
        },
        async update(_id, _olds, news) {
            return { outs: await run(news) };
        },
        async delete() {
            // Nothing to remove: the requests are spent and counted.
        },
    };
    return provider;
}

export const gatewayPolicyCheckProvider = createGatewayPolicyCheckProvider();
