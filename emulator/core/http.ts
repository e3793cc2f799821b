/**
 * The emulator's small HTTP toolkit: a router keyed by method and path pattern, JSON in and out (or a
 * stream of server-sent events), and the request context (tenant, query) that routes read. No business
 * rule lives here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { EmulatorError, fromZod, invalidField, requireUuidAt, routeNotFound } from "./errors";
import type { Principal } from "./principal";

export interface RequestContext {
    method: string;
    /** Path without the self-hosted `/api-host` prefix and without the query string. */
    path: string;
    params: Record<string, string>;
    query: URLSearchParams;
    headers: IncomingMessage["headers"];
    /** Parsed JSON body (undefined when empty). */
    body: unknown;
    /** Workspace id from `X-Tenant-Id`, set by the auth step. */
    tenantId: string;
    /** Which installation the request speaks to: `/api-host` is self-hosted, no prefix the cloud. */
    installation: "cloud" | "self-hosted";
    /** Who the request speaks for (the auth step; absent on `/__admin`). */
    principal?: Principal;
}

export interface Reply {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
    /** Server-sent events, sent as they come (`text/event-stream`) instead of `body`. */
    events?: AsyncIterable<{ event: string; data: unknown }>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route {
    method: string;
    pattern: RegExp;
    keys: string[];
    handler: Handler;
    /** Answers without an API key: /__admin routes, a share token's reads. */
    public: boolean;
    /** How the route words a refusal, its body's included (the v2 API's problem details); absent: as thrown. */
    refusal?: (e: unknown) => unknown;
}

export class Router {
    private routes: Route[] = [];

    /** Registers `METHOD /path/{param}`. */
    on(method: string, template: string, handler: Handler, o: { public?: boolean; refusal?: (e: unknown) => unknown } = {}): this {
        const keys: string[] = [];
        const pattern = new RegExp(
            "^" +
                template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, k: string) => {
                    keys.push(k);
                    return "([^/]+)";
                }) +
                "/?$",
        );
        this.routes.push({ method, pattern, keys, handler, public: o.public ?? false, refusal: o.refusal });
        return this;
    }

    /**
     * Registers a route of the tracing API (sessions, runs, datasets, server info) under `/api/v1` and under
     * no prefix, as the service answers both: the official clients append their paths to whatever `api_url`
     * holds, and the cloud's default URL has no prefix.
     */
    onApi(method: string, template: string, handler: Handler): this {
        return this.on(method, `/api/v1${template}`, handler).on(method, template, handler);
    }

    /** Whether the path is a route that answers without a key (a share token's reads). */
    isPublic(method: string, path: string): boolean {
        return this.routes.some((r) => r.public && r.method === method && r.pattern.test(path));
    }

    match(method: string, path: string): { route: Route; params: Record<string, string> } {
        let pathMatched = false;
        for (const route of this.routes) {
            const m = route.pattern.exec(path);
            if (!m) continue;
            pathMatched = true;
            if (route.method !== method) continue;
            const params: Record<string, string> = {};
            for (const [i, k] of route.keys.entries()) params[k] = decodeURIComponent(m[i + 1]);
            return { route, params };
        }
        if (pathMatched) throw new EmulatorError(405, { detail: "Method Not Allowed" });
        throw routeNotFound();
    }
}

export function send(res: ServerResponse, r: Reply): void {
    if (res.headersSent || res.destroyed) return;
    const headers = { ...r.headers };
    if (r.events) {
        void sendEvents(res, r.status, headers, r.events);
        return;
    }
    if (r.body === undefined || r.status === 204) {
        res.writeHead(r.status, headers).end();
        return;
    }
    const text = JSON.stringify(r.body);
    res.writeHead(r.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers }).end(text);
}

/** Writes each event as it comes (`event:` and `data:` lines); stops reading them when the client goes away. */
async function sendEvents(
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    events: AsyncIterable<{ event: string; data: unknown }>,
): Promise<void> {
    res.writeHead(status, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive", ...headers });
    const it = events[Symbol.asyncIterator]();
    res.once("close", () => void it.return?.());
    try {
        for (let next = await it.next(); !next.done && !res.destroyed; next = await it.next()) {
            res.write(`event: ${next.value.event}\ndata: ${JSON.stringify(next.value.data)}\n\n`);
        }
    } catch (e) {
        console.error("[emulator] event stream failed:", e);
    } finally {
        res.end();
    }
}

/** Parses with a shared wire schema; failures become 422 HTTPValidationError located under `where`. */
export function parse<T>(schema: z.ZodType<T>, value: unknown, where: "body" | "query"): T {
    const r = schema.safeParse(value);
    if (!r.success) throw fromZod(r.error, where);
    return r.data;
}

/**
 * A list sliced by `limit`/`offset`. With `o.defaultLimit` the list is paged as the service pages it even when
 * the client sends neither (its description's default); without, only when the client sends them (20 by default).
 */
export function page<T>(c: RequestContext, items: T[], o: { defaultLimit?: number; maxLimit?: number } = {}): T[] {
    if (o.defaultLimit === undefined && !c.query.has("limit") && !c.query.has("offset")) return items;
    const { limit, offset } = pagination(c.query, o.defaultLimit, o.maxLimit);
    return items.slice(offset, offset + limit);
}

/** `limit` / `offset` as the service validates them (limit 1..`max`, default `dflt`: 20 and 100 unless said; offset >= 0). */
export function pagination(q: URLSearchParams, dflt = 20, max = 100): { limit: number; offset: number } {
    const limit = intParam(q, "limit", dflt, 1, max);
    const offset = intParam(q, "offset", 0, 0, Infinity);
    return { limit, offset };
}

/** A boolean query parameter (`true`/`false`, as the service's framework reads them), `dflt` when absent; 422 otherwise. */
export function boolParam(c: RequestContext, name: string, dflt?: boolean): boolean | undefined {
    const v = c.query.get(name);
    if (v === null) return dflt;
    if (/^(true|1)$/i.test(v)) return true;
    if (/^(false|0)$/i.test(v)) return false;
    throw invalidField(["query", name], "Input should be a valid boolean, unable to interpret input", "bool_parsing");
}

/** A repeated uuid query parameter (`?ids=a&ids=b`), each checked, lower case. */
export const uuidParams = (c: RequestContext, name: string) => c.query.getAll(name).map((v) => requireUuidAt(v, ["query", name]));

/** An integer query parameter, with the validation error the service's framework gives. */
function intParam(q: URLSearchParams, name: string, dflt: number, min: number, max: number): number {
    if (!q.has(name)) return dflt;
    const v = Number(q.get(name));
    const fail = (msg: string, type: string) => new EmulatorError(422, { detail: [{ loc: ["query", name], msg, type }] });
    if (!Number.isInteger(v)) throw fail("Input should be a valid integer, unable to parse string as an integer", "int_parsing");
    if (v < min) throw fail(`Input should be greater than or equal to ${min}`, "greater_than_equal");
    if (v > max) throw fail(`Input should be less than or equal to ${max}`, "less_than_equal");
    return v;
}
