/**
 * The agent servers' crons (emulator/agentServer/crons.ts), judged by the official JS client
 * (`@langchain/langgraph-sdk`): created on a thread and stateless, searched, counted, updated, deleted; fired
 * on the emulator clock (runs at the scheduled instants, in `runs.list`; a stateless `keep` cron's threads
 * in threads.search), only while enabled and up to `end_time`; cascades from a deleted assistant or thread;
 * the fault switches. Raw HTTP for the refusals in the server's words, and an emulator started again on its
 * state directory that carries on firing without firing twice.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import { TEST_API_KEY, admin, githubBody, raw, rejection, startTestEmulator, type Emulator } from "../helpers/emulator";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const human = (content: string) => ({ messages: [{ role: "user", content }] });

/** Pushes the emulator clock; answers its time after. */
async function advance(em: Emulator, ms: number): Promise<number> {
    return Date.parse((await admin(em, "POST", "/clock/advance", { ms })).now);
}

/**
 * Moves the emulator clock to 10 s past the next whole hour: a test that counts the fires of a period pushed
 * at once (an hour of a cron every ten minutes, a day of an hourly one) then counts the same whatever the
 * minute of the wall clock when it starts, and the real time its requests take never crosses a boundary.
 */
async function alignClock(em: Emulator): Promise<void> {
    const now = await advance(em, 0);
    await advance(em, HOUR - (now % HOUR) + 10_000);
}

/** A deployed deployment's agent server: its client and path. */
async function deployed(em: Emulator): Promise<{ client: Client; path: string; id: string }> {
    const created = await raw(em, "POST", "/v2/deployments", { body: githubBody() });
    const url = created.body.source_config.custom_url;
    return { client: new Client({ apiUrl: url, apiKey: TEST_API_KEY, callerOptions: { maxRetries: 0 } }), path: new URL(url).pathname, id: created.body.id };
}

