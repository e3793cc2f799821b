/**
 * The LLM gateway's policies (docs/service.md R19.1): made, read, changed, deleted, under `/api/v1/platform/...` (the
 * form a self-hosted installation answers too: R10 "Where the platform paths are"). A create is an upsert by matchers
 * on the service (the policy of its family with the same matchers is updated, its id kept), so sending it again after
 * a lost answer makes nothing twice: it is sent as idempotent. Organization paths: no workspace is named. Also the
 * gateway's chat completion, as an OpenAI-compatible client sends it (R19.2), for GatewayPolicyCheck.
 */
import { request as undiciRequest } from "undici";
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import {
    ChatCompletionSchema,
    GatewayPolicySchema,
    type ChatCompletion,
    type GatewayPolicy,
    type GatewayPolicyCreateRequest,
    type GatewayPolicyUpdateRequest,
} from "./schemas/gatewayPolicies";

const BASE = "/api/v1/platform/gateway-policies";
const Nothing = z.unknown();

export class GatewayPoliciesClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the API at `o.baseUrl` (`X-API-Key`; no workspace). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): GatewayPoliciesClient {
        return new GatewayPoliciesClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    private call<T>(method: string, p: string, schema: z.ZodType<T>, body?: unknown, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201, 204], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    list(): Promise<GatewayPolicy[]> {
        return this.call("GET", BASE, z.array(GatewayPolicySchema));
    }

    tryGet(id: string): Promise<GatewayPolicy | undefined> {
        return this.call("GET", `${BASE}/${encodeURIComponent(id)}`, GatewayPolicySchema).catch(undefinedOn404);
    }

    /** Makes the policy, or updates the one of its family with the same matchers (the service's upsert: R19.1). */
    create(body: GatewayPolicyCreateRequest): Promise<GatewayPolicy> {
        return this.call("POST", BASE, GatewayPolicySchema, body, { idempotent: true });
    }

    update(id: string, body: GatewayPolicyUpdateRequest): Promise<GatewayPolicy> {
        return this.call("PATCH", `${BASE}/${encodeURIComponent(id)}`, GatewayPolicySchema, body, { idempotent: true });
    }

    async delete(id: string): Promise<void> {
        await this.call("DELETE", `${BASE}/${encodeURIComponent(id)}`, Nothing).catch(undefinedOn404);
    }
}

/** What one request through the gateway got: its status, the completion (200) or the gateway's words (else). */
export interface GatewayAnswer {
    status: number;
    completion?: ChatCompletion;
    error?: string;
}

/**
 * One chat completion through the gateway at `baseUrl` (`<baseUrl>/<provider>/v1/chat/completions`), as an
 * OpenAI-compatible client sends it: the LangSmith key as a bearer token, `headers` beside. Never retried (each
 * request is counted by the policies it proves); the key is in no answer.
 */
export async function sendCompletion(o: {
    baseUrl: string;
    provider: string;
    apiKey: string;
    model: string;
    prompt: string;
    headers?: Record<string, string>;
    timeoutMs?: number;
}): Promise<GatewayAnswer> {
    const url = `${o.baseUrl.replace(/\/+$/, "")}/${encodeURIComponent(o.provider)}/v1/chat/completions`;
    const res = await undiciRequest(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${o.apiKey}`, ...o.headers },
        body: JSON.stringify({ model: o.model, messages: [{ role: "user", content: o.prompt }], max_tokens: 1 }),
        headersTimeout: o.timeoutMs ?? 60_000,
        bodyTimeout: o.timeoutMs ?? 60_000,
    });
    const text = await res.body.text();
    let body: unknown;
    try {
        body = JSON.parse(text);
    } catch {
        body = undefined;
    }
    if (res.statusCode === 200) {
        const parsed = ChatCompletionSchema.safeParse(body);
        return parsed.success ? { status: 200, completion: parsed.data } : { status: 200, error: "an answer that is no chat completion" };
    }
    const err = (body as { error?: unknown; detail?: unknown } | undefined) ?? {};
    const words =
        typeof err.error === "string"
            ? err.error
            : ((err.error as { message?: string } | undefined)?.message ?? (typeof err.detail === "string" ? err.detail : text.slice(0, 200)));
    return { status: res.statusCode, error: words };
}
