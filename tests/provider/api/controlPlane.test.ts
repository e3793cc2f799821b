import assert from "node:assert/strict";
import { ControlPlaneClient, isAmbiguous, patchIsApplied } from "../../../provider/api/controlPlane";
import {
    ApiError,
    BadRequestError,
    ConflictError,
    ConnectionError,
    NotFoundError,
    RateLimitError,
    ServerError,
    UnexpectedResponseError,
    ValidationFailedError,
} from "../../../provider/api/errors";
import type { DeploymentCreateRequest, DeploymentPatchRequest } from "../../../provider/api/schemas/controlPlane";
import {
    API_KEY,
    JSON_REPLY,
    deployment,
    harness,
    loopbackServer,
    netError,
    rejection,
    revision,
    type Harness,
    type LoopbackServer,
} from "./helpers";

const ID = "aaaaaaaa-0000-4000-8000-000000000001";
const SECRET_VALUE = "sk-very-secret-openai-key-000";

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

/** Query of a list request as a plain object. */
function queryOf(p: string): Record<string, string> {
    return Object.fromEntries(new URLSearchParams(p.split("?")[1] ?? ""));
}

describe("ControlPlaneClient", () => {
    let h: Harness;
    let cp: ControlPlaneClient;
    beforeEach(() => {
        h = harness();
        cp = new ControlPlaneClient(h.http);
    });
    afterEach(async () => {
        await h.agent.close();
    });

    /** Registers a persistent list interceptor answering pages from `all`; records the queries seen. */
    function listing(all: ReturnType<typeof deployment>[]): Array<Record<string, string>> {
        const seen: Array<Record<string, string>> = [];
        h.pool
            .intercept({ path: (p) => p.split("?")[0] === "/v2/deployments", method: "GET" })
            .reply((opts) => {
                const q = queryOf(opts.path);
                seen.push(q);
                const offset = Number(q.offset ?? 0);
                const limit = Number(q.limit ?? 10);
                const filtered = q.name_contains ? all.filter((d) => d.name.includes(q.name_contains)) : all;
                return { statusCode: 200, data: { resources: filtered.slice(offset, offset + limit), offset }, responseOptions: JSON_REPLY };
            })
            .persist();
        return seen;
    }

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
            assert.equal(err.message, "500 Internal Server Error: internal error (POST /v2/deployments)");
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
                const body =
                    status === 422
                        ? { detail: [{ loc: ["body", "name"], msg: "field required", type: "missing" }] }
                        : { detail: "no" };
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

    describe("findDeploymentByName / listAllDeployments", () => {
        it("findDeploymentByName: walks pages of 100 until a short page", async () => {
            const all = Array.from({ length: 250 }, (_, i) => deployment({ id: `d-${i}`, name: `svc-${i}` }));
            const seen = listing(all);
            const found = await cp.findDeploymentByName("svc-249");
            assert.equal(found?.id, "d-249");
            assert.deepEqual(seen, [
                { limit: "100", offset: "0", name_contains: "svc-249" },
                // svc-249 alone matches name_contains; page one is short, so one request.
            ]);
            seen.length = 0;
            const walked = await cp.listAllDeployments("svc-");
            assert.equal(walked.length, 250);
            assert.deepEqual(
                seen.map((q) => [q.limit, q.offset]),
                [
                    ["100", "0"],
                    ["100", "100"],
                    ["100", "200"],
                ],
            );
        });

        it("findDeploymentByName: on an exact multiple of 100 asks for one more (empty) page and stops", async () => {
            const all = Array.from({ length: 200 }, (_, i) => deployment({ id: `d-${i}`, name: `app-${i}` }));
            const seen = listing(all);
            const found = await cp.findDeploymentByName("app");
            assert.equal(found, undefined);
            assert.deepEqual(
                seen.map((q) => q.offset),
                ["0", "100", "200"],
            );
        });

        it("findDeploymentByName: answers the exact match only, undefined otherwise", async () => {
            listing([deployment({ id: "1", name: "app-x" }), deployment({ id: "2", name: "app" }), deployment({ id: "3", name: "xapp" })]);
            assert.equal((await cp.findDeploymentByName("app"))?.id, "2");
            assert.equal(await cp.findDeploymentByName("ap"), undefined);
        });

        it("findDeploymentByName: encodes the name in the query", async () => {
            const seenPaths: string[] = [];
            h.pool
                .intercept({ path: (p) => p.startsWith("/v2/deployments?"), method: "GET" })
                .reply((opts) => {
                    seenPaths.push(opts.path);
                    return { statusCode: 200, data: { resources: [deployment({ name: "a b&c" })] }, responseOptions: JSON_REPLY };
                });
            const found = await cp.findDeploymentByName("a b&c");
            assert.equal(found?.name, "a b&c");
            assert.equal(queryOf(seenPaths[0]).name_contains, "a b&c");
        });

        it("listDeployments: sends limit, offset and name_contains only when given", async () => {
            const seen = listing([deployment()]);
            await cp.listDeployments();
            await cp.listDeployments({ limit: 5, offset: 10, nameContains: "x" });
            assert.deepEqual(seen, [{}, { limit: "5", offset: "10", name_contains: "x" }]);
        });
    });

    describe("getDeployment / tryGetDeployment", () => {
        it("getDeployment: GETs the encoded id and parses the deployment", async () => {
            h.pool.intercept({ path: "/v2/deployments/a%2Fb", method: "GET" }).reply(200, deployment({ id: "a/b" }), JSON_REPLY);
            const d = await cp.getDeployment("a/b");
            assert.equal(d.id, "a/b");
        });

        it("tryGetDeployment: answers undefined on 404 and rethrows other errors", async () => {
            h = harness({ maxRetries: 0 });
            cp = new ControlPlaneClient(h.http);
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(404, { detail: `Deployment ID ${ID} not found.` }, JSON_REPLY);
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(500, "");
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(200, deployment(), JSON_REPLY);
            assert.equal(await cp.tryGetDeployment(ID), undefined);
            await assert.rejects(cp.tryGetDeployment(ID), ServerError);
            assert.equal((await cp.tryGetDeployment(ID))?.id, ID);
        });
    });

    describe("patchDeployment", () => {
        const PATCH: DeploymentPatchRequest = { source_revision_config: { repo_ref: "release" } };

        function patches(...answers: Array<{ status: number; body?: unknown } | Error>): { count: number } {
            const state = { count: 0 };
            for (const a of answers) {
                const i = h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "PATCH" });
                if (a instanceof Error) {
                    i.replyWithError(a);
                    continue;
                }
                i.reply(() => {
                    state.count++;
                    return { statusCode: a.status, data: (a.body ?? "") as object, responseOptions: JSON_REPLY };
                });
            }
            return state;
        }

        it("patchDeployment: sends the body and returns the deployment", async () => {
            let sent: unknown;
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "PATCH" }).reply((opts) => {
                sent = JSON.parse(String(opts.body));
                return { statusCode: 200, data: deployment({ latest_revision_id: "rev-2" }), responseOptions: JSON_REPLY };
            });
            const d = await cp.patchDeployment(ID, PATCH, "rev-1");
            assert.equal(d.latest_revision_id, "rev-2");
            assert.deepEqual(sent, PATCH);
            assert.equal(h.http.stats.total, 1);
        });

        it("patchDeployment: after a 500, does not resend when the change is there and a new revision exists", async () => {
            const state = patches({ status: 500 });
            const current = deployment({ latest_revision_id: "rev-2", source_revision_config: { repo_ref: "main" } });
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(200, current, JSON_REPLY);
            h.pool
                .intercept({ path: `/v2/deployments/${ID}/revisions/rev-2`, method: "GET" })
                .reply(200, revision({ id: "rev-2", status: "QUEUED", source_revision_config: { repo_ref: "release" } }), JSON_REPLY);
            const d = await cp.patchDeployment(ID, PATCH, "rev-1");
            assert.equal(d.latest_revision_id, "rev-2");
            assert.equal(state.count, 1, "PATCH sent once");
            h.agent.assertNoPendingInterceptors();
        });

        it("patchDeployment: after a connection reset, does not resend when the change is there", async () => {
            patches(netError("ECONNRESET"));
            const current = deployment({ latest_revision_id: "rev-2" });
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(200, current, JSON_REPLY);
            h.pool
                .intercept({ path: `/v2/deployments/${ID}/revisions/rev-2`, method: "GET" })
                .reply(200, revision({ id: "rev-2", source_revision_config: { repo_ref: "release" } }), JSON_REPLY);
            const d = await cp.patchDeployment(ID, PATCH, "rev-1");
            assert.equal(d.latest_revision_id, "rev-2");
            assert.equal(h.http.stats.byRoute.get(`PATCH /v2/deployments/{id}`), 1);
            h.agent.assertNoPendingInterceptors();
        });

        it("patchDeployment: after a 500, resends when no new revision exists", async () => {
            const state = patches({ status: 500 }, { status: 200, body: deployment({ latest_revision_id: "rev-2" }) });
            // The deployment already shows the ref (e.g. from a previous identical PATCH) but no new revision.
            h.pool
                .intercept({ path: `/v2/deployments/${ID}`, method: "GET" })
                .reply(200, deployment({ latest_revision_id: "rev-1" }), JSON_REPLY);
            h.pool
                .intercept({ path: `/v2/deployments/${ID}/revisions/rev-1`, method: "GET" })
                .reply(200, revision({ id: "rev-1", source_revision_config: { repo_ref: "release" } }), JSON_REPLY);
            const d = await cp.patchDeployment(ID, PATCH, "rev-1");
            assert.equal(d.latest_revision_id, "rev-2");
            assert.equal(state.count, 2, "PATCH resent");
            h.agent.assertNoPendingInterceptors();
        });

        it("patchDeployment: after a connection reset, resends when the change is not there", async () => {
            const state = patches(netError("ECONNRESET"), { status: 200, body: deployment({ latest_revision_id: "rev-9" }) });
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(200, deployment({ latest_revision_id: "rev-3" }), JSON_REPLY);
            h.pool
                .intercept({ path: `/v2/deployments/${ID}/revisions/rev-3`, method: "GET" })
                .reply(200, revision({ id: "rev-3", source_revision_config: { repo_ref: "main" } }), JSON_REPLY);
            const d = await cp.patchDeployment(ID, PATCH, "rev-1");
            assert.equal(d.latest_revision_id, "rev-9");
            assert.equal(state.count, 1, "the second PATCH (first was a reset) was answered");
            assert.equal(h.http.stats.byRoute.get("PATCH /v2/deployments/{id}"), 2);
            h.agent.assertNoPendingInterceptors();
        });

        it("patchDeployment: with no latest revision, reads only the deployment", async () => {
            const body: DeploymentPatchRequest = { source_config: { build_on_push: true } };
            const state = patches({ status: 502 });
            h.pool
                .intercept({ path: `/v2/deployments/${ID}`, method: "GET" })
                .reply(200, deployment({ latest_revision_id: null, source_config: { build_on_push: true } }), JSON_REPLY);
            const d = await cp.patchDeployment(ID, body);
            assert.equal(d.source_config?.build_on_push, true);
            assert.equal(state.count, 1);
            assert.equal(h.http.stats.byRoute.get("GET /v2/deployments/{id}/revisions/rev-1"), undefined);
            h.agent.assertNoPendingInterceptors();
        });

        it("patchDeployment: the resend's own error is thrown", async () => {
            patches({ status: 500 }, { status: 409, body: { detail: "busy" } });
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(200, deployment({ latest_revision_id: "rev-1" }), JSON_REPLY);
            h.pool.intercept({ path: `/v2/deployments/${ID}/revisions/rev-1`, method: "GET" }).reply(200, revision(), JSON_REPLY);
            const err = await rejection(() => cp.patchDeployment(ID, PATCH, "rev-1"));
            assert.ok(err instanceof ConflictError);
        });

        for (const [status, Cls] of [
            [400, BadRequestError],
            [404, NotFoundError],
            [409, ConflictError],
            [422, ValidationFailedError],
        ] as const) {
            it(`patchDeployment: a ${status} is thrown without reading or resending`, async () => {
                const state = patches({ status, body: { detail: "no" } });
                const err = await rejection(() => cp.patchDeployment(ID, PATCH, "rev-1"));
                assert.ok(err instanceof Cls);
                assert.equal(state.count, 1);
                assert.equal(h.http.stats.total, 1);
            });
        }

        it("patchDeployment: passes secret values for redaction", async () => {
            patches({ status: 400, body: { detail: `bad ${SECRET_VALUE}` } });
            const err = await rejection(() =>
                cp.patchDeployment(ID, { secrets: [{ name: "OPENAI_API_KEY", value: SECRET_VALUE }] }, "rev-1"),
            );
            assert.ok(err instanceof ApiError);
            assert.ok(!err.message.includes(SECRET_VALUE));
        });
    });

    describe("deleteDeployment", () => {
        it("deleteDeployment: answers true on 204", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(204, "");
            assert.equal(await cp.deleteDeployment(ID), true);
        });

        it("deleteDeployment: answers true on 200 and 202", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(200, { ok: true }, JSON_REPLY);
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(202, "");
            assert.equal(await cp.deleteDeployment(ID), true);
            assert.equal(await cp.deleteDeployment(ID), true);
        });

        it("deleteDeployment: answers false on 404", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(404, { detail: "gone" }, JSON_REPLY);
            assert.equal(await cp.deleteDeployment(ID), false);
            assert.equal(h.sleeps.length, 0);
        });

        it("deleteDeployment: retries a 500 (idempotent) and answers false when the retry finds it gone", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(500, "");
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(404, { detail: "gone" }, JSON_REPLY);
            assert.equal(await cp.deleteDeployment(ID), false);
            assert.equal(h.sleeps.length, 1);
        });

        it("deleteDeployment: rethrows other errors", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "DELETE" }).reply(409, { detail: "busy" }, JSON_REPLY);
            await assert.rejects(cp.deleteDeployment(ID), ConflictError);
        });
    });

    describe("revisions", () => {
        it("latestRevision: returns the first of the list, asking for one", async () => {
            let seenPath = "";
            h.pool.intercept({ path: (p) => p.startsWith(`/v2/deployments/${ID}/revisions`), method: "GET" }).reply((opts) => {
                seenPath = opts.path;
                return {
                    statusCode: 200,
                    data: { resources: [revision({ id: "rev-3" }), revision({ id: "rev-2" })] },
                    responseOptions: JSON_REPLY,
                };
            });
            const r = await cp.latestRevision(ID);
            assert.equal(r?.id, "rev-3");
            assert.equal(seenPath, `/v2/deployments/${ID}/revisions?limit=1`);
        });

        it("latestRevision: answers undefined when there is no revision", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}/revisions?limit=1`, method: "GET" }).reply(200, { resources: [] }, JSON_REPLY);
            assert.equal(await cp.latestRevision(ID), undefined);
        });

        it("listRevisions: joins statuses with commas", async () => {
            let q: Record<string, string> = {};
            h.pool.intercept({ path: (p) => p.startsWith(`/v2/deployments/${ID}/revisions?`), method: "GET" }).reply((opts) => {
                q = queryOf(opts.path);
                return { statusCode: 200, data: { resources: [] }, responseOptions: JSON_REPLY };
            });
            await cp.listRevisions(ID, { limit: 10, offset: 20, status: ["DEPLOYED", "BUILDING"] });
            assert.deepEqual(q, { limit: "10", offset: "20", status: "DEPLOYED,BUILDING" });
        });

        it("listRevisions: keeps an unknown status value (forward compatibility)", async () => {
            h.pool
                .intercept({ path: `/v2/deployments/${ID}/revisions`, method: "GET" })
                .reply(200, { resources: [revision({ status: "HIBERNATING" })] }, JSON_REPLY);
            const list = await cp.listRevisions(ID);
            assert.equal(list.resources[0].status, "HIBERNATING");
        });

        it("getRevision: GETs the encoded ids", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}/revisions/r%20x`, method: "GET" }).reply(200, revision({ id: "r x" }), JSON_REPLY);
            assert.equal((await cp.getRevision(ID, "r x")).id, "r x");
        });

        it("redeployRevision: POSTs to the redeploy endpoint and accepts 200 or 201", async () => {
            h.pool.intercept({ path: `/v2/deployments/${ID}/revisions/rev-1/redeploy`, method: "POST" }).reply(201, deployment(), JSON_REPLY);
            h.pool.intercept({ path: `/v2/deployments/${ID}/revisions/rev-1/redeploy`, method: "POST" }).reply(200, deployment(), JSON_REPLY);
            assert.equal((await cp.redeployRevision(ID, "rev-1")).id, ID);
            assert.equal((await cp.redeployRevision(ID, "rev-1")).id, ID);
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

describe("patchIsApplied", () => {
    const current = deployment({
        latest_revision_id: "rev-2",
        source_config: { integration_id: "int-1", deployment_type: "dev", build_on_push: false, resource_spec: { min_scale: 1 } },
        source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
    });
    const latest = revision({ id: "rev-2", source_revision_config: { repo_ref: "release", langgraph_config_path: "graphs/lg.json" } });

    it("patchIsApplied: an empty body is applied", () => {
        assert.equal(patchIsApplied({}, current, latest, "rev-1"), true);
        assert.equal(patchIsApplied({}, current, latest, "rev-2"), true);
    });

    it("patchIsApplied: compares source_config fields, ignoring null and undefined ones", () => {
        assert.equal(patchIsApplied({ source_config: { build_on_push: false, deployment_type: null } }, current, latest), true);
        assert.equal(patchIsApplied({ source_config: { build_on_push: true } }, current, latest), false);
        assert.equal(patchIsApplied({ source_config: { resource_spec: { min_scale: 1 } } }, current, latest), true);
        assert.equal(patchIsApplied({ source_config: { resource_spec: { min_scale: 2 } } }, current, latest), false);
        assert.equal(patchIsApplied({ source_config: { custom_url: "https://x" } }, current, latest), false);
    });

    it("patchIsApplied: a source_config-only change does not need a new revision", () => {
        assert.equal(patchIsApplied({ source_config: { build_on_push: false } }, current, latest, "rev-2"), true);
    });

    it("patchIsApplied: compares source_revision_config against the latest revision", () => {
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "release" } }, current, latest, "rev-1"), true);
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "main" } }, current, latest, "rev-1"), false);
        assert.equal(patchIsApplied({ source_revision_config: { langgraph_config_path: "graphs/lg.json" } }, current, latest, "rev-1"), true);
        assert.equal(patchIsApplied({ source_revision_config: { langgraph_config_path: "other.json" } }, current, latest, "rev-1"), false);
    });

    it("patchIsApplied: accepts the stand-in graph_config_path of docs/service.md R1 on either side", () => {
        const specLatest = revision({ id: "rev-2", source_revision_config: { repo_ref: "release", graph_config_path: "g.json" } });
        assert.equal(patchIsApplied({ source_revision_config: { graph_config_path: "g.json" } }, current, specLatest, "rev-1"), true);
        assert.equal(patchIsApplied({ source_revision_config: { langgraph_config_path: "g.json" } }, current, specLatest, "rev-1"), true);
        assert.equal(patchIsApplied({ source_revision_config: { graph_config_path: "h.json" } }, current, specLatest, "rev-1"), false);
    });

    it("patchIsApplied: compares image_uri", () => {
        const img = revision({ id: "rev-2", source_revision_config: { image_uri: "docker.io/acme/app:2" } });
        assert.equal(patchIsApplied({ source_revision_config: { image_uri: "docker.io/acme/app:2" } }, current, img, "rev-1"), true);
        assert.equal(patchIsApplied({ source_revision_config: { image_uri: "docker.io/acme/app:3" } }, current, img, "rev-1"), false);
    });

    it("patchIsApplied: falls back to the deployment's source_revision_config without a revision", () => {
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "main" } }, current, undefined), true);
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "release" } }, current, undefined), false);
    });

    it("patchIsApplied: a revision-making change is not applied while latest_revision_id is still the previous one", () => {
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "release" } }, current, latest, "rev-2"), false);
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "release" } }, current, latest, "rev-1"), true);
        // Without a previous revision id to compare, matching fields are enough.
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "release" } }, current, latest, undefined), true);
        assert.equal(patchIsApplied({ source_revision_config: { repo_ref: "release" } }, current, latest, null), true);
    });

    it("patchIsApplied: secrets make a revision: applied only once a new revision exists", () => {
        const body: DeploymentPatchRequest = { secrets: [{ name: "K", value: "v-secret" }] };
        assert.equal(patchIsApplied(body, current, latest, "rev-2"), false);
        assert.equal(patchIsApplied(body, current, latest, "rev-1"), true);
        // An empty secrets list makes no revision.
        assert.equal(patchIsApplied({ secrets: [] }, current, latest, "rev-2"), true);
    });

    it("patchIsApplied: a source_revision_config of nulls makes no revision", () => {
        const body: DeploymentPatchRequest = { source_revision_config: { repo_ref: null, image_uri: null } };
        assert.equal(patchIsApplied(body, current, latest, "rev-2"), true);
    });

    it("patchIsApplied: handles a deployment without source_config", () => {
        const bare = deployment({ source_config: null, latest_revision_id: "rev-2" });
        assert.equal(patchIsApplied({ source_config: { build_on_push: true } }, bare, latest), false);
    });
});