describe("emulator: agent-server crons, through the official JS client", function () {
    this.timeout(60_000);
    let em: Emulator;
    let client: Client;

    beforeEach(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 10 } });
        ({ client } = await deployed(em));
    });
    afterEach(async () => {
        await em?.close();
    });

    it("a thread cron and a stateless one: the Cron shape, search, count, update, delete", async () => {
        const thread = await client.threads.create();
        const now = await advance(em, 0);
        const onThread: any = await client.crons.createForThread(thread.thread_id, "agent", {
            schedule: "*/15 * * * *",
            input: human("tick"),
            metadata: { k: "t" },
        });
        assert.equal(onThread.thread_id, thread.thread_id);
        assert.equal(onThread.assistant_id, systemAssistantId("agent"), "a graph name resolves to its system assistant");
        assert.deepEqual([onThread.enabled, onThread.end_time, onThread.timezone, onThread.user_id, onThread.on_run_completed], [true, null, null, null, null]);
        const next = Date.parse(onThread.next_run_date!);
        assert.ok(next > now && next <= now + 15 * MINUTE && next % (15 * MINUTE) === 0, onThread.next_run_date!);
        assert.deepEqual(onThread.payload.input, human("tick"));
        const stateless: any = await client.crons.create("agent", { schedule: "0 9 * * 1-5", timezone: "America/New_York", metadata: { k: "s" } });
        assert.deepEqual([stateless.thread_id, stateless.on_run_completed, stateless.timezone], [null, "delete", "America/New_York"]);
        assert.equal(new Date(stateless.next_run_date!).toLocaleString("en-US", { timeZone: "America/New_York", hour: "numeric", hour12: false }), "09");

        assert.deepEqual(
            (await client.crons.search({ sortBy: "created_at", sortOrder: "asc" })).map((c) => c.cron_id),
            [onThread.cron_id, stateless.cron_id],
        );
        assert.deepEqual(
            (await client.crons.search({ threadId: thread.thread_id })).map((c) => c.cron_id),
            [onThread.cron_id],
        );
        assert.deepEqual(
            (await client.crons.search({ metadata: { k: "s" }, select: ["cron_id", "schedule"] })).map((c) => Object.keys(c).sort()),
            [["cron_id", "schedule"]],
        );
        assert.equal(await client.crons.count({ assistantId: systemAssistantId("agent") }), 2);

        const updated = await client.crons.update(stateless.cron_id, { schedule: "30 * * * *", enabled: false, metadata: { more: 1 }, input: human("new") });
        assert.deepEqual([updated.schedule, updated.enabled, updated.metadata], ["30 * * * *", false, { k: "s", more: 1 }]);
        assert.deepEqual(updated.payload.input, human("new"));
        assert.equal(updated.payload.assistant_id, systemAssistantId("agent"));
        assert.equal(Date.parse(updated.next_run_date!) % HOUR, 30 * MINUTE);
        assert.deepEqual(
            (await client.crons.search({ enabled: false })).map((c) => c.cron_id),
            [stateless.cron_id],
        );
        await client.crons.delete(stateless.cron_id);
        assert.equal(await client.crons.count(), 1);
        assert.match(String(await rejection(() => client.crons.delete(stateless.cron_id))), /404/);
    });

    it("a thread cron fires on the emulator clock: a run per scheduled instant, created at it, in runs.list", async () => {
        await alignClock(em);
        const thread = await client.threads.create();
        const cron = await client.crons.createForThread(thread.thread_id, "agent", {
            schedule: "*/10 * * * *",
            input: human("one two"),
            metadata: { from: "cron" },
        });
        const first = Date.parse(cron.next_run_date!);
        await advance(em, HOUR);
        const runs = await client.runs.list(thread.thread_id, { limit: 20 });
        assert.equal(runs.length, 6);
        assert.deepEqual(
            runs.map((r) => Date.parse(r.created_at)).reverse(),
            Array.from({ length: 6 }, (_, i) => first + i * 10 * MINUTE),
        );
        assert.ok(runs.every((r) => r.status === "success" && r.assistant_id === systemAssistantId("agent")));
        assert.deepEqual(runs[0].metadata, { from: "cron" });
        const state = await client.threads.getState<{ messages: Array<{ content: string }> }>(thread.thread_id);
        assert.equal(state.values.messages.length, 12);
        const now = await advance(em, 0);
        const [after] = await client.crons.search({ threadId: thread.thread_id });
        assert.equal(Date.parse(after.next_run_date!), first + 6 * 10 * MINUTE);
        assert.ok(Date.parse(after.next_run_date!) > now);
    });

    it("a day pushed at once: every fire of the day is made; disabled fires are not made up; end_time stops it", async () => {
        await alignClock(em);
        const thread = await client.threads.create();
        const cron = await client.crons.createForThread(thread.thread_id, "agent", { schedule: "0 * * * *", input: human("hourly") });
        await advance(em, 24 * HOUR);
        assert.equal((await client.runs.list(thread.thread_id, { limit: 100 })).length, 24);
        await client.crons.update(cron.cron_id, { enabled: false });
        await advance(em, 5 * HOUR);
        assert.equal((await client.runs.list(thread.thread_id, { limit: 100 })).length, 24, "a disabled cron fired");
        const now = await advance(em, 0);
        await client.crons.update(cron.cron_id, { enabled: true, endTime: new Date(now + 2 * HOUR + MINUTE).toISOString() });
        assert.equal((await client.runs.list(thread.thread_id, { limit: 100 })).length, 24, "fires missed while disabled were made up");
        await advance(em, 10 * HOUR);
        assert.equal((await client.runs.list(thread.thread_id, { limit: 100 })).length, 26, "end_time did not stop it after two more");
    });

    it("a stateless cron: each fire on a new thread, kept and listed with `keep`, hidden with `delete`", async () => {
        await alignClock(em);
        const kept = await client.crons.create("agent", { schedule: "*/30 * * * *", input: human("hi"), onRunCompleted: "keep", metadata: { via: "keep" } });
        await client.crons.create("agent", { schedule: "*/30 * * * *", input: human("hi"), metadata: { via: "delete" } });
        const before = (await client.threads.search({ limit: 100 })).length;
        await advance(em, HOUR);
        const threads = await client.threads.search({ metadata: { via: "keep" }, limit: 100 });
        assert.equal(threads.length, 2);
        for (const t of threads) {
            assert.equal(t.metadata?.assistant_id, kept.assistant_id);
            const [run] = await client.runs.list(t.thread_id);
            assert.equal(Date.parse(run.created_at) % (30 * MINUTE), 0);
        }
        assert.equal((await client.threads.search({ limit: 100 })).length, before + 2, "a delete cron's threads are listed");
        // Its fires' threads are dropped once their runs end (the model's own count: no client sees them).
        await advance(em, 5_000);
        await client.threads.search();
        assert.equal((em.agentServer.model as any).threads.size, before + 2, "a delete cron's finished threads are kept");
    });

    it("cascades: deleting the assistant or the thread deletes its crons", async () => {
        const a = await client.assistants.create({ graphId: "agent" });
        const thread = await client.threads.create();
        const other = await client.threads.create();
        await client.crons.createForThread(thread.thread_id, a.assistant_id, { schedule: "* * * * *" });
        await client.crons.createForThread(other.thread_id, "agent", { schedule: "* * * * *" });
        await client.crons.create(a.assistant_id, { schedule: "* * * * *" });
        assert.equal(await client.crons.count(), 3);
        await client.threads.delete(other.thread_id);
        assert.equal(await client.crons.count({ threadId: other.thread_id }), 0);
        await client.assistants.delete(a.assistant_id);
        assert.equal(await client.crons.count(), 0);
        await advance(em, 5 * MINUTE);
        assert.equal((await client.runs.list(thread.thread_id)).length, 0);
    });

    it("fault switches: cronsPaused stops the scheduler (one catch-up fire when it starts again); cronRunsFail makes no runs", async () => {
        const thread = await client.threads.create();
        const cron = await client.crons.createForThread(thread.thread_id, "agent", { schedule: "*/5 * * * *" });
        await admin(em, "PUT", "/agent-server", { cronsPaused: true });
        await advance(em, HOUR);
        assert.equal((await client.runs.list(thread.thread_id)).length, 0);
        const [stuck] = await client.crons.search({ threadId: thread.thread_id });
        assert.equal(stuck.next_run_date, cron.next_run_date, "next_run_date moved while paused");
        await admin(em, "PUT", "/agent-server", { cronsPaused: false });
        const resumedAt = await advance(em, 0);
        const runs = await client.runs.list(thread.thread_id);
        assert.equal(runs.length, 1);
        assert.ok(Math.abs(Date.parse(runs[0].created_at) - resumedAt) < 1_000);
        await admin(em, "PUT", "/agent-server", { cronRunsFail: true });
        await advance(em, HOUR);
        assert.equal((await client.runs.list(thread.thread_id)).length, 1);
        const [moved] = await client.crons.search({ threadId: thread.thread_id });
        assert.ok(Date.parse(moved.next_run_date!) > (await advance(em, 0)), "a failing fire stopped the cron");
    });
});

