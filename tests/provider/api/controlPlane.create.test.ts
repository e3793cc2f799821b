/**
 * ControlPlaneClient's createDeployment against an undici MockAgent (no network) and a real loopback
 * server: after an answer that may hide a created deployment (5xx, a reset connection, a body that does not
 * fit or is cut off) it looks the deployment up by name and adopts it only if it is ours, instead of
 * resending blindly; what is retried and what is thrown; never a secret value in an error; and `isAmbiguous`,
 * which tells those failures from the others.
 */
import assert from "node:assert/strict";
import { ControlPlaneClient, isAmbiguous } from "../../../provider/api/controlPlane";
import {
    ApiError,
    BadRequestError,
    ConflictError,
    ConnectionError,
    RateLimitError,
    ServerError,
    UnexpectedResponseError,
    ValidationFailedError,
} from "../../../provider/api/errors";
import type { DeploymentCreateRequest } from "../../../provider/api/schemas/controlPlane";
import {
    API_KEY,
    DEPLOYMENT_ID as ID,
    JSON_REPLY,
    SECRET_VALUE,
    deployment,
    harness,
    loopbackServer,
    netError,
    rejection,
    useControlPlaneClient,
    type Harness,
    type LoopbackServer,
} from "./helpers";

function createBody(over: Partial<DeploymentCreateRequest> = {}): DeploymentCreateRequest {
    return {
        name: "my-app",
        source: "github",
        source_config: { integration_id: "int-1", repo_url: "https://github.com/acme/my-app", deployment_type: "dev" },
        source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
        secrets: [{ name: "OPENAI_API_KEY", value: SECRET_VALUE }],
        ...over,
    };
}

