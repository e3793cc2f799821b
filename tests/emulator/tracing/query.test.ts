/**
 * Run queries over raw HTTP (docs/service.md R5 "Reading traced runs"), with runs traced through `/runs/batch` at
 * chosen times: `POST /runs/query`'s pages (cursors both ways, runs traced while a client pages, `order`,
 * `skip_pagination`), its criteria (start-time bounds, parent, reference example, free text, `execution_order`,
 * retention, workspaces), the columns it answers, and its refusals; `POST /api/v2/runs/query` (and the description's `/v2/runs/query`): fields by
 * `selects`, the default window of a day, projects by dataset, pages, feedback statistics, and its problem details.
 * The official clients' use of both: reads.test.ts.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { OTHER_TENANT, TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Traced {
    id: string;
    name: string;
    /** Start, ms before now. */
    ago: number;
    parent?: string;
    trace?: string;
    error?: string;
    tags?: string[];
    inputs?: Record<string, unknown>;
    reference_example_id?: string;
    metadata?: Record<string, unknown>;
}

/** Traces runs into a project by name (made on first use), each ended a second after its start. */
async function trace(em: Emulator, project: string, runs: Traced[], tenantId?: string): Promise<void> {
    const now = Date.now();
    const post = runs.map((r) => ({
        id: r.id,
        name: r.name,
        run_type: r.parent ? "llm" : "chain",
        start_time: new Date(now - r.ago).toISOString(),
        end_time: new Date(now - r.ago + 1000).toISOString(),
        session_name: project,
        inputs: r.inputs ?? { q: r.name },
        outputs: r.error ? undefined : { a: r.name },
        tags: r.tags,
        ...(r.parent ? { parent_run_id: r.parent, trace_id: r.trace ?? r.parent } : {}),
        ...(r.error ? { error: r.error } : {}),
        ...(r.reference_example_id ? { reference_example_id: r.reference_example_id } : {}),
        ...(r.metadata ? { extra: { metadata: r.metadata } } : {}),
    }));
    assert.equal((await raw(em, "POST", "/api/v1/runs/batch", { body: { post }, ...(tenantId ? { tenantId } : {}) })).status, 202);
}

const named = (name: string, ago: number, over: Partial<Traced> = {}): Traced => ({ id: randomUUID(), name, ago, ...over });

async function query(em: Emulator, body: Record<string, unknown>, path = "/api/v1/runs/query") {
    const r = await raw(em, "POST", path, { body });
    assert.equal(r.status, 200, r.text);
    return r.body as { runs: Array<Record<string, any>>; cursors: { next: string | null; prev: string | null } };
}

const projectId = async (em: Emulator, name: string) => (await raw(em, "GET", `/api/v1/sessions?name=${name}`)).body[0].id as string;

