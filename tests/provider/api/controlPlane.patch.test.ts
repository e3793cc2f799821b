/**
 * ControlPlaneClient's patchDeployment against an undici MockAgent (no network): after an ambiguous failure
 * the PATCH is resent only when the deployment and its latest revision do not show the change yet; errors
 * thrown without reading or resending, secret values never shown; and `patchIsApplied`, which decides that.
 */
import assert from "node:assert/strict";
import { type ControlPlaneClient, patchIsApplied } from "../../../provider/api/controlPlane";
import { ApiError, BadRequestError, ConflictError, NotFoundError, ValidationFailedError } from "../../../provider/api/errors";
import type { DeploymentPatchRequest } from "../../../provider/api/schemas/controlPlane";
import { DEPLOYMENT_ID as ID, JSON_REPLY, SECRET_VALUE, deployment, netError, rejection, revision, useControlPlaneClient, type Harness } from "./helpers";

describe("ControlPlaneClient", () => {
    let h: Harness;
    let cp: ControlPlaneClient;
    useControlPlaneClient(
        (made) => ({ h, cp } = made),
        () => h,
    );

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
            h.pool.intercept({ path: `/v2/deployments/${ID}`, method: "GET" }).reply(200, deployment({ latest_revision_id: "rev-1" }), JSON_REPLY);
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
            const err = await rejection(() => cp.patchDeployment(ID, { secrets: [{ name: "OPENAI_API_KEY", value: SECRET_VALUE }] }, "rev-1"));
            assert.ok(err instanceof ApiError);
            assert.ok(!err.message.includes(SECRET_VALUE));
        });
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
