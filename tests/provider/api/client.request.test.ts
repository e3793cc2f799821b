/**
 * HttpClient's requests against an undici MockAgent (no network): what the constructor accepts, the
 * headers sent (key, tenant, user agent), the query string, the `path` tag's encoding, parsing a success
 * with a schema (and what a body that does not fit it is), and the count of attempts by method and route.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { HttpClient, RequestStats, path } from "../../../provider/api/client";
import { ApiError, UnexpectedResponseError } from "../../../provider/api/errors";
import { DeploymentSchema } from "../../../provider/api/schemas/controlPlane";
import { API_KEY, BASE, JSON_REPLY, TENANT, Thing, closeHarness, deployment, harness, headersOf, netError, rejection, type Harness } from "./helpers";

describe("HttpClient", () => {
    let h: Harness;
    afterEach(async () => (h = await closeHarness(h)));

    describe("constructor", () => {
        it("constructor: refuses an empty API key", () => {
            assert.throws(() => new HttpClient({ baseUrl: BASE, apiKey: "" }), /API key is required/);
        });

        it("constructor: strips trailing slashes from the base URL", async () => {
            h = harness({ baseUrl: `${BASE}///` });
            assert.equal(h.http.baseUrl, BASE);
            h.pool.intercept({ path: "/v2/ping", method: "GET" }).reply(204, "");
            const res = await h.http.request("GET", "/v2/ping", { expect: [204] });
            assert.equal(res.status, 204);
        });

        it("constructor: keeps a base path prefix", async () => {
            h = harness({ baseUrl: `${BASE}/api-host/` });
            assert.equal(h.http.baseUrl, `${BASE}/api-host`);
            h.pool.intercept({ path: "/api-host/v2/deployments", method: "GET" }).reply(200, { id: "x", n: 1 }, JSON_REPLY);
            const res = await h.http.request("GET", "/v2/deployments", { schema: Thing });
            assert.deepEqual(res.data, { id: "x", n: 1 });
        });
    });

    describe("headers", () => {
        it("request: sends X-Api-Key, X-Tenant-Id, accept and user-agent on every request", async () => {
            h = harness();
            let seen: Record<string, string> = {};
            h.pool.intercept({ path: "/v2/deployments", method: "GET" }).reply((opts) => {
                seen = headersOf(opts);
                return { statusCode: 200, data: { id: "a", n: 1 }, responseOptions: JSON_REPLY };
            });
            await h.http.request("GET", "/v2/deployments", { schema: Thing });
            assert.equal(seen["x-api-key"], API_KEY);
            assert.equal(seen["x-tenant-id"], TENANT);
            assert.equal(seen.accept, "application/json");
            assert.equal(seen["user-agent"], "pulumi-langsmith");
        });

        it("request: sends no content-type and no body on a request without a body", async () => {
            h = harness();
            let seen: Record<string, string> = {};
            let body: unknown = "unset";
            h.pool.intercept({ path: "/v2/deployments", method: "GET" }).reply((opts) => {
                seen = headersOf(opts);
                body = opts.body;
                return { statusCode: 200, data: { id: "a", n: 1 }, responseOptions: JSON_REPLY };
            });
            await h.http.request("GET", "/v2/deployments", { schema: Thing });
            assert.equal(seen["content-type"], undefined);
            assert.ok(body === undefined || body === null || body === "", `unexpected body ${String(body)}`);
        });

        it("request: sends a JSON body with content-type application/json", async () => {
            h = harness();
            let seen: Record<string, string> = {};
            let body: unknown;
            h.pool.intercept({ path: "/v2/deployments", method: "POST" }).reply((opts) => {
                seen = headersOf(opts);
                body = opts.body;
                return { statusCode: 201, data: { id: "a", n: 1 }, responseOptions: JSON_REPLY };
            });
            const payload = { name: "my-app", nested: { a: [1, 2] }, flag: false };
            await h.http.request("POST", "/v2/deployments", { body: payload, schema: Thing, expect: [201] });
            assert.equal(seen["content-type"], "application/json");
            assert.equal(seen["x-api-key"], API_KEY);
            assert.equal(typeof body, "string");
            assert.deepEqual(JSON.parse(body as string), payload);
        });

        it("request: omits X-Tenant-Id when no tenant is configured", async () => {
            h = harness({ tenantId: undefined });
            let seen: Record<string, string> = {};
            h.pool.intercept({ path: "/v2/deployments", method: "GET" }).reply((opts) => {
                seen = headersOf(opts);
                return { statusCode: 204, data: "" };
            });
            await h.http.request("GET", "/v2/deployments", { expect: [204] });
            assert.equal(seen["x-tenant-id"], undefined);
            assert.equal(seen["x-api-key"], API_KEY);
        });

        it("request: uses a custom API-key header name and user agent", async () => {
            h = harness({ apiKeyHeader: "X-API-Key-Custom", userAgent: "bench/1.0" });
            let seen: Record<string, string> = {};
            h.pool.intercept({ path: "/v2/x", method: "GET" }).reply((opts) => {
                seen = headersOf(opts);
                return { statusCode: 204, data: "" };
            });
            await h.http.request("GET", "/v2/x", { expect: [204] });
            assert.equal(seen["x-api-key-custom"], API_KEY);
            assert.equal(seen["x-api-key"], undefined);
            assert.equal(seen["user-agent"], "bench/1.0");
        });
    });

    describe("query string", () => {
        it("request: builds the query string, dropping undefined values and stringifying numbers and booleans", async () => {
            h = harness();
            let seenPath = "";
            h.pool.intercept({ path: (p) => p.startsWith("/v2/deployments"), method: "GET" }).reply((opts) => {
                seenPath = opts.path;
                return { statusCode: 204, data: "" };
            });
            await h.http.request("GET", "/v2/deployments", {
                query: { limit: 100, offset: 0, name_contains: "my app&co", missing: undefined, flag: false },
                expect: [204],
            });
            const [p, qs] = seenPath.split("?");
            assert.equal(p, "/v2/deployments");
            const q = new URLSearchParams(qs);
            assert.equal(q.get("limit"), "100");
            assert.equal(q.get("offset"), "0");
            assert.equal(q.get("name_contains"), "my app&co");
            assert.equal(q.get("flag"), "false");
            assert.equal(q.has("missing"), false);
            assert.deepEqual([...q.keys()].sort(), ["flag", "limit", "name_contains", "offset"]);
        });

        it("request: appends no '?' when the query is empty or all undefined", async () => {
            h = harness();
            const paths: string[] = [];
            h.pool
                .intercept({ path: (p) => p.startsWith("/v2/deployments"), method: "GET" })
                .reply((opts) => {
                    paths.push(opts.path);
                    return { statusCode: 204, data: "" };
                })
                .times(2);
            await h.http.request("GET", "/v2/deployments", { query: {}, expect: [204] });
            await h.http.request("GET", "/v2/deployments", { query: { a: undefined }, expect: [204] });
            assert.deepEqual(paths, ["/v2/deployments", "/v2/deployments"]);
        });

        it("request: matches an interceptor registered with an exact query string", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/deployments?limit=1&name_contains=a%20b", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/deployments", { query: { limit: 1, name_contains: "a b" }, expect: [204] });
            h.agent.assertNoPendingInterceptors();
        });
    });

    describe("path", () => {
        it("path: encodes each interpolated segment", () => {
            assert.equal(path`/v2/deployments/${"a/b c?d#e"}`, "/v2/deployments/a%2Fb%20c%3Fd%23e");
            assert.equal(path`/v2/deployments/${"id-1"}/revisions/${42}`, "/v2/deployments/id-1/revisions/42");
            assert.equal(path`/v2/deployments`, "/v2/deployments");
            assert.equal(path`/x/${"é&="}`, "/x/%C3%A9%26%3D");
        });

        it("request: sends an encoded path segment to the server as is", async () => {
            h = harness();
            let seenPath = "";
            h.pool.intercept({ path: (p) => p.startsWith("/v2/deployments/"), method: "GET" }).reply((opts) => {
                seenPath = opts.path;
                return { statusCode: 200, data: { id: "a/b", n: 1 }, responseOptions: JSON_REPLY };
            });
            await h.http.request("GET", path`/v2/deployments/${"a/b?x=1"}`, { schema: Thing });
            assert.equal(seenPath, "/v2/deployments/a%2Fb%3Fx%3D1");
        });
    });

    describe("success parsing", () => {
        it("request: parses a successful body with the schema and returns the status", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(200, { id: "1", n: 7, extra: true }, JSON_REPLY);
            const res = await h.http.request("GET", "/v2/things/1", { schema: Thing });
            assert.equal(res.status, 200);
            assert.deepEqual(res.data, { id: "1", n: 7 });
        });

        it("request: keeps unknown fields of a passthrough schema (DeploymentSchema)", async () => {
            h = harness();
            const d = { ...deployment(), future_field: { x: 1 } };
            h.pool.intercept({ path: "/v2/deployments/d", method: "GET" }).reply(200, d, JSON_REPLY);
            const res = await h.http.request("GET", "/v2/deployments/d", { schema: DeploymentSchema });
            assert.deepEqual((res.data as Record<string, unknown>).future_field, { x: 1 });
            assert.equal(res.data.name, "my-app");
        });

        it("request: accepts any status listed in expect", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(201, { id: "1", n: 1 }, JSON_REPLY);
            h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(200, { id: "2", n: 2 }, JSON_REPLY);
            const a = await h.http.request("POST", "/v2/things", { body: {}, schema: Thing, expect: [200, 201] });
            const b = await h.http.request("POST", "/v2/things", { body: {}, schema: Thing, expect: [200, 201] });
            assert.deepEqual([a.status, a.data.id, b.status, b.data.id], [201, "1", 200, "2"]);
        });

        it("request: answers undefined data without a schema (204)", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things/1", method: "DELETE" }).reply(204, "");
            const res = await h.http.request("DELETE", "/v2/things/1", { expect: [204] });
            assert.deepEqual(res, { status: 204, data: undefined });
        });

        it("request: treats a status outside expect as an error even when 2xx", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(202, { id: "1", n: 1 }, JSON_REPLY);
            const err = await rejection(() => h.http.request("POST", "/v2/things", { body: {}, schema: Thing }));
            assert.ok(err instanceof ApiError);
            assert.equal(err.status, 202);
        });

        it("request: throws UnexpectedResponseError naming the field when the body does not match", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(200, { id: 5, n: 1 }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", "/v2/things/1", { schema: Thing }));
            assert.ok(err instanceof UnexpectedResponseError);
            assert.equal(err.name, "UnexpectedResponseError");
            assert.match(err.message, /^unexpected response to GET \/v2\/things\/1 \(200\): id: /);
            assert.equal(h.sleeps.length, 0, "a bad body is not retried");
        });

        it("request: names a nested field path in UnexpectedResponseError", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/deployments", method: "GET" }).reply(200, { resources: [{ id: "x", name: "n", source: 3 }] }, JSON_REPLY);
            const Schema = z.object({ resources: z.array(DeploymentSchema) });
            const err = await rejection(() => h.http.request("GET", "/v2/deployments", { schema: Schema }));
            assert.ok(err instanceof UnexpectedResponseError);
            assert.match(err.message, /: resources\.0\.source: /);
        });

        it("request: throws UnexpectedResponseError when a success body is not JSON", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(200, "<html>ok</html>");
            const err = await rejection(() => h.http.request("GET", "/v2/things/1", { schema: Thing }));
            assert.ok(err instanceof UnexpectedResponseError);
            assert.equal(err.message, "unexpected response to GET /v2/things/1 (200): body is not JSON");
        });

        it("request: throws UnexpectedResponseError on an empty body when a schema is expected", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(200, "");
            const err = await rejection(() => h.http.request("GET", "/v2/things/1", { schema: Thing }));
            assert.ok(err instanceof UnexpectedResponseError);
            assert.match(err.message, /\(200\): \(body\): /);
        });
    });

    describe("stats", () => {
        it("request: counts every attempt by method and route, collapsing uuids", async () => {
            h = harness();
            const id = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
            h.pool.intercept({ path: `/v2/deployments/${id}`, method: "GET" }).reply(503, "");
            h.pool.intercept({ path: `/v2/deployments/${id}`, method: "GET" }).reply(200, { id: "a", n: 1 }, JSON_REPLY);
            h.pool.intercept({ path: "/v2/deployments?limit=5", method: "GET" }).reply(204, "");
            h.pool.intercept({ path: "/v2/deployments", method: "POST" }).reply(201, "");
            await h.http.request("GET", path`/v2/deployments/${id}`, { schema: Thing });
            await h.http.request("GET", "/v2/deployments", { query: { limit: 5 }, expect: [204] });
            await h.http.request("POST", "/v2/deployments", { body: {}, expect: [201] });
            assert.equal(h.http.stats.total, 4);
            assert.deepEqual(Object.fromEntries(h.http.stats.byRoute), {
                "GET /v2/deployments/{id}": 2,
                "GET /v2/deployments": 1,
                "POST /v2/deployments": 1,
            });
        });

        it("RequestStats: collapses several uuids in one route", () => {
            const s = new RequestStats();
            s.record("GET", "/v2/deployments/0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d/revisions/ffffffff-4f50-4a6b-8c7d-9e0f1a2b3c4d");
            s.record("GET", "/v2/deployments/aaaaaaaa-4f50-4a6b-8c7d-9e0f1a2b3c4d/revisions/bbbbbbbb-4f50-4a6b-8c7d-9e0f1a2b3c4d");
            assert.equal(s.total, 2);
            assert.deepEqual([...s.byRoute], [["GET /v2/deployments/{id}/revisions/{id}", 2]]);
        });

        it("RequestStats: counts failed attempts too", async () => {
            h = harness({ maxRetries: 2 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("ECONNRESET")).times(3);
            await rejection(() => h.http.request("GET", "/v2/t"));
            assert.equal(h.http.stats.total, 3);
            assert.equal(h.http.stats.byRoute.get("GET /v2/t"), 3);
        });
    });
});
