/**
 * The one HTTP policy shared by every API of the service (control plane now; bulk export and agent
 * server beside it later): base URL, auth headers, per-request timeout, connection reuse, retries, error
 * mapping, response parsing with the shared zod schemas.
 *
 * Retries, with jittered exponential backoff; a `Retry-After` sets the least wait and jitter is added on
 * top of it, so clients told "1 s" together do not come back together:
 * - 429 (rate limited: not processed), any method, and 503 for idempotent methods: until the request's
 *   deadline (the operation's timeout, given by the caller), not a count, so a long burst of rate limiting
 *   does not fail an `up`; except a 429 the caller marks as a quota (`quota429`: a limit that frees only
 *   when the user acts, such as the cloud's 200 scheduled exports), thrown at once;
 * - idempotent methods (GET, DELETE): also 500, 502, 504 and connection errors, up to `maxRetries`;
 * - methods that create something (POST, PATCH): only when the request provably never reached the server
 *   (connection refused, DNS, connect timeout). Any other failure (a 5xx, 503 included: the service may
 *   have done the work before failing; a timeout; a reset; a cut-off body) is ambiguous and is thrown,
 *   marked as such, for the caller to reconcile by reading (see controlPlane.ts): nothing that creates is
 *   ever sent twice blindly.
 * - a host that does not resolve (ENOTFOUND: the DNS answered that the name does not exist) is retried once,
 *   and a refused connection (ECONNREFUSED: nothing listens on that port) twice, whatever `maxRetries`:
 *   neither changes in seconds (a typo, a wrong port, an emulator not started), and retrying them for
 *   `maxRetries` took 13 s to report a typo. One retry covers a resolver asked before its network was up,
 *   two a service or port-forward restarting. Both prove the request never reached the server, so fewer
 *   sends only ever make a create safer. A DNS failure said to be temporary (EAI_AGAIN) and a connect
 *   timeout keep `maxRetries`.
 * No retry ever sleeps past the deadline: the last error is thrown instead.
 *
 * An error of a request that got no answer, and a 401 or 403, names the address the request went to and,
 * given `sources`, which setting chose that address, the API key and the workspace id: a newcomer whose
 * emulator URL covers the control plane only learns that bulk export went to the cloud, and from where.
 */
import { Agent, request, type Dispatcher } from "undici";
import type { z } from "zod";
import { ApiError, ConnectionError, UnexpectedResponseError, redact } from "./errors";

export interface HttpClientOptions {
    /** Base URL, without a trailing slash, e.g. `https://api.host.langchain.com` or `http://127.0.0.1:8080/api-host`. */
    baseUrl: string;
    apiKey: string;
    /** Workspace id, sent as `X-Tenant-Id`. */
    tenantId?: string;
    /** Name of the API-key header; the control plane documents `X-Api-Key`, bulk export `X-API-Key` (same header). */
    apiKeyHeader?: string;
    /** Per-request timeout (headers and body), default 30 s. */
    timeoutMs?: number;
    /** Retries after the first attempt for 5xx answers and connection errors of idempotent requests, default 5. */
    maxRetries?: number;
    /** Time allowed to a request and its retries when the caller gives no deadline, default 10 minutes. */
    retryBudgetMs?: number;
    /** First backoff step, default 500 ms; doubles each retry, jittered, up to `retryMaxMs`. */
    retryBaseMs?: number;
    retryMaxMs?: number;
    /**
     * How long a create whose answer was lost (the service may still be working on it) is looked for
     * before it is sent again (reconcile.ts `createOnce`), default 30 s.
     */
    settleMs?: number;
    /**
     * Where the base URL, the API key and the workspace id came from, in words (config.ts `sources`:
     * `stack config langsmith:apiKey`): named in the error of a request that got no answer and of a 401 or
     * 403. Never a secret's value.
     */
    sources?: ClientSources;
    /** For tests: an undici MockAgent or other dispatcher. Default: a shared keep-alive Agent. */
    dispatcher?: Dispatcher;
    /** For tests and benchmarks: replaces `setTimeout` based sleeping. */
    sleep?: (ms: number) => Promise<void>;
    userAgent?: string;
}

