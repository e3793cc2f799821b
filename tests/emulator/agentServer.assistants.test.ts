/**
 * The agent servers' assistants and their versions (emulator/agentServer/assistants.ts), judged by the
 * official JS client (`@langchain/langgraph-sdk`): create with a chosen id, get, update (a new version made
 * current: config replaced, metadata merged), versions, setLatest, search, count, delete with its cascades;
 * a run and the AgentServerCheck probe on a created assistant. Raw HTTP for the refusals in the server's
 * words (422 ids and bodies, 404 graphs and versions, 409 a taken id, 400 configurable beside context) and
 * for a create whose answer is lost (it did happen).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import { probeInterrupt } from "../../provider/api/agentServerProbe";
import { TEST_API_KEY, admin, githubBody, raw, rejection, startTestEmulator, type Emulator } from "../helpers/emulator";

const human = (content: string) => ({ messages: [{ role: "user", content }] });

describe("emulator: agent-server assistants and versions, through the official JS client", function () {
    this.timeout(60_000);
    let em: Emulator;
    let client: Client;
    /** The agent server's URL. */
    let url: string;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 10 } });
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        url = created.body.source_config.custom_url;
        client = new Client({ apiUrl: url, apiKey: TEST_API_KEY, callerOptions: { maxRetries: 0 } });
    });
    after(async () => {
        await em?.close();
    });

    it("create with a chosen id, get; if_exists raise is 409, do_nothing answers the existing one", async () => {
        const id = randomUUID();
        const a = await client.assistants.create({
            graphId: "agent",
            assistantId: id,
            name: "support",
            description: "answers tickets",
            config: { tags: ["t1"], configurable: { model: "small" } },
            metadata: { team: "ops" },
            ifExists: "raise",
        });
        assert.equal(a.assistant_id, id);
        assert.equal(a.version, 1);
        assert.deepEqual(a.config, { tags: ["t1"], configurable: { model: "small" } });
        assert.deepEqual(a.context, { model: "small" }, "context mirrors config.configurable, as the server keeps them");
        assert.deepEqual(a.metadata, { team: "ops" });
        assert.equal(a.description, "answers tickets");
        assert.deepEqual(await client.assistants.get(id), a);
        assert.match(String(await rejection(() => client.assistants.create({ graphId: "agent", assistantId: id, ifExists: "raise" }))), /409.*already exists/);
        assert.deepEqual(await client.assistants.create({ graphId: "agent", assistantId: id, ifExists: "do_nothing", name: "other" }), a);
        const untitled = await client.assistants.create({ graphId: "agent" });
        assert.equal(untitled.name, "Untitled");
        assert.deepEqual([untitled.config, untitled.context, untitled.metadata, untitled.description], [{}, {}, {}, null]);
    });

    it("update makes a new version, current: config replaced when given, metadata merged, the rest kept", async () => {
        const a = await client.assistants.create({ graphId: "agent", name: "v", config: { tags: ["a"] }, metadata: { x: 1, y: 1 } });
        const v2 = await client.assistants.update(a.assistant_id, { config: { tags: ["b"], recursion_limit: 5 }, metadata: { y: 2, z: 3 } });
        assert.equal(v2.version, 2);
        assert.deepEqual(v2.config, { tags: ["b"], recursion_limit: 5 });
        assert.deepEqual(v2.metadata, { x: 1, y: 2, z: 3 });
        assert.equal(v2.name, "v");
        const v3 = await client.assistants.update(a.assistant_id, { name: "renamed", context: { model: "big" } });
        assert.equal(v3.version, 3);
        assert.equal(v3.name, "renamed");
        assert.deepEqual(v3.context, { model: "big" });
        assert.deepEqual(v3.config, { configurable: { model: "big" } }, "a context given replaces config with its mirror, as the server does");
        assert.deepEqual((await client.assistants.get(a.assistant_id)).version, 3);
    });

    it("versions: newest first, by metadata, paged; setLatest makes a kept version current", async () => {
        const a = await client.assistants.create({ graphId: "agent", name: "one", config: { tags: ["v1"] }, metadata: { stage: "a" } });
        await client.assistants.update(a.assistant_id, { name: "two", config: { tags: ["v2"] }, metadata: { stage: "b" } });
        await client.assistants.update(a.assistant_id, { name: "three", config: { tags: ["v3"] } });
        const all = await client.assistants.getVersions(a.assistant_id);
        assert.deepEqual(
            all.map((v) => [v.version, v.name, v.config.tags]),
            [
                [3, "three", ["v3"]],
                [2, "two", ["v2"]],
                [1, "one", ["v1"]],
            ],
        );
        assert.ok(all.every((v) => v.assistant_id === a.assistant_id && !("updated_at" in v)));
        assert.deepEqual(
            (await client.assistants.getVersions(a.assistant_id, { metadata: { stage: "a" } })).map((v) => v.version),
            [1],
        );
        assert.deepEqual(
            (await client.assistants.getVersions(a.assistant_id, { limit: 1, offset: 1 })).map((v) => v.version),
            [2],
        );
        const back = await client.assistants.setLatest(a.assistant_id, 1);
        assert.deepEqual([back.version, back.name, back.config, back.metadata], [1, "one", { tags: ["v1"] }, { stage: "a" }]);
        assert.equal((await client.assistants.get(a.assistant_id)).name, "one");
        const v4 = await client.assistants.update(a.assistant_id, { description: "after" });
        assert.equal(v4.version, 4, "a PATCH after setLatest makes version max+1");
        assert.deepEqual(v4.config, { tags: ["v1"] });
    });

    it("search (graph, name substring, metadata, sort, select, paging) and count; the system assistant is among them", async () => {
        const tag = randomUUID();
        for (const name of ["Alpha bot", "beta BOT", "gamma"]) await client.assistants.create({ graphId: "agent", name, metadata: { tag } });
        const byTag = await client.assistants.search({ metadata: { tag }, sortBy: "name", sortOrder: "asc" });
        assert.deepEqual(
            byTag.map((a) => a.name),
            ["Alpha bot", "beta BOT", "gamma"],
        );
        assert.deepEqual(
            (await client.assistants.search({ metadata: { tag }, name: "bot" })).map((a) => a.name),
            ["beta BOT", "Alpha bot"],
            "newest first by default",
        );
        const [picked] = await client.assistants.search({ metadata: { tag }, select: ["assistant_id", "name"], limit: 1, offset: 2, sortBy: "name" });
        assert.deepEqual(Object.keys(picked).sort(), ["assistant_id", "name"]);
        assert.equal(await client.assistants.count({ metadata: { tag } }), 3);
        assert.equal(await client.assistants.count({ metadata: { tag }, name: "BOT" }), 2);
        const system = await client.assistants.search({ metadata: { created_by: "system" } });
        assert.deepEqual(
            system.map((a) => a.assistant_id),
            [systemAssistantId("agent")],
        );
        const page = await client.assistants.search({ metadata: { tag }, limit: 2, includePagination: true });
        assert.equal(page.assistants.length, 2);
        assert.equal(page.next, "2");
    });

    it("a run names a created assistant by id and records it; the AgentServerCheck probe passes on it", async () => {
        const a = await client.assistants.create({ graphId: "agent", assistantId: randomUUID(), name: "probe" });
        const thread = await client.threads.create();
        const run = await client.runs.create(thread.thread_id, a.assistant_id, { input: human("hello there") });
        assert.equal(run.assistant_id, a.assistant_id);
        const byGraph = await client.runs.create(thread.thread_id, "agent", { input: human("by graph") });
        assert.equal(byGraph.assistant_id, systemAssistantId("agent"), "a graph name resolves to its system assistant");
        await client.runs.join(thread.thread_id, byGraph.run_id);
        const result = await probeInterrupt({ url, apiKey: TEST_API_KEY, assistantId: a.assistant_id, timeoutMs: 20_000, watchMs: 20 });
        assert.equal(result.firstRunStatus, "interrupted");
        assert.equal(result.secondRunStatus, "success");
    });

    it("delete: 404 after; its versions and crons go; delete_threads removes the threads that ran it", async () => {
        const a = await client.assistants.create({ graphId: "agent", name: "doomed" });
        const kept = await client.threads.create();
        const ran = await client.threads.create();
        await client.runs.wait(ran.thread_id, a.assistant_id, { input: human("x") });
        assert.equal((await client.threads.get(ran.thread_id)).metadata?.assistant_id, a.assistant_id);
        await client.crons.createForThread(kept.thread_id, a.assistant_id, { schedule: "0 * * * *" });
        await client.assistants.delete(a.assistant_id, { deleteThreads: true });
        assert.match(String(await rejection(() => client.assistants.get(a.assistant_id))), /404/);
        assert.match(String(await rejection(() => client.assistants.getVersions(a.assistant_id))), /404.*not found/);
        assert.match(String(await rejection(() => client.threads.get(ran.thread_id))), /404/);
        assert.equal((await client.threads.get(kept.thread_id)).thread_id, kept.thread_id);
        assert.equal(await client.crons.count({ assistantId: a.assistant_id }), 0, "the assistant's crons are deleted with it");
        assert.match(String(await rejection(() => client.assistants.delete(a.assistant_id))), /404/);
    });
});

