/**
 * The tracing API's projects (the service's sessions) and datasets (docs/service.md R5): create, read, find by
 * name, update, delete, for both through one set of calls (`NamedObjects`). A create carries an id made here,
 * so after an answer that was lost the object is looked up by that id instead of being sent again
 * (reconcile.ts): never two objects for one create.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import { DatasetListSchema, DatasetSchema, type Dataset, type DatasetCreateRequest, type DatasetUpdateRequest } from "./schemas/datasets";
import { SessionListSchema, SessionSchema, type Session, type SessionCreateRequest, type SessionUpdateRequest } from "./schemas/sessions";

/** What an update answers, taken for no more than an object with an id: the object is read back. */
const Written = z.object({ id: z.string() }).passthrough();

/** The calls of one kind of named object of the tracing API, at `base` (`/api/v1/sessions`), its answers parsed with `schema`. */
class NamedObjects<T extends { id: string; name: string }, C extends { id?: string | null }, U> {
    constructor(
        private readonly http: HttpClient,
        private readonly deadline: number | undefined,
        private readonly base: string,
        private readonly schema: z.ZodType<T>,
        private readonly listSchema: z.ZodType<T[]>,
    ) {}

    private at = (id: string) => `${this.base}/${encodeURIComponent(id)}`;

    /**
     * Creates one under an id made here (`body.id`, else a new one); a lost answer is looked up by it, never resent
     * blindly. Its answer is taken as it is: a project's lacks the counters a read has (docs/service.md R5), which
     * no output holds, so it is not read back.
     */
    async create(body: C): Promise<{ value: T; adopted: boolean }> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const send = async () =>
            (await this.http.request("POST", this.base, { body: wire, schema: this.schema, expect: [200, 201], deadline: this.deadline })).data;
        const { value, adopted } = await createOnce(send, () => this.tryGet(wire.id), this.http.reconcileOptions(this.deadline));
        return { value, adopted };
    }

    async get(id: string): Promise<T> {
        return (await this.http.request("GET", this.at(id), { schema: this.schema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined when the object does not exist. */
    async tryGet(id: string): Promise<T | undefined> {
        return this.get(id).catch(undefinedOn404);
    }

    /** The object of this exact name in the workspace, if any. */
    async findByName(name: string): Promise<T | undefined> {
        const found = (await this.http.request("GET", this.base, { query: { name }, schema: this.listSchema, deadline: this.deadline })).data;
        return found.find((o) => o.name === name);
    }

    /** Changes the given fields (absent ones stay), then reads the object back (an update answers less than a read). Idempotent. */
    async update(id: string, body: U): Promise<T> {
        await this.http.request("PATCH", this.at(id), { body, schema: Written, deadline: this.deadline });
        return this.get(id);
    }

    /** Deletes one; one already gone is done. */
    async delete(id: string): Promise<void> {
        await this.http.request("DELETE", this.at(id), { expect: [200, 202, 204], deadline: this.deadline }).catch(undefinedOn404);
    }
}

/** The largest page the project list answers. */
const PAGE = 100;

export class TracingClient {
    private readonly sessions: NamedObjects<Session, SessionCreateRequest, SessionUpdateRequest>;
    private readonly datasets: NamedObjects<Dataset, DatasetCreateRequest, DatasetUpdateRequest>;

    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {
        this.sessions = new NamedObjects(http, deadline, "/api/v1/sessions", SessionSchema, SessionListSchema);
        this.datasets = new NamedObjects(http, deadline, "/api/v1/datasets", DatasetSchema, DatasetListSchema);
    }

    /** A client of the tracing API at `o.baseUrl`, which takes the API key as `X-API-Key` (docs/service.md 5; and the workspace as `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): TracingClient {
        return new TracingClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    /** The same client whose requests retry no later than `deadline` (epoch ms): one per operation. */
    withDeadline(deadline: number): TracingClient {
        return new TracingClient(this.http, deadline);
    }

    // ---- projects (sessions) ----

    async createSession(body: SessionCreateRequest): Promise<{ session: Session; adopted: boolean }> {
        const { value, adopted } = await this.sessions.create(body);
        return { session: value, adopted };
    }
    getSession = (id: string): Promise<Session> => this.sessions.get(id);
    tryGetSession = (id: string): Promise<Session | undefined> => this.sessions.tryGet(id);
    findSessionByName = (name: string): Promise<Session | undefined> => this.sessions.findByName(name);
    updateSession = (id: string, body: SessionUpdateRequest): Promise<Session> => this.sessions.update(id, body);
    deleteSession = (id: string): Promise<void> => this.sessions.delete(id);

    /**
     * The workspace's projects whose name contains `nameContains` (any case) and that carry any of the tag values
     * `tagValueIds` (the service's `tag_value_id` filter), every page walked.
     */
    async listSessions(q: { nameContains?: string; tagValueIds?: string[] } = {}): Promise<Session[]> {
        const out: Session[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
            if (q.nameContains) query.set("name_contains", q.nameContains);
            for (const v of q.tagValueIds ?? []) query.append("tag_value_id", v);
            const page = (await this.http.request("GET", `/api/v1/sessions?${query}`, { schema: SessionListSchema, deadline: this.deadline })).data;
            out.push(...page);
            if (page.length < PAGE) return out;
        }
    }

    // ---- datasets ----

    async createDataset(body: DatasetCreateRequest): Promise<{ dataset: Dataset; adopted: boolean }> {
        const { value, adopted } = await this.datasets.create(body);
        return { dataset: value, adopted };
    }
    getDataset = (id: string): Promise<Dataset> => this.datasets.get(id);
    tryGetDataset = (id: string): Promise<Dataset | undefined> => this.datasets.tryGet(id);
    findDatasetByName = (name: string): Promise<Dataset | undefined> => this.datasets.findByName(name);
    updateDataset = (id: string, body: DatasetUpdateRequest): Promise<Dataset> => this.datasets.update(id, body);
    deleteDataset = (id: string): Promise<void> => this.datasets.delete(id);
}
