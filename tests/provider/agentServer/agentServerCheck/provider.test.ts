/**
 * AgentServerCheck against the emulator's agent server: the probe passes on a server that honours
 * `interrupt`, fails readably (statuses and message kinds, never the API key) with either fault switch on,
 * tries a longer message when the first run ends too soon, and `check` refuses bad arguments at preview.
 */
import assert from "node:assert/strict";
import { probeInterrupt } from "../../../../provider/api/agentServerProbe";
import { checkAgentServerCheck, createAgentServerCheckProvider } from "../../../../provider/agentServer/agentServerCheck/provider";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { TEST_API_KEY, admin, githubBody, raw, rejection, startTestEmulator, type Emulator } from "../../../helpers/emulator";

describe("AgentServerCheck against the emulator's agent server", function () {
    this.timeout(60_000);
    let em: Emulator;
    let url: string;
    const provider = createAgentServerCheckProvider();

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 30 } });
        url = (await raw(em, "POST", "/v2/deployments", { body: githubBody() })).body.source_config.custom_url;
        const config: Record<string, string> = { "langsmith:apiKey": TEST_API_KEY, "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": "w" };
        await provider.configure!({ config: { get: (k: string) => config[k] } } as never);
    });
    after(async () => {
        await em?.close();
    });
    afterEach(async () => {
        await admin(em, "PUT", "/agent-server", { stepMs: 30, ignoreInterrupt: false, dropPartialOutput: false, reorderMessages: false });
    });

    it("passes on a server that honours interrupt, recording the statuses seen; unchanged inputs give no diff", async () => {
        const inputs = checkAgentServerCheck({ url, assistantId: "agent", revisionId: "r1" }).inputs!;
        const { outs } = await provider.create(inputs);
        assert.equal(outs.firstRunStatus, "interrupted");
        assert.equal(outs.secondRunStatus, "success");
        assert.equal(outs.messageCount, 4);
        assert.equal((await provider.diff!(outs.threadId, outs, inputs)).changes, false);
        assert.equal((await provider.diff!(outs.threadId, outs, { ...inputs, revisionId: "r2" })).changes, true);
        assert.equal((await provider.diff!(outs.threadId, outs, { ...inputs, timeoutSeconds: 5 })).changes, false);
    });

    it("fails when the server ignores interrupt, saying what was expected and seen, without the API key", async () => {
        await admin(em, "PUT", "/agent-server", { ignoreInterrupt: true });
        const e = await rejection(() => provider.create(checkAgentServerCheck({ url, assistantId: "agent" }).inputs!));
        assert.match(e.message, /interrupt was not honoured: expected the first run interrupted.*the first run ended success, not interrupted/);
        assert.ok(!e.message.includes(TEST_API_KEY));
    });

    it("fails when the server drops the partial output", async () => {
        await admin(em, "PUT", "/agent-server", { dropPartialOutput: true });
        const e = await rejection(() => provider.create(checkAgentServerCheck({ url, assistantId: "agent" }).inputs!));
        assert.match(e.message, /the first run's partial output is not in the thread .*thread messages \[human, human, ai\]/);
    });

    it("fails when the second run's messages come before the first run's partial output (the order docs/service.md 3.2 states)", async () => {
        await admin(em, "PUT", "/agent-server", { reorderMessages: true });
        const e = await rejection(() => provider.create(checkAgentServerCheck({ url, assistantId: "agent" }).inputs!));
        assert.match(e.message, /interrupt was not honoured: .*the second run's messages come before the first run's/);
        assert.match(e.message, /thread messages \[human, ai, human, ai\]/);
    });

    it("a first run that ends too soon is tried again with a longer message", async () => {
        await admin(em, "PUT", "/agent-server", { stepMs: 20 });
        const r = await probeInterrupt({ url, apiKey: TEST_API_KEY, assistantId: "agent", message: "one two three four", timeoutMs: 20_000, watchMs: 200 });
        assert.equal(r.attempts, 3);
        assert.equal(r.firstRunStatus, "interrupted");
    });

    it("an unknown assistant fails with the server's words", async () => {
        const e = await rejection(() => provider.create(checkAgentServerCheck({ url, assistantId: "nope" }).inputs!));
        assert.match(e.message, /Assistant nope not found/);
    });

    it("check: url must be http(s), assistantId non-empty, timeoutSeconds > 0; unknown url passes", () => {
        const f = (n: Record<string, unknown>) => (checkAgentServerCheck(n).failures ?? []).map((x) => x.property);
        assert.deepEqual(f({ url: "ftp://x", assistantId: "agent" }), ["url"]);
        assert.deepEqual(f({ url: "http://x", assistantId: "" }), ["assistantId"]);
        assert.deepEqual(f({ url: "http://x", assistantId: "a", timeoutSeconds: 0 }), ["timeoutSeconds"]);
        assert.deepEqual(f({ url: UNKNOWN, assistantId: "agent" }), []);
    });
});
