/**
 * The organization's data planes (docs/service.md R17.1): requested, read, listed, deleted at
 * `/api/v1/orgs/current/data-planes[/{id}]`. A create is sent once: a lost answer is looked up by the name (unique in
 * the organization) instead of being sent again. Organization paths: no workspace is named.
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import { DataPlaneListSchema, DataPlaneSchema, type DataPlane, type DataPlaneCreateRequest } from "./schemas/dataPlanes";

const BASE = "/api/v1/orgs/current/data-planes";
const Nothing = z.unknown();

export class DataPlanesClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the API at `o.baseUrl` (`X-API-Key`; no workspace). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): DataPlanesClient {
        return new DataPlanesClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    /** The same client, its requests (retries included) ending by `deadline` (ms since the epoch). */
    withDeadline(deadline: number): DataPlanesClient {
        return new DataPlanesClient(this.http, deadline);
    }

    private call<T>(method: string, p: string, schema: z.ZodType<T>, body?: unknown, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 202, 204], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    async list(): Promise<DataPlane[]> {
        return (await this.call("GET", BASE, DataPlaneListSchema)).data_planes ?? [];
    }

    tryGet(id: string): Promise<DataPlane | undefined> {
        return this.call("GET", `${BASE}/${encodeURIComponent(id)}`, DataPlaneSchema).catch(undefinedOn404);
    }

    async findByName(name: string): Promise<DataPlane | undefined> {
        return (await this.list()).find((d) => d.name === name);
    }

    async create(body: DataPlaneCreateRequest): Promise<DataPlane> {
        const { value } = await createOnce(
            () => this.call("POST", BASE, DataPlaneSchema, body),
            () => this.findByName(body.name),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: (e) => e instanceof ConflictError },
        );
        return value;
    }

    /** Deletes it; one already gone is done. */
    async delete(id: string): Promise<void> {
        await this.call("DELETE", `${BASE}/${encodeURIComponent(id)}`, Nothing, undefined, { idempotent: true }).catch(undefinedOn404);
    }
}
