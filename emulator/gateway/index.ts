/**
 * The LLM gateway area (docs/service.md R19): its policies (policies.ts) and the gateway itself, an OpenAI-compatible
 * chat completion at `/gateway/{provider}/v1/chat/completions` (the real one: `https://gateway.smith.langchain.com/
 * {provider}/v1/...`, R19.2) that authenticates with a LangSmith API key (`Authorization: Bearer`, or `X-API-Key`),
 * answers a fixed text, counts tokens (a quarter of the characters, rounded up, of each message and of the answer),
 * prices them with the workspace's model price map (tracing/modelPrices.ts; $1 per million tokens where no entry
 * matches: decided) and enforces the policies matching the request (enforce.ts): 429 past a rate limit, 402 past a
 * spend cap, `{"error": {"message", "type", "code"}}` as OpenAI-compatible clients read it.
 */
import { randomUUID } from "node:crypto";
import { ChatCompletionRequestSchema, HEADER_NAME, headerKey } from "../../provider/api/schemas/gatewayPolicies";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { EmulatorError, unauthorized } from "../core/errors";
import type { RequestContext, Router } from "../core/http";
import { stableUuid } from "../core/ids";
import type { Principal } from "../core/principal";
import { ORGANIZATION_ID } from "../org/model";
import type { ModelPrices } from "../tracing/modelPrices";
import { Enforcer, PICO, type Subject } from "./enforce";
import { GatewayPolicies } from "./policies";

export const GATEWAY_PREFIX = "/gateway";
/** What the emulated gateway answers every completion (decided: R19.2). */
export const GATEWAY_ANSWER = "This is the emulated LangSmith LLM gateway's answer.";
/** The price per token where the workspace's price map has no entry for the model (decided: R19.2). */
export const DEFAULT_PRICE_PER_TOKEN = 0.000001;

/** The deterministic token count of a text (R19.2): a quarter of its characters, rounded up, at least 1. */
export const tokensOf = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export interface GatewayArea extends Area {
    readonly policies: GatewayPolicies;
}

/** Who a key speaks for and in which workspace (the organization area's judgement: 401 for a key it refuses). */
export type GatewayAuth = (key: string) => { principal: Principal; tenantId?: string };

export function gatewayArea(o: { clock: Clock; stateDir?: string; auth: GatewayAuth; prices: ModelPrices }): GatewayArea {
    const policies = new GatewayPolicies(o.clock, o.stateDir);
    const enforcer = new Enforcer(policies);
    return {
        name: "gateway",
        policies,
        tenantless: [/^\/api\/v1\/platform\/gateway-policies(\/|$)/],
        register(router: Router) {
            policies.register(router);
            router.on("POST", `${GATEWAY_PREFIX}/{provider}/v1/chat/completions`, (c) => completion(c, o, enforcer), { public: true });
        },
        reset: () => policies.reset(),
    };
}

function header(c: RequestContext, name: string): string | undefined {
    const v = c.headers[name];
    return Array.isArray(v) ? v[0] : v;
}

/** The request's subject (R19.2): its organization, workspace, API key and `X-Gateway-*` headers. */
function subjectOf(c: RequestContext, key: string, principal: Principal, tenantId: string): Subject {
    const s: Subject = {
        organization_id: ORGANIZATION_ID,
        workspace_id: tenantId,
        api_key_id: principal.kind === "service" ? principal.keyId : stableUuid(`api key ${key}`, "4", "8"),
    };
    for (const [name, value] of Object.entries(c.headers)) if (HEADER_NAME.test(name) && typeof value === "string" && value !== "") s[headerKey(name)] = value;
    return s;
}

const gatewayError = (status: number, message: string, code: string, headers: Record<string, string> = {}) =>
    new EmulatorError(status, { error: { message, type: "gateway_error", code } }, headers);

function authenticate(c: RequestContext, auth: GatewayAuth): { key: string; principal: Principal; tenantId: string } {
    const bearer = /^bearer\s+(\S+)/i.exec(header(c, "authorization") ?? "")?.[1];
    const key = bearer ?? header(c, "x-api-key");
    if (!key) throw unauthorized("Authenticate with a LangSmith API key: Authorization: Bearer <key>.");
    const { principal, tenantId } = auth(key);
    if (!tenantId) throw gatewayError(403, "The gateway needs a workspace: use a workspace-scoped API key.", "no_workspace");
    return { key, principal, tenantId };
}

/** The price of one token of `model` in the workspace: its price map's entry, else the default (R19.2). */
function pricesOf(prices: ModelPrices, tenantId: string, provider: string, model: string, at: string): { prompt: number; completion: number } {
    const entry = prices.entryFor(tenantId, { run_type: "llm", start_time: at, extra: { invocation_params: { model }, metadata: { ls_provider: provider } } });
    if (!entry) return { prompt: DEFAULT_PRICE_PER_TOKEN, completion: DEFAULT_PRICE_PER_TOKEN };
    return { prompt: Number(entry.prompt_cost), completion: Number(entry.completion_cost) };
}

function completion(c: RequestContext, o: { clock: Clock; auth: GatewayAuth; prices: ModelPrices }, enforcer: Enforcer) {
    const { key, principal, tenantId } = authenticate(c, o.auth);
    const r = ChatCompletionRequestSchema.safeParse(c.body);
    if (!r.success) throw gatewayError(400, `Invalid request: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`, "invalid_request");
    const body = r.data;
    const promptTokens = body.messages.reduce((n, m) => n + tokensOf(m.content), 0);
    const completionTokens = Math.min(tokensOf(GATEWAY_ANSWER), body.max_tokens ?? Number.POSITIVE_INFINITY);
    const content = GATEWAY_ANSWER.slice(0, completionTokens * 4);
    const price = pricesOf(o.prices, tenantId, c.params.provider, body.model, o.clock.iso());
    const costPico = Math.round(promptTokens * price.prompt * PICO) + Math.round(completionTokens * price.completion * PICO);
    const refusal = enforcer.admit(subjectOf(c, key, principal, tenantId), promptTokens + completionTokens, costPico);
    if (refusal) {
        const what = refusal.status === 429 ? "rate limited by gateway policies" : "request blocked by gateway policies";
        const code = refusal.status === 429 ? "rate_limit_exceeded" : "spend_cap_exceeded";
        throw gatewayError(refusal.status, `${what}: ${refusal.policy.name}`, code, { "retry-after": String(refusal.retryAfterS) });
    }
    return {
        status: 200,
        body: {
            id: `chatcmpl-${randomUUID()}`,
            object: "chat.completion",
            created: Math.floor(o.clock.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: completionTokens < tokensOf(GATEWAY_ANSWER) ? "length" : "stop" }],
            usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
        },
    };
}
