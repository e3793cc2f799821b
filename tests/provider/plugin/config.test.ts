/** The native plugin's configuration: the engine's values read as `langsmith:*` keys, checked and diffed. */
import assert from "node:assert/strict";
import { checkConfig, configSource, diffConfig, unwrapSecret } from "../../../provider/plugin/config";

const secret = (value: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });

describe("plugin configuration", () => {
    const saved = { ...process.env };
    afterEach(() => {
        for (const k of Object.keys(process.env)) if (k.startsWith("LANGSMITH_")) delete process.env[k];
        Object.assign(process.env, saved);
    });

    it("configSource: args keys (secret values unwrapped) and legacy variables both answer langsmith:<key>", () => {
        const src = configSource({ apiKey: secret("k1"), workspaceId: "w1" }, [["langsmith:config:region", "eu"]]);
        assert.equal(src.get("langsmith:apiKey"), "k1");
        assert.equal(src.get("langsmith:workspaceId"), "w1");
        assert.equal(src.get("langsmith:region"), "eu");
        assert.equal(src.get("langsmith:endpoint"), undefined);
        assert.equal(unwrapSecret("plain"), "plain");
    });

    it("checkConfig: a missing API key fails naming apiKey; the environment variable makes it pass", async () => {
        delete process.env.LANGSMITH_API_KEY;
        const [f] = await checkConfig({ workspaceId: "w1" });
        assert.equal(f.property, "apiKey");
        assert.match(f.reason, /LANGSMITH_API_KEY/);
        process.env.LANGSMITH_API_KEY = "from-env";
        assert.deepEqual(await checkConfig({ workspaceId: "w1" }), []);
    });

    it("checkConfig: two ways of saying where the control plane is fail with the fix; a bad URL names its key", async () => {
        const [two] = await checkConfig({ apiKey: secret("k"), region: "eu", controlPlaneUrl: "http://127.0.0.1:1" });
        assert.match(two.reason, /Set only one of controlPlaneUrl, region/);
        const [bad] = await checkConfig({ apiKey: secret("k"), endpoint: "not a url" });
        assert.equal(bad.property, "endpoint");
    });

    it("checkConfig: a setting unknown at preview (an Output of another resource) is not checked then; once known it is", async () => {
        const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
        assert.deepEqual(await checkConfig({ apiKey: secret("k"), controlPlaneUrl: unknown }), []);
        assert.deepEqual(await checkConfig({ apiKey: secret(unknown), controlPlaneUrl: "http://127.0.0.1:1" }), []);
        const [bad] = await checkConfig({ apiKey: secret("k"), controlPlaneUrl: "not a url" });
        assert.equal(bad.property, "controlPlaneUrl");
    });

    it("diffConfig: the keys that changed (secret values compared unwrapped); the version key is not configuration", () => {
        assert.deepEqual(diffConfig({ apiKey: secret("a"), region: "us", version: "0.1.0" }, { apiKey: secret("a"), region: "us", version: "0.2.0" }), []);
        assert.deepEqual(diffConfig({ apiKey: secret("a"), region: "us" }, { apiKey: secret("b"), endpoint: "http://x" }), ["apiKey", "endpoint", "region"]);
    });
});
