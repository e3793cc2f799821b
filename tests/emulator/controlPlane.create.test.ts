/**
 * The emulated control plane's create, over real HTTP on a free port, through the real client, and raw
 * where the client would hide the wire: what a create answers and stores, in the real dialect and with the
 * stand-ins of docs/service.md R1, and every request it refuses, with which status.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { BadRequestError, ConflictError, ValidationFailedError } from "../../provider/api/errors";
import {
    OTHER_TENANT,
    controlPlaneClient,
    clientForSource,
    dockerBody,
    githubBody,
    raw,
    rejection,
    startTestEmulator,
    type Emulator,
} from "../helpers/emulator";
import { UUID_RE, useControlPlaneEmulator, validationDetail } from "../helpers/controlPlaneEmulator";

describe("emulator: control plane", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;
    let other: ControlPlaneClient;
    const { revisionIds } = useControlPlaneEmulator((w) => ({ em, cp, other } = w));

    describe("create", () => {
        it("create: real wire values (github, langgraph_config_path) come back as sent", async () => {
            const body = githubBody();
            const { deployment: d, adopted } = await cp.createDeployment(body);
            assert.equal(adopted, false);
            assert.equal(d.name, body.name);
            assert.equal(d.source, "github");
            assert.equal(d.source_config?.repo_url, body.source_config.repo_url);
            assert.equal(d.source_config?.integration_id, body.source_config.integration_id);
            assert.equal(d.source_config?.deployment_type, "dev");
            assert.equal(d.source_config?.build_on_push, false);
            assert.equal(d.source_revision_config?.repo_ref, "main");
            assert.equal(d.source_revision_config?.langgraph_config_path, "langgraph.json");
            assert.equal(d.source_revision_config?.image_uri, null);
            assert.match(String(d.source_revision_config?.repo_commit_sha), /^[0-9a-f]{40}$/);
            // github: the service fills custom_url itself.
            assert.equal(typeof d.source_config?.custom_url, "string");
        });

        it("create: external_docker with real wire values comes back as sent", async () => {
            const body = dockerBody(undefined, { source_config: { custom_url: "https://agent.example.com" } });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(body);
            assert.equal(d.source, "external_docker");
            assert.equal(d.source_config?.deployment_type, null);
            assert.equal(d.source_config?.custom_url, "https://agent.example.com");
            assert.equal(d.source_revision_config?.image_uri, body.source_revision_config.image_uri);
            assert.equal(d.source_revision_config?.repo_ref, null);
        });

        it("create: in the real dialect (the default) the stand-ins of docs/service.md R1 are refused with 422 at their place, as the service does", async () => {
            const cases: Array<[Record<string, unknown>, unknown[], string]> = [
                [{ source: "repo_host" }, ["body", "source"], "enum"],
                [{ source: "external_container", source_config: {}, source_revision_config: { image_uri: "r/x:1" } }, ["body", "source"], "enum"],
                [
                    { source_revision_config: { repo_ref: "main", graph_config_path: "g.json" } },
                    ["body", "source_revision_config", "graph_config_path"],
                    "extra_forbidden",
                ],
            ];
            for (const [over, loc, type] of cases) {
                const res = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, over as never) });
                assert.equal(res.status, 422, JSON.stringify(over));
                assert.deepEqual([res.body.detail[0].loc, res.body.detail[0].type], [loc, type]);
            }
            const ok = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
            const patch = await raw(em, "PATCH", `/v2/deployments/${ok.body.id}`, { body: { source_revision_config: { graph_config_path: "other.json" } } });
            assert.equal(patch.status, 422);
            const dest = await raw(em, "POST", "/api/v1/bulk-exports/destinations", {
                body: {
                    destination_type: "objstore",
                    display_name: "d",
                    config: { bucket_name: "bkt", prefix: "" },
                    credentials: { access_key_id: "a", secret_access_key: "s" },
                },
            });
            assert.deepEqual([dest.status, dest.body.detail[0].loc, dest.body.detail[0].type], [422, ["body", "destination_type"], "literal_error"]);
            assert.equal(em.controlPlane.allDeployments().length, 1, "nothing made from a refused request");
        });

        it("create: in the seed dialect the stand-ins of docs/service.md R1 repo_host and graph_config_path are answered with github and langgraph_config_path", async () => {
            const seed = await startTestEmulator({ timing: { speed: "immediate" }, dialect: "seed" });
            try {
                const body = githubBody(undefined, {
                    source: "repo_host",
                    source_revision_config: { repo_ref: "main", graph_config_path: "agents/graph.json" },
                });
                const res = await raw(seed, "POST", "/v2/deployments", { body });
                assert.equal(res.status, 201);
                assert.equal(res.body.source, "github");
                assert.equal(res.body.source_revision_config.langgraph_config_path, "agents/graph.json");
                assert.ok(!("graph_config_path" in res.body.source_revision_config), "the response uses the real field name only");

                const got = await raw(seed, "GET", `/v2/deployments/${res.body.id}`);
                assert.equal(got.body.source, "github");
                assert.equal(got.body.source_revision_config.langgraph_config_path, "agents/graph.json");
                const rev = await raw(seed, "GET", `/v2/deployments/${res.body.id}/revisions/${res.body.latest_revision_id}`);
                assert.equal(rev.body.source, "github");
                assert.equal(rev.body.source_revision_config.langgraph_config_path, "agents/graph.json");
                assert.ok(!("graph_config_path" in rev.body.source_revision_config));
                const dest = await raw(seed, "POST", "/api/v1/bulk-exports/destinations", {
                    body: {
                        destination_type: "objstore",
                        display_name: "d",
                        config: { bucket_name: "bkt", prefix: "", endpoint_url: "http://127.0.0.1:9" },
                        credentials: { access_key_id: "a", secret_access_key: "s" },
                    },
                });
                assert.equal(dest.status, 400, "objstore accepted: the destination went on to validation (which fails on a dead endpoint)");
            } finally {
                await seed.close();
            }
        });

        it("create: in the seed dialect the stand-in external_container (docs/service.md R1) is answered with external_docker", async () => {
            const seed = await startTestEmulator({ timing: { speed: "immediate" }, dialect: "seed" });
            try {
                const res = await raw(seed, "POST", "/api-host/v2/deployments", { body: dockerBody(undefined, { source: "external_container" }) });
                assert.equal(res.status, 201);
                assert.equal(res.body.source, "external_docker");
                const listed = await controlPlaneClient(seed).listDeployments();
                assert.deepEqual(
                    listed.resources.map((d) => d.source),
                    ["external_docker"],
                );
                const revs = await controlPlaneClient(seed).listRevisions(res.body.id);
                assert.equal(revs.resources[0].source, "external_docker");
            } finally {
                await seed.close();
            }
        });

        it("create: 201 body has id and latest_revision_id, and the revision is readable", async () => {
            const res = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
            assert.equal(res.status, 201);
            assert.match(res.body.id, UUID_RE);
            assert.match(res.body.latest_revision_id, UUID_RE);
            const rev = await cp.getRevision(res.body.id, res.body.latest_revision_id);
            assert.equal(rev.id, res.body.latest_revision_id);
            assert.match(rev.created_at, /^\d{4}-\d\d-\d\dT/);
            assert.deepEqual(await revisionIds(res.body.id), [res.body.latest_revision_id], "the first revision is the only one");
        });

        it("create: missing required fields give 422 HTTPValidationError with loc, msg and type", async () => {
            const res = await raw(em, "POST", "/v2/deployments", { body: {} });
            assert.equal(res.status, 422);
            const detail = validationDetail(res.body);
            for (const field of ["name", "source", "source_config", "source_revision_config"]) {
                const e = detail.find((d) => JSON.stringify(d.loc) === JSON.stringify(["body", field]));
                assert.ok(e, `no error located at body.${field}: ${res.text}`);
                assert.equal(e.type, "missing");
                assert.equal(typeof e.msg, "string");
            }

            const noBody = await raw(em, "POST", "/v2/deployments");
            assert.equal(noBody.status, 422);
            assert.deepEqual(validationDetail(noBody.body)[0].loc, ["body"]);

            const { name: _omit, ...rest } = githubBody();
            const e = await rejection(() => cp.createDeployment(rest as never));
            assert.ok(e instanceof ValidationFailedError, String(e));
            assert.equal(e.status, 422);
            assert.deepEqual(e.validation?.[0].loc, ["body", "name"]);
        });

        it("create: malformed JSON gives 422", async () => {
            const res = await raw(em, "POST", "/v2/deployments", { body: "{not json" });
            assert.equal(res.status, 422);
            validationDetail(res.body);
        });

        it("create: github without repo_ref gives 422 located at the field", async () => {
            const body = githubBody(undefined, { source_revision_config: { langgraph_config_path: "langgraph.json" } });
            const res = await raw(em, "POST", "/v2/deployments", { body });
            assert.equal(res.status, 422);
            const detail = validationDetail(res.body);
            assert.deepEqual(detail[0].loc, ["body", "source_revision_config", "repo_ref"]);
            assert.equal((await cp.listDeployments()).resources.length, 0, "nothing was created");
        });

        it("create: external_docker without image_uri gives 422", async () => {
            const res = await raw(em, "POST", "/api-host/v2/deployments", { body: dockerBody(undefined, { source_revision_config: {} }) });
            assert.equal(res.status, 422);
            assert.deepEqual(validationDetail(res.body)[0].loc, ["body", "source_revision_config", "image_uri"]);
        });

        it("create: image_uri with github gives 400", async () => {
            const body = githubBody(undefined, {
                source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json", image_uri: "r/x:1" },
            });
            const res = await raw(em, "POST", "/v2/deployments", { body });
            assert.equal(res.status, 400);
            assert.equal(typeof res.body.detail, "string");
            const e = await rejection(() => cp.createDeployment(body));
            assert.ok(e instanceof BadRequestError, String(e));
        });

        it("create: repo_ref with external_docker gives 400", async () => {
            const body = dockerBody(undefined, { source_revision_config: { image_uri: "r/x:1", repo_ref: "main" } });
            const res = await raw(em, "POST", "/v2/deployments", { body });
            assert.equal(res.status, 400);
        });

        it("create: custom_url with github gives 400", async () => {
            const base = githubBody();
            const body = githubBody(undefined, { source_config: { ...base.source_config, custom_url: "https://mine.example.com" } });
            const res = await raw(em, "POST", "/v2/deployments", { body });
            assert.equal(res.status, 400);
            assert.equal(typeof res.body.detail, "string");
        });

        it("create: tag ref with build_on_push true gives 400, and false is accepted", async () => {
            const base = githubBody();
            const bad = githubBody(undefined, {
                source_config: { ...base.source_config, build_on_push: true },
                source_revision_config: { repo_ref: "refs/tags/v1.0.0", langgraph_config_path: "langgraph.json" },
            });
            const res = await raw(em, "POST", "/v2/deployments", { body: bad });
            assert.equal(res.status, 400);
            assert.match(res.body.detail, /build_on_push/);

            const ok = githubBody(undefined, {
                source_config: { ...base.source_config, build_on_push: false },
                source_revision_config: { repo_ref: "refs/tags/v1.0.0", langgraph_config_path: "langgraph.json" },
            });
            const { deployment } = await cp.createDeployment(ok);
            assert.equal(deployment.source_revision_config?.repo_ref, "refs/tags/v1.0.0");
        });

        it("create: a branch ref with build_on_push true is accepted", async () => {
            const base = githubBody();
            const { deployment } = await cp.createDeployment(githubBody(undefined, { source_config: { ...base.source_config, build_on_push: true } }));
            assert.equal(deployment.source_config?.build_on_push, true);
        });

        it("create: an unknown source gives 422 and a CLI-managed source gives 400", async () => {
            const unknown = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, { source: "gitlab" }) });
            assert.equal(unknown.status, 422);
            assert.deepEqual(validationDetail(unknown.body)[0].loc, ["body", "source"]);
            const managed = await raw(em, "POST", "/api-host/v2/deployments", { body: dockerBody(undefined, { source: "internal_docker" }) });
            assert.equal(managed.status, 400);
        });

        it("create: an unknown deployment_type is accepted (open string)", async () => {
            const { deployment } = await cp.createDeployment(
                githubBody(undefined, { source_config: { ...githubBody().source_config, deployment_type: "dev_free_zero" } }),
            );
            assert.equal(deployment.source_config?.deployment_type, "dev_free_zero");
        });

        it("create: a name used in the same tenant gives 409", async () => {
            const body = githubBody();
            await cp.createDeployment(body);
            const res = await raw(em, "POST", "/v2/deployments", { body: { ...body, source_config: { ...body.source_config } } });
            assert.equal(res.status, 409);
            assert.equal(typeof res.body.detail, "string");
            const e = await rejection(() => cp.createDeployment(body));
            assert.ok(e instanceof ConflictError, String(e));
            assert.equal((await cp.listDeployments()).resources.length, 1);
        });

        it("create: the same name is allowed in another tenant", async () => {
            const body = githubBody();
            const a = (await cp.createDeployment(body)).deployment;
            const b = (await other.createDeployment(body)).deployment;
            assert.notEqual(a.id, b.id);
            assert.equal(b.tenant_id, OTHER_TENANT);
        });
    });
});