/** Where a client's settings came from, in words an error carries (see `HttpClientOptions.sources`). */
export interface ClientSources {
    baseUrl?: string;
    apiKey?: string;
    tenantId?: string;
}

/** Query parameters; a list is the parameter repeated (`?id=a&id=b`). */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface RequestOptions<T> {
    query?: Query;
    body?: unknown;
    /** Schema of a successful response body; omit for no body (204). */
    schema?: z.ZodType<T>;
    /** Success statuses, default [200]. */
    expect?: number[];
    /** Values to scrub from any error message (secret values sent in this request's body). */
    secrets?: readonly string[];
    /** Epoch ms after which no retry is made (the operation's timeout); default now + retryBudgetMs. */
    deadline?: number;
    /** A 429 whose body matches is a quota, not a rate: waiting does not free it, so it is thrown at once. */
    quota429?: RegExp;
    /**
     * The workspace this request speaks to (`X-Tenant-Id`), instead of the client's: an operation on a workspace
     * names that workspace (renaming or deleting one, docs/service.md R7).
     */
    tenantId?: string;
    /** A POST that is safe to send again (an upsert): retried as a PUT is, never left ambiguous. */
    idempotent?: boolean;
    /** Headers of this request alone (a personal access token's service account: docs/service.md R21.2). */
    headers?: Record<string, string>;
}

/** Counts requests by `METHOD route`, for benchmarks and tests. */
export class RequestStats {
    total = 0;
    readonly byRoute = new Map<string, number>();
    record(method: string, path: string): void {
        this.total++;
        // Collapse uuids so that routes aggregate.
        const route = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27,}/gi, "{id}")}`;
        this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1);
    }
}

const IDEMPOTENT = new Set(["GET", "HEAD", "DELETE", "PUT"]);
/** Retried until the deadline: 429 for every method (not processed), 503 for idempotent ones. */
const RETRY_UNTIL_DEADLINE = (status: number, idempotent: boolean) => status === 429 || (idempotent && status === 503);
/** Retried up to maxRetries, idempotent methods only. */
const RETRY_COUNTED = new Set([500, 502, 504]);
/** Connection errors that prove the request never reached the server, so even a POST may be sent again. */
const NOT_REACHED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);
/** Connection errors retried at most this many times, whatever `maxRetries` (see the file's comment). */
const RETRIES_AT_MOST: Readonly<Record<string, number>> = { ENOTFOUND: 1, ECONNREFUSED: 2 };

let sharedAgent: Agent | undefined;
function defaultDispatcher(): Agent {
    // One keep-alive pool per process: connections are reused across clients and resources.
    sharedAgent ??= new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    return sharedAgent;
}

/** Encodes each path segment: `path\`/v2/deployments/${id}\``. */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
    return strings.reduce((acc, s, i) => acc + s + (i < values.length ? encodeURIComponent(String(values[i])) : ""), "");
}

export class HttpClient {
    readonly stats = new RequestStats();
    /**
     * Server clock minus local clock (ms), from the `Date` header of the latest answer (1 s resolution);
     * undefined before any answer carried one. Lets callers compare the server's timestamps with local time.
     */
    clockSkewMs: number | undefined;
    private readonly opts: Required<Omit<HttpClientOptions, "tenantId" | "dispatcher" | "userAgent" | "sources">> &
        Pick<HttpClientOptions, "tenantId" | "dispatcher" | "userAgent" | "sources">;

