/**
 * The emulator's agent servers judged by the official Python client, `langgraph-sdk` from PyPI (in the
 * venv scripts/setup.sh makes): tests/emulator/python/agent_client.py makes each call a Python agent
 * client makes (runs.wait on a thread and stateless, runs.stream in several modes, an interrupted run's
 * stream, runs.list, threads.search, assistants with versions, crons firing once the clock is pushed an
 * hour on) and prints each answer; this judges them.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import { TEST_API_KEY, admin, githubBody, raw, startTestEmulator, type Emulator } from "../helpers/emulator";

const SCRIPT = join(__dirname, "python", "agent_client.py");
/** The id the script gives the assistant it creates (a provider chooses its own the same way). */
const ASSISTANT = randomUUID();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
type Msg = { type: string; content: string; id: string };

describe("emulator: agent servers, through the official Python client (langgraph-sdk)", function () {
    this.timeout(120_000);
    let em: Emulator;
    /** The emulator clock when the script started: its crons fire after it. */
    let startedAt: number;
    /** Each call's answer, by the call's name. */
    const answers = new Map<string, any>();

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 20 } });
        const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
        const python = process.env.PULUMI_LANGSMITH_PYTHON ?? "python3";
        // A minute past a whole hour: the script's crons, made seconds later, count the same fires in the hour it
        // pushes whatever the minute of the wall clock (an hour pushed from 9:59:59.9 holds a seventh fire every ten minutes).
        const now = Date.parse((await admin(em, "POST", "/clock/advance", { ms: 0 })).now);
        startedAt = Date.parse((await admin(em, "POST", "/clock/advance", { ms: HOUR - (now % HOUR) + MINUTE })).now);
        const args = [SCRIPT, created.body.source_config.custom_url, TEST_API_KEY, em.url, ASSISTANT];
        const { stdout } = await promisify(execFile)(python, args, { maxBuffer: 16 * 1024 * 1024 });
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
            [[{ user: "py", graph_id: "agent", assistant_id: systemAssistantId("agent") }, "idle"]],
        );
    });

    it("assistants.search and assistants.get: the system assistant of the graph", () => {
        const [only] = answers.get("assistants.search");
        assert.equal(only.assistant_id, systemAssistantId("agent"));
        assert.deepEqual(answers.get("assistants.get"), only);
    });

    it("assistants: create with a chosen id, update (version 2), get_versions, set_latest, search and count", () => {
        const created = answers.get("assistants.create");
        assert.deepEqual([created.assistant_id, created.version, created.name, created.config], [ASSISTANT, 1, "py assistant", { tags: ["py"] }]);
        const updated = answers.get("assistants.update");
        assert.deepEqual([updated.version, updated.config, updated.metadata], [2, { tags: ["py2"] }, { owner: "py", stage: "two" }]);
        assert.deepEqual(
            answers.get("assistants.get_versions").map((v: any) => v.version),
            [2, 1],
        );
        const latest = answers.get("assistants.set_latest");
        assert.deepEqual([latest.version, latest.config, latest.metadata], [1, { tags: ["py"] }, { owner: "py" }]);
        assert.deepEqual(
            answers.get("assistants.search owner").map((a: any) => a.assistant_id),
            [ASSISTANT],
        );
        assert.equal(answers.get("assistants.count owner"), 1);
    });

    it("crons: created on a thread and stateless, updated, searched and counted, in the server's Cron shape", () => {
        const onThread = answers.get("crons.create_for_thread");
        const stateless = answers.get("crons.create");
        for (const c of [onThread, stateless]) {
            assert.deepEqual(Object.keys(c).sort(), [
                "assistant_id",
                "created_at",
                "cron_id",
                "enabled",
                "end_time",
                "metadata",
                "next_run_date",
                "on_run_completed",
                "payload",
                "schedule",
                "thread_id",
                "timezone",
                "updated_at",
                "user_id",
            ]);
            assert.equal(c.assistant_id, ASSISTANT);
            assert.equal(c.payload.config.configurable.cron_id, c.cron_id);
        }
        assert.deepEqual([onThread.on_run_completed, stateless.on_run_completed, stateless.thread_id], [null, "keep", null]);
        assert.equal(Date.parse(onThread.next_run_date) % (10 * MINUTE), 0);
        const updated = answers.get("crons.update");
        assert.deepEqual([updated.metadata, updated.timezone], [{ kind: "stateless", v: 2 }, "Europe/Paris"]);
        assert.deepEqual(
            answers.get("crons.search").map((c: any) => c.cron_id),
            [onThread.cron_id, stateless.cron_id],
        );
        assert.equal(answers.get("crons.count"), 2);
    });

    it("crons fire on the emulator clock: the thread's runs at each 10 minutes of the hour pushed, the stateless one's kept thread", () => {
        const runs: Array<{ created_at: string; metadata: Record<string, unknown>; status: string }> = answers.get("crons.runs");
        assert.equal(runs.length, 6, "six fires of */10 in an hour");
        for (const r of runs) {
            const at = Date.parse(r.created_at);
            assert.equal(at % (10 * MINUTE), 0, `a run created at ${r.created_at}, not on the schedule`);
            assert.ok(at > startedAt && at <= startedAt + 61 * MINUTE);
            assert.deepEqual(r.metadata, { kind: "thread" });
            assert.equal(r.status, "success");
        }
        const kept: Array<{ metadata: Record<string, unknown> }> = answers.get("crons.kept threads");
        assert.equal(kept.length, 1);
        assert.deepEqual(kept[0].metadata, { graph_id: "agent", assistant_id: ASSISTANT, kind: "stateless", v: 2 });
        assert.equal(answers.get("crons.count after delete"), 1);
        assert.equal(answers.get("crons.count after assistant delete"), 0, "deleting the assistant deleted its crons");
    });
});