describe("ControlPlaneClient", () => {
    let h: Harness;
    let cp: ControlPlaneClient;
    // A test may give `h` and `cp` a harness of its own: the hooks, `listing` and `posts` use whatever `h` holds.
    const { listing } = useControlPlaneClient(
        (made) => ({ h, cp } = made),
        () => h,
    );

    /** Counts POST /v2/deployments calls answered by `answers` in order (the last one repeats). */
    function posts(...answers: Array<{ status: number; body?: unknown } | Error>): { count: number; bodies: unknown[] } {
        const state = { count: 0, bodies: [] as unknown[] };
        for (const a of answers) {
            const i = h.pool.intercept({ path: "/v2/deployments", method: "POST" });
            if (a instanceof Error) {
                // replyWithError cannot count; wrap by counting on the next answers only.
                i.replyWithError(a);
                continue;
            }
            i.reply((opts) => {
                state.count++;
                state.bodies.push(JSON.parse(String(opts.body)));
                return { statusCode: a.status, data: (a.body ?? "") as object, responseOptions: JSON_REPLY };
            });
        }
        return state;
    }

    describe("createDeployment", () => {
        for (const status of [201, 200]) {
            it(`createDeployment: returns the deployment on ${status}, not adopted`, async () => {
                const d = deployment();
                const state = posts({ status, body: d });
                const res = await cp.createDeployment(createBody());
                assert.equal(res.adopted, false);
                assert.equal(res.deployment.id, ID);
                assert.equal(res.deployment.name, "my-app");
                assert.equal(state.count, 1);
                assert.deepEqual(state.bodies[0], createBody());
                assert.equal(h.http.stats.total, 1);
            });
        }

        it("createDeployment: after a 500 lists by name_contains and adopts the exact-name match", async () => {
            posts({ status: 500, body: { detail: "internal error" } });
            const target = deployment({ id: "bbbbbbbb-0000-4000-8000-000000000002", name: "my-app" });
            const seen = listing([deployment({ id: "c1", name: "my-app-2" }), target, deployment({ id: "c3", name: "other" })]);
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, true);
            assert.equal(res.deployment.id, target.id);
            assert.deepEqual(seen, [{ limit: "100", offset: "0", name_contains: "my-app" }]);
            assert.equal(h.sleeps.length, 0, "the POST is not retried");
        });

        it("createDeployment: after a connection reset lists and adopts the exact-name match", async () => {
            posts(netError("ECONNRESET"));
            const target = deployment({ name: "my-app" });
            h.pool
                .intercept({ path: "/v2/deployments?limit=100&offset=0&name_contains=my-app", method: "GET" })
                .reply(200, { resources: [target] }, JSON_REPLY);
            const res = await cp.createDeployment(createBody());
            assert.deepEqual(res, { deployment: target, adopted: true });
            h.agent.assertNoPendingInterceptors();
        });

        it("createDeployment: after a 502 or 504 also looks the deployment up", async () => {
            for (const status of [502, 504]) {
                posts({ status });
                h.pool
                    .intercept({ path: "/v2/deployments?limit=100&offset=0&name_contains=my-app", method: "GET" })
                    .reply(200, { resources: [deployment()] }, JSON_REPLY);
                const res = await cp.createDeployment(createBody());
                assert.equal(res.adopted, true);
            }
            h.agent.assertNoPendingInterceptors();
        });

        it("createDeployment: ignores partial-name matches, sends once more, and throws when that fails too", async () => {
            const state = posts({ status: 500, body: { detail: "internal error" } }, { status: 500, body: { detail: "internal error" } });
            const seen = listing([
                deployment({ id: "c1", name: "my-app-2" }),
                deployment({ id: "c2", name: "old-my-app" }),
                deployment({ id: "c3", name: "MY-APP" }),
            ]);
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof ServerError);
            assert.equal(err.status, 500);
            // Sent twice, neither answer to go by, nothing found: the error says nothing was made (provider/api/reconcile.ts).
            assert.equal(
                err.message,
                "500 Internal Server Error: internal error (POST /v2/deployments). The create was sent twice, neither time with an answer to go by, and nothing either made was found: nothing was created. Run `pulumi up` again.",
            );
            assert.equal(state.count, 2, "sent exactly twice: once more after a clean miss, never a third time");
            assert.equal(seen.length, 2, "looked up after each unclean outcome");
        });

        it("createDeployment: a 503 (the service may have done the work) is looked up, not resent blindly, and ours is adopted", async () => {
            const state = posts({ status: 503, body: { detail: "unavailable" } });
            listing([deployment()]);
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, true);
            assert.equal(state.count, 1, "never resent");
        });

        it("createDeployment: a 409 on our name right after an ambiguous attempt adopts ours", async () => {
            const state = posts({ status: 500 }, { status: 409, body: { detail: "Deployment with name my-app already exists." } });
            let visible = false;
            h.pool
                .intercept({ path: (p) => p.split("?")[0] === "/v2/deployments", method: "GET" })
                .reply(() => {
                    // Our first attempt becomes visible only after the second POST (eventual consistency).
                    const resources = visible ? [deployment()] : [];
                    visible = true;
                    return { statusCode: 200, data: { resources, offset: 0 }, responseOptions: JSON_REPLY };
                })
                .persist();
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, true);
            assert.equal(state.count, 2);
        });

        it("createDeployment: a deployment of our name with another repository is someone else's: never adopted", async () => {
            posts({ status: 500 }, { status: 409, body: { detail: "Deployment with name my-app already exists." } });
            listing([deployment({ source_config: { repo_url: "https://github.com/someone/else" } })]);
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof ConflictError, `got ${err}`);
            assert.match(err.message, /already exists/);
        });

        it("createDeployment: a deployment of our name created before our first attempt is someone else's", async () => {
            posts({ status: 500 }, { status: 409, body: { detail: "Deployment with name my-app already exists." } });
            listing([deployment({ created_at: new Date(Date.now() - 3600_000).toISOString() })]);
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof ConflictError);
        });

        it("createDeployment: a 201 whose body does not match the contract is ambiguous: ours is adopted", async () => {
            const state = posts({ status: 201, body: { unexpected: true } });
            listing([deployment()]);
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, true);
            assert.equal(state.count, 1);
        });

        it("createDeployment: rethrows the ConnectionError when no deployment matches after the second attempt", async () => {
            posts(netError("ECONNRESET"), netError("ECONNRESET"));
            listing([]);
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof ConnectionError);
            assert.equal(err.ambiguous, true);
            assert.equal(err.code, "ECONNRESET");
        });

        for (const [status, Cls] of [
            [400, BadRequestError],
            [422, ValidationFailedError],
            [409, ConflictError],
        ] as const) {
            it(`createDeployment: a ${status} is thrown without any lookup`, async () => {
                const body = status === 422 ? { detail: [{ loc: ["body", "name"], msg: "field required", type: "missing" }] } : { detail: "no" };
                const state = posts({ status, body });
                // No GET interceptor: a lookup would fail the test (and is counted by stats).
                const err = await rejection(() => cp.createDeployment(createBody()));
                assert.ok(err instanceof Cls, `got ${(err as Error).name}`);
                assert.equal(state.count, 1);
                assert.equal(h.http.stats.total, 1);
                assert.equal(h.http.stats.byRoute.get("GET /v2/deployments"), undefined);
            });
        }

        it("createDeployment: a refused connection is retried, never looked up", async () => {
            posts(netError("ECONNREFUSED"), { status: 201, body: deployment() });
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, false);
            assert.equal(h.sleeps.length, 1);
            assert.equal(h.http.stats.byRoute.get("GET /v2/deployments"), undefined);
        });

        it("createDeployment: 429 (not processed) is retried by the client and never looked up", async () => {
            posts({ status: 429 }, { status: 429 }, { status: 201, body: deployment() });
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, false);
            assert.equal(h.sleeps.length, 2);
            assert.equal(h.http.stats.total, 3);
            assert.equal(h.http.stats.byRoute.get("GET /v2/deployments"), undefined);
        });

        it("createDeployment: a 429 until the deadline is thrown without a lookup", async () => {
            h = harness({ maxRetries: 0, retryBudgetMs: 0 });
            cp = new ControlPlaneClient(h.http);
            posts({ status: 429 });
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof RateLimitError);
            assert.equal(h.http.stats.total, 1);
        });

        it("createDeployment: finds the exact-name match on a later page", async () => {
            posts({ status: 500 });
            const many = Array.from({ length: 150 }, (_, i) => deployment({ id: `p-${i}`, name: `my-app-${i}` }));
            many[130] = deployment({ id: "the-one", name: "my-app" });
            const seen = listing(many);
            const res = await cp.createDeployment(createBody());
            assert.equal(res.adopted, true);
            assert.equal(res.deployment.id, "the-one");
            assert.deepEqual(
                seen.map((q) => q.offset),
                ["0", "100"],
            );
        });

        it("createDeployment: never shows the secret values in its error, even if echoed", async () => {
            posts({ status: 400, body: { detail: `invalid secret ${SECRET_VALUE} for key ${API_KEY}` } });
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof BadRequestError);
            assert.ok(!err.message.includes(SECRET_VALUE));
            assert.ok(!err.message.includes(API_KEY));
            assert.equal(err.detail, "invalid secret [redacted] for key [redacted]");
        });

        it("createDeployment: never shows the secret values in a rethrown ambiguous error", async () => {
            posts({ status: 500, body: { detail: `crashed on ${SECRET_VALUE}` } }, { status: 500, body: { detail: `crashed on ${SECRET_VALUE}` } });
            listing([]);
            const err = await rejection(() => cp.createDeployment(createBody()));
            assert.ok(err instanceof ServerError);
            assert.ok(!err.message.includes(SECRET_VALUE));
        });
    });

    describe("body read failures", () => {
        let server: LoopbackServer | undefined;
        afterEach(async () => {
            await server?.close();
            server = undefined;
        });

        it("createDeployment: adopts the deployment when the 201 body is cut off", async () => {
            const created = deployment();
            server = await loopbackServer((req, res) => {
                if (req.method === "POST") {
                    res.writeHead(201, { "content-type": "application/json", "content-length": "500" });
                    res.write('{"id":');
                    setTimeout(() => res.socket?.destroy(), 20);
                    return;
                }
                res.writeHead(200, { "content-type": "application/json" });
                res.end(JSON.stringify({ resources: [created] }));
            });
            const res = await new ControlPlaneClient(server.http).createDeployment(createBody());
            assert.equal(res.adopted, true);
            assert.equal(res.deployment.id, created.id);
        });
    });
});

