/**
 * HttpClient's failures against an undici MockAgent (no network) and a real loopback server: each status
 * mapped to its error class with the service's words, where a failed request went (which setting gave the
 * URL, key and tenant), secrets and the API key never shown in an error, and a body that fails mid-read.
 */
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { path } from "../../../provider/api/client";
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
    ValidationFailedError,
} from "../../../provider/api/errors";
import { DeploymentSchema } from "../../../provider/api/schemas/controlPlane";
import { API_KEY, BASE, JSON_REPLY, Thing, closeHarness, harness, loopbackServer, netError, rejection, type Harness, type LoopbackServer } from "./helpers";

describe("HttpClient", () => {
    let h: Harness;
    afterEach(async () => (h = await closeHarness(h)));

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
            assert.equal(err.message, "422 Unprocessable Entity: body.name: field required; body.secrets.0.value: str type expected (POST /v2/deployments)");
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
        const FIX_THE_KEY =
            ". Set the right key there (LangSmith: Settings -> API Keys) and run `pulumi up` again: nothing was changed, and `pulumi refresh` reads with the same key";
        for (const [status, Cls] of [
            [401, AuthenticationError],
            [403, PermissionDeniedError],
        ] as const) {
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
            h.pool
                .intercept({ path: "/v2/deployments", method: "POST" })
                .reply(
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
});
