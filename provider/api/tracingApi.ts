/**
 * What the clients of the tracing API's objects share (the prompt hub, evaluation and review): the HTTP client
 * speaking to `/api/v1` with `X-API-Key` and `X-Tenant-Id`, an operation's deadline, and the three calls they all
 * make (a read, a write expecting 200 or 201, a delete that takes a 404 as done); paths of encoded parts; JSON with
 * its keys sorted, to compare what the service keeps in another order.
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions, type Query } from "./client";
import { undefinedOn404 } from "./errors";

const DELETED = [200, 202, 204];
const Nothing = z.unknown();

/** The HTTP client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
export const tracingHttp = (o: Omit<HttpClientOptions, "apiKeyHeader">): HttpClient => new HttpClient({ ...o, apiKeyHeader: "X-API-Key" });

/** `base/part/part`, each part encoded. */
export const at = (base: string, ...parts: string[]) => [base, ...parts.map(encodeURIComponent)].join("/");

/** JSON with object keys sorted (and, with `dropNulls`, null fields left out): equal whatever order the service keeps keys in. */
export const sortedJson = (v: unknown, o: { dropNulls?: boolean } = {}): string =>
    JSON.stringify(v, (_k, x) =>
        x && typeof x === "object" && !Array.isArray(x)
            ? Object.fromEntries(
                  Object.keys(x)
                      .filter((k) => !o.dropNulls || (x[k] !== null && x[k] !== undefined))
                      .sort()
                      .map((k) => [k, (x as Record<string, unknown>)[k]]),
              )
            : x,
    );

export abstract class TracingApiClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    protected get<T>(p: string, schema: z.ZodType<T>, query?: Query): Promise<T> {
        return this.http.request("GET", p, { schema, query, deadline: this.deadline }).then((r) => r.data);
    }

    protected send<T>(method: string, p: string, body: unknown, schema: z.ZodType<T>, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    /** A DELETE; an object already gone (404) is done. */
    protected async remove(p: string, query?: Query): Promise<void> {
        await this.http.request("DELETE", p, { query, expect: DELETED, schema: Nothing, deadline: this.deadline }).catch(undefinedOn404);
    }
}
