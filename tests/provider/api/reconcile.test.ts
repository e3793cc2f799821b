/**
 * Nothing that creates is resent blindly, and rate limits do not fail an operation: the real
 * control-plane client against the emulator over real HTTP, with faults injected after the service has
 * done the work (the ambiguous failures a client must reconcile) and a burst of 429s longer than any
 * count of retries would survive.
 */
import assert from "node:assert/strict";
import { controlPlaneClient, githubBody, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

describe("ControlPlaneClient against the emulator: reconciling, rate limits", function () {
    this.timeout(60_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
    });
    beforeEach(() => em.reset());
    after(async () => {
        await em?.close();
    });

    it("create: a 503 answered after the service created the deployment adopts it; exactly one exists", async () => {
        em.addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 503, when: "after" });
        const cp = controlPlaneClient(em);
        const body = githubBody();
        const { deployment, adopted } = await cp.createDeployment(body);
        assert.equal(adopted, true);
        const live = em.controlPlane.allDeployments().filter((d) => d.name === body.name);
        assert.deepEqual(
            live.map((d) => d.id),
            [deployment.id],
        );
        assert.equal(cp.http.stats.byRoute.get("POST /v2/deployments"), 1, "never sent again");
    });

    it("create: an answer lost while the service still works (the connection cut before it finished) is looked for until the deployment shows up", async () => {
        em.addFault({ method: "POST", path: "^/v2/deployments$", kind: "drop", when: "during", latencyMs: 600 });
        const cp = controlPlaneClient(em);
        const body = githubBody();
        const { deployment, adopted } = await cp.createDeployment(body);
        assert.equal(adopted, true);
        assert.deepEqual(
            em.controlPlane
                .allDeployments()
                .filter((d) => d.name === body.name)
                .map((d) => d.id),
            [deployment.id],
        );
        assert.equal(cp.http.stats.byRoute.get("POST /v2/deployments"), 1, "never sent again");
    });

    it("create: a request that never took effect is sent once more after the settle time, not before", async () => {
        em.addFault({ method: "POST", path: "^/v2/deployments$", kind: "drop", when: "before" });
        const cp = controlPlaneClient(em, { settleMs: 1_000 });
        const { adopted } = await cp.createDeployment(githubBody());
        assert.equal(adopted, false);
        const log = em.admin.requests.filter((r) => r.path === "/v2/deployments").map((r) => r.method);
        assert.deepEqual(log, ["POST", "GET", "GET", "GET", "POST"], "looked for it at once, then after 0.25 and 0.5 s, then sent it again");
    });

    it("create: a 503 on both sends, neither done, fails naming the fix: nothing was created, run pulumi up again (npm run bench chaos)", async () => {
        em.addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 503, count: 2 });
        const cp = controlPlaneClient(em);
        const body = githubBody();
        await assert.rejects(cp.createDeployment(body), (e: Error) => {
            assert.match(e.message, /^503 Service Unavailable: .*sent twice.*nothing was created\. Run `pulumi up` again\.$/s);
            return true;
        });
        assert.equal(cp.http.stats.byRoute.get("POST /v2/deployments"), 2);
        assert.deepEqual(
            em.controlPlane.allDeployments().filter((d) => d.name === body.name),
            [],
        );
    });

    it("patch: a 503 answered after a revision-making PATCH was applied makes exactly one revision", async () => {
        const cp = controlPlaneClient(em);
        const { deployment } = await cp.createDeployment(githubBody());
        em.addFault({ method: "PATCH", path: "^/v2/deployments/", kind: "status", status: 503, when: "after" });
        const after = await cp.patchDeployment(deployment.id, { source_revision_config: { repo_ref: "release" } }, deployment.latest_revision_id);
        const revisions = (await cp.listRevisions(deployment.id)).resources;
        assert.equal(revisions.length, 2, "one new revision, not two");
        assert.equal(after.latest_revision_id, revisions[0].id);
        assert.equal(revisions[0].source_revision_config?.repo_ref, "release");
    });

    it("create: 30 creates at once through 7 s of 429s with Retry-After 1 all succeed, none duplicated", async () => {
        // Longer than the five counted retries of a Retry-After of 1 s that the earlier policy allowed.
        em.addFault({ path: ".*", kind: "status", status: 429, retryAfter: 1, forMs: 7_000 });
        const names = Array.from({ length: 30 }, () => uniqueName("burst"));
        const results = await Promise.allSettled(
            names.map((name) => controlPlaneClient(em, { retryBaseMs: 200, retryMaxMs: 5_000 }).createDeployment(githubBody(name))),
        );
        const failed = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
        assert.deepEqual(failed, []);
        const live = em.controlPlane.allDeployments();
        assert.equal(live.length, 30);
        assert.equal(new Set(live.map((d) => d.name)).size, 30, "no name twice");
    });
});
