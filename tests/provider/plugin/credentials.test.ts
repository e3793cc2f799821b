/**
 * The native plugin checks its credentials for the provider (CheckConfig, which the engine asks before any
 * resource's check and reports on the provider: kit/service.ts `credentialsRefused`), with one read of the API its
 * configuration points at, against the emulator over HTTP: a wrong key is one failure naming the address and the
 * setting that chose it; the right one none; a control plane set beside the default tracing API is what is read
 * then; no workspace id reads the organization's workspaces; one read per configuration in a process. The engine's
 * side (said once, on the provider): tests/e2e/words.test.ts.
 */
import assert from "node:assert/strict";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { setEngineAddress } from "../../../provider/kit/watchdog";
import { resourceProviderService } from "../../../provider/plugin/server";
import { TEST_API_KEY, TEST_TENANT, startTestEmulator, type Emulator } from "../../helpers/emulator";

/** A value as the engine sends a secret to a provider that accepts secrets. */
const secretOf = (value: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });

describe("plugin: CheckConfig checks the provider's credentials", function () {
    this.timeout(30_000);
    let em: Emulator;
    const service = resourceProviderService({ providers: {}, schema: "{}", version: "0.1.0" }) as Record<string, any>;
    const saved = { ...process.env };

    /** CheckConfig's failures for the provider's `config` (its values as the engine sends them). */
    async function checkConfig(config: Record<string, unknown>): Promise<Array<{ property: string; reason: string }>> {
        const req = new proto.CheckRequest();
        req.setUrn("urn:pulumi:dev::p::pulumi:providers:langsmith::default");
        req.setNews(Struct.fromJavaScript(config as never));
        const resp = await new Promise<any>((done, fail) => service.checkConfig({ request: req }, (err: unknown, r: unknown) => (err ? fail(err) : done(r))));
        return resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() }));
    }
    /** The requests the emulator answered since `from`. */
    const since = (from: number) => em.admin.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.status}`);

    before(async () => {
        em = await startTestEmulator({ apiKeys: [TEST_API_KEY] });
        for (const k of Object.keys(process.env)) if (k.startsWith("LANGSMITH_")) delete process.env[k];
        // Inside an engine only (a test calling a provider reads nothing): an address it never dials.
        setEngineAddress("127.0.0.1:9");
    });
    after(async () => {
        setEngineAddress(undefined);
        Object.assign(process.env, saved);
        await em?.close();
    });

    it("a wrong key: one failure for the provider, naming the tracing API's address and the settings; once per configuration", async () => {
        const config = { apiKey: secretOf("lsv2_sk_wrong_0000"), endpoint: em.url, workspaceId: TEST_TENANT };
        const from = em.admin.requests.length;
        const failures = await checkConfig(config);
        assert.equal(failures.length, 1, JSON.stringify(failures));
        assert.equal(failures[0].property, "");
        assert.ok(
            failures[0].reason.startsWith(
                "LangSmith refused this provider's credentials (checked with one read of the tracing API, before any change): 401 Unauthorized: ",
            ),
            failures[0].reason,
        );
        assert.ok(failures[0].reason.includes(`to ${em.url} (stack config langsmith:endpoint), with the API key of stack config langsmith:apiKey`));
        assert.ok(!failures[0].reason.includes("lsv2_sk_wrong_0000"), "the key is in the message");
        assert.deepEqual(await checkConfig(config), failures, "the second answer differs");
        assert.deepEqual(since(from), ["GET /api/v1/bulk-exports/destinations 401"], "not one read");
    });

    it("the right key: no failure", async () => {
        assert.deepEqual(await checkConfig({ apiKey: secretOf(TEST_API_KEY), endpoint: em.url, workspaceId: TEST_TENANT }), []);
    });

    it("a control plane set beside the tracing API's default (the cloud): the control plane is what is read", async () => {
        const from = em.admin.requests.length;
        const [f] = await checkConfig({ apiKey: secretOf("lsv2_sk_wrong_0001"), controlPlaneUrl: em.url, workspaceId: TEST_TENANT });
        assert.match(f.reason, /one read of the control plane, before any change\): 401 Unauthorized: /);
        assert.ok(f.reason.includes(`to ${em.url} (stack config langsmith:controlPlaneUrl)`), f.reason);
        assert.deepEqual(since(from), ["GET /v2/deployments 401"]);
    });

    it("no workspace id: the organization's workspaces are read", async () => {
        const [f] = await checkConfig({ apiKey: secretOf("lsv2_sk_wrong_0002"), endpoint: em.url });
        assert.match(f.reason, /one read of the tracing API \(the organization's workspaces\), before any change\): 401 Unauthorized: /);
    });
});
