/**
 * HttpClient's retries against an undici MockAgent (no network, a fake sleep that records the delays):
 * idempotent requests (GET, DELETE) retried on 5xx, 429 and connection errors, honouring Retry-After or
 * backing off exponentially with jitter, up to maxRetries; and creating requests (POST, PATCH), resent only
 * when the service cannot have processed them (429, a connection never made), otherwise thrown as ambiguous.
 */
import assert from "node:assert/strict";
import { ApiError, ConnectionError, RateLimitError, ServerError } from "../../../provider/api/errors";
import { isAmbiguous } from "../../../provider/api/controlPlane";
import { BASE, JSON_REPLY, Thing, closeHarness, harness, netError, rejection, type Harness } from "./helpers";

/** Asserts lo <= x <= hi. */
function inRange(x: number, lo: number, hi: number, what: string): void {
    assert.ok(x >= lo && x <= hi, `${what}: ${x} not in [${lo}, ${hi}]`);
}

describe("HttpClient", () => {
    let h: Harness;
    afterEach(async () => (h = await closeHarness(h)));

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
            h.pool.intercept({ path: "/v2/t", method: "GET" }).reply(503, "", { headers: { "retry-after": new Date(Date.now() - 60_000).toUTCString() } });
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

        for (const [code, retries] of [
            ["ENOTFOUND", 1],
            ["ECONNREFUSED", 2],
        ] as const) {
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

                h.pool
                    .intercept({ path: "/v2/t", method: "POST" })
                    .reply(429, { detail: "slow down" }, { headers: { "content-type": "application/json", "retry-after": "1" } })
                    .persist();
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
});
