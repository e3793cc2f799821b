/**
 * The native plugin's gRPC service, called as the engine calls it (real request messages, no network): a
 * diff names each changed property and which replace (Pulumi's detailed diff), a Read without properties
 * (`pulumi import`) answers the resource and its inputs, and a create that fails after the resource exists
 * answers the init-failed details that make Pulumi record it.
 */
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ResourceInitError } from "../../../provider/kit/initError";
import { UNKNOWN } from "../../../provider/kit/unknown";
import { warn } from "../../../provider/kit/warn";
import * as pulumiSdk from "@pulumi/pulumi";
import { exportDestinationProvider } from "../../../provider/tracing/exportDestination/provider";
import { deploymentProvider } from "../../../provider/controlPlane/deployment/index";
import { resourceProviderService } from "../../../provider/plugin/server";
import { RESOURCES } from "../../../provider/registry";

/** The registered providers by schema token, as the plugin serves them. */
const PROVIDERS_BY_TOKEN = Object.fromEntries(Object.values(RESOURCES).map((r) => [`langsmith:index:${r.declaration.name}`, r.provider]));

const URN = "urn:pulumi:dev::p::langsmith:index:Deployment::agent";
/** A value as the engine sends a secret to a provider that accepts secrets. */
const secretOf = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });

/** Calls one method of the service the way grpc-js does, and answers its (error, response). */
function call(service: Record<string, any>, method: string, request: unknown): Promise<{ err: any; resp: any }> {
    return new Promise((done) => service[method]({ request }, (err: unknown, resp: unknown) => done({ err, resp })));
}

const state = {
    name: "agent",
    source: "github",
    sourceConfig: { integrationId: "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44", repoUrl: "https://github.com/acme/a", deploymentType: "dev", buildOnPush: false },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
    secrets: [],
    schemaVersion: 1,
    revisionStatus: "DEPLOYED",
};