describe("emulator tracing: POST /runs/query", () => {
    let em: Emulator;
    let project: string;
    let session: string;
    const five = ["e", "d", "c", "b", "a"].map((n, i) => named(n, (i + 1) * HOUR));
    before(async () => {
        em = await startTestEmulator();
        project = uniqueName("q");
        await trace(em, project, five);
        session = await projectId(em, project);
    });
    after(() => em.close());

    it("pages of `limit`, newest first: next through every run once, prev back to the page before; asc the other way; skip_pagination all at once", async () => {
        const names: string[] = [];
        const cursors: Array<string | null> = [];
        let cursor: string | null = null;
        do {
            const page = await query(em, { session: [session], limit: 2, ...(cursor ? { cursor } : {}) });
            names.push(...page.runs.map((r) => r.name));
            cursors.push(page.cursors.prev);
            cursor = page.cursors.next;
        } while (cursor);
        assert.deepEqual(names, ["e", "d", "c", "b", "a"]);
        assert.equal(cursors[0], null, "no page before the first");
        const back = await query(em, { session: [session], limit: 2, cursor: cursors[1] });
        assert.deepEqual(
            back.runs.map((r) => r.name),
            ["e", "d"],
        );
        const asc = await query(em, { session: [session], order: "asc", limit: 3 });
        assert.deepEqual(
            asc.runs.map((r) => r.name),
            ["a", "b", "c"],
        );
        const whole = await query(em, { session: [session], limit: 1, skip_pagination: true });
        assert.deepEqual([whole.runs.length, whole.cursors.next], [5, null]);
    });

    it("runs traced while a client pages neither shift the pages it has not read nor come twice: a newer one is not on later pages, an older one is", async () => {
        const first = await query(em, { session: [session], limit: 2 });
        const [newest, older] = [named("newest", 0), named("oldest", 10 * HOUR)];
        await trace(em, project, [newest, older]);
        const rest = await query(em, { session: [session], limit: 10, cursor: first.cursors.next });
        assert.deepEqual(
            rest.runs.map((r) => r.name),
            ["c", "b", "a", "oldest"],
        );
    });

    it("start_time and end_time bound the runs' start (inclusive); parent_run, reference_example, free text, execution_order 1, is_root false", async () => {
        const p = uniqueName("crit");
        const [root, example] = [named("root", HOUR, { inputs: { question: "Where is Zanzibar?" } }), randomUUID()];
        const child = named("child", HOUR - 1000, { parent: root.id, reference_example_id: example });
        await trace(em, p, [root, child, named("later", HOUR / 2)]);
        const s = [await projectId(em, p)];
        const names = async (body: Record<string, unknown>) => (await query(em, { session: s, ...body })).runs.map((r) => r.name).sort();
        const at = (ago: number) => new Date(Date.now() - ago).toISOString();
        assert.deepEqual(await names({ start_time: at(HOUR - 500) }), ["child", "later"]);
        assert.deepEqual(await names({ end_time: at(HOUR - 500) }), ["root"]);
        assert.deepEqual(await names({ parent_run: root.id }), ["child"]);
        assert.deepEqual(await names({ reference_example: [example] }), ["child"]);
        assert.deepEqual(await names({ query: "zanzibar" }), ["root"]);
        assert.deepEqual(await names({ execution_order: 1 }), ["later", "root"]);
        assert.deepEqual(await names({ is_root: false }), ["child"]);
        assert.deepEqual(
            await names({ trace: root.id, session_id: s[0] }),
            ["child", "root"],
            "a field the description does not declare is ignored (Python's read_run sends session_id)",
        );
    });

    it("the columns asked, beside those every run carries; previews, thread, children and the trace's span derived; what is not held, null", async () => {
        const p = uniqueName("cols");
        const root = named("root", HOUR, { metadata: { thread_id: "conversation-7" } });
        const child = named("child", HOUR - 2000, { parent: root.id });
        await trace(em, p, [root, child, named("grandchild", HOUR - 3000, { parent: child.id, trace: root.id })]);
        const select = ["inputs_preview", "child_run_ids", "trace_min_max_start_time", "thread_id", "total_cost", "inputs_or_signed_url"];
        const { runs } = await query(em, { session: [await projectId(em, p)], trace: root.id, is_root: true, select });
        const [r] = runs;
        assert.deepEqual(Object.keys(r).sort(), [
            ...["app_path", "child_run_ids", "dotted_order", "id", "inputs", "inputs_preview", "name", "run_type", "session_id", "start_time", "status"],
            ...["thread_id", "total_cost", "trace_id", "trace_max_start_time", "trace_min_start_time"],
        ]);
        assert.equal(r.inputs_preview, '{"q":"root"}');
        assert.equal(r.thread_id, "conversation-7");
        assert.equal(r.child_run_ids.length, 2, "its descendants in the trace");
        assert.deepEqual([r.trace_min_start_time, r.total_cost], [r.start_time, null]);
        assert.ok(r.trace_max_start_time > r.start_time);
    });

    it("the workspace's own runs only: without a project every project of it; another workspace's project 404; a run past its retention gone", async () => {
        const mine = named("mine", HOUR);
        const theirs = named("theirs", HOUR);
        await trace(em, uniqueName("mine"), [mine]);
        await trace(em, uniqueName("theirs"), [theirs], OTHER_TENANT);
        const ids = (await query(em, { id: [mine.id, theirs.id] })).runs.map((r) => r.id);
        assert.deepEqual(ids, [mine.id]);
        const other = (await raw(em, "GET", "/api/v1/sessions", { tenantId: OTHER_TENANT })).body[0].id;
        assert.equal((await raw(em, "POST", "/runs/query", { body: { session: [other] } })).status, 404);
        const p = uniqueName("short");
        assert.equal((await raw(em, "POST", "/api/v1/sessions", { body: { name: p, trace_tier: "shortlived" } })).status, 200);
        await trace(em, p, [named("fresh", HOUR), named("expired", 20 * DAY)]);
        const kept = await query(em, { session: [await projectId(em, p)] });
        assert.deepEqual(
            kept.runs.map((r) => r.name),
            ["fresh"],
        );
    });

    it("refusals: a filter that does not parse (400 with its caret) or reads an unknown field (400 naming it), a cursor not its own (400), a limit over 100 (422)", async () => {
        const cases: Array<[Record<string, unknown>, number, RegExp]> = [
            [{ trace_filter: 'eq(name, "x"' }, 400, /^trace_filter: Invalid filter at column 13/],
            [{ filter: 'eq(colour, "red")' }, 400, /^filter: Invalid filter: unknown field "colour"/],
            [{ cursor: "not-a-cursor" }, 400, /Invalid cursor/],
            [{ limit: 101 }, 422, /<=100/],
        ];
        for (const [body, status, words] of cases) {
            const r = await raw(em, "POST", "/api/v1/runs/query", { body: { session: [session], ...body } });
            assert.equal(r.status, status, r.text);
            assert.match(typeof r.body.detail === "string" ? r.body.detail : r.body.detail[0].msg, words);
        }
    });
});

