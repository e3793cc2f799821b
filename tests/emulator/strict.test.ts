/**
 * The emulator is as strict as the service: unknown request fields are a 422 (strict request schemas),
 * github-only fields are refused for external_docker, and a time-window fault answers every matching
 * request while it lasts. (A deployment's agent-server URL: tests/emulator/agentServer.test.ts.)
 */
import assert from "node:assert/strict";
import { admin, dockerBody, githubBody, raw, sleep, startTestEmulator, type Emulator } from "../helpers/emulator";

describe("emulator: strict like the service", () => {
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
    });
    beforeEach(() => em.reset());
    after(async () => {
        await em?.close();
    });

    it("create: an unknown or misspelled field is a 422 naming it, nothing created", async () => {
        const body = { ...githubBody(), sourceConfig: {} };
        const res = await raw(em, "POST", "/v2/deployments", { body });
        assert.equal(res.status, 422);
        assert.deepEqual(res.body.detail, [{ loc: ["body", "sourceConfig"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }]);
        const nested = await raw(em, "POST", "/v2/deployments", {
            body: githubBody(undefined, { source_config: { ...githubBody().source_config, build_on_pushh: true } as any }),
        });
        assert.equal(nested.status, 422);
        assert.deepEqual(nested.body.detail[0].loc, ["body", "source_config", "build_on_pushh"]);
        assert.equal(em.controlPlane.allDeployments().length, 0);
    });

    it("patch: an unknown field is a 422, the deployment unchanged", async () => {
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        const res = await raw(em, "PATCH", `/v2/deployments/${created.body.id}`, { body: { source_revision_config: { ref: "x" } } });
        assert.equal(res.status, 422);
        assert.deepEqual(res.body.detail[0].loc, ["body", "source_revision_config", "ref"]);
        assert.equal(em.controlPlane.listRevisions(created.body.tenant_id, created.body.id, { limit: 10, offset: 0 }).resources.length, 1);
    });

    for (const field of ["integration_id", "repo_url", "deployment_type", "build_on_push"]) {
        it(`create: ${field} (github only) is refused for external_docker`, async () => {
            const value = field === "build_on_push" ? false : "x";
            const res = await raw(em, "POST", "/api-host/v2/deployments", { body: dockerBody(undefined, { source_config: { [field]: value } }) });
            assert.equal(res.status, 400);
            assert.match(res.body.detail, new RegExp(`${field} only applicable for github`));
        });
    }

    it("faults: forMs answers every matching request for that long, then stops", async () => {
        await admin(em, "POST", "/faults", { path: "^/v2/deployments$", kind: "status", status: 429, retryAfter: 1, forMs: 300 });
        for (let i = 0; i < 5; i++) {
            const r = await raw(em, "GET", "/v2/deployments");
            assert.equal(r.status, 429);
            assert.equal(r.headers["retry-after"], "1");
        }
        await sleep(350);
        assert.equal((await raw(em, "GET", "/v2/deployments")).status, 200);
        assert.deepEqual(await admin(em, "GET", "/faults"), []);
    });
});
