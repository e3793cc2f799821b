/**
 * The exchange log: every request the emulator answers, with its answer, one JSON line each, for a reader that
 * judges them against the service's own OpenAPI descriptions (the test suite's contract check,
 * tests/contract/check.ts). Asked for by `exchangeLog` (a directory) or, when that option is absent, the
 * environment variable `LANGSMITH_EMULATOR_EXCHANGE_LOG`, so that every emulator a test run starts, in its own
 * process or in a test's, writes there. Each server writes its own file, `exchanges-<pid>-<port>.jsonl`,
 * appended synchronously line by line: an emulator killed by a test loses nothing it answered.
 *
 * What a line keeps of the headers: whether an API key, a bearer token or a service key came (never their
 * values), the workspace and organization ids, the user agent and the content type. Bodies are kept as parsed
 * (a multipart body as the names of its parts); a streamed answer (server-sent events) keeps none. An answer
 * made by an injected fault is marked, since the service never gave it.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { Multipart } from "./body";
import type { Reply } from "./http";

/** One request and its answer, as logged. */
export interface Exchange {
    method: string;
    /** The path without the self-hosted prefix and the query. */
    path: string;
    /** `/api-host` for the self-hosted prefix, else "". */
    prefix: string;
    /** Query parameters, each name with all its values. */
    query: Record<string, string[]>;
    headers: ExchangeHeaders;
    /** The parsed request body; `{multipart: [part names]}` for a multipart one; absent when there was none or it was never read. */
    body?: unknown;
    /** 0 when the connection was dropped without an answer. */
    status: number;
    response?: unknown;
    /** The answer was server-sent events. */
    streamed?: boolean;
    /** The answer came from an injected fault (/__admin/faults), not from the emulated service. */
    injected?: boolean;
}

export interface ExchangeHeaders {
    apiKey: boolean;
    bearer: boolean;
    serviceKey: boolean;
    tenantId?: string;
    organizationId?: string;
    userAgent?: string;
    contentType?: string;
}

/** The environment variable naming the directory when `exchangeLog` is not given. */
export const EXCHANGE_LOG_ENV = "LANGSMITH_EMULATOR_EXCHANGE_LOG";

export class ExchangeLog {
    private file?: string;

    /** `dir`: where the file goes; absent, nothing is written. */
    constructor(private readonly dir: string | undefined) {}

    get enabled(): boolean {
        return Boolean(this.dir);
    }

    /** Names the file after the port the server got (known only once it listens). */
    open(port: number): void {
        if (!this.dir) return;
        mkdirSync(this.dir, { recursive: true });
        this.file = join(this.dir, `exchanges-${process.pid}-${port}.jsonl`);
    }

    record(req: IncomingMessage, url: URL, path: string, prefix: string, body: unknown, reply: Reply, o: { dropped: boolean; injected: boolean }): void {
        if (!this.file) return;
        const exchange: Exchange = {
            method: req.method ?? "GET",
            path,
            prefix,
            query: queryOf(url),
            headers: headersOf(req),
            body: body instanceof Multipart ? { multipart: body.parts.map((p) => p.name) } : body,
            status: o.dropped ? 0 : reply.status,
            response: reply.events ? undefined : reply.body,
            ...(reply.events ? { streamed: true } : {}),
            ...(o.injected ? { injected: true } : {}),
        };
        appendFileSync(this.file, `${JSON.stringify(exchange)}\n`);
    }
}

function queryOf(url: URL): Record<string, string[]> {
    const q: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) (q[k] ??= []).push(v);
    return q;
}

function headersOf(req: IncomingMessage): ExchangeHeaders {
    const one = (name: string) => {
        const v = req.headers[name];
        return (Array.isArray(v) ? v[0] : v) || undefined;
    };
    return {
        apiKey: Boolean(one("x-api-key")),
        bearer: /^bearer\s+\S/i.test(one("authorization") ?? ""),
        serviceKey: Boolean(one("x-service-key")),
        tenantId: one("x-tenant-id"),
        organizationId: one("x-organization-id"),
        userAgent: one("user-agent"),
        contentType: one("content-type"),
    };
}