describe("emulator: agent-server assistants refuse as the server does (raw HTTP)", function () {
    this.timeout(30_000);
    let em: Emulator;
    let path: string;
    let deploymentId: string;
    const call = (method: string, p: string, body?: unknown) => raw(em, method, `${path}${p}`, { body, tenantId: null });

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        deploymentId = created.body.id;
        path = new URL(created.body.source_config.custom_url).pathname;
    });
    after(async () => {
        await em?.close();
    });

    it("422 in the server's dialect: a string detail; unknown fields are let through", async () => {
        assert.deepEqual((await call("POST", "/assistants", {})).body, { detail: '"graph_id" is a required property' });
        assert.deepEqual((await call("POST", "/assistants", { graph_id: 5 })).body, { detail: '5 is not of type "string"' });
        assert.deepEqual((await call("POST", "/assistants", { graph_id: "agent", if_exists: "replace" })).body, {
            detail: '"replace" is not one of ["raise","do_nothing"]',
        });
        assert.deepEqual((await call("POST", "/assistants", { graph_id: "agent", assistant_id: "nope" })).body, {
            detail: "Invalid assistant ID: must be a UUID",
        });
        assert.equal((await call("GET", "/assistants/agent")).status, 422);
        assert.equal((await call("POST", "/assistants/search", { limit: 0 })).status, 422);
        assert.equal((await call("POST", "/assistants", { graph_id: "agent", later_field: true })).status, 200);
    });

    it("404 for an unserved graph (with the graphs), an unknown assistant or version; 409 a taken id; 400 configurable beside context", async () => {
        assert.deepEqual(await call("POST", "/assistants", { graph_id: "nope" }).then((r) => [r.status, r.body]), [
            404,
            { detail: "Graph 'nope' not found. Expected one of: ['agent']" },
        ]);
        const unknown = randomUUID();
        assert.deepEqual(await call("GET", `/assistants/${unknown}`).then((r) => [r.status, r.body]), [404, { detail: "Not Found" }]);
        assert.deepEqual((await call("PATCH", `/assistants/${unknown}`, { name: "x" })).body, { detail: `Assistant ${unknown} not found` });
        assert.deepEqual((await call("DELETE", `/assistants/${unknown}`)).body, { detail: `Assistant with ID ${unknown} not found` });
        const id = randomUUID();
        assert.equal((await call("POST", "/assistants", { graph_id: "agent", assistant_id: id })).status, 200);
        assert.deepEqual(await call("POST", "/assistants", { graph_id: "agent", assistant_id: id }).then((r) => [r.status, r.body]), [
            409,
            { detail: `Assistant ${id} already exists` },
        ]);
        assert.deepEqual(await call("POST", `/assistants/${id}/latest`, { version: 7 }).then((r) => [r.status, r.body]), [
            404,
            { detail: `Version 7 not found for assistant ${id}` },
        ]);
        assert.equal((await call("PATCH", `/assistants/${id}`, { graph_id: "other" })).status, 404);
        const both = await call("POST", "/assistants", { graph_id: "agent", config: { configurable: { a: 1 } }, context: { b: 2 } });
        assert.equal(both.status, 400);
        assert.match(both.body.detail, /^Cannot specify both configurable and context/);
    });

    it("a create whose answer is lost (an `after` fault) did create the assistant: GET by the chosen id finds it", async () => {
        const id = randomUUID();
        await admin(em, "POST", "/faults", { method: "POST", path: `${path}/assistants$`, kind: "status", status: 503, when: "after" });
        assert.equal((await call("POST", "/assistants", { graph_id: "agent", assistant_id: id, if_exists: "raise" })).status, 503);
        assert.equal((await call("GET", `/assistants/${id}`)).body.assistant_id, id);
        assert.equal((await call("POST", "/assistants", { graph_id: "agent", assistant_id: id, if_exists: "raise" })).status, 409);
    });

    it("the system assistant can be deleted (runs by the graph's name then fail) and comes back with the next revision, as at a restart", async () => {
        const system = systemAssistantId("agent");
        assert.equal((await call("DELETE", `/assistants/${system}`)).status, 204);
        assert.equal((await call("GET", `/assistants/${system}`)).status, 404);
        assert.equal((await call("POST", "/runs/wait", { assistant_id: "agent", input: human("x") })).status, 404);
        const patched = await raw(em, "PATCH", `/v2/deployments/${deploymentId}`, { body: { source_revision_config: { repo_ref: "next" } } });
        assert.equal(patched.status, 200, patched.text);
        assert.deepEqual((await call("GET", `/assistants/${system}`)).body.metadata, { created_by: "system" });
    });

    it("a deleted deployment's server answers 404 and has lost its assistants; the graphs setting scopes reads", async () => {
        const id = randomUUID();
        await call("POST", "/assistants", { graph_id: "agent", assistant_id: id });
        await admin(em, "PUT", "/agent-server", { graphs: ["other"] });
        try {
            assert.deepEqual((await call("GET", `/assistants/${id}`)).body, { detail: `assistant ${id} not found` });
            assert.deepEqual(
                (await call("POST", "/assistants/search", {})).body.map((a: any) => a.graph_id),
                ["other"],
            );
        } finally {
            await admin(em, "PUT", "/agent-server", { graphs: ["agent"] });
        }
        await raw(em, "DELETE", `/v2/deployments/${deploymentId}`);
        assert.equal((await call("GET", `/assistants/${id}`)).status, 404);
        assert.ok(!em.agentServer.model.assistants.deploymentIds().has(deploymentId), "the deleted deployment's assistants are still kept");
    });
});
