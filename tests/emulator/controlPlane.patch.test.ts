/**
 * Changing a deployment on the emulated control plane, over real HTTP through the real client and raw:
 * what a PATCH changes, which revisions it makes (and which older ones it skips or interrupts) and what it
 * refuses; secret values never answered and secret names validated; secret references; and redeploying a
 * revision.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { NotFoundError } from "../../provider/api/errors";
import { admin, controlPlaneClient, clientForSource, dockerBody, githubBody, raw, rejection, startTestEmulator, type Emulator } from "../helpers/emulator";
import { MISSING_ID, useControlPlaneEmulator, validationDetail } from "../helpers/controlPlaneEmulator";

describe("emulator: control plane", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;
    const { revisionIds } = useControlPlaneEmulator((w) => ({ em, cp } = w));

    describe("patch", () => {
        it("patch: build_on_push alone changes the source config and makes no revision", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, { body: { source_config: { build_on_push: true } } });
            assert.equal(res.status, 200);
            assert.equal(res.body.source_config.build_on_push, true);
            assert.equal(res.body.latest_revision_id, d.latest_revision_id);
            assert.deepEqual(await revisionIds(d.id), [d.latest_revision_id]);
            assert.equal((await cp.getDeployment(d.id)).source_config?.build_on_push, true);
        });

        it("patch: a non-null repo_ref makes a new revision; an older one that has not started building becomes SKIPPED", async () => {
            em.setTiming({ speed: "manual" });
            const { deployment: d } = await cp.createDeployment(githubBody());
            await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`, {}); // CREATING -> QUEUED
            assert.equal((await cp.getRevision(d.id, d.latest_revision_id!)).status, "QUEUED");
            const p = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "feature" } });
            assert.notEqual(p.latest_revision_id, d.latest_revision_id);
            assert.equal(p.source_revision_config?.repo_ref, "feature");
            assert.equal((await cp.getRevision(d.id, d.latest_revision_id!)).status, "SKIPPED");
            const latest = await cp.getRevision(d.id, p.latest_revision_id!);
            assert.equal(latest.status, "CREATING");
            assert.equal(latest.source_revision_config?.repo_ref, "feature");
            assert.equal(latest.source_revision_config?.langgraph_config_path, "langgraph.json", "unset fields carry over");
        });

        it("patch: a new revision makes an older one that is building INTERRUPTED", async () => {
            em.setTiming({ speed: "manual" });
            const { deployment: d } = await cp.createDeployment(githubBody());
            for (let i = 0; i < 3; i++) await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`);
            assert.equal((await cp.getRevision(d.id, d.latest_revision_id!)).status, "BUILDING");
            await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "feature" } });
            assert.equal((await cp.getRevision(d.id, d.latest_revision_id!)).status, "INTERRUPTED");
        });

        it("patch: a new revision makes an older one that is deploying INTERRUPTED", async () => {
            em.setTiming({ speed: "manual" });
            const { deployment: d } = await cp.createDeployment(githubBody());
            await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`, { to: "QUEUED" });
            await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`, { to: "AWAITING_BUILD" });
            await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`, { to: "BUILDING" });
            await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`, { to: "AWAITING_DEPLOY" });
            await admin(em, "POST", `/revisions/${d.latest_revision_id}/advance`, { to: "DEPLOYING" });
            await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "feature" } });
            assert.equal((await cp.getRevision(d.id, d.latest_revision_id!)).status, "INTERRUPTED");
        });

        it("patch: a finished older revision keeps its status when a new one is made", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "feature" } });
            assert.equal((await cp.getRevision(d.id, d.latest_revision_id!)).status, "DEPLOYED");
        });

        it("patch: in the seed dialect graph_config_path (the stand-in of docs/service.md R1) makes a revision answered as langgraph_config_path", async () => {
            const seed = await startTestEmulator({ timing: { speed: "immediate" }, dialect: "seed" });
            try {
                const seedCp = controlPlaneClient(seed);
                const { deployment: d } = await seedCp.createDeployment(githubBody());
                const p = await seedCp.patchDeployment(d.id, { source_revision_config: { graph_config_path: "other/langgraph.json" } });
                assert.notEqual(p.latest_revision_id, d.latest_revision_id);
                assert.equal(p.source_revision_config?.langgraph_config_path, "other/langgraph.json");
                assert.equal(p.source_revision_config?.repo_ref, "main");
            } finally {
                await seed.close();
            }
        });

        it("patch: image_uri on external_docker makes a revision", async () => {
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const p = await cp.patchDeployment(d.id, { source_revision_config: { image_uri: "registry.example.com/acme/agent:2.0.0" } });
            assert.notEqual(p.latest_revision_id, d.latest_revision_id);
            const rev = await cp.getRevision(d.id, p.latest_revision_id!);
            assert.equal(rev.source_revision_config?.image_uri, "registry.example.com/acme/agent:2.0.0");
        });

        it("patch: secrets [] makes no revision and keeps the secrets", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody(undefined, { secrets: [{ name: "A", value: "a-value" }] }));
            const p = await cp.patchDeployment(d.id, { secrets: [] });
            assert.equal(p.latest_revision_id, d.latest_revision_id);
            assert.deepEqual(await revisionIds(d.id), [d.latest_revision_id]);
            assert.deepEqual(
                p.secrets?.map((s) => s.name),
                ["A"],
            );
        });

        it("patch: non-empty secrets make a revision and replace the secret names", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody(undefined, { secrets: [{ name: "A", value: "a-value" }] }));
            const p = await cp.patchDeployment(d.id, { secrets: [{ name: "B", value: "b-value" }] });
            assert.notEqual(p.latest_revision_id, d.latest_revision_id);
            assert.equal((await revisionIds(d.id)).length, 2);
            assert.deepEqual(p.secrets, [{ name: "B", value: "" }]);
        });

        for (const [field, value] of [
            ["repo_url", "https://github.com/acme/elsewhere"],
            ["integration_id", "00000000-0000-4000-8000-00000000cafe"],
            ["deployment_type", "prod"],
        ] as const) {
            it(`patch: changing source_config.${field} gives 400 and changes nothing`, async () => {
                const body = githubBody();
                const { deployment: d } = await cp.createDeployment(body);
                const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, {
                    body: { source_config: { [field]: value, build_on_push: true } },
                });
                assert.equal(res.status, 400);
                assert.match(res.body.detail, new RegExp(field));
                const after = await cp.getDeployment(d.id);
                assert.equal(after.source_config?.[field], (body.source_config as Record<string, unknown>)[field]);
                assert.equal(after.source_config?.build_on_push, false, "a refused PATCH applies nothing");
                // The same value is not a change.
                const same = await raw(em, "PATCH", `/v2/deployments/${d.id}`, {
                    body: { source_config: { [field]: (body.source_config as Record<string, unknown>)[field] } },
                });
                assert.equal(same.status, 200);
            });
        }

        it("patch: nulls never clear values and make no revision", async () => {
            const base = githubBody();
            const { deployment: d } = await cp.createDeployment(
                githubBody(undefined, {
                    source_config: { ...base.source_config, build_on_push: true, resource_spec: { min_scale: 1 } },
                    secrets: [{ name: "A", value: "a-value" }],
                }),
            );
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, {
                body: {
                    source_config: {
                        build_on_push: null,
                        custom_url: null,
                        resource_spec: null,
                        repo_url: null,
                        integration_id: null,
                        deployment_type: null,
                    },
                    source_revision_config: { repo_ref: null, langgraph_config_path: null, image_uri: null },
                    secrets: null,
                },
            });
            assert.equal(res.status, 200);
            const after = await cp.getDeployment(d.id);
            assert.deepEqual(after.source_config, d.source_config);
            assert.equal(after.source_revision_config?.repo_ref, "main");
            assert.equal(after.source_revision_config?.langgraph_config_path, "langgraph.json");
            assert.deepEqual(
                after.secrets?.map((s) => s.name),
                ["A"],
            );
            assert.equal(after.latest_revision_id, d.latest_revision_id);
            const empty = await raw(em, "PATCH", `/v2/deployments/${d.id}`, { body: {} });
            assert.equal(empty.status, 200);
            assert.deepEqual(await revisionIds(d.id), [d.latest_revision_id]);
        });

        it("patch: resource_spec is replaced as a whole object", async () => {
            const base = dockerBody();
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(
                dockerBody(undefined, { source_config: { ...base.source_config, resource_spec: { min_scale: 1, max_scale: 3 } } }),
            );
            assert.deepEqual(d.source_config?.resource_spec, { min_scale: 1, max_scale: 3 });
            const p = await cp.patchDeployment(d.id, { source_config: { resource_spec: { max_scale: 5 } } });
            assert.deepEqual(p.source_config?.resource_spec, { max_scale: 5 });
            assert.deepEqual((await cp.getDeployment(d.id)).source_config?.resource_spec, { max_scale: 5 });
            assert.equal(p.latest_revision_id, d.latest_revision_id, "source_config changes make no revision");
        });

        it("patch: a tag ref while build_on_push is true gives 400", async () => {
            const base = githubBody();
            const { deployment: d } = await cp.createDeployment(githubBody(undefined, { source_config: { ...base.source_config, build_on_push: true } }));
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, {
                body: { source_revision_config: { repo_ref: "refs/tags/v2" } },
            });
            assert.equal(res.status, 400);
            assert.deepEqual(await revisionIds(d.id), [d.latest_revision_id]);
            // Turning build_on_push off in the same PATCH makes it legal.
            const ok = await cp.patchDeployment(d.id, {
                source_config: { build_on_push: false },
                source_revision_config: { repo_ref: "refs/tags/v2" },
            });
            assert.equal(ok.source_revision_config?.repo_ref, "refs/tags/v2");
            assert.equal(ok.source_config?.build_on_push, false);
        });

        it("patch: build_on_push true while the current ref is a tag gives 400", async () => {
            const { deployment: d } = await cp.createDeployment(
                githubBody(undefined, { source_revision_config: { repo_ref: "refs/tags/v1", langgraph_config_path: "langgraph.json" } }),
            );
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, { body: { source_config: { build_on_push: true } } });
            assert.equal(res.status, 400);
            assert.equal((await cp.getDeployment(d.id)).source_config?.build_on_push, false);
        });

        it("patch: image_uri on github and repo_ref on external_docker give 400", async () => {
            const { deployment: gh } = await cp.createDeployment(githubBody());
            const a = await raw(em, "PATCH", `/v2/deployments/${gh.id}`, { body: { source_revision_config: { image_uri: "r/x:1" } } });
            assert.equal(a.status, 400);
            const { deployment: img } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const b = await raw(em, "PATCH", `/v2/deployments/${img.id}`, { body: { source_revision_config: { repo_ref: "main" } } });
            assert.equal(b.status, 400);
        });

        it("patch: custom_url on github gives 400; on external_docker it is accepted", async () => {
            const { deployment: gh } = await cp.createDeployment(githubBody());
            const a = await raw(em, "PATCH", `/v2/deployments/${gh.id}`, { body: { source_config: { custom_url: "https://mine.example.com" } } });
            assert.equal(a.status, 400);
            const { deployment: img } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const p = await cp.patchDeployment(img.id, { source_config: { custom_url: "https://mine.example.com" } });
            assert.equal(p.source_config?.custom_url, "https://mine.example.com");
        });

        it("patch: an unknown deployment gives 404 and a null body gives 422", async () => {
            const res = await raw(em, "PATCH", `/v2/deployments/${MISSING_ID}`, { body: { source_config: { build_on_push: true } } });
            assert.equal(res.status, 404);
            assert.deepEqual(res.body, { detail: `Deployment ID ${MISSING_ID} not found.` });
            const { deployment: d } = await cp.createDeployment(githubBody());
            const nul = await raw(em, "PATCH", `/v2/deployments/${d.id}`, { body: "null" });
            assert.equal(nul.status, 422);
            validationDetail(nul.body);
        });
    });

    describe("secrets", () => {
        it("get: secret values are never returned (value empty) by create, GET, list or PATCH", async () => {
            const value = "sk-do-not-leak-0123456789";
            const created = await raw(em, "POST", "/v2/deployments", {
                body: githubBody(undefined, { secrets: [{ name: "OPENAI_API_KEY", value }] }),
            });
            assert.equal(created.status, 201);
            assert.ok(!created.text.includes(value));
            const id: string = created.body.id;
            const got = await raw(em, "GET", `/v2/deployments/${id}`);
            assert.deepEqual(got.body.secrets, [{ name: "OPENAI_API_KEY", value: "" }]);
            assert.ok(!got.text.includes(value));
            assert.ok(!(await raw(em, "GET", "/v2/deployments")).text.includes(value));
            const patched = await raw(em, "PATCH", `/v2/deployments/${id}`, {
                body: { secrets: [{ name: "OPENAI_API_KEY", value: value + "-2" }] },
            });
            assert.equal(patched.status, 200);
            assert.ok(!patched.text.includes(value));
            assert.ok(!(await raw(em, "GET", "/__admin/deployments", { apiKey: null, tenantId: null })).text.includes(value));
        });
    });

    describe("secret validation", () => {
        it("create: duplicate secret names give 400 and an empty secret name gives 422", async () => {
            const dup = await raw(em, "POST", "/v2/deployments", {
                body: githubBody(undefined, {
                    secrets: [
                        { name: "A", value: "1" },
                        { name: "A", value: "2" },
                    ],
                }),
            });
            assert.equal(dup.status, 400);
            const empty = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, { secrets: [{ name: "", value: "1" }] }) });
            assert.equal(empty.status, 422);
            assert.deepEqual(validationDetail(empty.body)[0].loc, ["body", "secrets", 0, "name"]);
        });

        it("patch: duplicate secret names give 400 and make no revision", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, {
                body: {
                    secrets: [
                        { name: "A", value: "1" },
                        { name: "A", value: "2" },
                    ],
                },
            });
            assert.equal(res.status, 400);
            assert.deepEqual(await revisionIds(d.id), [d.latest_revision_id]);
        });
    });

    describe("secret_references", () => {
        const REF = { name: "OPENAI_API_KEY", secret_name: "agent-keys", secret_key: "openai" };

        it("external_docker: stored and answered (no values to hide); a PATCH with a list replaces them and makes a revision, an empty one leaves them; github is a 400; a clash with a secret name is a 400", async () => {
            const sh = clientForSource(em, "external_docker");
            const { deployment: d } = await sh.createDeployment(dockerBody(undefined, { secret_references: [REF], secrets: [{ name: "OTHER", value: "v" }] }));
            assert.deepEqual(d.secret_references, [REF]);
            const moved = await sh.patchDeployment(d.id, { secret_references: [{ ...REF, secret_key: "openai-2" }] });
            assert.notEqual(moved.latest_revision_id, d.latest_revision_id);
            assert.deepEqual(moved.secret_references, [{ ...REF, secret_key: "openai-2" }]);
            const same = await sh.patchDeployment(d.id, { secret_references: [] });
            assert.equal(same.latest_revision_id, moved.latest_revision_id, 'an empty list is "unchanged": no revision');
            assert.deepEqual(same.secret_references, [{ ...REF, secret_key: "openai-2" }]);
            const clash = await raw(em, "PATCH", `/api-host/v2/deployments/${d.id}`, { body: { secret_references: [{ ...REF, name: "OTHER" }] } });
            assert.equal(clash.status, 400);
            assert.match(clash.body.detail, /Duplicate secret name OTHER/);
            const github = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, { secret_references: [REF] }) });
            assert.equal(github.status, 400);
            assert.match(github.body.detail, /only applicable for external_docker/);
            const partial = await raw(em, "POST", "/api-host/v2/deployments", {
                body: dockerBody(undefined, { secret_references: [{ name: "X", secret_name: "s" }] as never }),
            });
            assert.equal(partial.status, 422);
            assert.deepEqual(partial.body.detail[0].loc.slice(-1), ["secret_key"]);
            assert.equal((await sh.getDeployment(d.id)).secret_references?.length, 1);
        });
    });

    describe("redeploy", () => {
        it("redeploy: makes a new revision with the configuration of the old one", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const p = await cp.patchDeployment(d.id, {
                source_revision_config: { repo_ref: "experiment", langgraph_config_path: "exp.json" },
            });
            const res = await raw(em, "POST", `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}/redeploy`);
            assert.ok([200, 201].includes(res.status), String(res.status));
            const newId: string = res.body.latest_revision_id;
            assert.ok(newId !== d.latest_revision_id && newId !== p.latest_revision_id);
            const rev = await cp.getRevision(d.id, newId);
            assert.equal(rev.source_revision_config?.repo_ref, "main");
            assert.equal(rev.source_revision_config?.langgraph_config_path, "langgraph.json");
            assert.equal(res.body.source_revision_config.repo_ref, "main");
            assert.deepEqual(await revisionIds(d.id), [newId, p.latest_revision_id, d.latest_revision_id]);
        });

        it("redeploy: an external_docker revision keeps its image", async () => {
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            await cp.patchDeployment(d.id, { source_revision_config: { image_uri: "registry.example.com/acme/agent:9" } });
            const r = await cp.redeployRevision(d.id, d.latest_revision_id!);
            assert.equal(r.source_revision_config?.image_uri, d.source_revision_config?.image_uri);
        });

        it("redeploy: a deployment being deleted is refused like a PATCH", async () => {
            em.setTiming({ speed: "timed", deleteMs: 60_000 });
            const { deployment: d } = await cp.createDeployment(githubBody());
            await cp.deleteDeployment(d.id);
            const res = await raw(em, "POST", `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}/redeploy`);
            assert.equal(res.status, 400);
            assert.equal((await cp.listRevisions(d.id)).resources.length, 1);
        });

        it("redeploy: an unknown revision gives 404", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const e = await rejection(() => cp.redeployRevision(d.id, MISSING_ID));
            assert.ok(e instanceof NotFoundError, String(e));
        });
    });
});
