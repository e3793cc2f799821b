/**
 * The workspace's platform tool registry (docs/service.md R18.1): `/v1/platform/tools` (list with `limit`, `offset`,
 * `query`; create) and one tool by handle (`/tools/{handle}`) or by id (`/tools/id/{id}`): read, PATCH, DELETE; per
 * workspace (`X-Tenant-Id`), kept in `--state-dir` (`platform-tools.json`). A handle is unique in its workspace (409)
 * and fixed; one the service would not take is 400. Refusals are `tools.ErrorResponse` (`{error}`).
 */
import { randomUUID } from "node:crypto";
import { TOOL_HANDLE_RE, ToolCreateRequestSchema, ToolUpdateRequestSchema, type ToolCreateRequest } from "../../provider/api/schemas/platform";
import type { Clock } from "../core/clock";
import { platformError } from "../core/errors";
import { z } from "zod";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store } from "../core/store";

interface ToolRecord extends Required<Omit<ToolCreateRequest, "returns" | "metadata">> {
    id: string;
    tenant_id: string;
    returns?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
    created_at: string;
    updated_at: string;
}

const BASE = "/api/v1/platform/tools";
const IntSchema = z.coerce.number().int();
const ok = (body: unknown) => ({ status: 200, body });

export class PlatformTools {
    private tools: ToolRecord[];
    private readonly store: Store<ToolRecord[]>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "platform-tools.json");
        this.tools = this.store.load() ?? [];
    }

    reset(): void {
        this.tools = [];
        this.store.save(this.tools);
    }

    /** The workspace's tools, in the order they were made. */
    of(tenantId: string): ToolRecord[] {
        return this.tools.filter((t) => t.tenant_id === tenantId);
    }

    private find(c: RequestContext): ToolRecord {
        const byId = c.params.id !== undefined;
        const t = this.of(c.tenantId).find((x) => (byId ? x.id === c.params.id : x.handle === c.params.handle));
        if (!t) throw platformError(404, `tool ${byId ? c.params.id : JSON.stringify(c.params.handle)} not found`);
        return t;
    }

    private list(c: RequestContext) {
        // The description bounds neither: a limit is taken into 1..100 (default 20), an offset below 0 as 0 (decided).
        const int = (name: string, dflt: number) => (c.query.has(name) ? parse(IntSchema, c.query.get(name), "query") : dflt);
        const limit = Math.min(100, Math.max(1, int("limit", 20)));
        const offset = Math.max(0, int("offset", 0));
        const q = c.query.get("query")?.toLowerCase();
        const all = this.of(c.tenantId).filter((t) => !q || t.handle.includes(q) || t.name.toLowerCase().includes(q));
        const tools = all.slice(offset, offset + limit);
        return { tools, total: all.length, ...(offset + limit < all.length ? { next_offset: offset + limit } : {}) };
    }

    private create(c: RequestContext): ToolRecord {
        const body = parse(ToolCreateRequestSchema, c.body, "body");
        if (!TOOL_HANDLE_RE.test(body.handle))
            throw platformError(400, `invalid handle ${JSON.stringify(body.handle)}: lower-case letters, digits, '-' and '_', 1 to 64 characters`);
        if (this.of(c.tenantId).some((t) => t.handle === body.handle))
            throw platformError(409, `tool with handle ${JSON.stringify(body.handle)} already exists`);
        const now = this.clock.iso();
        const t: ToolRecord = { ...body, enabled: body.enabled ?? true, id: randomUUID(), tenant_id: c.tenantId, created_at: now, updated_at: now };
        this.tools.push(t);
        this.store.save(this.tools);
        return t;
    }

    private update(c: RequestContext): ToolRecord {
        const t = this.find(c);
        const body = parse(ToolUpdateRequestSchema, c.body, "body");
        for (const [k, v] of Object.entries(body)) if (v !== undefined) (t as unknown as Record<string, unknown>)[k] = v;
        t.updated_at = this.clock.iso();
        this.store.save(this.tools);
        return t;
    }

    private remove(c: RequestContext) {
        const t = this.find(c);
        this.tools = this.tools.filter((x) => x !== t);
        this.store.save(this.tools);
        return { status: 204 };
    }

    register(router: Router): void {
        router.on("GET", BASE, (c) => ok(this.list(c))).on("POST", BASE, (c) => ({ status: 201, body: this.create(c) }));
        // By id first: `/tools/id/{id}` is no handle's path.
        for (const at of [`${BASE}/id/{id}`, `${BASE}/{handle}`])
            router
                .on("GET", at, (c) => ok(this.find(c)))
                .on("PATCH", at, (c) => ok(this.update(c)))
                .on("DELETE", at, (c) => this.remove(c));
    }
}
