/**
 * Assistant (provider/assistant) against the emulator's agent server over HTTP: check at preview, diff (a new
 * version in place, a replacement for another graph or server), create, read (refresh shows a change made
 * with an SDK; import by `<url>|<id>`), update (a new version of the same assistant), delete; the refusals
 * (an unknown graph, an address that is not an agent server, an assistant of the same graph and name) and a
 * lost answer taken in, never a second assistant.
 */
import assert from "node:assert/strict";
import { AgentServerClient } from "../../../../provider/api/agentServer";
import { checkAssistant, createAssistantProvider } from "../../../../provider/agentServer/assistant/provider";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { withEnv } from "../../../helpers/async";
import { TEST_API_KEY, admin, githubBody, raw, rejection, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";

describe("Assistant", function () {
    this.timeout(30_000);
    let em: Emulator;
    let url: string;
    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
        url = (await raw(em, "POST", "/v2/deployments", { body: githubBody() })).body.source_config.custom_url;
    });
    after(async () => {
        await em?.close();
    });
    afterEach(async () => {
        await admin(em, "DELETE", "/faults");
    });
    const server = (u = url) => AgentServerClient.connect({ baseUrl: u, apiKey: TEST_API_KEY, retryBaseMs: 5, retryMaxMs: 20, settleMs: 200 });
    const provider = () => createAssistantProvider({ server });
    const checked = (news: Record<string, unknown>) => {
        const r = checkAssistant(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as { url: string; graphId: string; name: string } & Record<string, unknown>;
    };
    const base = () => ({ url, graphId: "agent", name: uniqueName("support") });

    it("check: url, graphId and name are required; a misspelt key of config fails naming the right one; an unknown url passes", () => {
        const r = checkAssistant({ url: "ftp://x", config: { configurabel: {} } });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["config.configurabel", "graphId", "name", "url"],
        );
        assert.match(r.failures![0].reason, /did you mean "configurable"/);
        assert.match(r.failures![3].reason, /url must be the agent server's http\(s\) URL/);
        assert.deepEqual(checkAssistant({ url: UNKNOWN, graphId: "agent", name: "a" }).failures, []);
    });

    it("diff: name, description, config, context and metadata update in place; graphId and url replace", async () => {
        const olds = checked({ ...base(), config: { configurable: { model: "a" } } });
        const d = await provider().diff!("id", olds as never, checked({ ...olds, name: "b", config: { configurable: { model: "b" } }, metadata: { t: 1 } }));
        assert.deepEqual(
            [d.replaces, (d as { updates?: string[] }).updates],
            [[], ["name", "config", "context", "metadata"]],
            "the server keeps context equal to config.configurable",
        );
        const r = await provider().diff!("id", olds as never, checked({ ...olds, graphId: "other", url: `${url}x` }));
        assert.deepEqual([r.replaces, r.deleteBeforeReplace], [["url", "graphId"], true], "the program's id stays: the old one goes first");
        const derived = checkAssistant({ ...olds, assistantId: undefined, graphId: "other" }, olds).inputs as typeof olds;
        const d2 = await provider().diff!("id", olds as never, derived);
        assert.deepEqual([d2.replaces, d2.deleteBeforeReplace], [["graphId", "assistantId"], false], "a new id: the new one first");
        const later = await provider().diff!("id", olds as never, { ...olds, url: UNKNOWN } as never);
        assert.deepEqual([later.replaces, (later as { updates?: string[] }).updates], [[], ["url"]], "a url not known yet is an update");
    });

    it("create, read, update (a new version of the same assistant), a change made with an SDK shown by read, delete", async () => {
        const p = provider();
        const inputs = checked({
            ...base(),
            description: "answers tickets",
            config: { configurable: { model: "gpt-4o" }, tags: ["support"] },
            metadata: { team: "s" },
        });
        const made = await p.create(inputs);
        assert.deepEqual([made.outs.version, made.outs.assistantId, made.id], [1, inputs.assistantId, inputs.assistantId], "the id chosen at check");
        const onServer = await server().getAssistant(made.id);
        assert.deepEqual([onServer.graph_id, onServer.config?.configurable, onServer.config?.tags], ["agent", { model: "gpt-4o" }, ["support"]]);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, inputs, "nothing changed reads back as the inputs");

        const news = checked({ ...inputs, config: { configurable: { model: "gpt-5" } }, description: undefined, metadata: { owner: "b" } });
        const updated = await p.update!(made.id, made.outs, news);
        // The server merges metadata: the key the program dropped is sent as null, and reads back as absent.
        assert.deepEqual((await server().getAssistant(made.id)).metadata, { team: null, owner: "b" });
        assert.deepEqual((await p.read!(made.id, updated.outs)).inputs, news, "the new version reads back as the new inputs");
        assert.deepEqual([updated.outs.version, updated.outs.assistantId], [2, made.id], "a new version of the same assistant");
        assert.deepEqual(
            (await server().assistantVersions(made.id)).map((v) => v.version),
            [2, 1],
        );

        await server().updateAssistant(made.id, { config: { configurable: { model: "edited" } } });
        const drift = await p.read!(made.id, updated.outs);
        assert.deepEqual((drift.inputs as { config: unknown }).config, { configurable: { model: "edited" } }, "refresh shows the change");
        const back = await p.update!(made.id, drift.props as never, news);
        assert.deepEqual([back.outs.version, (await server().getAssistant(made.id)).config?.configurable], [4, { model: "gpt-5" }]);

        await p.delete!(made.id, back.outs);
        assert.deepEqual(await p.read!(made.id, back.outs), {});
        await p.delete!(made.id, back.outs); // already gone: done
    });

    it("context or config.configurable, which the server keeps equal: the one given reads back alone; both fail at preview", async () => {
        const p = provider();
        for (const given of [{ context: { locale: "fr" } }, { config: { configurable: { locale: "fr" } } }]) {
            const inputs = checked({ ...base(), ...given });
            const made = await p.create(inputs);
            const onServer = await server().getAssistant(made.id);
            assert.deepEqual([onServer.context, onServer.config?.configurable], [{ locale: "fr" }, { locale: "fr" }], "mirrored by the server");
            assert.deepEqual((await p.read!(made.id, made.outs)).inputs, inputs);
            await p.delete!(made.id, made.outs);
        }
        const given = checked({ ...base(), config: { configurable: { locale: "fr" } } });
        const asContext = await provider().diff!("id", { ...given, config: undefined, context: { locale: "fr" } } as never, given);
        assert.equal(asContext.changes, false, "the same assistant, read back with the other name of it (an import)");
        const both = checkAssistant({ ...base(), context: { a: 1 }, config: { configurable: { a: 1 } } });
        assert.match(both.failures![0].reason, /context and config.configurable: give one or the other/);
    });

    it("read: import by <url>|<assistantId> reads every input back; another id form says which to use", async () => {
        const p = provider();
        const inputs = checked({ ...base(), context: { locale: "fr" } });
        const made = await p.create(inputs);
        const imported = await p.read!(`${url}|${made.id}`);
        assert.deepEqual([imported.id, imported.inputs], [made.id, inputs]);
        const e = await rejection(() => p.read!(made.id));
        assert.match(e.message, /import it with the id <url>\|<assistantId>/);
        await p.delete!(made.id, made.outs);
    });

    it("create: an unknown graph fails with the server's words and the address, nothing made", async () => {
        const e = await rejection(() => provider().create(checked({ ...base(), name: "no-such", graphId: "no-such-graph" })));
        assert.match(e.message, new RegExp(`Assistant on the agent server at ${url}: create failed: 4\\d\\d .*no-such-graph`));
        const named = (await raw(em, "POST", `${new URL(url).pathname}/assistants/search`, { body: { name: "no-such" } })).body;
        assert.deepEqual(named, []);
    });

    it("create: an address that is not an agent server fails naming it and what answered there", async () => {
        const wrong = `${em.url}/v2`;
        const e = await rejection(() => createAssistantProvider({ server: (u) => server(u) }).create(checked({ ...base(), url: wrong })));
        assert.match(e.message, new RegExp(`${wrong} does not answer as an agent server .*GET ${wrong}/ok: 403 Forbidden: X-Tenant-Id header is required`));
    });

    it("check: the id is known at preview, derived from server, graph and name, kept by a rename, new for another graph, unknown with the server", () => {
        const inputs = checked(base());
        assert.match(inputs.assistantId as string, /^[0-9a-f-]{36}$/);
        assert.equal(checked(base()).assistantId === inputs.assistantId, false, "another name, another id");
        assert.equal(checked({ ...inputs, assistantId: undefined }).assistantId, inputs.assistantId, "the same one again");
        assert.equal(
            checkAssistant({ ...inputs, assistantId: undefined, name: "renamed" }, inputs).inputs!.assistantId,
            inputs.assistantId,
            "a rename keeps it",
        );
        assert.notEqual(checkAssistant({ ...inputs, assistantId: undefined, graphId: "other" }, inputs).inputs!.assistantId, inputs.assistantId);
        assert.equal(
            checkAssistant({ ...inputs, assistantId: undefined, url: UNKNOWN }, inputs).inputs!.assistantId,
            inputs.assistantId,
            "a new revision's preview: the server stays",
        );
        assert.equal(
            checkAssistant({ ...base(), assistantId: "ABCDEF01-2345-4678-9ABC-DEF012345678" }).inputs!.assistantId,
            "abcdef01-2345-4678-9abc-def012345678",
        );
        assert.deepEqual(checked({ ...base(), metadata: {}, description: "", config: { configurable: {} } }).metadata, undefined, "empty values are absent");
        assert.equal(checkAssistant({ ...base(), url: UNKNOWN }).inputs!.assistantId, UNKNOWN, "a new assistant on a server not known yet");
        assert.match(checkAssistant({ ...base(), assistantId: "support" }).failures![0].reason, /assistantId must be a uuid/);
    });

    it("check: the id is derived from the resource's identity (its URN): a new assistant given the name another was renamed away from is made, not refused", async () => {
        const urn = (n: string) => `urn:pulumi:dev::p::langsmith:index:Assistant::${n}`;
        const first = { ...base(), __identity: urn("first") };
        const a = checkAssistant(first).inputs as typeof first & { assistantId: string };
        assert.equal(checkAssistant(first).inputs!.assistantId, a.assistantId, "one resource always derives the same id");
        const made = await provider().create(a);
        const renamed = checkAssistant({ ...first, name: `${first.name}-2` }, a).inputs as typeof a;
        assert.equal(renamed.assistantId, a.assistantId, "a rename keeps it");
        await provider().update!(made.id, made.outs, renamed);
        const second = checkAssistant({ ...base(), name: first.name, __identity: urn("second") }).inputs as typeof a;
        assert.notEqual(second.assistantId, a.assistantId);
        const other = await provider().create(second);
        assert.deepEqual([other.id, (await server().getAssistant(other.id)).name], [second.assistantId, first.name]);
        for (const m of [made, other]) await provider().delete!(m.id, m.outs);
    });

    it("create: an assistant the server holds under the id (a killed up made it) is refused with its id; LANGSMITH_ADOPT_IDS takes it in, set to the program's", async () => {
        const inputs = checked({ ...base(), metadata: { owner: "program" } });
        const other = await server().createAssistant({
            assistant_id: inputs.assistantId as string,
            graph_id: "agent",
            name: inputs.name,
            metadata: { owner: "killed run" },
        });
        const e = await rejection(() => provider().create(inputs));
        assert.match(e.message, new RegExp(`already holds assistant ${other.assistant_id} of graph "agent" named "${inputs.name}"`));
        assert.match(e.message, new RegExp(`LANGSMITH_ADOPT_IDS=${other.assistant_id} pulumi up`));
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: other.assistant_id }, () => provider().create(inputs));
        assert.deepEqual([adopted.id, (await server().getAssistant(other.assistant_id)).metadata], [other.assistant_id, { owner: "program" }]);
        assert.deepEqual((await provider().read!(adopted.id, adopted.outs)).inputs, inputs, "taken in: the program's, under the program's id");
    });

    it("create: an answer lost after the server made it is taken in by its id, never a second assistant", async () => {
        await admin(em, "POST", "/faults", { method: "POST", path: "/assistants$", kind: "drop", when: "after" });
        const inputs = checked(base());
        const made = await provider().create(inputs);
        const named = (await raw(em, "POST", `${new URL(url).pathname}/assistants/search`, { body: { name: inputs.name } })).body as Array<{
            assistant_id: string;
        }>;
        assert.deepEqual(
            named.map((a) => a.assistant_id),
            [made.id],
        );
    });
});
