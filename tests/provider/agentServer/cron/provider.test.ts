/**
 * Cron (provider/cron) against the emulator's agent server over HTTP: check at preview (the schedule parsed
 * with the position of a typo, the time zone, the end, what applies to stateless crons only), diff, create on a
 * thread and stateless, read (refresh shows a change made with an SDK; import by `<url>|<cronId>`), update in
 * place, delete; a cron that fires on the emulator's clock; an identical cron refused or taken in; a lost
 * answer taken in, never a second cron.
 */
import assert from "node:assert/strict";
import { AgentServerClient } from "../../../../provider/api/agentServer";
import { systemAssistantId } from "../../../../provider/api/schemas/agentServer";
import { checkCron, createCronProvider } from "../../../../provider/agentServer/cron/provider";
import { getCron } from "../../../../provider/agentServer/cron/lookups";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { withEnv } from "../../../helpers/async";
import { TEST_API_KEY, admin, githubBody, raw, rejection, startTestEmulator, type Emulator } from "../../../helpers/emulator";

const INPUT = { messages: [{ role: "user", content: "summarise yesterday's tickets" }] };

describe("Cron", function () {
    this.timeout(30_000);
    let em: Emulator;
    let url: string;
    let path: string;
    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, agentServer: { stepMs: 5 } });
        url = (await raw(em, "POST", "/v2/deployments", { body: githubBody() })).body.source_config.custom_url;
        path = new URL(url).pathname;
    });
    after(async () => {
        await em?.close();
    });
    afterEach(async () => {
        await admin(em, "DELETE", "/faults");
    });
    const server = () => AgentServerClient.connect({ baseUrl: url, apiKey: TEST_API_KEY, retryBaseMs: 5, retryMaxMs: 20, settleMs: 200 });
    const provider = () => createCronProvider({ server: () => server() });
    const checked = (news: Record<string, unknown>) => {
        const r = checkCron(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as { url: string; assistantId: string; schedule: string } & Record<string, unknown>;
    };
    const thread = async () => (await raw(em, "POST", `${path}/threads`, { body: {} })).body.thread_id as string;
    let minute = 0;
    /** A schedule no other test's cron has (crons are identical by assistant, thread, schedule and input). */
    const schedule = () => `${minute++ % 60} 9 * * 1-5`;

    it("check: a schedule's typo fails showing where; a bad time zone, a bad end and onRunCompleted on a thread cron fail; unknowns pass", () => {
        const r = checkCron({
            url,
            assistantId: "agent",
            schedule: "0 9 * * mon-fry",
            timezone: "Europe/Pariss",
            endTime: "tomorrow",
            threadId: "t",
            onRunCompleted: "keep",
        });
        const by = Object.fromEntries((r.failures ?? []).map((f) => [f.property, f.reason]));
        assert.match(by.schedule, /schedule is not a cron expression: .*\n.*0 9 \* \* mon-fry\n\s+\^/s);
        assert.match(by.timezone, /IANA time zone .*"Europe\/Pariss"/);
        assert.match(by.endTime, /ISO 8601 timestamp/);
        assert.match(by.onRunCompleted, /applies only to stateless crons/);
        assert.deepEqual(checkCron({ url: UNKNOWN, assistantId: UNKNOWN, schedule: "@daily", endTime: "2027-01-01T00:00:00+01:00" }).failures, []);
        assert.equal(checked({ url, assistantId: "a", schedule: "@daily", endTime: "2027-01-01T00:00:00+01:00" }).endTime, "2026-12-31T23:00:00.000Z");
        assert.equal(checked({ url, assistantId: "a", schedule: "@daily" }).enabled, true);
    });

    it("diff: schedule, time zone, input, config, metadata, end and enabled update in place; url, assistant and thread replace", async () => {
        const olds = checked({ url, assistantId: "agent", schedule: "0 9 * * *", input: INPUT });
        const d = await provider().diff!("id", olds as never, checked({ ...olds, schedule: "0 10 * * *", timezone: "Europe/Paris", enabled: false }));
        assert.deepEqual([d.replaces, (d as { updates?: string[] }).updates], [[], ["schedule", "timezone", "enabled"]]);
        const defaults = await provider().diff!("id", olds as never, checked({ ...olds, timezone: "UTC", onRunCompleted: "delete" }));
        assert.equal(defaults.changes, false, "the server's defaults, given or not, are the same cron");
        const r = await provider().diff!("id", olds as never, checked({ ...olds, assistantId: "other", threadId: "00000000-0000-4000-8000-000000000001" }));
        assert.deepEqual(r.replaces, ["assistantId", "threadId"]);
    });

    it("create on a thread, read, update in place (the same cron), a change made with an SDK shown by read, delete", async () => {
        const p = provider();
        const inputs = checked({ url, assistantId: "agent", schedule: schedule(), threadId: await thread(), input: INPUT, metadata: { team: "s" } });
        const made = await p.create(inputs);
        assert.ok((await getCron(server(), { url, cronId: made.id })).nextRunDate, "the server says when it runs next");
        assert.ok(!("nextRunDate" in made.outs), "what the server's clock moves is no output");
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, inputs, "nothing changed reads back as the inputs");

        const news = checked({ ...inputs, schedule: schedule(), timezone: "America/New_York", enabled: false, endTime: "2030-01-01T00:00:00Z" });
        const updated = await p.update!(made.id, made.outs, news);
        const onServer = (await server().tryGetCron(made.id))!;
        assert.deepEqual([onServer.schedule, onServer.timezone, onServer.enabled], [news.schedule, "America/New_York", false]);

        await server().updateCron(made.id, { enabled: true });
        const drift = await p.read!(made.id, updated.outs);
        assert.equal((drift.inputs as { enabled: boolean }).enabled, true, "refresh shows the change");

        await p.delete!(made.id, updated.outs);
        assert.deepEqual(await p.read!(made.id, updated.outs), {});
        await p.delete!(made.id, updated.outs); // already gone: done
    });

    it("a thread cron fires on the emulator's clock: its run shows in the thread's runs", async () => {
        const t = await thread();
        const made = await provider().create(checked({ url, assistantId: "agent", schedule: "* * * * *", threadId: t, input: INPUT }));
        assert.equal((await raw(em, "GET", `${path}/threads/${t}/runs`)).body.length, 0);
        await admin(em, "POST", "/clock/advance", { ms: 61_000 });
        const runs = (await raw(em, "GET", `${path}/threads/${t}/runs`)).body as Array<{ assistant_id: string }>;
        assert.ok(runs.length >= 1, `a run after a minute, got ${runs.length}`);
        await provider().delete!(made.id, made.outs);
    });

    it("read: import of a stateless cron by <url>|<cronId> reads its inputs back, onRunCompleted included", async () => {
        const inputs = checked({ url, assistantId: "agent", schedule: schedule(), input: INPUT, onRunCompleted: "keep" });
        const made = await provider().create(inputs);
        const imported = await provider().read!(`${url}|${made.id}`);
        assert.deepEqual(
            [imported.id, imported.inputs],
            [made.id, { ...inputs, assistantId: systemAssistantId("agent") }],
            "a graph's name reads as its assistant",
        );
        assert.equal((await provider().diff!(made.id, imported.props as never, inputs as never)).changes, false, "the same assistant: no change");
        await provider().delete!(made.id, made.outs);
    });

    it("create: an identical cron (its input's keys in another order) is refused with its id; LANGSMITH_ADOPT_IDS takes it in, as it is or set to the program's", async () => {
        for (const metadata of [undefined, { owner: "program" }]) {
            const inputs = checked({ url, assistantId: "agent", schedule: schedule(), input: INPUT, metadata });
            const reordered = { messages: [{ content: INPUT.messages[0].content, role: "user" }] };
            const other = await server().createCron({ assistant_id: "agent", schedule: inputs.schedule, input: reordered });
            const e = await rejection(() => provider().create(inputs));
            assert.match(e.message, new RegExp(`already holds cron ${other.cron_id} running assistant agent`));
            const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: other.cron_id }, () => provider().create(inputs));
            assert.deepEqual([adopted.id, (await server().tryGetCron(other.cron_id))?.metadata], [other.cron_id, metadata ?? {}]);
            await provider().delete!(adopted.id, adopted.outs);
        }
    });

    it("create: crons differing only in time zone, configuration, context, end or enabled are two crons, each made; neither taken for the other", async () => {
        const at = schedule();
        const one = checked({ url, assistantId: "agent", schedule: at, input: INPUT });
        const variants = [
            { timezone: "Europe/Paris" },
            { config: { tags: ["b"] } },
            { context: { model: "b" } },
            { endTime: "2099-01-01T00:00:00Z" },
            { enabled: false },
        ].map((v) => checked({ ...one, ...v }));
        const made = [await provider().create(one)];
        for (const v of variants) made.push(await provider().create(v));
        assert.equal(new Set(made.map((m) => m.id)).size, 1 + variants.length, "each its own cron");
        const again = await rejection(() => provider().create(variants[0]));
        assert.match(again.message, new RegExp(`already holds cron ${made[1].id} .*identical in what it runs and when`), "an identical one is still refused");
        for (const m of made) await provider().delete!(m.id, m.outs);
    });

    it("check: empty values are absent (the server answers them so); threadId is a uuid, in lower case; diff: a url not known yet is an update", async () => {
        const inputs = checked({
            url,
            assistantId: "agent",
            schedule: "@daily",
            input: {},
            metadata: {},
            config: { tags: [] },
            threadId: "ABCDEF01-2345-4678-9ABC-DEF012345678",
        });
        assert.deepEqual(
            [inputs.input, inputs.metadata, inputs.config, inputs.threadId],
            [undefined, undefined, undefined, "abcdef01-2345-4678-9abc-def012345678"],
        );
        assert.match(checkCron({ url, assistantId: "agent", schedule: "@daily", threadId: "main" }).failures![0].reason, /threadId must be a thread's id/);
        const d = await provider().diff!("id", inputs as never, { ...inputs, url: UNKNOWN } as never);
        assert.deepEqual([d.replaces, (d as { updates?: string[] }).updates], [[], ["url"]], "a new revision of the deployment keeps the server");
    });

    it("read: an address that answers as no agent server is an error, not a cron deleted; one where no server is any more (404) finds it gone", async () => {
        const made = await provider().create(checked({ url, assistantId: "agent", schedule: schedule(), input: INPUT }));
        const at = (baseUrl: string) => createCronProvider({ server: () => AgentServerClient.connect({ baseUrl, apiKey: TEST_API_KEY, maxRetries: 0 }) });
        const e = await rejection(() => at(`${em.url}/v2`).read!(made.id, made.outs));
        assert.match(e.message, /read failed: 403 Forbidden/);
        assert.deepEqual(await at(`${em.url}/__agents/00000000-0000-4000-8000-000000000000`).read!(made.id, made.outs), {}, "a deleted deployment's server");
        await provider().delete!(made.id, made.outs);
    });

    it("create: an answer lost after the server made it is taken in, never a second cron", async () => {
        await admin(em, "POST", "/faults", { method: "POST", path: "/runs/crons$", kind: "drop", when: "after" });
        const inputs = checked({ url, assistantId: "agent", schedule: schedule(), input: INPUT });
        const made = await provider().create(inputs);
        const same = await server().findCrons({ assistantId: "agent", schedule: inputs.schedule, payload: INPUT });
        assert.deepEqual(
            same.map((c) => c.cron_id),
            [made.id],
        );
        await provider().delete!(made.id, made.outs);
    });
});
