/**
 * The calls agent clients make besides background runs, judged by the official JS client
 * (`@langchain/langgraph-sdk`): `runs.wait` and `runs.stream` on a thread and stateless, each stream mode
 * with real word-by-word chunks, an interrupted run's stream ending where the run stopped, the multitask
 * rules for every way a run starts, `runs.list`, `threads.search`, `assistants.search` and `assistants.get` of the system assistant.
 */
import assert from "node:assert/strict";
import { Client } from "@langchain/langgraph-sdk";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import { eventually } from "../helpers/async";
import { TEST_API_KEY, githubBody, raw, rejection, sleep, startTestEmulator, type Emulator } from "../helpers/emulator";

const WORDS = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
const human = (content: string) => ({ messages: [{ role: "user", content }] });
type Msg = { type: string; content: unknown; id?: string };
type Part = { event: string; data: any };

describe("emulator: agent servers answer wait, stream, list and search as the official JS client calls them", function () {
    this.timeout(60_000);
    let em: Emulator;
    let client: Client;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 20 } });
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        client = new Client({ apiUrl: created.body.source_config.custom_url, apiKey: TEST_API_KEY });
    });
    after(async () => {
        await em?.close();
    });

    /** Every part of a stream, in order. */
    async function collect(stream: AsyncIterable<Part>): Promise<Part[]> {
        const parts: Part[] = [];
        for await (const p of stream) parts.push(p);
        return parts;
    }

    it("runs.wait: the thread's values once the run ends, the run's address in Content-Location", async () => {
        const thread = await client.threads.create();
        let created: { run_id: string; thread_id?: string } | undefined;
        const values = (await client.runs.wait(thread.thread_id, "agent", { input: human("one two three"), onRunCreated: (m) => (created = m) })) as {
            messages: Msg[];
        };
        assert.deepEqual(
            values.messages.map((m) => [m.type, m.content]),
            [
                ["human", "one two three"],
                ["ai", "one two three"],
            ],
        );
        assert.equal(created?.thread_id, thread.thread_id);
        assert.equal((await client.runs.get(thread.thread_id, created!.run_id)).status, "success");
    });

    it("stateless runs.wait and runs.stream: answered, on a thread no client sees", async () => {
        const before = (await client.threads.search({ limit: 1000 })).length;
        const values = (await client.runs.wait(null, "agent", { input: human("four five") })) as { messages: Msg[] };
        assert.equal(values.messages.at(-1)?.content, "four five");
        const parts = await collect(client.runs.stream(null, "agent", { input: human("six"), streamMode: "updates" }));
        assert.deepEqual(
            parts.map((p) => p.event),
            ["metadata", "updates"],
        );
        assert.equal(parts[1].data.agent.messages[0].content, "six");
        assert.equal((await client.threads.search({ limit: 1000 })).length, before, "a stateless run's thread is listed");
    });

    it("runs.stream, values + updates + messages: the state at start and end, one partial per word growing the answer, complete at the end", async () => {
        const thread = await client.threads.create();
        const parts = await collect(client.runs.stream(thread.thread_id, "agent", { input: human("a b c d"), streamMode: ["values", "updates", "messages"] }));
        const events = parts.map((p) => p.event);
        assert.deepEqual(events, [
            "metadata",
            "messages/complete",
            "values",
            "messages/metadata",
            ...Array(4).fill("messages/partial"),
            "updates",
            "values",
            "messages/complete",
        ]);
        assert.deepEqual(
            parts[2].data.messages.map((m: Msg) => m.type),
            ["human"],
            "values at start: the input, no answer yet",
        );
        const partials = parts.filter((p) => p.event === "messages/partial").map((p) => p.data[0].content);
        assert.deepEqual(partials, ["a", "a b", "a b c", "a b c d"]);
        const aiId = parts.find((p) => p.event === "messages/partial")!.data[0].id;
        assert.ok(parts[3].data[aiId], "messages/metadata is keyed by the answer's id");
        assert.deepEqual(parts[8].data, { agent: { messages: [{ type: "ai", content: "a b c d", id: aiId }] } });
        assert.deepEqual(
            parts[9].data.messages.map((m: Msg) => m.content),
            ["a b c d", "a b c d"],
        );
        assert.equal(parts[0].data.run_id, (await client.runs.list(thread.thread_id))[0].run_id);
    });

    it("runs.stream, messages-tuple: one chunk per word, each only the new word, arriving over time", async () => {
        const thread = await client.threads.create();
        const arrivals: number[] = [];
        const chunks: string[] = [];
        for await (const p of client.runs.stream(thread.thread_id, "agent", { input: human(WORDS(10)), streamMode: "messages-tuple" })) {
            if (p.event !== "messages") continue;
            const [chunk, metadata] = p.data as [Msg, Record<string, unknown>];
            assert.equal(metadata.langgraph_node, "agent");
            chunks.push(String(chunk.content));
            arrivals.push(Date.now());
        }
        assert.equal(chunks.length, 10);
        assert.equal(chunks.join(""), WORDS(10));
        assert.ok(arrivals.at(-1)! - arrivals[0] >= 9 * 20 * 0.8, "the chunks came word by word, not all at once");
    });

    it("an interrupted run's stream ends where the run stopped, with no error event; its last partial is the output the thread keeps", async () => {
        const thread = await client.threads.create();
        const parts: Part[] = [];
        const reading = (async () => {
            for await (const p of client.runs.stream(thread.thread_id, "agent", { input: human(WORDS(40)), streamMode: "messages" })) parts.push(p);
        })();
        while (!parts.some((p) => p.event === "messages/partial")) await sleep(5);
        await client.runs.wait(thread.thread_id, "agent", { input: human("stop"), multitaskStrategy: "interrupt" });
        await reading;
        assert.ok(!parts.some((p) => p.event === "error" || (p.event === "messages/complete" && p.data[0]?.type === "ai")), "no error, no complete answer");
        const last = parts.filter((p) => p.event === "messages/partial").at(-1)!.data[0];
        const { values } = await client.threads.getState<{ messages: Msg[] }>(thread.thread_id);
        const kept = values.messages.find((m) => m.id === last.id);
        assert.equal(kept?.content, last.content, "the stream's last partial is what the thread kept");
        assert.ok(String(last.content).split(" ").length < 40);
    });

    it("the multitask rules hold for wait and stream: reject on a busy thread is 409; a rolled-back run's stream ends; enqueue waits its turn", async () => {
        const thread = await client.threads.create();
        const first = await client.runs.create(thread.thread_id, "agent", { input: human(WORDS(20)) });
        const refused = await rejection(() => client.runs.wait(thread.thread_id, "agent", { input: human("no"), multitaskStrategy: "reject" }));
        assert.match(String(refused), /409|already running/);
        const refusedStream = await rejection(() =>
            collect(client.runs.stream(thread.thread_id, "agent", { input: human("no"), multitaskStrategy: "reject" })),
        );
        assert.match(String(refusedStream), /409|already running/);

        const parts: Part[] = [];
        const reading = collect(client.runs.stream(thread.thread_id, "agent", { input: human(WORDS(30)), streamMode: "messages" })).then((p) =>
            parts.push(...p),
        );
        // Awaited below; a failure before that must not leave its rejection unhandled (it ended the mocha worker).
        reading.catch(() => undefined);
        // The stream's request reaches the server when the client gets to it: on a busy machine after a first list.
        let pending: Awaited<ReturnType<typeof client.runs.list>>[number] | undefined;
        await eventually(async () => Boolean((pending = (await client.runs.list(thread.thread_id, { status: "pending" }))[0])), 5_000, 20);
        const queued = pending;
        assert.ok(queued, "the streamed run waits behind the first (enqueue)");
        await client.runs.join(thread.thread_id, first.run_id);
        await sleep(60);
        await client.runs.wait(thread.thread_id, "agent", { input: human("only me"), multitaskStrategy: "rollback" });
        await reading;
        assert.match(String(await rejection(() => client.runs.get(thread.thread_id, queued.run_id))), /404|not found/i);
        assert.ok(!parts.some((p) => p.event === "messages/complete" && p.data[0]?.type === "ai"), "a rolled-back run's stream never completes");
    });

    it("runs.list: newest first, by status, paged", async () => {
        const thread = await client.threads.create();
        const ids: string[] = [];
        for (const text of ["r0", "r1", "r2"]) {
            const r = await client.runs.create(thread.thread_id, "agent", { input: human(text) });
            await client.runs.join(thread.thread_id, r.run_id);
            ids.push(r.run_id);
        }
        assert.deepEqual(
            (await client.runs.list(thread.thread_id)).map((r) => r.run_id),
            [...ids].reverse(),
        );
        assert.deepEqual(
            (await client.runs.list(thread.thread_id, { limit: 1, offset: 1 })).map((r) => r.run_id),
            [ids[1]],
        );
        assert.equal((await client.runs.list(thread.thread_id, { status: "interrupted" })).length, 0);
        assert.equal((await client.runs.list(thread.thread_id, { status: "success" })).length, 3);
    });

    it("threads.search: by metadata, status and ids, newest first by default, paged", async () => {
        const tag = `t-${Date.now()}`;
        const a = await client.threads.create({ metadata: { tag, user: "a" } });
        const b = await client.threads.create({ metadata: { tag, user: "b" } });
        await client.runs.create(b.thread_id, "agent", { input: human(WORDS(40)) });
        assert.deepEqual(
            (await client.threads.search({ metadata: { tag } })).map((t) => t.thread_id),
            [b.thread_id, a.thread_id],
        );
        assert.deepEqual(
            (await client.threads.search({ metadata: { tag }, sortOrder: "asc", limit: 1 })).map((t) => t.thread_id),
            [a.thread_id],
        );
        assert.deepEqual(
            (await client.threads.search({ metadata: { tag, user: "a" } })).map((t) => t.thread_id),
            [a.thread_id],
        );
        assert.deepEqual(
            (await client.threads.search({ metadata: { tag }, status: "busy" })).map((t) => t.thread_id),
            [b.thread_id],
        );
        assert.deepEqual(
            (await client.threads.search({ ids: [a.thread_id] })).map((t) => t.thread_id),
            [a.thread_id],
        );
    });

    it("assistants.search and assistants.get: the system assistant of the graph, its id uuid5 of the name as the server's; an unserved graph is a 404, a graph name no id", async () => {
        const [only, ...rest] = await client.assistants.search({ graphId: "agent" });
        assert.equal(rest.length, 0);
        assert.equal(only.assistant_id, systemAssistantId("agent"));
        assert.equal(only.assistant_id, "fe096781-5601-53d2-b2f6-0d3403f7e9ca", "uuid5(NAMESPACE_GRAPH, 'agent') on every LangGraph server");
        assert.equal(only.graph_id, "agent");
        assert.deepEqual(only.metadata, { created_by: "system" });
        assert.match(
            String(await rejection(() => client.assistants.search({ graphId: "other" }))),
            /404.*Graph 'other' not found. Expected one of: \['agent'\]/,
        );
        assert.deepEqual(await client.assistants.get(only.assistant_id), only);
        assert.match(String(await rejection(() => client.assistants.get("agent"))), /422.*Invalid assistant ID: must be a UUID/);
        assert.match(String(await rejection(() => client.runs.wait(null, "nope", { input: human("x") }))), /Assistant nope not found.*serves the graph agent/);
    });
});
