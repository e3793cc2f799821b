/**
 * The assistants of each agent server, with their versions, as the LangGraph server keeps them
 * (langgraph-api's `api/assistants.py` and the in-memory runtime's `Assistants`): a table of assistants, each
 * answering its current version, and every version kept.
 *
 *   - System assistants: one per served graph, registered when the server starts (here: when a deployment's
 *     active revision or the served graphs change, at its next request), `assistant_id` uuid5 of the graph name
 *     in the server's namespace (so the same id on every deployment), name the graph's, `metadata:
 *     {created_by: "system"}`, version 1. They are stored like any other: PATCH and DELETE apply to them; a
 *     deleted one comes back at the next registration, as on a server restart.
 *   - Create: `graph_id` must be served (404 "Graph 'x' not found. Expected one of: [...]"), a taken
 *     `assistant_id` answers 409 with `if_exists: raise` (the default) and the existing assistant with
 *     `do_nothing`; `name` defaults to "Untitled".
 *   - `config.configurable` and `context` mirror each other (one given fills the other; both: 400).
 *   - PATCH makes version max+1 and makes it current: `config` replaced when non-empty, `context`,
 *     `graph_id`, `name`, `description` replaced when given, `metadata` merged key by key.
 *   - `POST /latest` makes a kept version current. The material disagrees on what it restores (the in-memory
 *     server leaves `context` and `graph_id`, the JS server `description` too): here the whole version.
 *   - Reads answer only assistants of served graphs (the deployed server's graph scope): GET 404s another.
 */
import { randomUUID } from "node:crypto";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import type { Clock } from "../core/clock";
import { EmulatorError, badRequest, conflict } from "../core/errors";
import type { Config } from "./validation";
import { invalid } from "./validation";

interface Fields {
    graph_id: string;
    config: Config;
    context: Record<string, unknown>;
    metadata: Record<string, unknown>;
    name: string;
    description: string | null;
}
interface StoredVersion extends Fields {
    version: number;
    created_at: number;
}
export interface StoredAssistant extends Fields {
    deployment_id: string;
    assistant_id: string;
    version: number;
    created_at: number;
    updated_at: number;
    versions: StoredVersion[];
}

export interface AssistantCreate {
    assistant_id?: string | null;
    graph_id: string;
    config?: Config | null;
    context?: Record<string, unknown> | null;
    metadata?: Record<string, unknown> | null;
    if_exists?: "raise" | "do_nothing" | null;
    name?: string | null;
    description?: string | null;
}
export type AssistantPatch = Partial<Omit<AssistantCreate, "assistant_id" | "if_exists" | "graph_id">> & { graph_id?: string | null };

export interface AssistantQuery {
    graph_id?: string | null;
    name?: string | null;
    metadata?: Record<string, unknown> | null;
    limit?: number;
    offset?: number;
    sort_by?: "assistant_id" | "graph_id" | "name" | "created_at" | "updated_at" | null;
    sort_order?: "asc" | "desc" | null;
    select?: string[] | null;
}

/** What a state directory keeps of assistants: every record with its versions, and what each server registered. */
export interface AssistantsSnapshot {
    assistants: StoredAssistant[];
    /** Per deployment: the revision and graphs its system assistants were last registered for. */
    registered: Record<string, string>;
}

export class Assistants {
    private readonly byKey = new Map<string, StoredAssistant>();
    private registered: Record<string, string> = {};

    constructor(
        private readonly clock: Clock,
        /** The graph names every server serves now. */
        private readonly graphs: () => string[],
    ) {}

    load(s: Partial<AssistantsSnapshot> | undefined): void {
        this.byKey.clear();
        for (const a of s?.assistants ?? []) this.byKey.set(key(a.deployment_id, a.assistant_id), a);
        this.registered = { ...(s?.registered ?? {}) };
    }

    snapshot(): AssistantsSnapshot {
        return { assistants: [...this.byKey.values()], registered: this.registered };
    }

    /**
     * Registers the system assistant of every served graph that has none, when the server has not registered
     * for this revision and these graphs yet (as the server does at start, `if_exists: do_nothing`). Answers
     * whether anything changed.
     */
    register(deploymentId: string, revisionKey: string, createdAt: number): boolean {
        const registration = `${revisionKey}|${this.graphs().join(",")}`;
        if (this.registered[deploymentId] === registration) return false;
        this.registered[deploymentId] = registration;
        for (const graph of this.graphs()) {
            const id = systemAssistantId(graph);
            if (this.byKey.has(key(deploymentId, id))) continue;
            const fields: Fields = { graph_id: graph, config: {}, context: {}, metadata: { created_by: "system" }, name: graph, description: null };
            this.insert(deploymentId, id, fields, createdAt);
        }
        return true;
    }

