/**
 * The workspace's Fleet MCP servers (docs/service.md R18.2): `/v1/platform/fleet/mcp-servers[/{id}]` (list, create,
 * read, PATCH, DELETE) and `.../{id}/oauth-provider` (a user's own OAuth client of a `per_user_dynamic_client`
 * server), per workspace, kept in `--state-dir` (`mcp-servers.json`, header values sealed: store.ts). A name is
 * unique in its workspace (409); a URL that is not https (http only for localhost), headers on an OAuth server, an
 * OAuth server without its mode, or a shared-provider one without its provider, are 400. The answers name each
 * header without its value (decided); `can_invoke` says whether the list's `X-Ls-User-Id` user may call the server.
 * Refusals are `mcp_servers.McpServerAPIError` (`{error, detail}`).
 */
import { randomUUID } from "node:crypto";
import {
    McpServerCreateRequestSchema,
    McpServerUpdateRequestSchema,
    RegisterOAuthProviderRequestSchema,
    type McpServerCreateRequest,
} from "../../provider/api/schemas/platform";
import type { Clock } from "../core/clock";
import { platformError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store, type Sealed } from "../core/store";

interface ServerRecord extends Omit<McpServerCreateRequest, "headers"> {
    id: string;
    tenant_id: string;
    auth_type: "headers" | "oauth";
    /** The headers, sealed (name and value). */
    headers: Sealed;
    /** The users who registered their own OAuth client (`per_user_dynamic_client`), to its id. */
    users: Record<string, string>;
    created_at: string;
    updated_at: string;
}

const BASE = "/api/v1/platform/fleet/mcp-servers";
const ok = (body: unknown) => ({ status: 200, body });
const LOCAL = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/;

export class McpServers {
    private servers: ServerRecord[];
    private readonly store: Store<ServerRecord[]>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "mcp-servers.json");
        this.servers = this.store.load() ?? [];
    }

    reset(): void {
        this.servers = [];
        this.store.save(this.servers);
    }

    private get(c: RequestContext): ServerRecord {
        const s = this.servers.find((x) => x.tenant_id === c.tenantId && x.id === c.params.id);
        if (!s) throw platformError(404, `MCP server ${c.params.id} not found`);
        return s;
    }

    private headersOf(s: ServerRecord): Array<{ name: string; value: string }> {
        return this.store.open(s.headers);
    }

    /** As the description's `McpServer` answers it: each header by name, never its value (decided). */
    private view(s: ServerRecord, user?: string) {
        const { headers: _h, users, ...rest } = s;
        const canInvoke =
            s.auth_type === "headers" || (s.oauth_mode === "per_user_dynamic_client" ? user !== undefined && users[user] !== undefined : !!s.oauth_provider_id);
        return { ...rest, headers: this.headersOf(s).map((h) => ({ name: h.name })), can_invoke: canInvoke };
    }

    /** The server's fields hold together (create and PATCH alike). */
    private valid(s: Omit<ServerRecord, "headers">, headers: Array<{ name: string }>): void {
        let url: URL | undefined;
        try {
            url = new URL(s.url);
        } catch {}
        if (!url || !(url.protocol === "https:" || LOCAL.test(s.url)))
            throw platformError(400, `invalid url: an https URL is required (http only for localhost)`);
        if (s.auth_type === "oauth" && headers.length) throw platformError(400, "headers apply only to auth_type headers");
        if (s.auth_type === "oauth" && !s.oauth_mode) throw platformError(400, "oauth_mode is required with auth_type oauth");
        if (s.auth_type === "oauth" && s.oauth_mode === "legacy_shared_provider" && !s.oauth_provider_id)
            throw platformError(400, "oauth_provider_id is required with oauth_mode legacy_shared_provider");
        if (new Set(headers.map((h) => h.name.toLowerCase())).size !== headers.length) throw platformError(400, "headers name one header twice");
    }

    private create(c: RequestContext) {
        const { headers = [], ...body } = parse(McpServerCreateRequestSchema, c.body, "body");
        if (this.servers.some((s) => s.tenant_id === c.tenantId && s.name === body.name))
            throw platformError(409, `MCP server named ${JSON.stringify(body.name)} already exists`);
        const now = this.clock.iso();
        const record = {
            ...body,
            auth_type: body.auth_type ?? "headers",
            id: randomUUID(),
            tenant_id: c.tenantId,
            users: {},
            created_at: now,
            updated_at: now,
        };
        this.valid(record, headers);
        const s: ServerRecord = { ...record, headers: this.store.seal(headers) };
        this.servers.push(s);
        this.store.save(this.servers);
        return { status: 201, body: this.view(s) };
    }

    private update(c: RequestContext) {
        const s = this.get(c);
        const { headers, ...body } = parse(McpServerUpdateRequestSchema, c.body, "body");
        const next = { ...s, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) };
        const nextHeaders = headers ?? this.headersOf(s);
        this.valid(next, nextHeaders);
        Object.assign(s, next, { headers: this.store.seal(nextHeaders), updated_at: this.clock.iso() });
        this.store.save(this.servers);
        return ok(this.view(s));
    }

    /** A user's own OAuth client of a `per_user_dynamic_client` server: made (or made again: a new id) for `ls_user_id`. */
    private registerUser(c: RequestContext) {
        const s = this.get(c);
        const { ls_user_id } = parse(RegisterOAuthProviderRequestSchema, c.body ?? {}, "body");
        if (s.auth_type !== "oauth" || s.oauth_mode !== "per_user_dynamic_client")
            throw platformError(400, "per-user OAuth providers apply only to servers with oauth_mode per_user_dynamic_client");
        s.users[ls_user_id] = randomUUID();
        this.store.save(this.servers);
        return ok({ oauth_provider_id: s.users[ls_user_id] });
    }

    register(router: Router): void {
        router
            .on("GET", BASE, (c) => {
                const user = c.headers["x-ls-user-id"];
                const u = Array.isArray(user) ? user[0] : user;
                return ok(this.servers.filter((s) => s.tenant_id === c.tenantId).map((s) => this.view(s, u)));
            })
            .on("POST", BASE, (c) => this.create(c))
            .on("GET", `${BASE}/{id}`, (c) => ok(this.view(this.get(c))))
            .on("PATCH", `${BASE}/{id}`, (c) => this.update(c))
            .on("DELETE", `${BASE}/{id}`, (c) => {
                const s = this.get(c);
                this.servers = this.servers.filter((x) => x !== s);
                this.store.save(this.servers);
                return { status: 204 };
            })
            .on("POST", `${BASE}/{id}/oauth-provider`, (c) => this.registerUser(c));
    }
}
