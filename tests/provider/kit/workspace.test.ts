/**
 * A workspace per resource (provider/kit/workspace.ts, issue 31): the providers both front doors serve
 * (provider/registry.ts), configured as `pulumi up` configures them (stack config: the emulator's address, a
 * key and the provider's workspace), against the emulator over real HTTP, which keeps workspaces apart by
 * X-Tenant-Id. A resource given another workspace is made, read, updated, imported and deleted there and is
 * not seen in the provider's; a change of workspace replaces; absent and equal to the provider's are no
 * change, as is a state written before the argument (tests/fixtures/state-0.1.0.json); a bad id fails at
 * check on its property; unknown passes check and plans a replace; look-ups look in the workspace given.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HttpClient } from "../../../provider/api/client";
import { TracingClient } from "../../../provider/api/tracing";
import { createDeploymentProvider } from "../../../provider/controlPlane/deployment/provider";
import { inItsWorkspace, operationWorkspace } from "../../../provider/kit/workspace";
import { resourceProviderService } from "../../../provider/plugin/server";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Service } from "../../../provider/kit/service";
import { UNKNOWN } from "../../../provider/kit/unknown";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { githubArgs } from "../../helpers/deploymentInputs";
import { OTHER_TENANT, TEST_API_KEY, TEST_TENANT, controlPlaneClient, rejection, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

const WORKSPACE_RESOURCES = ["deployment", "exportDestination", "scheduledExport", "bulkExport", "tracingProject", "dataset"] as const;
/** Agent-server objects talk to a deployment's URL, which belongs to one workspace: no workspaceId (docs/workspaces.md). */
const AGENT_SERVER_RESOURCES = ["assistant", "cron", "agentServerCheck"] as const;
/**
 * The look-ups with no workspace: of the organization's own objects (workspaces, roles, service keys, SSO, its settings,
 * service accounts, gateway policies, data planes), and of an agent server's (a cron: the server's URL is the
 * deployment's, which belongs to one workspace).
 */
const NO_WORKSPACE_FUNCTIONS: readonly string[] = [
    "getWorkspace",
    "getWorkspaces",
    "getRole",
    "getServiceKey",
    "getCron",
    "getSsoSettings",
    "getOrganization",
    "getServiceAccount",
    "getGatewayPolicies",
    "getDataPlane",
];
const THIRD = "33333333-3333-4333-8333-333333333333";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;