describe("isAmbiguous", () => {
    const init = { method: "POST", path: "/v2/deployments", detail: "x" };
    it("isAmbiguous: true for 500, 502, 503, 504, a success with an unexpected body, and an ambiguous ConnectionError", () => {
        for (const status of [500, 502, 503, 504]) assert.equal(isAmbiguous(ApiError.from(status, "POST", "/p", "")), true, String(status));
        assert.equal(isAmbiguous(new ServerError({ status: 503, ...init })), true);
        assert.equal(isAmbiguous(new UnexpectedResponseError("POST", "/p", 201, "id: required")), true);
        assert.equal(isAmbiguous(new ConnectionError("POST", "/p", { code: "ECONNRESET" }, true)), true);
    });
    it("isAmbiguous: false for 501, 4xx (429 included: not processed), a refused connection and non-API errors", () => {
        assert.equal(isAmbiguous(ApiError.from(501, "POST", "/p", "")), false);
        for (const status of [400, 404, 409, 422, 429]) assert.equal(isAmbiguous(ApiError.from(status, "POST", "/p", "")), false, String(status));
        assert.equal(isAmbiguous(new ConnectionError("POST", "/p", { code: "ECONNREFUSED" }, false)), false);
        assert.equal(isAmbiguous(new Error("boom")), false);
        assert.equal(isAmbiguous(undefined), false);
    });
});