describe("plugin gRPC service", () => {
    const service = resourceProviderService({ providers: { "langsmith:index:Deployment": deploymentProvider }, schema: "{}", version: "0.1.0" }) as Record<
        string,
        any
    >;

    it("Diff: the changed properties as a detailed diff, replaced ones as *_REPLACE, with delete-before-replace for a kept name", async () => {
        const req = new proto.DiffRequest();
        req.setUrn(URN);
        req.setId("d1");
        req.setOlds(Struct.fromJavaScript(state as any));
        const news = {
            ...state,
            sourceConfig: { ...state.sourceConfig, repoUrl: "https://github.com/acme/b" },
            sourceRevisionConfig: { ...state.sourceRevisionConfig, repoRef: "release-2" },
        };
        req.setNews(Struct.fromJavaScript(news as any));
        const { err, resp } = await call(service, "diff", req);
        assert.equal(err, null);
        assert.equal(resp.getChanges(), proto.DiffResponse.DiffChanges.DIFF_SOME);
        assert.deepEqual(resp.getReplacesList(), ["sourceConfig.repoUrl"]);
        assert.equal(resp.getDeletebeforereplace(), true);
        assert.equal(resp.getHasdetaileddiff(), true);
        const kinds = Object.fromEntries(
            resp
                .getDetaileddiffMap()
                .getEntryList()
                .map(([k]: [string]) => [k, resp.getDetaileddiffMap().get(k).getKind()]),
        );
        assert.deepEqual(kinds, {
            "sourceConfig.repoUrl": proto.PropertyDiff.Kind.UPDATE_REPLACE,
            "sourceRevisionConfig.repoRef": proto.PropertyDiff.Kind.UPDATE,
        });
    });

    it("Diff: an Assistant or Cron whose url is unknown (its Deployment replaced: the plugin previews the URL an update keeps) replaces; through the dynamic provider it may stay", async () => {
        const plugin = resourceProviderService({ providers: PROVIDERS_BY_TOKEN, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const url = "https://agent-a.example.com";
        const olds = {
            assistant: { url, graphId: "agent", name: "support", assistantId: "0b4a0000-0000-4000-8000-000000000001" },
            cron: { url, assistantId: "0b4a0000-0000-4000-8000-000000000001", schedule: "0 9 * * *", enabled: true },
        };
        for (const [type, old] of Object.entries(olds) as Array<["assistant" | "cron", Record<string, unknown>]>) {
            const token = `langsmith:index:${type === "assistant" ? "Assistant" : "Cron"}`;
            const urn = `urn:pulumi:dev::p::${token}::x`;
            const checkReq = new proto.CheckRequest();
            checkReq.setUrn(urn);
            checkReq.setOlds(Struct.fromJavaScript(old as any));
            const { assistantId: _, ...given } = old;
            checkReq.setNews(Struct.fromJavaScript({ ...(type === "cron" ? old : given), url: UNKNOWN } as any));
            const checked = await call(plugin, "check", checkReq);
            assert.equal(checked.err, null);
            const news = checked.resp.getInputs().toJavaScript();
            const req = new proto.DiffRequest();
            req.setUrn(urn);
            req.setId("x1");
            req.setOlds(Struct.fromJavaScript(old as any));
            req.setNews(Struct.fromJavaScript(news));
            const { err, resp } = await call(plugin, "diff", req);
            assert.equal(err, null);
            assert.ok(resp.getReplacesList().includes("url"), `${type}: the plugin's preview says replace (${resp.getReplacesList()})`);
            const dynamic = (await RESOURCES[type].provider.diff!("x1", old, { ...old, url: UNKNOWN })) as { replaces: string[] };
            assert.ok(!dynamic.replaces.includes("url"), `${type}: the dynamic provider's preview, which knows no output of an update, says update`);
        }
    });

    it("Diff: a property that replaces and also changes in place (credentials from the environment's to keys) is shown as replacing", async () => {
        const s = resourceProviderService({
            providers: { "langsmith:index:ExportDestination": exportDestinationProvider },
            schema: "{}",
            version: "0.1.0",
        }) as Record<string, any>;
        const olds = { displayName: "traces", config: { bucketName: "b" }, credentialsKeys: [], schemaVersion: 1 };
        const req = new proto.DiffRequest();
        req.setUrn("urn:pulumi:dev::p::langsmith:index:ExportDestination::bucket");
        req.setId("x1");
        req.setOlds(Struct.fromJavaScript(olds as any));
        req.setNews(Struct.fromJavaScript({ displayName: "traces", config: { bucketName: "b" }, credentials: { accessKeyId: "a", secretAccessKey: "s" } }));
        const { resp } = await call(s, "diff", req);
        assert.deepEqual(resp.getReplacesList(), ["credentials"]);
        assert.equal(resp.getDetaileddiffMap().get("credentials").getKind(), proto.PropertyDiff.Kind.ADD_REPLACE);
    });

    it("Read without properties (pulumi import) answers the id, the properties and the inputs", async () => {
        const read = {
            async create(): Promise<pulumi.dynamic.CreateResult> {
                throw new Error("not called");
            },
            async read(id: string, props: unknown): Promise<pulumi.dynamic.ReadResult> {
                assert.deepEqual(props, {});
                return { id, props: { name: "agent", latestRevisionId: "r1" }, inputs: { name: "agent" } };
            },
        };
        const s = resourceProviderService({ providers: { "langsmith:index:Deployment": read }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const req = new proto.ReadRequest();
        req.setUrn(URN);
        req.setId("d1");
        const { err, resp } = await call(s, "read", req);
        assert.equal(err, null);
        assert.equal(resp.getId(), "d1");
        assert.deepEqual(resp.getProperties().toJavaScript(), { name: "agent", latestRevisionId: "r1" });
        assert.deepEqual(resp.getInputs().toJavaScript(), { name: "agent" });
    });

    it("Create failing after the resource exists answers ErrorResourceInitFailed (id and properties), so Pulumi records it", async () => {
        const failing: pulumi.dynamic.ResourceProvider = {
            async create() {
                throw new ResourceInitError("revision r1 FAILED", "d1", { name: "agent", __provider: undefined });
            },
        };
        const s = resourceProviderService({ providers: { "langsmith:index:Deployment": failing }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const req = new proto.CreateRequest();
        req.setUrn(URN);
        req.setProperties(Struct.fromJavaScript({ name: "agent" }));
        const { err } = await call(s, "create", req);
        assert.equal(err.message, "revision r1 FAILED");
        const details = err.metadata.get("grpc-status-details-bin");
        assert.equal(details.length, 1, "init-failed details attached");
        assert.ok(Buffer.from(details[0]).includes(Buffer.from("pulumirpc.ErrorResourceInitFailed")));
        assert.ok(Buffer.from(details[0]).includes(Buffer.from("d1")));
    });

    it("Configure supports previews; a preview of Update answers the new inputs and the outputs an update keeps (a new revision keeps the URL), the rest unknown, with no call", async () => {
        const untouchable: pulumi.dynamic.ResourceProvider = {
            async create() {
                throw new Error("a preview called create");
            },
            async update() {
                throw new Error("a preview called update");
            },
        };
        const s = resourceProviderService({ providers: { "langsmith:index:Deployment": untouchable }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const configured = await call(s, "configure", new proto.ConfigureRequest());
        assert.equal(configured.resp.getSupportspreview(), true);

        const olds = { ...state, customUrl: "https://agent.example.com", latestRevisionId: "r1", createdAt: "x" };
        const news = { ...state, sourceRevisionConfig: { ...state.sourceRevisionConfig, repoRef: "release-2" } };
        const req = new proto.UpdateRequest();
        req.setUrn(URN);
        req.setId("d1");
        req.setOlds(Struct.fromJavaScript(olds as any));
        req.setNews(Struct.fromJavaScript(news as any));
        req.setPreview(true);
        const { err, resp } = await call(s, "update", req);
        assert.equal(err, null);
        const props = resp.getProperties().toJavaScript();
        assert.equal(props.customUrl, "https://agent.example.com", "kept: dependents see it");
        assert.equal(props.schemaVersion, 1);
        assert.deepEqual([props.latestRevisionId, props.revisionStatus], [UNKNOWN, UNKNOWN], "a new revision: not known yet");
        assert.deepEqual(props.sourceRevisionConfig, news.sourceRevisionConfig);

        const image = { ...olds, source: "external_docker", sourceConfig: { customUrl: "https://a.example.com" } };
        req.setOlds(Struct.fromJavaScript(image as any));
        req.setNews(Struct.fromJavaScript({ ...image, sourceConfig: { customUrl: "https://b.example.com" } } as any));
        const moved = (await call(s, "update", req)).resp.getProperties().toJavaScript();
        assert.equal(moved.customUrl, UNKNOWN, "a new custom URL: the old one is not kept");

        const create = new proto.CreateRequest();
        create.setUrn(URN);
        create.setProperties(Struct.fromJavaScript(news as any));
        create.setPreview(true);
        const made = (await call(s, "create", create)).resp;
        assert.deepEqual([made.getId(), made.getProperties().toJavaScript().customUrl, made.getProperties().toJavaScript().name], ["", UNKNOWN, "agent"]);
    });

    it("Check: a warning the resource's check sends is that resource's (its URN goes with it), not the stack's", async () => {
        const warning = {
            async check(_olds: unknown, news: Record<string, unknown>) {
                await warn("a word about this one");
                return { inputs: news };
            },
        } as unknown as pulumi.dynamic.ResourceProvider;
        const s = resourceProviderService({ providers: { "langsmith:index:Deployment": warning }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const seen: Array<[string, string]> = [];
        const original = pulumiSdk.log.warn;
        (pulumiSdk.log as { warn: unknown }).warn = async (msg: string, resource?: { urn: { promise(): Promise<string> } }) => {
            seen.push([msg, resource ? await resource.urn.promise() : ""]);
        };
        try {
            const req = new proto.CheckRequest();
            req.setUrn(URN);
            req.setNews(Struct.fromJavaScript(state as any));
            assert.equal((await call(s, "check", req)).err, null);
            await warn("outside any operation");
        } finally {
            (pulumiSdk.log as { warn: unknown }).warn = original;
        }
        assert.deepEqual(seen, [
            ["a word about this one", URN],
            ["outside any operation", ""],
        ]);
    });

    it("Secrets: Configure accepts them; a resource sees plain values; outputs are secret where an input was, at any depth, and wherever the service copied a secret string", async () => {
        const seen: Record<string, unknown>[] = [];
        const mirroring: pulumi.dynamic.ResourceProvider = {
            async check(_olds, news) {
                seen.push(news);
                return { inputs: news };
            },
            async create(inputs) {
                seen.push(inputs);
                // The service copies config.configurable into context, as an agent server does.
                return { id: "a1", outs: { ...inputs, context: inputs.config.configurable, version: 1 } };
            },
        };
        const s = resourceProviderService({ providers: { "langsmith:index:Assistant": mirroring }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const configured = await call(s, "configure", new proto.ConfigureRequest());
        assert.equal(configured.resp.getAcceptsecrets(), true);
        const inputs = { name: "agent", config: { configurable: { model: "gpt", token: secretOf("tok-123456") }, tags: ["a"] } };
        const urn = "urn:pulumi:dev::p::langsmith:index:Assistant::agent";
        const checkReq = new proto.CheckRequest();
        checkReq.setUrn(urn);
        checkReq.setNews(Struct.fromJavaScript(inputs as any));
        const checked = await call(s, "check", checkReq);
        assert.equal(checked.err, null);
        assert.deepEqual(checked.resp.getInputs().toJavaScript(), inputs, "checked inputs keep the marker where it was");
        const createReq = new proto.CreateRequest();
        createReq.setUrn(urn);
        createReq.setProperties(Struct.fromJavaScript(inputs as any));
        const created = await call(s, "create", createReq);
        assert.equal(created.err, null);
        for (const v of seen) assert.equal((v as any).config.configurable.token, "tok-123456", "the resource sees the plain value");
        assert.deepEqual(created.resp.getProperties().toJavaScript(), {
            ...inputs,
            context: { model: "gpt", token: secretOf("tok-123456") },
            version: 1,
        });
        // A declared secret input the read leaves out (a destination's credentials on import) stays out: no empty marker.
        const readReq = new proto.ReadRequest();
        readReq.setUrn("urn:pulumi:dev::p::langsmith:index:ExportDestination::bucket");
        readReq.setId("d1");
        const noCredentials = {
            read: async (id: string) => ({ id, props: { displayName: "b", credentials: undefined } }),
        } as unknown as pulumi.dynamic.ResourceProvider;
        const r = resourceProviderService({ providers: { "langsmith:index:ExportDestination": noCredentials }, schema: "{}", version: "0.1.0" }) as Record<
            string,
            any
        >;
        const read = await call(r, "read", readReq);
        assert.equal(read.err, null);
        assert.deepEqual(read.resp.getProperties().toJavaScript(), { displayName: "b" });
    });

    it("Secrets: a declared secret input the program passed plain (Pulumi YAML without fn::secret) is answered secret by Check, so the state's inputs hold it encrypted", async () => {
        const echo: pulumi.dynamic.ResourceProvider = { check: async (_olds, news) => ({ inputs: news }), create: async () => ({ id: "x" }) };
        const s = resourceProviderService({ providers: { "langsmith:index:WorkspaceSecret": echo }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const req = new proto.CheckRequest();
        req.setUrn("urn:pulumi:dev::p::langsmith:index:WorkspaceSecret::openai");
        req.setNews(Struct.fromJavaScript({ key: "OPENAI_API_KEY", value: "sk-plain-123456" }));
        const { err, resp } = await call(s, "check", req);
        assert.equal(err, null);
        assert.deepEqual(resp.getInputs().toJavaScript(), { key: "OPENAI_API_KEY", value: secretOf("sk-plain-123456") });
    });

    it("Secrets: a declared secret output (a ServiceKey's key, from no input) is answered secret by Create, Update and Read; a Read without it (import) leaves it out", async () => {
        const key = "lsv2_sk_0123456789abcdef0123456789abcdef_0123456789";
        const computed = { shortKey: "lsv2_sk_...6789", accessScope: "organization", schemaVersion: 1 };
        const keys: pulumi.dynamic.ResourceProvider = {
            create: async (inputs) => ({ id: "k1", outs: { ...inputs, key, ...computed } }),
            update: async (_id, olds, news) => ({ outs: { ...news, key: olds.key, ...computed } }),
            read: async (id, props) => ({ id, props: { description: "ci", ...computed, ...(props?.key ? { key: props.key } : {}) } }),
        };
        const s = resourceProviderService({ providers: { "langsmith:index:ServiceKey": keys }, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const urn = "urn:pulumi:dev::p::langsmith:index:ServiceKey::ci";
        const request = <T extends { setUrn(u: string): void }>(r: T, o: { properties?: object; olds?: object; news?: object }): T => {
            r.setUrn(urn);
            const set = r as unknown as Record<string, (s: unknown) => void>;
            for (const [field, v] of Object.entries(o)) set[`set${field[0].toUpperCase()}${field.slice(1)}`].call(r, Struct.fromJavaScript(v as any));
            return r;
        };
        const created = await call(s, "create", request(new proto.CreateRequest(), { properties: { description: "ci" } }));
        assert.equal(created.err, null);
        assert.deepEqual(created.resp.getProperties().toJavaScript(), { description: "ci", key: secretOf(key), ...computed });
        // The state as the engine sends it back: the key with its marker.
        const stored = created.resp.getProperties().toJavaScript();
        const updated = await call(s, "update", request(new proto.UpdateRequest(), { olds: stored, news: { description: "ci", roleId: "WORKSPACE_USER" } }));
        assert.deepEqual(updated.resp.getProperties().toJavaScript().key, secretOf(key), "an update keeps it secret");
        const readReq = request(new proto.ReadRequest(), { properties: stored });
        readReq.setId("k1");
        assert.deepEqual((await call(s, "read", readReq)).resp.getProperties().toJavaScript().key, secretOf(key));
        const imported = request(new proto.ReadRequest(), {});
        imported.setId("k1");
        assert.deepEqual((await call(s, "read", imported)).resp.getProperties().toJavaScript(), { description: "ci", ...computed });
    });

    describe("autonaming: a Deployment without a name", () => {
        const s = resourceProviderService({ providers: PROVIDERS_BY_TOKEN, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        const { name: _, schemaVersion: _v, revisionStatus: _s, ...unnamed } = state;
        const checkOf = async (olds: object, opts?: { proposed: string; mode: number }) => {
            const req = new proto.CheckRequest();
            req.setUrn("urn:pulumi:dev::p::langsmith:index:Deployment::My_Agent");
            req.setOlds(Struct.fromJavaScript(olds as any));
            req.setNews(Struct.fromJavaScript(unnamed as any));
            if (opts) {
                const a = new proto.CheckRequest.AutonamingOptions();
                a.setProposedName(opts.proposed);
                a.setMode(opts.mode as never);
                req.setAutonaming(a);
            }
            const { err, resp } = await call(s, "check", req);
            assert.equal(err, null);
            return { name: resp.getInputs().toJavaScript().name, failures: resp.getFailuresList().map((f: any) => `${f.getProperty()}: ${f.getReason()}`) };
        };
        const Mode = proto.CheckRequest.AutonamingOptions.Mode;
        // A deployment's check needs credentials configured (it sends nothing).
        const saved = { ...process.env };
        before(() => Object.assign(process.env, { LANGSMITH_API_KEY: "lsv2_test", LANGSMITH_WORKSPACE_ID: "0b1c2d3e-0000-4000-8000-000000000001" }));
        after(() => {
            process.env = saved;
        });

        it("is named after its logical name, as the service takes it, with a suffix from its URN: the same at every check", async () => {
            const first = await checkOf({});
            assert.match(first.name, /^my-agent-[0-9a-f]{7}$/);
            assert.deepEqual(first.failures, []);
            assert.equal((await checkOf({})).name, first.name, "the preview shows the name the up makes");
            const configured = await call(s, "configure", new proto.ConfigureRequest());
            assert.equal(configured.resp.getSupportsAutonamingConfiguration(), true);
        });
        it("keeps the name it has; takes the stack's pulumi:autonaming proposal; with autonaming disabled, the name is required", async () => {
            assert.equal((await checkOf({ ...unnamed, name: "agent-0000000" })).name, "agent-0000000");
            assert.equal((await checkOf({}, { proposed: "team-a-agent", mode: Mode.PROPOSE })).name, "team-a-agent");
            const disabled = await checkOf({}, { proposed: "", mode: Mode.DISABLE });
            assert.equal(disabled.name, undefined);
            assert.deepEqual(disabled.failures, [
                "name: name is required: the stack's pulumi:autonaming disables naming Deployment resources after their logical name",
            ]);
        });
    });

    it("an unknown resource type is an error naming it", async () => {
        const req = new proto.CheckRequest();
        req.setUrn("urn:pulumi:dev::p::langsmith:index:Nope::x");
        const { err } = await call(service, "check", req);
        assert.match(err.message, /no resource type langsmith:index:Nope/);
    });
});
