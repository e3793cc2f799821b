/**
 * ControlPlaneClient's reads against an undici MockAgent (no network): finding a deployment by name over
 * pages of 100, getting one (undefined on 404 with tryGetDeployment), its revisions (the latest, a list
 * with a status filter, one by id) and redeploying one; and deleteDeployment (true, or false once gone).
 */
import assert from "node:assert/strict";
import { ControlPlaneClient } from "../../../provider/api/controlPlane";
import { ConflictError, ServerError } from "../../../provider/api/errors";
import { DEPLOYMENT_ID as ID, JSON_REPLY, deployment, harness, queryOf, revision, useControlPlaneClient, type Harness } from "./helpers";

describe("ControlPlaneClient", () => {
    let h: Harness;
    let cp: ControlPlaneClient;
    // A test may give `h` and `cp` a harness of its own: the hooks and `listing` use whatever `h` holds.
    const { listing } = useControlPlaneClient(
        (made) => ({ h, cp } = made),
        () => h,
    );

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
            h.pool.intercept({ path: (p) => p.startsWith("/v2/deployments?"), method: "GET" }).reply((opts) => {
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
});