    /** POST /assistants. */
    create(deploymentId: string, body: AssistantCreate): object {
        const id = body.assistant_id ?? randomUUID();
        this.requireGraph(body.graph_id);
        const { config, context } = mirrored(body.config ?? {}, body.context ?? undefined);
        const existing = this.byKey.get(key(deploymentId, id));
        if (existing && (body.if_exists ?? "raise") === "raise") throw conflict(`Assistant ${id} already exists`);
        if (existing) return assistantView(existing);
        const fields: Fields = {
            graph_id: body.graph_id,
            config,
            context: context ?? {},
            metadata: body.metadata ?? {},
            name: body.name || "Untitled",
            description: body.description ?? null,
        };
        return assistantView(this.insert(deploymentId, id, fields, this.clock.now()));
    }

    /** GET /assistants/{id}: 404 for an unknown one and for one of a graph no longer served. */
    get(deploymentId: string, id: string): object {
        const a = this.byKey.get(key(deploymentId, id));
        if (!a) throw new EmulatorError(404, { detail: "Not Found" });
        if (!this.graphs().includes(a.graph_id)) throw new EmulatorError(404, { detail: `assistant ${id} not found` });
        return assistantView(a);
    }

    /** PATCH /assistants/{id}: a new version, made current. */
    patch(deploymentId: string, id: string, body: AssistantPatch): object {
        const { config, context } = mirrored(body.config ?? {}, body.context ?? undefined);
        if (body.graph_id != null) this.requireGraph(body.graph_id);
        const a = this.stored(deploymentId, id, `Assistant ${id} not found`);
        const now = this.clock.now();
        const fields: Fields = {
            graph_id: body.graph_id ?? a.graph_id,
            config: Object.keys(config).length ? config : a.config,
            context: context ?? a.context,
            metadata: { ...a.metadata, ...(body.metadata ?? {}) },
            name: body.name ?? a.name,
            description: body.description ?? a.description,
        };
        const version = Math.max(...a.versions.map((v) => v.version)) + 1;
        a.versions.push(structuredClone({ ...fields, version, created_at: now }));
        Object.assign(a, structuredClone(fields), { version, updated_at: now });
        return assistantView(a);
    }

    /** DELETE /assistants/{id}: the assistant and its versions; answers it for the caller's cascade. */
    delete(deploymentId: string, id: string): StoredAssistant {
        const a = this.stored(deploymentId, id, `Assistant with ID ${id} not found`);
        this.byKey.delete(key(deploymentId, id));
        return a;
    }

    /** POST /assistants/{id}/latest: a kept version made current. */
    setLatest(deploymentId: string, id: string, version: number | undefined): object {
        const a = this.stored(deploymentId, id, `Assistant ${id} not found`);
        const v = a.versions.find((x) => x.version === version);
        if (!v) throw new EmulatorError(404, { detail: `Version ${version ?? "None"} not found for assistant ${id}` });
        const { created_at: _, ...fields } = structuredClone(v);
        Object.assign(a, fields, { updated_at: this.clock.now() });
        return assistantView(a);
    }

    /** POST /assistants/{id}/versions: newest first, by metadata, paged; none found is a 404, as on the server. */
    versions(deploymentId: string, id: string, q: { metadata?: Record<string, unknown> | null; limit?: number; offset?: number }): object[] {
        const a = this.stored(deploymentId, id, `Assistant ${id} not found`);
        const offset = q.offset ?? 0;
        const found = a.versions
            .filter((v) => jsonContains(v.metadata, q.metadata))
            .sort((x, y) => y.version - x.version)
            .slice(offset, offset + (q.limit ?? 10));
        if (!found.length) throw new EmulatorError(404, { detail: `Assistant ${id} not found` });
        return found.map((v) => versionView(a.assistant_id, v));
    }

    /** POST /assistants/search: the page, and whether more follow (for `X-Pagination-Next`). */
    search(deploymentId: string, q: AssistantQuery): { items: object[]; total: number } {
        const all = this.matching(deploymentId, q);
        const order = q.sort_order === "asc" ? 1 : -1;
        const by = q.sort_by ?? "created_at";
        const value = (a: StoredAssistant) => (by === "name" || by === "graph_id" ? a[by].toLowerCase() : a[by]);
        const sorted = q.sort_by ? all.sort((x, y) => compare(value(x), value(y)) * order) : all.sort((x, y) => y.created_at - x.created_at);
        const offset = q.offset ?? 0;
        const page = sorted.slice(offset, offset + (q.limit ?? 10));
        const items = page.map((a) => selected(assistantView(a), q.select));
        return { items, total: all.length };
    }

    /** POST /assistants/count. */
    count(deploymentId: string, q: AssistantQuery): number {
        return this.matching(deploymentId, q).length;
    }

    /** The assistant a run or a cron names: by id, or a served graph's name for its system assistant. */
    resolve(deploymentId: string, idOrGraph: string): StoredAssistant | undefined {
        const id = this.graphs().includes(idOrGraph) ? systemAssistantId(idOrGraph) : idOrGraph;
        const a = this.byKey.get(key(deploymentId, id));
        return a && this.graphs().includes(a.graph_id) ? a : undefined;
    }

