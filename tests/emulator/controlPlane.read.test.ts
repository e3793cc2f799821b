/**
 * The emulated control plane's reads, over real HTTP through the real client and raw: listing deployments
 * (paging, limits, name_contains, the full objects) and their revisions (latest first, paging, the status
 * filter, updated_at, the 404s of unknown ids).
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { NotFoundError, ValidationFailedError } from "../../provider/api/errors";
import type { Deployment } from "../../provider/api/schemas/controlPlane";
import { clientForSource, dockerBody, githubBody, raw, rejection, uniqueName, type Emulator } from "../helpers/emulator";
import { MISSING_ID, UUID_RE, useControlPlaneEmulator, validationDetail } from "../helpers/controlPlaneEmulator";

describe("emulator: control plane", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;
    useControlPlaneEmulator((w) => ({ em, cp } = w));

    describe("list deployments", () => {
        async function createMany(n: number, marker: string): Promise<string[]> {
            const ids: string[] = [];
            for (let i = 0; i < n; i++) ids.push((await clientForSource(em, "external_docker").createDeployment(dockerBody(`${marker}-${i}`))).deployment.id);
            return ids;
        }

        it("list: limit and offset page through the deployments without overlap", async () => {
            const ids = await createMany(5, uniqueName("page"));
            const seen: string[] = [];
            for (const offset of [0, 2, 4]) {
                const page = await cp.listDeployments({ limit: 2, offset });
                assert.equal(page.offset, offset);
                assert.equal(page.resources.length, offset === 4 ? 1 : 2);
                seen.push(...page.resources.map((d) => d.id));
            }
            assert.equal(new Set(seen).size, 5);
            assert.deepEqual([...seen].sort(), [...ids].sort());
            assert.deepEqual((await cp.listDeployments({ limit: 2, offset: 5 })).resources, []);
        });

        it("list: the default page size is 20", async () => {
            await createMany(21, uniqueName("many"));
            const res = await raw(em, "GET", "/v2/deployments");
            assert.equal(res.status, 200);
            assert.equal(res.body.resources.length, 20);
            assert.equal(res.body.offset, 0);
            assert.equal((await cp.listAllDeployments()).length, 21);
        });

        it("list: limit 0 or 101 (or not a number) gives 422; limit 1 and 100 are accepted", async () => {
            for (const q of ["limit=0", "limit=101", "limit=abc", "offset=-1"]) {
                const res = await raw(em, "GET", `/v2/deployments?${q}`);
                assert.equal(res.status, 422, q);
                assert.equal(validationDetail(res.body)[0].loc[0], "query");
            }
            assert.deepEqual(validationDetail((await raw(em, "GET", "/v2/deployments?limit=101")).body)[0].loc, ["query", "limit"]);
            for (const q of ["limit=1", "limit=100"]) assert.equal((await raw(em, "GET", `/v2/deployments?${q}`)).status, 200, q);
            const e = await rejection(() => cp.listDeployments({ limit: 0 }));
            assert.ok(e instanceof ValidationFailedError, String(e));
        });

        it("list: limit 0 reports greater_than_equal and a non-number int_parsing", async () => {
            const zero = await raw(em, "GET", "/v2/deployments?limit=0");
            assert.equal(validationDetail(zero.body)[0].type, "greater_than_equal");
            const nan = await raw(em, "GET", "/v2/deployments?limit=abc");
            assert.equal(validationDetail(nan.body)[0].type, "int_parsing");
        });

        it("list: name_contains keeps deployments whose name contains the text", async () => {
            const marker = uniqueName("needle");
            await clientForSource(em, "external_docker").createDeployment(dockerBody(`${marker}-a`));
            await clientForSource(em, "external_docker").createDeployment(dockerBody(`x-${marker}-b`));
            await clientForSource(em, "external_docker").createDeployment(dockerBody(uniqueName("hay")));
            const found = await cp.listDeployments({ nameContains: marker });
            assert.deepEqual(found.resources.map((d) => d.name).sort(), [`${marker}-a`, `x-${marker}-b`]);
            assert.deepEqual((await cp.listDeployments({ nameContains: "no-such-name" })).resources, []);
            assert.equal((await cp.findDeploymentByName(`${marker}-a`))?.name, `${marker}-a`);
            assert.equal(await cp.findDeploymentByName(marker), undefined, "exact match only");
        });

        it("list: deployments carry the full object (status, revision ids, masked secrets)", async () => {
            await cp.createDeployment(githubBody(undefined, { secrets: [{ name: "TOKEN", value: "very-secret-value" }] }));
            const res = await raw(em, "GET", "/v2/deployments");
            const [d] = res.body.resources as Deployment[];
            assert.equal(d.status, "READY");
            assert.match(String(d.latest_revision_id), UUID_RE);
            assert.deepEqual(d.secrets, [{ name: "TOKEN", value: "" }]);
            assert.ok(!res.text.includes("very-secret-value"));
        });
    });

    describe("revisions", () => {
        it("get: updated_at is when the revision's status last changed (the entry of the status it is in), even on the first read after it", async () => {
            em.setTiming({
                speed: "timed",
                phaseMs: { CREATING: 1000, QUEUED: 1000, AWAITING_BUILD: 1000, BUILDING: 1000, AWAITING_DEPLOY: 1000, DEPLOYING: 1000 },
            });
            const { deployment: d } = await cp.createDeployment(githubBody());
            em.clock.advance(2500); // CREATING and QUEUED passed: AWAITING_BUILD since 2 s after creation
            const r = await cp.getRevision(d.id, d.latest_revision_id!);
            assert.equal(r.status, "AWAITING_BUILD");
            assert.equal(Date.parse(r.updated_at!) - Date.parse(r.created_at), 2000);
            em.setTiming({ speed: "immediate" });
        });

        it("list revisions: latest first", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const second = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "r2" } });
            const third = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "r3" } });
            const res = await raw(em, "GET", `/v2/deployments/${d.id}/revisions`);
            assert.equal(res.status, 200);
            assert.deepEqual(
                res.body.resources.map((r: { id: string }) => r.id),
                [third.latest_revision_id, second.latest_revision_id, d.latest_revision_id],
            );
            assert.deepEqual(
                res.body.resources.map((r: { source_revision_config: { repo_ref: string } }) => r.source_revision_config.repo_ref),
                ["r3", "r2", "main"],
            );
            const stamps = res.body.resources.map((r: { created_at: string }) => Date.parse(r.created_at));
            assert.deepEqual(
                [...stamps].sort((a, b) => b - a),
                stamps,
                "created_at descending",
            );
            assert.equal((await cp.latestRevision(d.id))?.id, third.latest_revision_id);
            // Revisions carry no deployment_id (docs/service.md R2).
            assert.ok(!("deployment_id" in res.body.resources[0]));
        });

        it("list revisions: limit and offset page through", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "r2" } });
            await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "r3" } });
            const page = await cp.listRevisions(d.id, { limit: 1, offset: 1 });
            assert.equal(page.offset, 1);
            assert.deepEqual(
                page.resources.map((r) => r.source_revision_config?.repo_ref),
                ["r2"],
            );
            assert.equal((await raw(em, "GET", `/v2/deployments/${d.id}/revisions?limit=0`)).status, 422);
        });

        it("list revisions: status filter takes a comma-separated list", async () => {
            em.setTiming({ speed: "manual" });
            const { deployment: d } = await cp.createDeployment(githubBody());
            const p = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "dev" } });
            // first: SKIPPED (superseded before building), second: CREATING
            const skipped = await cp.listRevisions(d.id, { status: ["SKIPPED"] });
            assert.deepEqual(
                skipped.resources.map((r) => r.id),
                [d.latest_revision_id],
            );
            const both = await raw(em, "GET", `/v2/deployments/${d.id}/revisions?status=SKIPPED,CREATING`);
            assert.deepEqual(
                both.body.resources.map((r: { id: string }) => r.id),
                [p.latest_revision_id, d.latest_revision_id],
            );
            const none = await cp.listRevisions(d.id, { status: ["DEPLOYED", "BUILD_FAILED"] });
            assert.deepEqual(none.resources, []);
        });

        it("get revision: an unknown revision of a known deployment gives 404 with a detail", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const res = await raw(em, "GET", `/v2/deployments/${d.id}/revisions/${MISSING_ID}`);
            assert.equal(res.status, 404);
            assert.equal(typeof res.body.detail, "string");
            const e = await rejection(() => cp.getRevision(d.id, MISSING_ID));
            assert.ok(e instanceof NotFoundError, String(e));
        });

        it("get revision: an unknown revision answers the 404 message of docs/service.md 7 naming the deployment id", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const res = await raw(em, "GET", `/v2/deployments/${d.id}/revisions/${MISSING_ID}`);
            assert.deepEqual(res.body, { detail: `Deployment ID ${d.id} not found.` });
        });

        it("get revision: a revision of another deployment gives 404", async () => {
            const { deployment: a } = await cp.createDeployment(githubBody());
            const { deployment: b } = await cp.createDeployment(githubBody());
            const res = await raw(em, "GET", `/v2/deployments/${a.id}/revisions/${b.latest_revision_id}`);
            assert.equal(res.status, 404);
        });

        it("get revision: an unknown deployment gives 404 Deployment ID <id> not found.", async () => {
            const res = await raw(em, "GET", `/v2/deployments/${MISSING_ID}/revisions/${MISSING_ID}`);
            assert.equal(res.status, 404);
            assert.deepEqual(res.body, { detail: `Deployment ID ${MISSING_ID} not found.` });
        });
    });
});
