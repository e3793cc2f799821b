/**
 * The emulator's agent servers judged by the official Python client, `langgraph-sdk` from PyPI (in the
 * venv scripts/setup.sh makes): tests/emulator/python/agent_client.py makes each call a Python agent
 * client makes (runs.wait on a thread and stateless, runs.stream in several modes, an interrupted run's
 * stream, runs.list, threads.search, assistants.search and .get) and prints each answer; this judges them.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { assistantIdOf } from "../../emulator/agentServer/model";
import { TEST_API_KEY, githubBody, raw, startTestEmulator, type Emulator } from "../helpers/emulator";

const SCRIPT = join(__dirname, "python", "agent_client.py");
type Msg = { type: string; content: string; id: string };

describe("emulator: agent servers, through the official Python client (langgraph-sdk)", function () {
    this.timeout(120_000);
    let em: Emulator;
    let deploymentId: string;
    /** Each call's answer, by the call's name. */
    const answers = new Map<string, any>();

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 20 } });
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        deploymentId = created.body.id;
        const python = process.env.PULUMI_LANGSMITH_PYTHON ?? "python3";
        const { stdout } = await promisify(execFile)(python, [SCRIPT, created.body.source_config.custom_url, TEST_API_KEY], { maxBuffer: 16 * 1024 * 1024 });
        for (const line of stdout.trim().split("\n")) {
            const { call, result } = JSON.parse(line);
            answers.set(call, result);
        }
    });
    after(async () => {
        await em?.close();
    });

    it("runs.wait on a thread and stateless: the thread's values at the end", () => {
        const contents = (v: { messages: Msg[] }) => v.messages.map((m) => [m.type, m.content]);
        assert.deepEqual(contents(answers.get("runs.wait")), [
            ["human", "one two three"],
            ["ai", "one two three"],
        ]);
        assert.deepEqual(contents(answers.get("runs.wait stateless")), [
            ["human", "four five"],
            ["ai", "four five"],
        ]);
    });

    it("runs.stream: metadata first, the values at start and end, a partial per word, the update and the complete answer", () => {
        const parts: Array<{ event: string; data: any }> = answers.get("runs.stream");
        assert.deepEqual(
            parts.map((p) => p.event),
            [
                "metadata",
                "messages/complete",
                "values",
                "messages/metadata",
                "messages/partial",
                "messages/partial",
                "messages/partial",
                "updates",
                "values",
                "messages/complete",
            ],
        );
        assert.deepEqual(
            parts.filter((p) => p.event === "messages/partial").map((p) => p.data[0].content),
            ["six", "six seven", "six seven eight"],
        );
        assert.equal(parts[7].data.agent.messages[0].content, "six seven eight");
        assert.deepEqual(answers.get("runs.stream stateless"), ["metadata", "updates"]);
    });

    it("an interrupted run's stream ends where the run stopped: no error event, no complete answer", () => {
        const parts: Array<{ event: string; data: any }> = answers.get("runs.stream interrupted");
        const partials = parts.filter((p) => p.event === "messages/partial");
        assert.ok(partials.length > 0 && partials.length < 40, `${partials.length} partials of 40 words`);
        assert.ok(!parts.some((p) => p.event === "error"));
        assert.ok(!parts.some((p) => p.event === "messages/complete" && p.data[0]?.type === "ai"));
    });

    it("runs.list (newest first, limit, status) and threads.search (by metadata)", () => {
        const runs: Array<{ status: string; multitask_strategy: string }> = answers.get("runs.list");
        assert.equal(runs.length, 3);
        assert.deepEqual(
            runs.slice(0, 2).map((r) => [r.status, r.multitask_strategy]),
            [
                ["success", "interrupt"],
                ["interrupted", "enqueue"],
            ],
        );
        assert.deepEqual(
            answers.get("runs.list interrupted").map((r: { status: string }) => r.status),
            ["interrupted"],
        );
        const threads: Array<{ metadata: Record<string, unknown>; status: string }> = answers.get("threads.search");
        assert.deepEqual(
            threads.map((t) => [t.metadata, t.status]),
            [[{ user: "py" }, "idle"]],
        );
    });

    it("assistants.search and assistants.get: the system assistant of the graph", () => {
        const [only] = answers.get("assistants.search");
        assert.equal(only.assistant_id, assistantIdOf(deploymentId, "agent"));
        assert.deepEqual(answers.get("assistants.get"), only);
    });
});