    constructor(opts: HttpClientOptions) {
        if (!opts.apiKey) throw new Error("an API key is required");
        this.opts = {
            apiKeyHeader: "X-Api-Key",
            timeoutMs: 30_000,
            maxRetries: 5,
            retryBudgetMs: 10 * 60_000,
            retryBaseMs: 500,
            retryMaxMs: 30_000,
            settleMs: 30_000,
            sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
            ...opts,
            baseUrl: opts.baseUrl.replace(/\/+$/, ""),
        };
    }

    get baseUrl(): string {
        return this.opts.baseUrl;
    }

    /** How creates after a lost answer are reconciled (see `settleMs`), within `deadline`. */
    reconcileOptions(deadline?: number): { settleMs: number; sleep: (ms: number) => Promise<void>; deadline?: number } {
        return { settleMs: this.opts.settleMs, sleep: this.opts.sleep, deadline };
    }

    /** The headers of every request (the API key under this API's header, the workspace) and the JSON body, if any. */
    private message(json: unknown, tenantId = this.opts.tenantId, extra: Record<string, string> = {}): { headers: Record<string, string>; body?: string } {
        const headers: Record<string, string> = {
            ...extra,
            [this.opts.apiKeyHeader]: this.opts.apiKey,
            accept: "application/json",
            "user-agent": this.opts.userAgent ?? "pulumi-langsmith",
        };
        if (tenantId) headers["X-Tenant-Id"] = tenantId;
        if (json === undefined) return { headers };
        return { headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(json) };
    }

    /** Sends one logical request (with retries per the policy above) and parses the answer. */
    async request<T = undefined>(method: string, p: string, ro: RequestOptions<T> = {}): Promise<{ status: number; data: T }> {
        const expect = ro.expect ?? [200];
        const secrets = [this.opts.apiKey, ...(ro.secrets ?? [])];
        const url = this.opts.baseUrl + p + queryString(ro.query);
        const idempotent = ro.idempotent ?? IDEMPOTENT.has(method);
        const { headers, body } = this.message(ro.body, ro.tenantId, ro.headers);
        const deadline = ro.deadline ?? Date.now() + this.opts.retryBudgetMs;
        /** Sleeps before the next attempt, or answers false when that would pass the deadline. */
        const waitFor = async (ms: number) => {
            if (Date.now() + ms > deadline) return false;
            await this.opts.sleep(ms);
            return true;
        };
        for (let attempt = 0; ; attempt++) {
            this.stats.record(method, p);
            let res: Dispatcher.ResponseData;
            let text: string;
            try {
                res = await request(url, {
                    method: method as Dispatcher.HttpMethod,
                    headers,
                    body,
                    dispatcher: this.opts.dispatcher ?? defaultDispatcher(),
                    headersTimeout: this.opts.timeoutMs,
                    bodyTimeout: this.opts.timeoutMs,
                });
                // Read inside the try: a body cut off after the status line (a 201 whose connection drops)
                // is a connection failure, and for a POST an ambiguous one, not an empty answer.
                text = await res.body.text();
            } catch (e) {
                const code = (e as { code?: string }).code ?? "";
                const reached = !NOT_REACHED.has(code);
                const err = new ConnectionError(method, p, e, reached, redact(this.sentTo(), secrets));
                const retries = Math.min(this.opts.maxRetries, RETRIES_AT_MOST[code] ?? Infinity);
                if (attempt < retries && (idempotent || !reached) && (await waitFor(this.backoff(attempt)))) continue;
                throw err;
            }
            this.noteServerClock(header(res.headers, "date"));

            if (expect.includes(res.statusCode)) return this.parse(method, p, res.statusCode, text, ro.schema);

            const untilDeadline = RETRY_UNTIL_DEADLINE(res.statusCode, idempotent) && !(res.statusCode === 429 && ro.quota429?.test(text));
            const counted = idempotent && RETRY_COUNTED.has(res.statusCode) && attempt < this.opts.maxRetries;
            if ((untilDeadline || counted) && (await waitFor(this.backoff(attempt, header(res.headers, "retry-after"))))) continue;
            const refused = res.statusCode === 401 || res.statusCode === 403;
            throw ApiError.from(
                res.statusCode,
                method,
                p,
                text,
                header(res.headers, "x-request-id"),
                secrets,
                refused ? this.sentWith(res.statusCode) : undefined,
            );
        }
    }

