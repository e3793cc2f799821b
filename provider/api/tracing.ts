/**
 * The tracing API's projects (the service's sessions) and datasets (docs/service.md R5): create, read, find by
 * name, update, delete. A create carries an id made here, so after an answer that was lost the object is
 * looked up by that id instead of being sent again (reconcile.ts): never two objects for one create.
 */
import { randomUUID } from "node:crypto";
import { HttpClient, path, type HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import { DatasetListSchema, DatasetSchema, type Dataset, type DatasetCreateRequest, type DatasetUpdateRequest } from "./schemas/datasets";
import { SessionListSchema, SessionSchema, type Session, type SessionCreateRequest, type SessionUpdateRequest } from "./schemas/sessions";

const SESSIONS = "/api/v1/sessions";
const DATASETS = "/api/v1/datasets";

export class TracingClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the tracing API at `o.baseUrl`, which takes the API key as `X-API-Key` (docs/service.md 5; and the workspace as `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): TracingClient {
        return new TracingClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    /** The same client whose requests retry no later than `deadline` (epoch ms): one per operation. */
    withDeadline(deadline: number): TracingClient {
        return new TracingClient(this.http, deadline);
    }

    /** Creates a project under an id made here (`body.id`, else a new one); a lost answer is looked up by it, never resent blindly. */
    async createSession(body: SessionCreateRequest): Promise<{ session: Session; adopted: boolean }> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const send = async () =>
            (await this.http.request("POST", SESSIONS, { body: wire, schema: SessionSchema, expect: [200, 201], deadline: this.deadline })).data;
        const { value, adopted } = await createOnce(send, () => this.tryGetSession(wire.id), this.http.reconcileOptions(this.deadline));
        return { session: value, adopted };
    }

    async getSession(id: string): Promise<Session> {
        return (await this.http.request("GET", path`/api/v1/sessions/${id}`, { schema: SessionSchema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined when the project does not exist. */
    async tryGetSession(id: string): Promise<Session | undefined> {
        return this.getSession(id).catch(undefinedOn404);
    }

    /** The project of this exact name in the workspace, if any. */
    async findSessionByName(name: string): Promise<Session | undefined> {
        const found = (await this.http.request("GET", SESSIONS, { query: { name }, schema: SessionListSchema, deadline: this.deadline })).data;
        return found.find((s) => s.name === name);
    }

    /** Changes the given fields (absent ones stay). Idempotent. */
    async updateSession(id: string, body: SessionUpdateRequest): Promise<Session> {
        return (await this.http.request("PATCH", path`/api/v1/sessions/${id}`, { body, schema: SessionSchema, deadline: this.deadline })).data;
    }

    /** Deletes a project; one already gone is done. */
    async deleteSession(id: string): Promise<void> {
        await this.http.request("DELETE", path`/api/v1/sessions/${id}`, { expect: [200, 202, 204], deadline: this.deadline }).catch(undefinedOn404);
    }

    // ---- datasets ----

    /** Creates a dataset under an id made here (`body.id`, else a new one); a lost answer is looked up by it, never resent blindly. */
    async createDataset(body: DatasetCreateRequest): Promise<{ dataset: Dataset; adopted: boolean }> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const send = async () =>
            (await this.http.request("POST", DATASETS, { body: wire, schema: DatasetSchema, expect: [200, 201], deadline: this.deadline })).data;
        const { value, adopted } = await createOnce(send, () => this.tryGetDataset(wire.id), this.http.reconcileOptions(this.deadline));
        return { dataset: value, adopted };
    }

    async getDataset(id: string): Promise<Dataset> {
        return (await this.http.request("GET", path`/api/v1/datasets/${id}`, { schema: DatasetSchema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined when the dataset does not exist. */
    async tryGetDataset(id: string): Promise<Dataset | undefined> {
        return this.getDataset(id).catch(undefinedOn404);
    }

    /** The dataset of this exact name in the workspace, if any. */
    async findDatasetByName(name: string): Promise<Dataset | undefined> {
        const found = (await this.http.request("GET", DATASETS, { query: { name }, schema: DatasetListSchema, deadline: this.deadline })).data;
        return found.find((d) => d.name === name);
    }

    /** Changes the given fields (absent ones stay). Idempotent. */
    async updateDataset(id: string, body: DatasetUpdateRequest): Promise<Dataset> {
        return (await this.http.request("PATCH", path`/api/v1/datasets/${id}`, { body, schema: DatasetSchema, deadline: this.deadline })).data;
    }

    /** Deletes a dataset; one already gone is done. */
    async deleteDataset(id: string): Promise<void> {
        await this.http.request("DELETE", path`/api/v1/datasets/${id}`, { expect: [200, 202, 204], deadline: this.deadline }).catch(undefinedOn404);
    }
}
