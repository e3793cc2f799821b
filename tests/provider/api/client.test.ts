import assert from "node:assert/strict";
import { inspect } from "node:util";
import { z } from "zod";
import { HttpClient, RequestStats, path } from "../../../provider/api/client";
import {
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionError,
    NotFoundError,
    NotImplementedError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    UnexpectedResponseError,
    ValidationFailedError,
} from "../../../provider/api/errors";
import { isAmbiguous } from "../../../provider/api/controlPlane";
import { DeploymentSchema } from "../../../provider/api/schemas/controlPlane";
import {
    API_KEY,
    BASE,
    JSON_REPLY,
    TENANT,
    deployment,
    harness,
    headersOf,
    loopbackServer,
    netError,
    rejection,
    type Harness,
    type LoopbackServer,
} from "./helpers";

const Thing = z.object({ id: z.string(), n: z.number() });

/** Asserts lo <= x <= hi. */
function inRange(x: number, lo: number, hi: number, what: string): void {
    assert.ok(x >= lo && x <= hi, `${what}: ${x} not in [${lo}, ${hi}]`);
}

describe("HttpClient", () => {
    let h: Harness;
    afterEach(async () => {
        const done = h;
        h = undefined as unknown as Harness;
        await done?.agent.close();
    });

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
            assert.equal(seen["accept"], "application/json");
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
            h.pool
                .intercept({ path: "/v2/deployments", method: "GET" })
                .reply(200, { resources: [{ id: "x", name: "n", source: 3 }] }, JSON_REPLY);
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

    describe("retries of idempotent requests", () => {
        for (const status of [429, 500, 502, 503, 504]) {
            it(`request: retries a GET on ${status} and then succeeds`, async () => {
                h = harness();
                h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(status, { detail: "busy" }, JSON_REPLY);
                h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(200, { id: "1", n: 1 }, JSON_REPLY);
                const res = await h.http.request("GET", "/v2/things/1", { schema: Thing });
                assert.equal(res.data.id, "1");
                assert.equal(h.sleeps.length, 1);
                assert.equal(h.http.stats.total, 2);
                h.agent.assertNoPendingInterceptors();
            });
        }

        it("request: retries a GET on 503 honouring Retry-After", async () => {
            h = harness();
            h.pool
                .intercept({ path: "/v2/things/1", method: "GET" })
                .reply(503, { detail: "later" }, { headers: { "content-type": "application/json", "retry-after": "7" } });
            h.pool.intercept({ path: "/v2/things/1", method: "GET" }).reply(200, { id: "1", n: 1 }, JSON_REPLY);
            await h.http.request("GET", "/v2/things/1", { schema: Thing });
            assert.equal(h.sleeps.length, 1);
            inRange(h.sleeps[0], 7000, 10_500, "Retry-After 7 s, plus up to half of it again");
        });

        it("request: honours a fractional and a zero Retry-After", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(429, "", { headers: { "Retry-After": "1.5" } });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(429, "", { headers: { "Retry-After": "0" } });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/t", { expect: [204] });
            assert.equal(h.sleeps.length, 2);
            inRange(h.sleeps[0], 1500, 2250, "1.5 s and jitter");
            inRange(h.sleeps[1], 0, 500, "0 s and up to retryBaseMs of jitter");
        });

        it("request: caps Retry-After at retryMaxMs", async () => {
            h = harness({ retryMaxMs: 10_000 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(429, "", { headers: { "retry-after": "3600" } });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/t", { expect: [204] });
            assert.equal(h.sleeps.length, 1);
            inRange(h.sleeps[0], 10_000, 15_000, "capped at retryMaxMs, then jitter");
        });

        it("request: honours a Retry-After given as an HTTP date", async () => {
            h = harness();
            const when = new Date(Date.now() + 5_000).toUTCString();
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(503, "", { headers: { "retry-after": when } });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/t", { expect: [204] });
            assert.equal(h.sleeps.length, 1);
            // HTTP dates have a one-second resolution.
            inRange(h.sleeps[0], 3_500, 7_500, "about 5 s, then jitter");
        });

        it("request: falls back to backoff when Retry-After is unparseable or in the past", async () => {
            h = harness({ retryBaseMs: 100 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(503, "", { headers: { "retry-after": "soon" } });
            h.pool
                .intercept({ path: "/v2/t", method: "GET" })
                .reply(503, "", { headers: { "retry-after": new Date(Date.now() - 60_000).toUTCString() } });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/t", { expect: [204] });
            assert.equal(h.sleeps.length, 2);
            assert.ok(h.sleeps[0] >= 50 && h.sleeps[0] <= 100, `first backoff ${h.sleeps[0]}`);
            assert.ok(h.sleeps[1] >= 100 && h.sleeps[1] <= 200, `second backoff ${h.sleeps[1]}`);
        });

        it("request: grows the backoff exponentially with jitter when there is no Retry-After", async () => {
            h = harness({ retryBaseMs: 100, retryMaxMs: 100_000, maxRetries: 5 });
            for (let i = 0; i < 5; i++) h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(500, "");
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/t", { expect: [204] });
            assert.equal(h.sleeps.length, 5);
            h.sleeps.forEach((ms, i) => {
                const ceiling = 100 * 2 ** i;
                assert.ok(ms >= ceiling / 2 && ms <= ceiling, `attempt ${i}: ${ms} not in [${ceiling / 2}, ${ceiling}]`);
                if (i > 0) assert.ok(ms >= h.sleeps[i - 1], `backoff shrank: ${h.sleeps.join(", ")}`);
            });
        });

        it("request: backoff is half fixed, half random, and capped at retryMaxMs", async () => {
            const random = Math.random;
            Math.random = () => 0.5;
            try {
                h = harness({ retryBaseMs: 500, retryMaxMs: 1_000, maxRetries: 4 });
                for (let i = 0; i < 4; i++) h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(502, "");
                h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
                await h.http.request("GET", "/v2/t", { expect: [204] });
            } finally {
                Math.random = random;
            }
            // ceiling 500, 1000, 1000 (capped), 1000: ceiling/2 + 0.5 * ceiling/2
            assert.deepEqual(h.sleeps, [375, 750, 750, 750]);
        });

        it("request: retries a GET on a reset connection", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("ECONNRESET"));
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("UND_ERR_SOCKET"));
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(200, { id: "1", n: 1 }, JSON_REPLY);
            const res = await h.http.request("GET", "/v2/t", { schema: Thing });
            assert.equal(res.data.n, 1);
            assert.equal(h.sleeps.length, 2);
        });

        it("request: retries a GET on a refused connection and on an error without a code", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("ECONNREFUSED"));
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(new Error("socket hang up"));
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
            await h.http.request("GET", "/v2/t", { expect: [204] });
            assert.equal(h.sleeps.length, 2);
        });

        it("request: retries a DELETE on 500 and on a reset connection", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t/1", method: "DELETE" }).reply(500, "");
            h.pool.intercept({ path: "/v2/t/1", method: "DELETE" }).replyWithError(netError("ECONNRESET"));
            h.pool.intercept({ path: "/v2/t/1", method: "DELETE" }).reply(204, "");
            await h.http.request("DELETE", "/v2/t/1", { expect: [204] });
            assert.equal(h.sleeps.length, 2);
        });

        it("request: stops after maxRetries on statuses and throws the last error", async () => {
            h = harness({ maxRetries: 2 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(503, { detail: "first" }, JSON_REPLY);
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(502, { detail: "second" }, JSON_REPLY);
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(500, { detail: "third" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", "/v2/t", { schema: Thing }));
            assert.ok(err instanceof ServerError);
            assert.equal(err.status, 500);
            assert.equal(err.detail, "third");
            assert.equal(h.sleeps.length, 2);
            assert.equal(h.http.stats.total, 3);
            h.agent.assertNoPendingInterceptors();
        });

        it("request: stops after maxRetries on connection errors and throws a ConnectionError", async () => {
            h = harness({ maxRetries: 3 });
            for (let i = 0; i < 3; i++) h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("ECONNRESET"));
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("ECONNREFUSED"));
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err instanceof ConnectionError);
            assert.equal(err.code, "ECONNREFUSED");
            assert.equal(err.ambiguous, false);
            assert.equal(err.method, "GET");
            assert.equal(err.path, "/v2/t");
            assert.equal(err.message, `request failed without a response: ECONNREFUSED, nothing listens on that port (GET /v2/t) to ${BASE}`);
            assert.equal(h.sleeps.length, 3);
            assert.equal(h.http.stats.total, 4);
        });

        it("request: with maxRetries 0 makes a single attempt (a 502: counted retries)", async () => {
            h = harness({ maxRetries: 0 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(502, "");
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err instanceof ServerError);
            assert.equal(h.sleeps.length, 0);
            assert.equal(h.http.stats.total, 1);
        });

        it("request: does not retry a GET on 4xx other than 429", async () => {
            h = harness();
            for (const status of [400, 401, 403, 404, 409, 422]) {
                h.pool.intercept({ path: `/v2/t/${status}`, method: "GET" }).reply(status, { detail: "no" }, JSON_REPLY);
                const err = await rejection(() => h.http.request("GET", `/v2/t/${status}`));
                assert.ok(err instanceof ApiError);
                assert.equal(err.status, status);
            }
            assert.equal(h.sleeps.length, 0);
        });

        it("request: a request with no matching interceptor fails as a ConnectionError after retries (net connect disabled)", async () => {
            h = harness({ maxRetries: 1 });
            const err = await rejection(() => h.http.request("GET", "/v2/nothing-here"));
            assert.ok(err instanceof ConnectionError);
            assert.equal(h.http.stats.total, 2);
        });
    });

    describe("retries of creating requests", () => {
        it("request: does not retry a POST on 500 and throws a ServerError", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(500, { detail: "boom" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("POST", "/v2/things", { body: { a: 1 }, schema: Thing }));
            assert.ok(err instanceof ServerError);
            assert.equal(err.status, 500);
            assert.equal(isAmbiguous(err), true);
            assert.equal(h.sleeps.length, 0);
            assert.equal(h.http.stats.total, 1);
        });

        for (const status of [502, 504]) {
            it(`request: does not retry a POST on ${status}`, async () => {
                h = harness();
                h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(status, "<html>gateway</html>");
                const err = await rejection(() => h.http.request("POST", "/v2/things", { body: {} }));
                assert.ok(err instanceof ServerError);
                assert.equal(err.status, status);
                assert.equal(h.sleeps.length, 0);
            });
        }

        it("request: does not retry a POST on a reset connection and marks the error ambiguous", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things", method: "POST" }).replyWithError(netError("ECONNRESET"));
            const err = await rejection(() => h.http.request("POST", "/v2/things", { body: { a: 1 } }));
            assert.ok(err instanceof ConnectionError);
            assert.equal(err.ambiguous, true);
            assert.equal(err.code, "ECONNRESET");
            assert.equal(isAmbiguous(err), true);
            assert.equal(h.sleeps.length, 0);
            assert.equal(h.http.stats.total, 1);
        });

        it("request: does not retry a POST on a timeout or an error without a code (ambiguous)", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things", method: "POST" }).replyWithError(netError("UND_ERR_HEADERS_TIMEOUT"));
            h.pool.intercept({ path: "/v2/things", method: "POST" }).replyWithError(new Error("other side closed"));
            const a = await rejection(() => h.http.request("POST", "/v2/things", { body: {} }));
            const b = await rejection(() => h.http.request("POST", "/v2/things", { body: {} }));
            assert.ok(a instanceof ConnectionError && a.ambiguous);
            assert.ok(b instanceof ConnectionError && b.ambiguous);
            assert.equal(b.message, `request failed without a response: other side closed (POST /v2/things) to ${BASE}`);
            assert.equal(h.sleeps.length, 0);
        });

        for (const code of ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]) {
            it(`request: retries a POST when the connection was never made (${code})`, async () => {
                h = harness();
                h.pool.intercept({ path: "/v2/things", method: "POST" }).replyWithError(netError(code));
                h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(201, { id: "1", n: 1 }, JSON_REPLY);
                const res = await h.http.request("POST", "/v2/things", { body: {}, schema: Thing, expect: [201] });
                assert.equal(res.status, 201);
                assert.equal(h.sleeps.length, 1);
            });
        }

        it("request: a POST refused on every attempt throws a non-ambiguous ConnectionError", async () => {
            h = harness({ maxRetries: 2 });
            for (let i = 0; i < 3; i++) h.pool.intercept({ path: "/v2/things", method: "POST" }).replyWithError(netError("ECONNREFUSED"));
            const err = await rejection(() => h.http.request("POST", "/v2/things", { body: {} }));
            assert.ok(err instanceof ConnectionError);
            assert.equal(err.ambiguous, false);
            assert.equal(isAmbiguous(err), false);
            assert.equal(h.sleeps.length, 2);
        });

        for (const [code, retries] of [["ENOTFOUND", 1], ["ECONNREFUSED", 2]] as const) {
            for (const method of ["GET", "POST"]) {
                it(`request: ${code} is retried ${retries} time(s) at most, whatever maxRetries (${method}): it does not change in seconds`, async () => {
                    h = harness({ maxRetries: 5 });
                    for (let i = 0; i < 6; i++) h.pool.intercept({ path: "/v2/things", method }).replyWithError(netError(code));
                    const err = await rejection(() => h.http.request(method, "/v2/things", { body: method === "POST" ? {} : undefined }));
                    assert.ok(err instanceof ConnectionError);
                    assert.equal(err.code, code);
                    assert.equal(err.ambiguous, false);
                    assert.equal(h.http.stats.total, 1 + retries);
                    assert.equal(h.sleeps.length, retries);
                });
            }
        }

        it("request: a temporary DNS failure (EAI_AGAIN) keeps maxRetries", async () => {
            h = harness({ maxRetries: 4 });
            for (let i = 0; i < 5; i++) h.pool.intercept({ path: "/v2/things", method: "POST" }).replyWithError(netError("EAI_AGAIN"));
            const err = await rejection(() => h.http.request("POST", "/v2/things", { body: {} }));
            assert.ok(err instanceof ConnectionError);
            assert.equal(h.http.stats.total, 5);
        });

        it("request: maxRetries below the cap wins (ECONNREFUSED with maxRetries 1)", async () => {
            h = harness({ maxRetries: 1 });
            for (let i = 0; i < 3; i++) h.pool.intercept({ path: "/v2/things", method: "GET" }).replyWithError(netError("ECONNREFUSED"));
            await rejection(() => h.http.request("GET", "/v2/things"));
            assert.equal(h.http.stats.total, 2);
        });

        it("request: retries a POST on 429 honouring Retry-After", async () => {
            h = harness();
            h.pool
                .intercept({ path: "/v2/things", method: "POST" })
                .reply(429, { detail: "slow down" }, { headers: { "content-type": "application/json", "retry-after": "2" } });
            h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(201, { id: "1", n: 1 }, JSON_REPLY);
            const res = await h.http.request("POST", "/v2/things", { body: {}, schema: Thing, expect: [201] });
            assert.equal(res.status, 201);
            assert.equal(h.sleeps.length, 1);
            inRange(h.sleeps[0], 2000, 3000, "Retry-After 2 s, plus jitter");
        });

        it("request: never resends a POST answered 503: thrown as ambiguous (the work may be done)", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(503, "");
            const err = await rejection(() => h.http.request("POST", "/v2/things", { body: {}, schema: Thing }));
            assert.ok(err instanceof ServerError);
            assert.equal(err.status, 503);
            assert.equal(isAmbiguous(err), true);
            assert.equal(h.http.stats.total, 1);
            h.agent.assertNoPendingInterceptors();
        });

        it("request: retries a PATCH on 429 only; a 503 is thrown as ambiguous", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/things/1", method: "PATCH" }).reply(429, "");
            h.pool.intercept({ path: "/v2/things/1", method: "PATCH" }).reply(503, "");
            const err = await rejection(() => h.http.request("PATCH", "/v2/things/1", { body: {} }));
            assert.ok(err instanceof ServerError);
            assert.equal(err.status, 503);
            assert.equal(isAmbiguous(err), true);
            assert.equal(h.sleeps.length, 1);
            h.agent.assertNoPendingInterceptors();
        });

        it("request: 429 is retried past maxRetries, until the deadline; then the RateLimitError is thrown", async () => {
            let now = 1_000_000;
            const realNow = Date.now;
            Date.now = () => now;
            try {
                h = harness({ maxRetries: 1, retryBaseMs: 1000, sleep: async (ms) => void (now += ms) });
                h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(429, { detail: "slow down" }, JSON_REPLY).times(8);
                h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(204, "");
                await h.http.request("GET", "/v2/t", { expect: [204], deadline: now + 10 * 60_000 });
                assert.equal(h.http.stats.total, 9, "eight 429s outlast maxRetries 1");

                h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(429, { detail: "slow down" }, { headers: { "content-type": "application/json", "retry-after": "1" } }).persist();
                const started = now;
                const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, deadline: now + 5_000 }));
                assert.ok(err instanceof RateLimitError);
                assert.equal(err.message, "429 Too Many Requests: slow down (POST /v2/t)");
                assert.ok(now - started <= 5_000, `slept ${now - started} ms, past the deadline`);
            } finally {
                Date.now = realNow;
            }
        });
    });

    describe("error mapping", () => {
        const cases: Array<[number, Function, string]> = [
            [400, BadRequestError, "Bad Request"],
            [401, AuthenticationError, "Unauthorized"],
            [403, PermissionDeniedError, "Forbidden"],
            [404, NotFoundError, "Not Found"],
            [409, ConflictError, "Conflict"],
            [422, ValidationFailedError, "Unprocessable Entity"],
            [500, ServerError, "Internal Server Error"],
            [501, NotImplementedError, "Not Implemented"],
        ];
        for (const [status, Cls, text] of cases) {
            it(`request: maps ${status} to ${Cls.name}`, async () => {
                h = harness({ maxRetries: 0 });
                h.pool.intercept({ path: "/v2/things", method: "POST" }).reply(status, { detail: "why" }, JSON_REPLY);
                const err = await rejection(() => h.http.request("POST", "/v2/things", { body: {} }));
                assert.ok(err instanceof Cls, `got ${(err as Error).name}`);
                assert.ok(err instanceof ApiError);
                assert.equal((err as ApiError).name, Cls.name);
                assert.equal((err as ApiError).status, status);
                // A refusal of the credentials also says where they went (with sources: which settings; see below).
                const to = status === 401 || status === 403 ? ` to ${BASE}` : "";
                assert.equal((err as ApiError).message, `${status} ${text}: why (POST /v2/things)${to}`);
            });
        }

        it("request: maps 429 (after retries) to RateLimitError", async () => {
            h = harness({ maxRetries: 0, retryBudgetMs: 0 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(429, { detail: "rate limited" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err instanceof RateLimitError);
            assert.equal(err.message, "429 Too Many Requests: rate limited (GET /v2/t)");
        });

        it("request: NotImplementedError is a ServerError", async () => {
            h = harness({ maxRetries: 0 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(501, "");
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err instanceof NotImplementedError);
            assert.ok(err instanceof ServerError);
        });

        it("request: maps an unknown 5xx to ServerError and an unknown 4xx to ApiError", async () => {
            h = harness({ maxRetries: 0 });
            h.pool.intercept({ path: "/v2/a", method: "GET" }).reply(507, "full");
            h.pool.intercept({ path: "/v2/b", method: "GET" }).reply(418, "teapot");
            const a = await rejection(() => h.http.request("GET", "/v2/a"));
            const b = await rejection(() => h.http.request("GET", "/v2/b"));
            assert.ok(a instanceof ServerError);
            assert.equal(a.message, "507 Error: full (GET /v2/a)");
            assert.ok(b instanceof ApiError);
            assert.equal(b.constructor, ApiError);
            assert.equal(b.name, "ApiError");
            assert.equal(b.message, "418 Error: teapot (GET /v2/b)");
        });

        it("request: formats a 404 as `404 Not Found: <detail> (GET <path>)`", async () => {
            h = harness();
            h.pool
                .intercept({ path: "/v2/deployments/x", method: "GET" })
                .reply(404, { detail: "Deployment ID x not found." }, { headers: { "content-type": "application/json", "x-request-id": "req-42" } });
            const err = await rejection(() => h.http.request("GET", path`/v2/deployments/${"x"}`, { schema: DeploymentSchema }));
            assert.ok(err instanceof NotFoundError);
            assert.equal(err.message, "404 Not Found: Deployment ID x not found. (GET /v2/deployments/x)");
            assert.equal(err.detail, "Deployment ID x not found.");
            assert.equal(err.method, "GET");
            assert.equal(err.path, "/v2/deployments/x");
            assert.equal(err.requestId, "req-42");
            assert.equal(h.sleeps.length, 0);
        });

        it("request: leaves the query string out of error messages", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/deployments?name_contains=abc", method: "GET" }).reply(400, { detail: "bad filter" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", "/v2/deployments", { query: { name_contains: "abc" } }));
            assert.ok(err instanceof BadRequestError);
            assert.equal(err.message, "400 Bad Request: bad filter (GET /v2/deployments)");
            assert.ok(!err.message.includes("abc"));
        });

        it("request: renders a 422 list as `loc: msg` and keeps the entries", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/deployments", method: "POST" }).reply(
                422,
                {
                    detail: [
                        { loc: ["body", "name"], msg: "field required", type: "missing" },
                        { loc: ["body", "secrets", 0, "value"], msg: "str type expected", type: "string_type" },
                    ],
                },
                JSON_REPLY,
            );
            const err = await rejection(() => h.http.request("POST", "/v2/deployments", { body: {} }));
            assert.ok(err instanceof ValidationFailedError);
            assert.equal(
                err.message,
                "422 Unprocessable Entity: body.name: field required; body.secrets.0.value: str type expected (POST /v2/deployments)",
            );
            assert.equal(err.validation?.length, 2);
            assert.deepEqual(err.validation?.[0], { loc: ["body", "name"], msg: "field required", type: "missing" });
        });

        it("request: renders a single 422 entry as `body.name: field required`", async () => {
            h = harness();
            h.pool
                .intercept({ path: "/v2/deployments", method: "POST" })
                .reply(422, { detail: [{ loc: ["body", "name"], msg: "field required", type: "value_error.missing" }] }, JSON_REPLY);
            const err = await rejection(() => h.http.request("POST", "/v2/deployments", { body: {} }));
            assert.ok(err instanceof ValidationFailedError);
            assert.equal(err.detail, "body.name: field required");
        });

        it("request: renders a detail that is neither a string nor a validation list as JSON", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(409, { detail: { code: "exists", id: 3 } }, JSON_REPLY);
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(422, { detail: [{ oops: true }] }, JSON_REPLY);
            const a = await rejection(() => h.http.request("POST", "/v2/t", { body: {} }));
            const b = await rejection(() => h.http.request("POST", "/v2/t", { body: {} }));
            assert.ok(a instanceof ConflictError);
            assert.equal(a.detail, '{"code":"exists","id":3}');
            assert.ok(b instanceof ValidationFailedError);
            assert.equal(b.detail, '[{"oops":true}]');
            assert.equal(b.validation, undefined);
        });

        it("request: uses the raw body text when the error body is not JSON or has no detail", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(502, "  <html>Bad gateway</html>\n");
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(400, { message: "nope" }, JSON_REPLY);
            const a = await rejection(() => h.http.request("POST", "/v2/t", { body: {} }));
            const b = await rejection(() => h.http.request("POST", "/v2/t", { body: {} }));
            assert.ok(a instanceof ServerError);
            assert.equal(a.message, "502 Bad Gateway: <html>Bad gateway</html> (POST /v2/t)");
            assert.ok(b instanceof BadRequestError);
            assert.equal(b.detail, '{"message":"nope"}');
        });

        it("request: says `(empty response body)` when the error body is empty", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(400, "");
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {} }));
            assert.ok(err instanceof BadRequestError);
            assert.equal(err.message, "400 Bad Request: (empty response body) (POST /v2/t)");
        });

        it("request: truncates a very long error body to 2000 characters", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(400, "x".repeat(5000));
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {} }));
            assert.ok(err instanceof ApiError);
            assert.equal(err.detail.length, 2000);
        });
    });

    describe("where a failed request went (sources)", () => {
        const SOURCES = {
            baseUrl: "stack config langsmith:controlPlaneUrl",
            apiKey: "environment variable LANGSMITH_API_KEY",
            tenantId: "stack config langsmith:workspaceId",
        };

        it("request: a connection error names the address and the setting that chose it", async () => {
            h = harness({ maxRetries: 0, sources: SOURCES });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).replyWithError(netError("ENOTFOUND"));
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err instanceof ConnectionError);
            assert.equal(
                err.message,
                `request failed without a response: ENOTFOUND, the host name does not resolve (GET /v2/t) to ${BASE} (stack config langsmith:controlPlaneUrl)`,
            );
        });

        /** What a 401 (the key refused, not the workspace) adds: the way out. */
        const FIX_THE_KEY = ". Set the right key there (LangSmith: Settings -> API Keys) and run `pulumi up` again: nothing was changed, and `pulumi refresh` reads with the same key";
        for (const [status, Cls] of [[401, AuthenticationError], [403, PermissionDeniedError]] as const) {
            it(`request: a ${status} keeps the status and the server's words, and names the address and where the key and workspace id came from`, async () => {
                h = harness({ maxRetries: 0, sources: SOURCES });
                h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(status, { detail: `no access for ${API_KEY}` }, JSON_REPLY);
                const err = await rejection(() => h.http.request("GET", "/v2/t"));
                assert.ok(err instanceof Cls);
                assert.equal(
                    err.message,
                    `${status} ${status === 401 ? "Unauthorized" : "Forbidden"}: no access for [redacted] (GET /v2/t) to ${BASE} (stack config langsmith:controlPlaneUrl), ` +
                        "with the API key of environment variable LANGSMITH_API_KEY and the workspace id of stack config langsmith:workspaceId" +
                        (status === 401 ? FIX_THE_KEY : ""),
                );
                assert.ok(!err.message.includes(API_KEY));
            });
        }

        it("request: a 401 without a workspace id says none was sent", async () => {
            h = harness({ maxRetries: 0, tenantId: undefined, sources: { ...SOURCES, tenantId: undefined } });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(401, { detail: "bad key" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err.message.endsWith(`with the API key of environment variable LANGSMITH_API_KEY and no workspace id${FIX_THE_KEY}`), err.message);
        });

        it("request: other statuses do not name the credentials", async () => {
            h = harness({ maxRetries: 0, sources: SOURCES });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(404, { detail: "gone" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.equal(err.message, "404 Not Found: gone (GET /v2/t)");
        });

        it("request: the address is shown without user or password, and never with the API key", async () => {
            h = harness({ maxRetries: 0, baseUrl: `http://user:${API_KEY}@cp.test/api-host`, sources: SOURCES });
            h.pool.intercept({ path: "/api-host/v2/t", method: "GET" }).replyWithError(netError("ECONNREFUSED"));
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assert.ok(err instanceof ConnectionError);
            assert.equal(err.code, "ECONNREFUSED");
            assert.match(err.message, / to http:\/\/cp\.test\/api-host \(stack config langsmith:controlPlaneUrl\)$/);
            assert.ok(!err.message.includes(API_KEY));
            assert.ok(!err.message.includes("user"));
        });
    });

    describe("secrets", () => {
        const SECRET = "sk-openai-very-secret-value-9876";
        const OTHER = "another-secret-4321";

        function assertClean(err: unknown, ...values: string[]): void {
            assert.ok(err instanceof Error);
            for (const v of [API_KEY, ...values]) {
                assert.ok(!err.message.includes(v), `message leaks ${v}: ${err.message}`);
                assert.ok(!String(err.stack).includes(v), `stack leaks ${v}`);
                if (err instanceof ApiError) {
                    assert.ok(!err.detail.includes(v), `detail leaks ${v}`);
                    assert.ok(!err.path.includes(v), `path leaks ${v}`);
                }
            }
        }

        it("request: redacts the API key and secrets echoed in a string detail", async () => {
            h = harness();
            h.pool
                .intercept({ path: "/v2/deployments", method: "POST" })
                .reply(400, { detail: `bad key ${API_KEY} and secret ${SECRET} and ${OTHER}` }, JSON_REPLY);
            const err = await rejection(() =>
                h.http.request("POST", "/v2/deployments", { body: { secrets: [{ name: "A", value: SECRET }] }, secrets: [SECRET, OTHER] }),
            );
            assertClean(err, SECRET, OTHER);
            assert.ok(err instanceof BadRequestError);
            assert.equal(err.detail, "bad key [redacted] and secret [redacted] and [redacted]");
        });

        it("request: redacts secrets echoed in a non-JSON body", async () => {
            h = harness({ maxRetries: 0 });
            h.pool.intercept({ path: "/v2/deployments", method: "POST" }).reply(500, `Traceback: X-Api-Key=${API_KEY} value=${SECRET}`);
            const err = await rejection(() => h.http.request("POST", "/v2/deployments", { body: {}, secrets: [SECRET] }));
            assertClean(err, SECRET);
            assert.ok(err instanceof ServerError);
            assert.match(err.message, /X-Api-Key=\[redacted\] value=\[redacted\]/);
        });

        it("request: redacts secrets echoed in a 422 validation message", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/deployments", method: "POST" }).reply(
                422,
                { detail: [{ loc: ["body", "secrets", 0, "value"], msg: `value ${SECRET} is too long`, type: "too_long", input: SECRET }] },
                JSON_REPLY,
            );
            const err = await rejection(() => h.http.request("POST", "/v2/deployments", { body: {}, secrets: [SECRET] }));
            assertClean(err, SECRET);
            assert.ok(err instanceof ValidationFailedError);
            assert.equal(err.detail, "body.secrets.0.value: value [redacted] is too long");
        });

        it("request: redacts secrets echoed in a JSON object detail and in a body without detail", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(409, { detail: { echo: SECRET, key: API_KEY } }, JSON_REPLY);
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(400, { error: "x", headers: { "x-api-key": API_KEY } }, JSON_REPLY);
            const a = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, secrets: [SECRET] }));
            const b = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, secrets: [SECRET] }));
            assertClean(a, SECRET);
            assertClean(b, SECRET);
        });

        it("request: redacts the API key from errors of a GET after retries", async () => {
            h = harness({ maxRetries: 1 });
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(503, `key=${API_KEY}`).times(2);
            const err = await rejection(() => h.http.request("GET", "/v2/t"));
            assertClean(err);
        });

        it("request: redacts secrets from the path of an error", async () => {
            h = harness();
            h.pool.intercept({ path: (p) => p.startsWith("/v2/t/"), method: "GET" }).reply(404, { detail: "nope" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("GET", path`/v2/t/${SECRET}`, { secrets: [SECRET] }));
            assertClean(err, SECRET);
            assert.ok(err instanceof NotFoundError);
            assert.equal(err.path, "/v2/t/[redacted]");
        });

        it("request: never puts the API key in a ConnectionError", async () => {
            h = harness({ maxRetries: 0 });
            h.pool.intercept({ path: "/v2/t", method: "POST" }).replyWithError(netError("ECONNRESET"));
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: { v: SECRET }, secrets: [SECRET] }));
            assertClean(err, SECRET);
            assert.ok(!inspect(err).includes(API_KEY));
        });

        it("request: only the values passed in `secrets` (and the key) are redacted", async () => {
            h = harness();
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(400, { detail: "name my-app-name is taken" }, JSON_REPLY);
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, secrets: [SECRET] }));
            assert.ok(err instanceof ApiError);
            assert.equal(err.detail, "name my-app-name is taken");
        });

        it("request: does not leak the start of a secret cut by the 2000-character truncation", async () => {
            h = harness();
            const body = "e".repeat(1990) + SECRET;
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(400, body);
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, secrets: [SECRET] }));
            assert.ok(err instanceof ApiError);
            assert.ok(!err.message.includes(SECRET.slice(0, 10)), `message leaks ${SECRET.slice(0, 10)}`);
        });

        it("request: redacts a secret containing quotes or backslashes echoed inside a JSON object", async () => {
            h = harness();
            const tricky = 'pa"ss\\word-with-quote';
            h.pool.intercept({ path: "/v2/t", method: "POST" }).reply(409, { detail: { echo: tricky } }, JSON_REPLY);
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, secrets: [tricky] }));
            assert.ok(err instanceof ApiError);
            const escaped = JSON.stringify(tricky).slice(1, -1);
            assert.ok(!err.message.includes(tricky), "raw form leaked");
            assert.ok(!err.message.includes(escaped), `JSON-escaped form leaked: ${err.message}`);
        });

        it("request: does not keep secrets in the structured 422 entries", async () => {
            h = harness();
            h.pool
                .intercept({ path: "/v2/t", method: "POST" })
                .reply(422, { detail: [{ loc: ["body", "secrets", 0, "value"], msg: `bad value ${SECRET}`, type: "value_error" }] }, JSON_REPLY);
            const err = await rejection(() => h.http.request("POST", "/v2/t", { body: {}, secrets: [SECRET] }));
            assert.ok(err instanceof ValidationFailedError);
            assert.ok(!JSON.stringify(err.validation).includes(SECRET), "validation entries hold the secret");
            assert.ok(!inspect(err).includes(SECRET), "util.inspect(err) shows the secret");
        });
    });

    describe("body read failures", () => {
        let server: LoopbackServer | undefined;
        afterEach(async () => {
            await server?.close();
            server = undefined;
        });

        it("request: a body that fails after a 201 to a POST is an ambiguous ConnectionError", async () => {
            server = await loopbackServer((_req, res) => {
                res.writeHead(201, { "content-type": "application/json", "content-length": "200" });
                res.write('{"id":"1",');
                setTimeout(() => res.socket?.destroy(), 20);
            });
            const { http } = server;
            const err = await rejection(() => http.request("POST", "/v2/things", { body: {}, schema: Thing, expect: [201] }));
            assert.ok(err instanceof ConnectionError, `got ${(err as Error).name}: ${(err as Error).message}`);
            assert.equal(err.ambiguous, true);
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