    /**
     * Where requests go, for an error: the base URL without credentials or query (`https://api.smith.langchain.com`),
     * and the setting that chose it when known.
     */
    private sentTo(): string {
        const u = URL.canParse(this.opts.baseUrl) ? new URL(this.opts.baseUrl) : undefined;
        const shown = u ? `${u.origin}${u.pathname.replace(/\/+$/, "")}` : this.opts.baseUrl;
        const from = this.opts.sources?.baseUrl;
        return from ? `${shown} (${from})` : shown;
    }

    /**
     * `sentTo()` and where the credentials came from, for a 401 or 403: which key and workspace the service
     * refused; for a 401 (the key itself: wrong, revoked, expired), also the way out.
     */
    private sentWith(status: number): string {
        const s = this.opts.sources;
        const key = s?.apiKey ? `, with the API key of ${s.apiKey}` : "";
        const tenant = this.opts.tenantId ? (s?.tenantId ? ` and the workspace id of ${s.tenantId}` : " and a workspace id") : " and no workspace id";
        const fix =
            status === 401 && s?.apiKey
                ? `. Set the right key there (LangSmith: Settings -> API Keys) and run \`pulumi up\` again: nothing was changed, and \`pulumi refresh\` reads with the same key`
                : "";
        return `${this.sentTo()}${key}${key ? tenant : ""}${fix}`;
    }

    /** Parses a successful answer with the wire schema (none: no body expected). */
    private parse<T>(method: string, p: string, status: number, text: string, schema: z.ZodType<T> | undefined): { status: number; data: T } {
        if (!schema) return { status, data: undefined as T };
        let json: unknown;
        try {
            json = text === "" ? undefined : JSON.parse(text);
        } catch {
            throw new UnexpectedResponseError(method, p, status, "body is not JSON");
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) {
            const first = parsed.error.issues[0];
            throw new UnexpectedResponseError(
                method,
                p,
                status,
                `${first?.path.join(".") || "(body)"}: ${first?.message ?? "does not match the expected shape"}`,
            );
        }
        return { status, data: parsed.data };
    }

    private noteServerClock(date: string | undefined): void {
        const server = date ? Date.parse(date) : NaN;
        if (Number.isFinite(server)) this.clockSkewMs = server - Date.now();
    }

    /**
     * Exponential backoff with jitter (half fixed, half random). A `Retry-After` (seconds or HTTP date) is
     * the least wait, capped at `retryMaxMs`, and up to half of it again is added at random, so that many
     * clients told the same moment spread out instead of returning in lock-step.
     */
    private backoff(attempt: number, retryAfter?: string): number {
        if (retryAfter) {
            const secs = Number(retryAfter);
            const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(retryAfter) - Date.now();
            if (Number.isFinite(ms) && ms >= 0) {
                const least = Math.min(ms, this.opts.retryMaxMs);
                return Math.round(least + Math.random() * Math.max(least / 2, this.opts.retryBaseMs));
            }
        }
        const ceiling = Math.min(this.opts.retryMaxMs, this.opts.retryBaseMs * 2 ** attempt);
        return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    }
}

function header(h: Dispatcher.ResponseData["headers"], name: string): string | undefined {
    const v = h[name];
    return Array.isArray(v) ? v[0] : v;
}

function queryString(q: Query | undefined): string {
    if (!q) return "";
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) {
        if (Array.isArray(v)) for (const x of v) params.append(k, x);
        else if (v !== undefined) params.set(k, String(v));
    }
    const s = params.toString();
    return s ? `?${s}` : "";
}