describe("workspaceId: a workspace per resource (kit/workspace.ts)", function () {
    this.timeout(30_000);
    let em: Emulator;
    let config: Record<string, string | undefined>;
    const stack = { get: (k: string) => config[k] };
    const configure = (p: Provider) => p.configure({ config: stack } as never);
    const provider = (type: keyof typeof RESOURCES) => RESOURCES[type].provider as Provider;
    const sessions = (tenantId: string) =>
        new TracingClient(new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId, apiKeyHeader: "X-API-Key", retryBaseMs: 5, retryMaxMs: 20 }));

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate", deleteMs: 0 } });
    });
    beforeEach(async () => {
        config = { "langsmith:apiKey": TEST_API_KEY, "langsmith:workspaceId": TEST_TENANT, "langsmith:controlPlaneUrl": em.url, "langsmith:endpoint": em.url };
        for (const type of WORKSPACE_RESOURCES) await configure(provider(type));
    });
    after(async () => {
        config = {};
        for (const type of WORKSPACE_RESOURCES) await configure(provider(type));
        await em?.close();
    });

    it("declared once: every resource in a workspace and every look-up takes workspaceId (never sent on the wire); agent-server objects do not", () => {
        for (const type of WORKSPACE_RESOURCES) {
            const f = RESOURCES[type].declaration.inputs.workspaceId;
            assert.deepEqual([f?.kind, f?.onChange, f?.wire, "required" in (f ?? {})], ["string", "replace", false, false], type);
        }
        for (const type of AGENT_SERVER_RESOURCES) assert.equal((RESOURCES[type].declaration.inputs as Record<string, unknown>).workspaceId, undefined, type);
        for (const [name, fn] of Object.entries(FUNCTIONS))
            assert.equal(
                (fn.declaration.args as Record<string, { kind: string }>).workspaceId?.kind,
                NO_WORKSPACE_FUNCTIONS.includes(name) ? undefined : "string",
                name,
            );
    });

    it("the native plugin's schema (provider/plugin/schema.json, checked in) carries workspaceId on those resources and look-ups, as input and output", () => {
        const schema = JSON.parse(readFileSync(join(__dirname, "../../../provider/plugin/schema.json"), "utf8"));
        for (const type of [...WORKSPACE_RESOURCES, ...AGENT_SERVER_RESOURCES]) {
            const r = schema.resources[`langsmith:index:${RESOURCES[type].declaration.name}`];
            const has = (WORKSPACE_RESOURCES as readonly string[]).includes(type);
            assert.deepEqual([r.inputProperties.workspaceId?.type, r.properties.workspaceId?.type], has ? ["string", "string"] : [undefined, undefined], type);
        }
        for (const name of Object.keys(FUNCTIONS))
            assert.equal(
                schema.functions[`langsmith:index:${name}`].inputs?.properties?.workspaceId?.type,
                NO_WORKSPACE_FUNCTIONS.includes(name) ? undefined : "string",
                name,
            );
    });

    it("check: a workspaceId that is not a UUID fails on its property, for every resource, before any call; unknown passes", async () => {
        const before = em.admin.requests.length;
        for (const type of WORKSPACE_RESOURCES) {
            const r = await provider(type).check({}, { workspaceId: "my-workspace" });
            const f = r.failures?.find((x) => x.property === "workspaceId");
            assert.match(f?.reason ?? "", /workspaceId must be a workspace id \(a UUID.*got "my-workspace"/, type);
            const unknown = await provider(type).check({}, { workspaceId: UNKNOWN });
            assert.equal(
                unknown.failures?.find((x) => x.property === "workspaceId"),
                undefined,
                type,
            );
            assert.equal(unknown.inputs?.workspaceId, UNKNOWN, `${type}: the unknown stays for diff`);
        }
        assert.equal(em.admin.requests.length, before, "nothing sent");
    });

    it("check: a provider without a workspace of its own is no failure when the resource names one", async () => {
        config["langsmith:workspaceId"] = undefined;
        const p = provider("tracingProject");
        await configure(p);
        const without = await p.check({}, { name: "p" });
        assert.match(without.failures?.map((f) => f.reason).join() ?? "", /no LangSmith workspace id/);
        assert.deepEqual((await p.check({}, { name: "p", workspaceId: OTHER_TENANT })).failures, []);
        assert.deepEqual((await p.check({}, { name: "p", workspaceId: UNKNOWN })).failures, []);
    });

    it("diff: another workspace replaces (creating first: names are per workspace); absent and the provider's are the same; unknown replaces", async () => {
        for (const type of WORKSPACE_RESOURCES) {
            const p = provider(type);
            // Only the workspace differs: whatever else the resource compares is the same on both sides.
            const olds = type === "deployment" ? { ...githubArgs("d"), schemaVersion: 1 } : {};
            const news = type === "deployment" ? githubArgs("d") : {};
            const d = (o: object, n: object) => p.diff("id", { ...olds, ...o } as never, { ...news, ...n } as never);
            const moved = await d({}, { workspaceId: OTHER_TENANT });
            assert.deepEqual(moved.replaces, ["workspaceId"], type);
            assert.equal(moved.changes, true, type);
            assert.equal(moved.deleteBeforeReplace, type === "scheduledExport" || type === "bulkExport", `${type}: exports stop the old one first`);
            assert.deepEqual((await d({ workspaceId: OTHER_TENANT }, { workspaceId: THIRD })).replaces, ["workspaceId"], type);
            assert.deepEqual((await d({ workspaceId: OTHER_TENANT }, {})).replaces, ["workspaceId"], `${type}: dropped = back to the provider's`);
            assert.deepEqual((await d({}, { workspaceId: UNKNOWN })).replaces, ["workspaceId"], `${type}: unknown at preview`);
            for (const [o, n] of [
                [{}, {}],
                [{}, { workspaceId: TEST_TENANT }],
                [{ workspaceId: TEST_TENANT }, {}],
                [{ workspaceId: OTHER_TENANT }, { workspaceId: OTHER_TENANT }],
            ]) {
                const same = await d(o, n);
                assert.ok(!same.replaces?.includes("workspaceId"), `${type}: ${JSON.stringify([o, n])}`);
                assert.ok(!(same as { updates?: string[] }).updates?.includes("workspaceId"), type);
            }
        }
    });

    it("diff: a state written before workspaceId (0.1.0's, with no workspaceId) is no change; naming the provider's workspace neither", async () => {
        const state = JSON.parse(readFileSync(join(__dirname, "../../fixtures/state-0.1.0.json"), "utf8"));
        const r = state.deployment.resources.find((x: { type: string }) => x.type.endsWith("langsmith:Deployment"));
        assert.equal(r.outputs.workspaceId, undefined, "the fixture has none");
        // Its secrets are ciphertext (encrypted apart in inputs and outputs): the same plain value on both sides.
        const secrets = [{ name: "OPENAI_API_KEY", value: "v" }];
        const [olds, news] = [
            { ...r.outputs, secrets },
            { ...r.inputs, secrets },
        ];
        const p = provider("deployment");
        for (const n of [news, { ...news, workspaceId: TEST_TENANT }])
            assert.equal((await p.diff(r.id, olds, n)).changes, false, JSON.stringify(n.workspaceId));
        assert.deepEqual((await p.diff(r.id, olds, { ...news, workspaceId: OTHER_TENANT })).replaces, ["workspaceId"]);
    });

    it("diff: the provider's workspace changing is no change to a resource that names none (it follows the provider, as before)", async () => {
        const p = provider("tracingProject");
        config["langsmith:workspaceId"] = THIRD;
        await configure(p);
        assert.equal((await p.diff("id", { name: "p" } as never, { name: "p" } as never)).changes, false);
        assert.deepEqual((await p.diff("id", { name: "p" } as never, { name: "p", workspaceId: TEST_TENANT } as never)).replaces, ["workspaceId"]);
    });

    it("TracingProject in another workspace: made, read, renamed, imported (<workspaceId>/<id>) and deleted there; the provider's never sees it", async () => {
        const p = provider("tracingProject");
        const name = uniqueName("ws-project");
        const checked = await p.check({}, { name, workspaceId: OTHER_TENANT });
        assert.deepEqual(checked.failures, []);
        const made = await p.create(checked.inputs);
        assert.equal(made.outs.workspaceId, OTHER_TENANT, "kept in the state as given");
        assert.equal(made.outs.tenantId, OTHER_TENANT);
        assert.equal((await sessions(OTHER_TENANT).getSession(made.id)).name, name);
        assert.equal(await sessions(TEST_TENANT).tryGetSession(made.id), undefined, "not in the provider's workspace");

        const read = await p.read(made.id, made.outs);
        assert.deepEqual([read.id, read.props?.workspaceId, read.inputs?.workspaceId], [made.id, OTHER_TENANT, OTHER_TENANT]);
        const renamed = await p.update(made.id, made.outs, { ...checked.inputs, name: `${name}-2` });
        assert.equal(renamed.outs.workspaceId, OTHER_TENANT);
        assert.equal((await sessions(OTHER_TENANT).getSession(made.id)).name, `${name}-2`);

        const imported = await p.read(`${OTHER_TENANT}/${made.id}`, {});
        assert.deepEqual([imported.id, imported.inputs?.workspaceId, imported.inputs?.name], [made.id, OTHER_TENANT, `${name}-2`]);
        assert.deepEqual(await p.read(made.id, {}), {}, "a plain id is looked up in the provider's workspace, which does not hold it");

        await p.delete(made.id, renamed.outs);
        assert.equal(await sessions(OTHER_TENANT).tryGetSession(made.id), undefined);
    });

    it("the same name in two workspaces: a move creates the new one before deleting the old (names are per workspace)", async () => {
        const p = provider("dataset");
        const name = uniqueName("ws-dataset");
        const here = await p.create((await p.check({}, { name })).inputs);
        const there = await p.create((await p.check({}, { name, workspaceId: OTHER_TENANT })).inputs);
        assert.notEqual(here.id, there.id);
        assert.equal(here.outs.workspaceId, undefined, "absent stays absent");
        await p.delete(here.id, here.outs);
        assert.ok(await sessions(OTHER_TENANT).findDatasetByName(name), "deleting one leaves the other");
        assert.equal(await sessions(TEST_TENANT).findDatasetByName(name), undefined);
        await p.delete(there.id, there.outs);
        assert.equal(await sessions(OTHER_TENANT).findDatasetByName(name), undefined);
    });

    it("Deployment in another workspace: created and awaited there, deleted there; absent from the provider's list", async () => {
        const p = inItsWorkspace(createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5 })) as Provider;
        await configure(p);
        const name = uniqueName("ws-agent");
        const checked = await p.check({}, { ...githubArgs(name), workspaceId: OTHER_TENANT });
        assert.deepEqual(checked.failures, []);
        const made = await p.create(checked.inputs);
        assert.equal(made.outs.revisionStatus, "DEPLOYED");
        assert.equal(made.outs.workspaceId, OTHER_TENANT);
        const other = controlPlaneClient(em, { tenantId: OTHER_TENANT });
        assert.equal((await other.getDeployment(made.id)).name, name);
        assert.equal(await controlPlaneClient(em).tryGetDeployment(made.id), undefined, "not in the provider's workspace");
        assert.equal((await p.read(made.id, made.outs)).id, made.id);
        await p.delete(made.id, made.outs);
        assert.equal(await other.tryGetDeployment(made.id), undefined);
    });

    it("look-ups: workspaceId looks in that workspace (both front doors' run); a bad one fails naming it", async () => {
        const name = uniqueName("ws-lookup");
        const p = provider("tracingProject");
        const made = await p.create((await p.check({}, { name, workspaceId: OTHER_TENANT })).inputs);
        const service = new Service(stack);
        const found = (await FUNCTIONS.getTracingProject.run(service, { name, workspaceId: OTHER_TENANT })) as { id: string; tenantId: string };
        assert.deepEqual([found.id, found.tenantId], [made.id, OTHER_TENANT]);
        const run = (a: { name: string; workspaceId?: string }) => Promise.resolve().then(() => FUNCTIONS.getTracingProject.run(service, a));
        assert.match((await rejection(() => run({ name }))).message, /the workspace holds no tracing project named/);
        assert.match((await rejection(() => run({ name, workspaceId: "nope" }))).message, /workspaceId must be a workspace id/);
        await p.delete(made.id, made.outs);
    });

    describe("through the native plugin's gRPC service (as the engine calls it)", () => {
        const call = (service: Record<string, any>, method: string, request: unknown) =>
            new Promise<{ err: any; resp: any }>((done) => service[method]({ request }, (err: unknown, resp: unknown) => done({ err, resp })));
        const plugin = (p: unknown) =>
            resourceProviderService({ providers: { "langsmith:index:TracingProject": p as never }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const URN = "urn:pulumi:dev::p::langsmith:index:TracingProject::traces";

        it("Diff: a move shows workspaceId as UPDATE_REPLACE, created before the old one is deleted", async () => {
            const req = new proto.DiffRequest();
            req.setUrn(URN);
            req.setId("p1");
            req.setOlds(Struct.fromJavaScript({ name: "p", workspaceId: OTHER_TENANT }));
            req.setNews(Struct.fromJavaScript({ name: "p", workspaceId: THIRD }));
            const { err, resp } = await call(plugin(provider("tracingProject")), "diff", req);
            assert.equal(err, null);
            assert.deepEqual([resp.getReplacesList(), resp.getDeletebeforereplace()], [["workspaceId"], false]);
            assert.equal(resp.getDetaileddiffMap().get("workspaceId").getKind(), proto.PropertyDiff.Kind.UPDATE_REPLACE);
        });

        it("Read of <workspaceId>/<id> without properties (pulumi import): read in that workspace, answered as the plain id with workspaceId among the inputs", async () => {
            const seen: unknown[] = [];
            const stub = inItsWorkspace({
                create: () => Promise.reject(new Error("not called")),
                read: async (id: string) => {
                    seen.push([id, operationWorkspace()]);
                    return { id, props: { name: "p" }, inputs: { name: "p" } };
                },
            });
            const req = new proto.ReadRequest();
            req.setUrn(URN);
            req.setId(`${OTHER_TENANT}/p1`);
            const { err, resp } = await call(plugin(stub), "read", req);
            assert.equal(err, null);
            assert.deepEqual(seen, [["p1", OTHER_TENANT]]);
            assert.equal(resp.getId(), "p1");
            assert.deepEqual(resp.getInputs().toJavaScript(), { name: "p", workspaceId: OTHER_TENANT });
            assert.deepEqual(resp.getProperties().toJavaScript(), { name: "p", workspaceId: OTHER_TENANT });
        });
    });
});
