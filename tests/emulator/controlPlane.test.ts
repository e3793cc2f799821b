/**
 * The emulated control plane (docs/service.md 2.1-2.5, 3.1, 4.1, 5, 7; R1-R2), over real HTTP on a
 * free port, through the real client, and raw where the client would hide the wire.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import {
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
    NotImplementedError,
    PermissionDeniedError,
    ValidationFailedError,
} from "../../provider/api/errors";
import { HTTPValidationErrorSchema, type Deployment } from "../../provider/api/schemas/controlPlane";
import {
    OTHER_TENANT,
    admin,
    controlPlaneClient,
    clientForSource,
    dockerBody,
    githubBody,
    raw,
    rejection,
    sleep,
    startTestEmulator,
    uniqueName,
    type Emulator,
} from "../helpers/emulator";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

describe("emulator: control plane", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;
    let other: ControlPlaneClient;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
        cp = controlPlaneClient(em);
        other = controlPlaneClient(em, { tenantId: OTHER_TENANT });
    });
    beforeEach(() => em.reset());
    after(async () => {
        await em?.close();
    });

    /** Asserts a 422 body is an HTTPValidationError (docs/service.md 2.5) and answers its entries. */
    function validationDetail(body: unknown): Array<{ loc: Array<string | number>; msg: string; type: string }> {
        const parsed = HTTPValidationErrorSchema.safeParse(body);
        assert.ok(parsed.success, `not an HTTPValidationError: ${JSON.stringify(body)}`);
        assert.ok(parsed.data.detail.length > 0);
        return parsed.data.detail;
    }

    async function revisionIds(id: string): Promise<string[]> {
        return (await cp.listRevisions(id, { limit: 100 })).resources.map((r) => r.id);
    }

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
                [{ source_revision_config: { repo_ref: "main", graph_config_path: "g.json" } }, ["body", "source_revision_config", "graph_config_path"], "extra_forbidden"],
            ];
            for (const [over, loc, type] of cases) {
                const res = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, over as never) });
                assert.equal(res.status, 422, JSON.stringify(over));
                assert.deepEqual([res.body.detail[0].loc, res.body.detail[0].type], [loc, type]);
            }
            const ok = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
            const patch = await raw(em, "PATCH", `/v2/deployments/${ok.body.id}`, { body: { source_revision_config: { graph_config_path: "other.json" } } });
            assert.equal(patch.status, 422);
            const dest = await raw(em, "POST", "/api/v1/bulk-exports/destinations", { body: { destination_type: "objstore", display_name: "d", config: { bucket_name: "b", prefix: "" }, credentials: { access_key_id: "a", secret_access_key: "s" } } });
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
                const dest = await raw(seed, "POST", "/api/v1/bulk-exports/destinations", { body: { destination_type: "objstore", display_name: "d", config: { bucket_name: "b", prefix: "", endpoint_url: "http://127.0.0.1:9" }, credentials: { access_key_id: "a", secret_access_key: "s" } } });
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
            const { deployment } = await cp.createDeployment(
                githubBody(undefined, { source_config: { ...base.source_config, build_on_push: true } }),
            );
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
            const { deployment } = await cp.createDeployment(githubBody(undefined, { source_config: { ...githubBody().source_config, deployment_type: "dev_free_zero" } }));
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
            assert.deepEqual((await sh.listDeployments()).resources.map((d) => d.id), [id]);
            const patched = await sh.patchDeployment(id, { source_revision_config: { image_uri: "registry.example.com/acme/agent:2" } });
            assert.notEqual(patched.latest_revision_id, first);
            assert.equal((await sh.listRevisions(id)).resources.length, 2);
            assert.equal((await sh.getRevision(id, first)).id, first);
            const redeployed = await sh.redeployRevision(id, first);
            assert.equal((await sh.getRevision(id, redeployed.latest_revision_id!)).source_revision_config?.image_uri, dockerBody().source_revision_config.image_uri);
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
            assert.deepEqual(em.admin.requests.map((r) => r.prefix), ["/api-host", ""]);
        });
    });

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
            em.setTiming({ speed: "timed", phaseMs: { CREATING: 1000, QUEUED: 1000, AWAITING_BUILD: 1000, BUILDING: 1000, AWAITING_DEPLOY: 1000, DEPLOYING: 1000 } });
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
            assert.deepEqual([...stamps].sort((a, b) => b - a), stamps, "created_at descending");
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
            assert.deepEqual(page.resources.map((r) => r.source_revision_config?.repo_ref), ["r2"]);
            assert.equal((await raw(em, "GET", `/v2/deployments/${d.id}/revisions?limit=0`)).status, 422);
        });

        it("list revisions: status filter takes a comma-separated list", async () => {
            em.setTiming({ speed: "manual" });
            const { deployment: d } = await cp.createDeployment(githubBody());
            const p = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "dev" } });
            // first: SKIPPED (superseded before building), second: CREATING
            const skipped = await cp.listRevisions(d.id, { status: ["SKIPPED"] });
            assert.deepEqual(skipped.resources.map((r) => r.id), [d.latest_revision_id]);
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
            assert.deepEqual(p.secrets?.map((s) => s.name), ["A"]);
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
            assert.deepEqual(after.secrets?.map((s) => s.name), ["A"]);
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
            const { deployment: d } = await cp.createDeployment(
                githubBody(undefined, { source_config: { ...base.source_config, build_on_push: true } }),
            );
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
                body: githubBody(undefined, { secrets: [{ name: "A", value: "1" }, { name: "A", value: "2" }] }),
            });
            assert.equal(dup.status, 400);
            const empty = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, { secrets: [{ name: "", value: "1" }] }) });
            assert.equal(empty.status, 422);
            assert.deepEqual(validationDetail(empty.body)[0].loc, ["body", "secrets", 0, "name"]);
        });

        it("patch: duplicate secret names give 400 and make no revision", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, {
                body: { secrets: [{ name: "A", value: "1" }, { name: "A", value: "2" }] },
            });
            assert.equal(res.status, 400);
            assert.deepEqual(await revisionIds(d.id), [d.latest_revision_id]);
        });
    });

    describe("delete", () => {
        it("delete: 204, then AWAITING_DELETE until deleteMs has passed (clock advance), then 404", async () => {
            em.setTiming({ speed: "timed", deleteMs: 60_000 });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const res = await raw(em, "DELETE", `/v2/deployments/${d.id}`);
            assert.equal(res.status, 204);
            assert.equal(res.text, "");
            const during = await cp.getDeployment(d.id);
            assert.equal(during.status, "AWAITING_DELETE");
            assert.equal((await cp.listDeployments()).resources.length, 1, "still listed while being deleted");
            // A second DELETE while it is going is harmless.
            assert.equal((await raw(em, "DELETE", `/v2/deployments/${d.id}`)).status, 204);
            await admin(em, "POST", "/clock/advance", { ms: 60_000 });
            const gone = await raw(em, "GET", `/v2/deployments/${d.id}`);
            assert.equal(gone.status, 404);
            assert.deepEqual(gone.body, { detail: `Deployment ID ${d.id} not found.` });
            assert.deepEqual((await cp.listDeployments()).resources, []);
            assert.equal(await cp.deleteDeployment(d.id), false, "DELETE of a gone deployment is a 404");
        });

        it("delete: with a small deleteMs the deployment answers 404 after real time passes", async () => {
            em.setTiming({ speed: "timed", deleteMs: 30 });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            assert.equal(await cp.deleteDeployment(d.id), true);
            assert.equal((await cp.getDeployment(d.id)).status, "AWAITING_DELETE");
            await sleep(60);
            assert.equal(await cp.tryGetDeployment(d.id), undefined);
        });

        it("delete: a PATCH while the deployment is being deleted is refused", async () => {
            em.setTiming({ speed: "timed", deleteMs: 60_000 });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            await cp.deleteDeployment(d.id);
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, { body: { source_config: { custom_url: "https://x.example.com" } } });
            assert.equal(res.status, 400);
        });

        it("delete: delete_tracing_project is accepted", async () => {
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const res = await raw(em, "DELETE", `/v2/deployments/${d.id}?delete_tracing_project=true`);
            assert.equal(res.status, 204);
        });

        it("delete: an unknown deployment gives 404", async () => {
            const res = await raw(em, "DELETE", `/v2/deployments/${MISSING_ID}`);
            assert.equal(res.status, 404);
            assert.deepEqual(res.body, { detail: `Deployment ID ${MISSING_ID} not found.` });
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
            assert.equal(same.latest_revision_id, moved.latest_revision_id, "an empty list is \"unchanged\": no revision");
            assert.deepEqual(same.secret_references, [{ ...REF, secret_key: "openai-2" }]);
            const clash = await raw(em, "PATCH", `/api-host/v2/deployments/${d.id}`, { body: { secret_references: [{ ...REF, name: "OTHER" }] } });
            assert.equal(clash.status, 400);
            assert.match(clash.body.detail, /Duplicate secret name OTHER/);
            const github = await raw(em, "POST", "/v2/deployments", { body: githubBody(undefined, { secret_references: [REF] }) });
            assert.equal(github.status, 400);
            assert.match(github.body.detail, /only applicable for external_docker/);
            const partial = await raw(em, "POST", "/api-host/v2/deployments", { body: dockerBody(undefined, { secret_references: [{ name: "X", secret_name: "s" }] as never }) });
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

        it("unimplemented: listeners and auth-provider groups answer 501", async () => {
            assert.equal((await raw(em, "GET", "/v2/listeners")).status, 501);
            assert.equal((await raw(em, "GET", "/v2/auth/providers")).status, 501);
        });

        it("routing: an unknown path gives 404 and a wrong method 405", async () => {
            assert.equal((await raw(em, "GET", "/v2/nothing-here")).status, 404);
            const { deployment: d } = await cp.createDeployment(githubBody());
            assert.equal((await raw(em, "PUT", `/v2/deployments/${d.id}`, { body: {} })).status, 405);
        });
    });
});