    /** Forgets a deployment's assistants (it is no longer served). */
    forget(deploymentId: string): void {
        for (const [k, a] of this.byKey) if (a.deployment_id === deploymentId) this.byKey.delete(k);
        delete this.registered[deploymentId];
    }

    deploymentIds(): Set<string> {
        return new Set([...this.byKey.values()].map((a) => a.deployment_id).concat(Object.keys(this.registered)));
    }

    private matching(deploymentId: string, q: AssistantQuery): StoredAssistant[] {
        if (q.graph_id != null) this.requireGraph(q.graph_id);
        const name = q.name?.toLowerCase();
        return [...this.byKey.values()].filter(
            (a) =>
                a.deployment_id === deploymentId &&
                this.graphs().includes(a.graph_id) &&
                (!q.graph_id || a.graph_id === q.graph_id) &&
                (!name || a.name.toLowerCase().includes(name)) &&
                jsonContains(a.metadata, q.metadata),
        );
    }

    private insert(deploymentId: string, id: string, fields: Fields, at: number): StoredAssistant {
        const a: StoredAssistant = {
            deployment_id: deploymentId,
            assistant_id: id,
            ...structuredClone(fields),
            version: 1,
            created_at: at,
            updated_at: at,
            versions: [structuredClone({ ...fields, version: 1, created_at: at })],
        };
        this.byKey.set(key(deploymentId, id), a);
        return a;
    }

    private stored(deploymentId: string, id: string, notFound: string): StoredAssistant {
        const a = this.byKey.get(key(deploymentId, id));
        if (!a) throw new EmulatorError(404, { detail: notFound });
        return a;
    }

    private requireGraph(graph: string): void {
        if (!this.graphs().includes(graph)) {
            const expected = `[${[...this.graphs()]
                .sort()
                .map((g) => `'${g}'`)
                .join(", ")}]`;
            throw new EmulatorError(404, { detail: `Graph '${graph}' not found. Expected one of: ${expected}` });
        }
    }
}

const key = (deploymentId: string, id: string) => `${deploymentId}/${id}`;

/** `config.configurable` and `context` kept equal, as the server keeps them; both given is a 400. */
function mirrored(config: Config, context: Record<string, unknown> | undefined): { config: Config; context: Record<string, unknown> | undefined } {
    const configurable = config.configurable;
    const filled = (o: unknown) => !!o && typeof o === "object" && Object.keys(o).length > 0;
    if (filled(configurable) && filled(context)) {
        throw badRequest(
            "Cannot specify both configurable and context. Prefer setting context alone. Context was introduced in LangGraph 0.6.0 and is the long term planned replacement for configurable.",
        );
    }
    if (filled(configurable)) return { config, context: configurable };
    if (filled(context)) return { config: { ...config, configurable: context }, context };
    return { config, context };
}

/** Postgres' `@>` on objects, as the server filters metadata: every key of `filter` with a contained value. */
export function jsonContains(value: unknown, filter: Record<string, unknown> | null | undefined): boolean {
    if (!filter) return true;
    if (!value || typeof value !== "object") return Object.keys(filter).length === 0;
    const v = value as Record<string, unknown>;
    return Object.entries(filter).every(([k, f]) => {
        if (!(k in v)) return false;
        const isObject = (x: unknown) => !!x && typeof x === "object" && !Array.isArray(x);
        if (isObject(f) && isObject(v[k])) return jsonContains(v[k], f as Record<string, unknown>);
        return JSON.stringify(v[k]) === JSON.stringify(f);
    });
}

function compare(a: string | number, b: string | number): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

/** Only the `select`ed fields, when a selection is given. */
export function selected(view: Record<string, unknown>, select: string[] | null | undefined): Record<string, unknown> {
    return select?.length ? Object.fromEntries(Object.entries(view).filter(([k]) => select.includes(k))) : view;
}

function assistantView(a: StoredAssistant): Record<string, unknown> {
    return structuredClone({
        assistant_id: a.assistant_id,
        graph_id: a.graph_id,
        config: a.config,
        context: a.context,
        metadata: a.metadata,
        name: a.name,
        created_at: new Date(a.created_at).toISOString(),
        updated_at: new Date(a.updated_at).toISOString(),
        version: a.version,
        description: a.description,
    });
}

function versionView(assistantId: string, v: StoredVersion): object {
    const { created_at, ...fields } = structuredClone(v);
    return { assistant_id: assistantId, ...fields, created_at: new Date(created_at).toISOString() };
}

/**
 * An id the server reads as a uuid (Python's `uuid.UUID`: any case, dashes optional, in braces or as a urn),
 * in its canonical form; 422 in the server's words otherwise.
 */
export function requireUuid(value: string, what: string): string {
    const hex = value
        .replace(/^urn:uuid:/i, "")
        .replace(/^\{(.*)\}$/, "$1")
        .replace(/-/g, "");
    if (!/^[0-9a-f]{32}$/i.test(hex)) throw invalid(`Invalid ${what} ID: must be a UUID`);
    const x = hex.toLowerCase();
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