describe("emulator: agent-server crons refuse as the server does (raw HTTP), and survive a restart", function () {
    this.timeout(60_000);
    let em: Emulator;
    let path: string;
    const call = (method: string, p: string, body?: unknown) => raw(em, method, `${path}${p}`, { body, tenantId: null });

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
        ({ path } = await deployed(em));
    });
    after(async () => {
        await em?.close();
    });

    it("422 for a schedule croniter refuses and a zone that is not IANA (the server's words); 501 for one it takes but the parser does not support", async () => {
        const bad = await call("POST", "/runs/crons", { assistant_id: "agent", schedule: "0 24 * * *" });
        assert.deepEqual(
            [bad.status, bad.body.detail],
            [
                422,
                "Invalid cron schedule: '0 24 * * *'. Reason: Invalid cron schedule. Ensure the schedule uses the standard cron format (minute hour day_of_month month day_of_week). Example: '*/5 * * * *' for every 5 minutes.",
            ],
        );
        const zone = await call("POST", "/runs/crons", { assistant_id: "agent", schedule: "* * * * *", timezone: "Mars/Olympus" });
        assert.deepEqual([zone.status, zone.body.detail], [422, "Invalid timezone: 'Mars/Olympus'. Use IANA timezone format (e.g. 'America/New_York')."]);
        const seconds = await call("POST", "/runs/crons", { assistant_id: "agent", schedule: "0 0 * * * 30" });
        assert.equal(seconds.status, 501);
        assert.match(seconds.body.detail, /not implemented by the emulator/);
        assert.deepEqual((await call("POST", "/runs/crons", { assistant_id: "agent" })).body, { detail: '"schedule" is a required property' });
        assert.equal((await call("POST", "/runs/crons", { assistant_id: "agent", schedule: "@daily", end_time: "soon" })).status, 422);
        assert.equal((await call("POST", "/runs/crons", { assistant_id: "agent", schedule: "@daily", webhook: "https://example.com/hook" })).status, 501);
    });

    it("404 for an unknown assistant or thread, in the server's words; ids that must be uuids answer 422", async () => {
        assert.deepEqual((await call("POST", "/runs/crons", { assistant_id: "nope", schedule: "@hourly" })).body, { detail: "Assistant 'nope' not found" });
        const unknown = randomUUID();
        assert.deepEqual((await call("POST", "/runs/crons", { assistant_id: unknown, schedule: "@hourly" })).body, {
            detail: `Assistant '${unknown}' not found`,
        });
        const thread = await call("POST", `/threads/${unknown}/runs/crons`, { assistant_id: "agent", schedule: "@hourly" });
        assert.deepEqual(
            [thread.status, thread.body.detail],
            [404, `Thread with ID '${unknown}' not found. Please verify the ID is correct and the thread hasn't been deleted or expired.`],
        );
        assert.deepEqual((await call("POST", "/threads/x/runs/crons", { assistant_id: "agent", schedule: "@hourly" })).body, {
            detail: "Invalid thread ID: must be a UUID",
        });
        assert.deepEqual(await call("GET", `/runs/crons/${unknown}`).then((r) => [r.status, r.body]), [404, { detail: "Not Found" }]);
        assert.deepEqual(await call("GET", "/runs/crons/x").then((r) => [r.status, r.body]), [422, { detail: "Invalid cron ID: must be a UUID" }]);
        assert.deepEqual((await call("PATCH", `/runs/crons/${unknown}`, { enabled: false })).body, { detail: `Cron '${unknown}' not found` });
        assert.equal((await call("DELETE", `/runs/crons/${unknown}`)).status, 404);
        assert.deepEqual((await call("POST", "/runs/crons/search", { assistant_id: "agent" })).body, { detail: "Invalid assistant ID: must be a UUID" });
    });

    it("GET by id reads one cron (no client calls it; search has no cron_id filter); PATCH with an empty body is a 400", async () => {
        const created = await call("POST", "/runs/crons", { assistant_id: "agent", schedule: "@daily", metadata: { x: 1 } });
        assert.equal(created.status, 200, created.text);
        assert.deepEqual((await call("GET", `/runs/crons/${created.body.cron_id}`)).body, created.body);
        assert.deepEqual(await call("PATCH", `/runs/crons/${created.body.cron_id}`, {}).then((r) => [r.status, r.body]), [
            400,
            { detail: "Request body cannot be empty" },
        ]);
        const cleared = await call("PATCH", `/runs/crons/${created.body.cron_id}`, { end_time: "2099-01-01T00:00:00Z" });
        assert.equal(cleared.body.end_time, "2099-01-01T00:00:00.000Z");
        assert.equal((await call("PATCH", `/runs/crons/${created.body.cron_id}`, { end_time: null })).body.end_time, null);
    });

    it("an emulator started again on its state directory keeps assistants, versions and crons, and fires what was due, none twice", async () => {
        const dir = mkdtempSync(join(tmpdir(), "crons-state-"));
        let first: Emulator | undefined;
        let second: Emulator | undefined;
        try {
            first = await startTestEmulator({ stateDir: dir, timing: { speed: "immediate" }, agentServer: { stepMs: 1 } });
            await alignClock(first);
            const d = await deployed(first);
            const a = await d.client.assistants.create({ graphId: "agent", assistantId: randomUUID(), name: "kept" });
            await d.client.assistants.update(a.assistant_id, { name: "kept v2" });
            const thread = await d.client.threads.create();
            await d.client.crons.createForThread(thread.thread_id, a.assistant_id, { schedule: "*/20 * * * *", input: human("x") });
            await advance(first, HOUR);
            assert.equal((await d.client.runs.list(thread.thread_id)).length, 3);
            await first.close();
            first = undefined;

            second = await startTestEmulator({ stateDir: dir, timing: { speed: "immediate" }, agentServer: { stepMs: 1 } });
            const again = new Client({ apiUrl: `${second.url}${d.path}`, apiKey: TEST_API_KEY, callerOptions: { maxRetries: 0 } });
            assert.equal((await again.assistants.get(a.assistant_id)).name, "kept v2");
            assert.deepEqual(
                (await again.assistants.getVersions(a.assistant_id)).map((v) => v.version),
                [2, 1],
            );
            assert.equal((await again.runs.list(thread.thread_id)).length, 3, "a fire was made twice, or lost");
            await advance(second, HOUR);
            const runs = await again.runs.list(thread.thread_id, { limit: 20 });
            assert.equal(runs.length, 6);
            assert.equal(new Set(runs.map((r) => r.created_at)).size, 6, "two runs at one instant");
        } finally {
            await first?.close();
            await second?.close();
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