describe("emulator tracing: POST /api/v2/runs/query (the clients' runs.query)", () => {
    let em: Emulator;
    let session: string;
    const recent = [named("ok", HOUR), named("bad", 2 * HOUR, { error: "boom\nat line 2" })];
    before(async () => {
        em = await startTestEmulator();
        const p = uniqueName("v2");
        await trace(em, p, [...recent, named("old", 2 * DAY)]);
        session = await projectId(em, p);
    });
    after(() => em.close());

    const v2 = (body: Record<string, unknown>, o: { path?: string; accept?: string } = {}) =>
        raw(em, "POST", o.path ?? "/api/v2/runs/query", { body, ...(o.accept ? { headers: { accept: o.accept } } : {}) });

    it("a run is its id unless selects names more, in the v2 words; the window is the last day unless min_start_time says; at the description's path too", async () => {
        const plain = await v2({ project_ids: [session] });
        assert.deepEqual(plain.body, { items: recent.map((r) => ({ id: r.id })), has_more: false });
        const selects = ["NAME", "RUN_TYPE", "STATUS", "ERROR_PREVIEW", "PROJECT_ID", "IS_ROOT", "TOTAL_COST", "LATENCY_SECONDS"];
        const min_start_time = new Date(Date.now() - 3 * DAY).toISOString();
        const all = await v2({ project_ids: [session], selects, min_start_time, sort_order: "ASC" }, { path: "/v2/runs/query" });
        assert.equal(all.status, 200, all.text);
        assert.deepEqual(
            all.body.items.map((r: any) => [r.name, r.run_type, r.status, r.error_preview ?? null, r.project_id, r.is_root, r.latency_seconds]),
            [
                ["old", "CHAIN", "SUCCESS", null, session, true, 1],
                ["bad", "CHAIN", "ERROR", "boom", session, true, 1],
                ["ok", "CHAIN", "SUCCESS", null, session, true, 1],
            ],
        );
        assert.ok(
            all.body.items.every((r: any) => !("total_cost" in r)),
            "a field the run has no value for is left out",
        );
    });

    it("pages of page_size with has_more and next_cursor; has_error; a dataset's experiments by reference_dataset_id", async () => {
        const first = await v2({ project_ids: [session], page_size: 1 });
        assert.deepEqual([first.body.items.length, first.body.has_more, typeof first.body.next_cursor], [1, true, "string"]);
        const second = await v2({ project_ids: [session], page_size: 1, cursor: first.body.next_cursor });
        assert.deepEqual([second.body.items[0].id, second.body.has_more, "next_cursor" in second.body], [recent[1].id, false, false]);
        assert.deepEqual((await v2({ project_ids: [session], has_error: true })).body.items, [{ id: recent[1].id }]);
        const dataset = randomUUID();
        const exp = uniqueName("exp");
        assert.equal((await raw(em, "POST", "/api/v1/sessions", { body: { name: exp, reference_dataset_id: dataset } })).status, 200);
        // Without min_start_time the window opens when the dataset's first experiment was made.
        const [run, before] = [named("experiment-run", 0), named("before-the-experiment", HOUR)];
        await trace(em, exp, [run, before]);
        assert.deepEqual((await v2({ reference_dataset_id: dataset })).body.items, [{ id: run.id }]);
    });

    it("FEEDBACK_STATS: the feedback stored on the run, by key, in the described fields (query.RunFeedbackStat); GET /runs/{id} the same", async () => {
        for (const [score, comment] of [
            [0.5, "close"],
            [1, null],
        ] as const) {
            const given = await raw(em, "POST", "/api/v1/feedback", { body: { run_id: recent[0].id, key: "accuracy", score, comment } });
            assert.equal(given.status, 200, given.text);
        }
        const r = await v2({ project_ids: [session], ids: [recent[0].id], selects: ["FEEDBACK_STATS"] });
        const { stdev, ...stats } = r.body.items[0].feedback_stats.accuracy;
        assert.deepEqual(stats, {
            n: 2,
            avg: 0.75,
            min: 0.5,
            max: 1,
            values: {},
            errors: 0,
            comments: ["close"],
            sources: ["api"],
            contains_thread_feedback: false,
        });
        assert.ok(Math.abs(stdev - Math.SQRT1_2 / 2) < 1e-9, `the sample deviation: ${stdev}`);
        const read = await raw(em, "GET", `/api/v1/runs/${recent[0].id}`);
        assert.deepEqual([read.body.feedback_stats.accuracy.n, read.body.feedback_stats.accuracy.avg], [2, 0.75], "a run read by id carries them too");
    });

    it("problem details: 400 for both or neither of project_ids and reference_dataset_id or a body it cannot read, 422 for a malformed UUID, 404 for a project not the workspace's; ai_query 406, 501 for an event stream", async () => {
        const cases: Array<[Record<string, unknown>, number, RegExp, string?]> = [
            [{}, 400, /exactly one of project_ids and reference_dataset_id/],
            [{ project_ids: [session], reference_dataset_id: randomUUID() }, 400, /exactly one/],
            [{ project_ids: ["not-a-uuid"] }, 422, /UUID/],
            [{ project_ids: [randomUUID()] }, 404, /not found/],
            [{ project_ids: [session], ai_query: "slow runs" }, 406, /text\/event-stream/],
            [{ project_ids: [session], ai_query: "slow runs" }, 501, /unavailable/, "text/event-stream"],
        ];
        for (const [body, status, words, accept] of cases) {
            const r = await v2(body, { accept });
            assert.equal(r.status, status, r.text);
            assert.deepEqual([r.body.status, typeof r.body.title], [status, "string"]);
            assert.match(r.body.detail, words);
        }
        // A body it cannot read is refused in the same words (not the v1 API's 422 list).
        const headers = { "x-api-key": TEST_API_KEY, "x-tenant-id": TEST_TENANT, "content-type": "multipart/form-data" };
        const unread = await fetch(`${em.url}/api/v2/runs/query`, { method: "POST", headers, body: "{}" });
        assert.deepEqual([unread.status, ((await unread.json()) as { status: number }).status], [400, 400]);
    });
});
