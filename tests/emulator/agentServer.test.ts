/**
 * The emulator's agent servers, judged by the official client (`@langchain/langgraph-sdk`): a deployed
 * deployment answers at its custom_url (and stops when deleted); each multitask strategy with its run
 * statuses and thread state (docs/service.md 3.2, R3); the race of many `interrupt` runs on one
 * thread; 100 threads at once; input messages as strings or content blocks; the fault switches.
 */
import assert from "node:assert/strict";
import { Client } from "@langchain/langgraph-sdk";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import { TEST_API_KEY, admin, githubBody, raw, rejection, sleep, startTestEmulator, type Emulator } from "../helpers/emulator";

const WORDS = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
const human = (content: unknown) => ({ messages: [{ role: "user", content }] });
type Msg = { type: string; content: unknown };

describe("emulator: agent servers, through the official langgraph SDK", function () {
    this.timeout(60_000);
    let em: Emulator;
    let client: Client;
    let url: string;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 40 } });
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        url = created.body.source_config.custom_url;
        client = new Client({ apiUrl: url, apiKey: TEST_API_KEY });
    });
    after(async () => {
        await em?.close();
    });
    afterEach(async () => {
        await admin(em, "PUT", "/agent-server", { stepMs: 40, ignoreInterrupt: false, dropPartialOutput: false });
    });

    /** Waits until the thread holds an AI message (the first run has produced output). */
    async function untilOutput(threadId: string): Promise<void> {
        for (let i = 0; i < 200; i++) {
            const s = await client.threads.getState<{ messages: Msg[] }>(threadId);
            if (s.values.messages?.some((m) => m.type === "ai")) return;
            await sleep(10);
        }
        throw new Error("no output");
    }

    it("custom_url answers for a deployed deployment, under the API key alone; 404 for an unknown one or once deleted", async () => {
        assert.deepEqual((await raw(em, "GET", `${new URL(url).pathname}/ok`, { tenantId: null })).body, { ok: true });
        assert.equal((await raw(em, "GET", `${new URL(url).pathname}/ok`, { apiKey: null })).status, 401);
        assert.equal((await raw(em, "GET", "/__agents/00000000-0000-4000-8000-000000000000/ok")).status, 404);
        const other = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        const path = new URL(other.body.source_config.custom_url).pathname;
        assert.equal((await raw(em, "GET", `${path}/ok`)).status, 200);
        await raw(em, "DELETE", `/v2/deployments/${other.body.id}`);
        assert.equal((await raw(em, "GET", `${path}/ok`)).status, 404);
    });

    it("interrupt: the first run is kept as interrupted with its partial output; the second's output is appended", async () => {
        const thread = await client.threads.create();
        const first = await client.runs.create(thread.thread_id, "agent", { input: human(WORDS(30)) });
        await untilOutput(thread.thread_id);
        const second = await client.runs.create(thread.thread_id, "agent", { input: human("second answer"), multitaskStrategy: "interrupt" });
        await client.runs.join(thread.thread_id, second.run_id);
        assert.equal((await client.runs.get(thread.thread_id, first.run_id)).status, "interrupted");
        assert.equal((await client.runs.get(thread.thread_id, second.run_id)).status, "success");
        const { values } = await client.threads.getState<{ messages: Msg[] }>(thread.thread_id);
        assert.deepEqual(
            values.messages.map((m) => m.type),
            ["human", "ai", "human", "ai"],
        );
        const partial = String(values.messages[1].content).split(" ");
        assert.ok(partial.length > 0 && partial.length < 30, `partial output has ${partial.length} of 30 words`);
        assert.deepEqual(partial, WORDS(30).split(" ").slice(0, partial.length));
        assert.equal(values.messages[3].content, "second answer");
        assert.equal((await client.threads.get(thread.thread_id)).status, "idle");
    });

    it("reject: 409 and the earlier run goes on to success", async () => {
        const thread = await client.threads.create();
        const first = await client.runs.create(thread.thread_id, "agent", { input: human(WORDS(10)) });
        const e = await rejection(() => client.runs.create(thread.thread_id, "agent", { input: human("no"), multitaskStrategy: "reject" }));
        assert.match(String(e), /409|already running/);
        await client.runs.join(thread.thread_id, first.run_id);
        assert.equal((await client.runs.get(thread.thread_id, first.run_id)).status, "success");
    });

    it("enqueue (the default when none is sent): the new run waits pending, then both succeed in order", async () => {
        const thread = await client.threads.create();
        const first = await client.runs.create(thread.thread_id, "agent", { input: human(WORDS(10)) });
        const second = await client.runs.create(thread.thread_id, "agent", { input: human("after") });
        assert.equal(second.status, "pending");
        assert.equal(second.multitask_strategy, "enqueue");
        assert.equal((await client.threads.get(thread.thread_id)).status, "busy");
        await client.runs.join(thread.thread_id, second.run_id);
        assert.equal((await client.runs.get(thread.thread_id, first.run_id)).status, "success");
        const { values } = await client.threads.getState<{ messages: Msg[] }>(thread.thread_id);
        assert.deepEqual(
            values.messages.map((m) => m.content),
            [WORDS(10), WORDS(10), "after", "after"],
        );
    });

    it("rollback: the earlier run and its output are removed; GET on it answers 404", async () => {
        const thread = await client.threads.create();
        const first = await client.runs.create(thread.thread_id, "agent", { input: human(WORDS(30)) });
        await untilOutput(thread.thread_id);
        const second = await client.runs.create(thread.thread_id, "agent", { input: human("only me"), multitaskStrategy: "rollback" });
        await client.runs.join(thread.thread_id, second.run_id);
        assert.match(String(await rejection(() => client.runs.get(thread.thread_id, first.run_id))), /404|not found/i);
        const { values } = await client.threads.getState<{ messages: Msg[] }>(thread.thread_id);
        assert.deepEqual(
            values.messages.map((m) => m.content),
            ["only me", "only me"],
        );
    });

    it("cancel: runs.cancel interrupts a running run and keeps its output", async () => {
        const thread = await client.threads.create();
        const run = await client.runs.create(thread.thread_id, "agent", { input: human(WORDS(30)) });
        await untilOutput(thread.thread_id);
        await client.runs.cancel(thread.thread_id, run.run_id);
        assert.equal((await client.runs.get(thread.thread_id, run.run_id)).status, "interrupted");
        assert.equal((await client.threads.get(thread.thread_id)).status, "interrupted");
    });

    it("race: 20 interrupt runs at once on one thread leave exactly one success, the others interrupted", async () => {
        const thread = await client.threads.create();
        const runs = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
                client.runs.create(thread.thread_id, "agent", { input: human(`racer ${i} ${WORDS(5)}`), multitaskStrategy: "interrupt" }),
            ),
        );
        await Promise.all(runs.map((r) => client.runs.join(thread.thread_id, r.run_id)));
        const statuses = await Promise.all(runs.map(async (r) => (await client.runs.get(thread.thread_id, r.run_id)).status));
        assert.equal(statuses.filter((s) => s === "success").length, 1);
        assert.equal(statuses.filter((s) => s === "interrupted").length, 19);
    });

    it("100 threads in parallel: every run succeeds with its own output", async () => {
        const threads = await Promise.all(Array.from({ length: 100 }, () => client.threads.create()));
        const runs = await Promise.all(threads.map((t, i) => client.runs.create(t.thread_id, "agent", { input: human(`thread ${i} says hi`) })));
        await Promise.all(runs.map((r, i) => client.runs.join(threads[i].thread_id, r.run_id)));
        const states = await Promise.all(threads.map((t) => client.threads.getState<{ messages: Msg[] }>(t.thread_id)));
        for (const [i, s] of states.entries()) assert.equal(s.values.messages.at(-1)?.content, `thread ${i} says hi`);
        const statuses = await Promise.all(runs.map((r, i) => client.runs.get(threads[i].thread_id, r.run_id)));
        assert.ok(statuses.every((r) => r.status === "success"));
    });

    it("input: role human and content blocks; the graph answers by assistant id too; an unknown assistant is a clear 404", async () => {
        const thread = await client.threads.create();
        const run = await client.runs.create(thread.thread_id, systemAssistantId("agent"), {
            input: { messages: [{ role: "human", content: [{ type: "text", text: "blocks work" }] }] },
        });
        await client.runs.join(thread.thread_id, run.run_id);
        const { values } = await client.threads.getState<{ messages: Msg[] }>(thread.thread_id);
        assert.equal(values.messages.at(-1)?.content, "blocks work");
        const e = await rejection(() => client.runs.create(thread.thread_id, "no-such-graph", { input: human("x") }));
        assert.match(String(e), /Assistant no-such-graph not found.*serves the graph agent/);
    });

    it("fault switches: ignoring interrupt lets the first run succeed; dropping partial output empties it", async () => {
        await admin(em, "PUT", "/agent-server", { ignoreInterrupt: true });
        const t1 = await client.threads.create();
        const a = await client.runs.create(t1.thread_id, "agent", { input: human(WORDS(10)) });
        await untilOutput(t1.thread_id);
        const b = await client.runs.create(t1.thread_id, "agent", { input: human("b"), multitaskStrategy: "interrupt" });
        await client.runs.join(t1.thread_id, b.run_id);
        assert.equal((await client.runs.get(t1.thread_id, a.run_id)).status, "success");

        await admin(em, "PUT", "/agent-server", { ignoreInterrupt: false, dropPartialOutput: true });
        const t2 = await client.threads.create();
        await client.runs.create(t2.thread_id, "agent", { input: human(WORDS(30)) });
        await untilOutput(t2.thread_id);
        const d = await client.runs.create(t2.thread_id, "agent", { input: human("d"), multitaskStrategy: "interrupt" });
        await client.runs.join(t2.thread_id, d.run_id);
        const { values } = await client.threads.getState<{ messages: Msg[] }>(t2.thread_id);
        assert.deepEqual(
            values.messages.map((m) => m.type),
            ["human", "human", "ai"],
        );
    });
});
