/**
 * Who reaches what on the emulated control plane, over real HTTP through the real client and raw: tenants
 * that never see each other's deployments, ids that are not uuids, authentication, the self-hosted prefix
 * /api-host and what each kind of installation deploys, and the routes not emulated (501, 404, 405).
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { AuthenticationError, NotImplementedError, PermissionDeniedError } from "../../provider/api/errors";
import { OTHER_TENANT, controlPlaneClient, dockerBody, githubBody, raw, rejection, startTestEmulator, type Emulator } from "../helpers/emulator";
import { MISSING_ID, useControlPlaneEmulator, validationDetail } from "../helpers/controlPlaneEmulator";

describe("emulator: control plane", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;
    let other: ControlPlaneClient;
    useControlPlaneEmulator((w) => ({ em, cp, other } = w));

    describe("tenants and authentication", () => {
        it("get: a deployment of another tenant answers 404 with Deployment ID <id> not found.", async () => {
            const { deployment } = await cp.createDeployment(githubBody());
            const res = await raw(em, "GET", `/v2/deployments/${deployment.id}`, { tenantId: OTHER_TENANT });
            assert.equal(res.status, 404);
            assert.deepEqual(res.body, { detail: `Deployment ID ${deployment.id} not found.` });
            assert.equal(await other.tryGetDeployment(deployment.id), undefined);
        });

        it("tenants: lists, revisions, PATCH and DELETE of another tenant are invisible", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            assert.equal((await other.listDeployments()).resources.length, 0);
            for (const [method, path, body] of [
                ["GET", `/v2/deployments/${d.id}/revisions`],
                ["GET", `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`],
                ["PATCH", `/v2/deployments/${d.id}`, { source_config: { build_on_push: true } }],
                ["DELETE", `/v2/deployments/${d.id}`],
                ["POST", `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}/redeploy`],
            ] as const) {
                const res = await raw(em, method, path, { tenantId: OTHER_TENANT, body });
                assert.equal(res.status, 404, `${method} ${path}`);
                assert.deepEqual(res.body, { detail: `Deployment ID ${d.id} not found.` });
            }
            const still = await cp.getDeployment(d.id);
            assert.equal(still.source_config?.build_on_push, false);
            assert.equal(still.status, "READY");
        });

        it("get: a non-uuid deployment id gives 422 located at path.deployment_id", async () => {
            for (const path of ["/v2/deployments/not-a-uuid", "/v2/deployments/not-a-uuid/revisions"]) {
                const res = await raw(em, "GET", path);
                assert.equal(res.status, 422, path);
                assert.deepEqual(validationDetail(res.body)[0].loc, ["path", "deployment_id"]);
            }
            const patch = await raw(em, "PATCH", "/v2/deployments/123", { body: {} });
            assert.equal(patch.status, 422);
            assert.deepEqual(validationDetail(patch.body)[0].loc, ["path", "deployment_id"]);
            const del = await raw(em, "DELETE", "/v2/deployments/123");
            assert.equal(del.status, 422);
        });

        it("get revision: a non-uuid revision id gives 422 located at path.revision_id", async () => {
            const { deployment } = await cp.createDeployment(githubBody());
            const res = await raw(em, "GET", `/v2/deployments/${deployment.id}/revisions/latest`);
            assert.equal(res.status, 422);
            assert.deepEqual(validationDetail(res.body)[0].loc, ["path", "revision_id"]);
        });

        it("auth: a missing API key gives 401", async () => {
            const res = await raw(em, "GET", "/v2/deployments", { apiKey: null });
            assert.equal(res.status, 401);
            assert.equal(typeof res.body.detail, "string");
            const empty = await raw(em, "GET", "/v2/deployments", { apiKey: "" });
            assert.equal(empty.status, 401);
        });

        it("auth: a missing tenant gives 403", async () => {
            const res = await raw(em, "GET", "/v2/deployments", { tenantId: null });
            assert.equal(res.status, 403);
            assert.equal(typeof res.body.detail, "string");
            const noTenant = controlPlaneClient(em, { tenantId: undefined });
            const e = await rejection(() => noTenant.listDeployments());
            assert.ok(e instanceof PermissionDeniedError, String(e));
        });

        it("auth: with apiKeys configured, an unknown key gives 401 and a listed key works", async () => {
            const strict = await startTestEmulator({ apiKeys: ["key-one"], timing: { speed: "immediate" } });
            try {
                const bad = await rejection(() => controlPlaneClient(strict, { apiKey: "key-two" }).listDeployments());
                assert.ok(bad instanceof AuthenticationError, String(bad));
                const good = await controlPlaneClient(strict, { apiKey: "key-one" }).listDeployments();
                assert.deepEqual(good.resources, []);
            } finally {
                await strict.close();
            }
        });

        it("auth: a bad request without credentials answers 401 before anything else", async () => {
            const res = await raw(em, "POST", "/v2/deployments", { apiKey: null, body: {} });
            assert.equal(res.status, 401);
        });
    });

    describe("self-hosted prefix /api-host", () => {
        it("/api-host: every control-plane route works under the prefix", async () => {
            const sh = controlPlaneClient(em, { selfHosted: true });
            assert.ok(sh.http.baseUrl.endsWith("/api-host"));
            const created = await raw(em, "POST", "/api-host/v2/deployments", { body: dockerBody() });
            assert.equal(created.status, 201);
            const id: string = created.body.id;
            const first: string = created.body.latest_revision_id;

            assert.equal((await sh.getDeployment(id)).id, id);
            assert.deepEqual(
                (await sh.listDeployments()).resources.map((d) => d.id),
                [id],
            );
            const patched = await sh.patchDeployment(id, { source_revision_config: { image_uri: "registry.example.com/acme/agent:2" } });
            assert.notEqual(patched.latest_revision_id, first);
            assert.equal((await sh.listRevisions(id)).resources.length, 2);
            assert.equal((await sh.getRevision(id, first)).id, first);
            const redeployed = await sh.redeployRevision(id, first);
            assert.equal(
                (await sh.getRevision(id, redeployed.latest_revision_id!)).source_revision_config?.image_uri,
                dockerBody().source_revision_config.image_uri,
            );
            assert.equal(await sh.deleteDeployment(id), true);

            // Errors keep their shapes under the prefix.
            const notFound = await raw(em, "GET", `/api-host/v2/deployments/${MISSING_ID}`);
            assert.equal(notFound.status, 404);
            assert.deepEqual(notFound.body, { detail: `Deployment ID ${MISSING_ID} not found.` });
            const invalid = await raw(em, "GET", "/api-host/v2/deployments/nope");
            assert.equal(invalid.status, 422);
            assert.equal((await raw(em, "GET", "/api-host/v2/deployments", { apiKey: null })).status, 401);
            assert.equal((await raw(em, "GET", "/api-host/v1/integrations")).status, 501);
        });

        it("/api-host: both prefixes see the same deployments", async () => {
            const sh = controlPlaneClient(em, { selfHosted: true });
            const { deployment } = await sh.createDeployment(dockerBody());
            assert.equal((await cp.getDeployment(deployment.id)).id, deployment.id);
        });

        it("installations: the cloud refuses container images and a self-hosted installation refuses GitHub (docs/service.md 2.1), nothing created", async () => {
            const docker = await raw(em, "POST", "/v2/deployments", { body: dockerBody() });
            assert.equal(docker.status, 400);
            assert.match(docker.body.detail, /external Docker image is only available for self-hosted/);
            const gh = await raw(em, "POST", "/api-host/v2/deployments", { body: githubBody() });
            assert.equal(gh.status, 400);
            assert.match(gh.body.detail, /GitHub is only available for Cloud SaaS/);
            assert.equal(em.controlPlane.allDeployments().length, 0);
        });

        it("request log: records the prefix each request came to", async () => {
            em.admin.requests = [];
            await raw(em, "GET", "/api-host/v2/deployments");
            await raw(em, "GET", "/v2/deployments");
            assert.deepEqual(
                em.admin.requests.map((r) => r.prefix),
                ["/api-host", ""],
            );
        });
    });

    describe("not emulated", () => {
        it("unimplemented: GET /v1/integrations answers 501", async () => {
            const res = await raw(em, "GET", "/v1/integrations");
            assert.equal(res.status, 501);
            assert.equal(typeof res.body.detail, "string");
            const e = await rejection(() => cp.http.request("GET", "/v1/integrations"));
            assert.ok(e instanceof NotImplementedError, String(e));
        });

        it("unimplemented: bulk DELETE /v2/deployments answers 501 and deletes nothing", async () => {
            await cp.createDeployment(githubBody());
            const res = await raw(em, "DELETE", "/v2/deployments");
            assert.equal(res.status, 501);
            assert.equal((await cp.listDeployments()).resources.length, 1);
        });

        it("unimplemented: auth-provider groups answer 501", async () => {
            assert.equal((await raw(em, "GET", "/v2/auth/providers")).status, 501);
        });

        it("routing: an unknown path gives 404 and a wrong method 405", async () => {
            assert.equal((await raw(em, "GET", "/v2/nothing-here")).status, 404);
            const { deployment: d } = await cp.createDeployment(githubBody());
            assert.equal((await raw(em, "PUT", `/v2/deployments/${d.id}`, { body: {} })).status, 405);
        });
    });
});
