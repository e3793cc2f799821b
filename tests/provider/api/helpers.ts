/**
 * Shared fixtures for the wire-layer tests: an HttpClient wired to an undici MockAgent (network disabled)
 * and a fake `sleep` that records the delays and resolves at once; a real loopback server; the deployment
 * and revision bodies the mock answers; and the hooks of the HttpClient and ControlPlaneClient tests.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, MockAgent, type Interceptable } from "undici";
import type { MockInterceptor } from "undici/types/mock-interceptor";
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "../../../provider/api/client";
import { ControlPlaneClient } from "../../../provider/api/controlPlane";
import type { Deployment, Revision } from "../../../provider/api/schemas/controlPlane";
export { rejection } from "../../helpers/async";

export const BASE = "http://cp.test";
export const API_KEY = "lsv2_sk_test_0123456789abcdef";
export const TENANT = "11111111-2222-3333-4444-555555555555";
export const JSON_REPLY: MockInterceptor.MockResponseOptions = { headers: { "content-type": "application/json" } };

export interface Harness {
    agent: MockAgent;
    pool: Interceptable;
    http: HttpClient;
    /** Every delay passed to the fake sleep, in order. */
    sleeps: number[];
}

export function harness(opts: Partial<HttpClientOptions> = {}): Harness {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(BASE);
    const sleeps: number[] = [];
    const http = new HttpClient({
        baseUrl: BASE,
        apiKey: API_KEY,
        tenantId: TENANT,
        dispatcher: agent,
        sleep: async (ms) => {
            sleeps.push(ms);
        },
        ...opts,
    });
    return { agent, pool, http, sleeps };
}

/** A real server on loopback, for what MockAgent cannot do (a body cut off mid-stream). */
export interface LoopbackServer {
    /** An HttpClient pointed at the server (its own connection pool, no waiting between retries). */
    http: HttpClient;
    close(): Promise<void>;
}

export async function loopbackServer(handler: RequestListener): Promise<LoopbackServer> {
    const server = createServer(handler);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const agent = new Agent();
    const http = new HttpClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        apiKey: API_KEY,
        dispatcher: agent,
        sleep: async () => {},
    });
    return {
        http,
        close: async () => {
            await agent.close();
            await new Promise<void>((r) => server.close(() => r()));
        },
    };
}

/** Lower-cased request headers as the mock saw them (object or flat array form). */
export function headersOf(opts: MockInterceptor.MockResponseCallbackOptions): Record<string, string> {
    const out: Record<string, string> = {};
    const h = opts.headers as unknown;
    if (Array.isArray(h)) {
        for (let i = 0; i < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
    } else if (h instanceof Headers) {
        h.forEach((v, k) => {
            out[k.toLowerCase()] = v;
        });
    } else if (h && typeof h === "object") {
        for (const [k, v] of Object.entries(h as Record<string, string>)) out[k.toLowerCase()] = String(v);
    }
    return out;
}

/** An error shaped like the ones node/undici raise for socket failures. */
export function netError(code: string, message = `${code} (simulated)`): Error {
    return Object.assign(new Error(message), { code });
}

export function deployment(over: Partial<Deployment> = {}): Deployment {
    return {
        id: "aaaaaaaa-0000-4000-8000-000000000001",
        name: "my-app",
        source: "github",
        source_config: {
            integration_id: "int-1",
            repo_url: "https://github.com/acme/my-app",
            deployment_type: "dev",
            build_on_push: false,
        },
        source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
        secrets: [{ name: "OPENAI_API_KEY" }],
        status: "READY",
        latest_revision_id: "rev-1",
        active_revision_id: "rev-1",
        created_at: new Date().toISOString(),
        ...over,
    };
}

export function revision(over: Partial<Revision> = {}): Revision {
    return {
        id: "rev-1",
        created_at: "2025-01-01T00:00:00Z",
        status: "DEPLOYED",
        source: "github",
        source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
        ...over,
    };
}

/** A small response schema for the HttpClient tests to parse with. */
export const Thing = z.object({ id: z.string(), n: z.number() });

/**
 * The afterEach of tests that keep their harness in a variable of their describe (`h = harness(...)`):
 * `afterEach(async () => (h = await closeHarness(h)))` closes its MockAgent and clears the variable, so a
 * test that made no harness closes none.
 */
export async function closeHarness(h: Harness | undefined): Promise<Harness> {
    await h?.agent.close();
    return undefined as unknown as Harness;
}

/** The id of the deployment the ControlPlaneClient tests ask for (that of `deployment()`). */
export const DEPLOYMENT_ID = "aaaaaaaa-0000-4000-8000-000000000001";
/** A secret value the ControlPlaneClient tests send, and must never see in an error. */
export const SECRET_VALUE = "sk-very-secret-openai-key-000";

/** Query of a list request as a plain object. */
export function queryOf(p: string): Record<string, string> {
    return Object.fromEntries(new URLSearchParams(p.split("?")[1] ?? ""));
}

/**
 * Registers, in the calling describe, the hooks of the ControlPlaneClient tests: before each test a fresh
 * harness and a client over it, handed to `bind` (the file keeps them in variables of its describe, to
 * which a test may assign a harness and a client of its own); after it, closes the MockAgent of the harness
 * `current` answers, the variable's. Answers `listing`, which intercepts on that harness too.
 */
export function useControlPlaneClient(bind: (made: { h: Harness; cp: ControlPlaneClient }) => void, current: () => Harness) {
    beforeEach(() => {
        const h = harness();
        bind({ h, cp: new ControlPlaneClient(h.http) });
    });
    afterEach(async () => {
        await current().agent.close();
    });

    /** Registers a persistent list interceptor answering pages from `all`; records the queries seen. */
    function listing(all: Deployment[]): Array<Record<string, string>> {
        const seen: Array<Record<string, string>> = [];
        const { pool } = current();
        pool.intercept({ path: (p) => p.split("?")[0] === "/v2/deployments", method: "GET" })
            .reply((opts) => {
                const q = queryOf(opts.path);
                seen.push(q);
                const offset = Number(q.offset ?? 0);
                const limit = Number(q.limit ?? 10);
                const filtered = q.name_contains ? all.filter((d) => d.name.includes(q.name_contains)) : all;
                return { statusCode: 200, data: { resources: filtered.slice(offset, offset + limit), offset }, responseOptions: JSON_REPLY };
            })
            .persist();
        return seen;
    }

    return { listing };
}
