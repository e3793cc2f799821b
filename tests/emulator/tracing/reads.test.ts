/**
 * The official LangSmith clients' everyday reads on the emulator, as a team's own code calls them in CI after
 * tracing: runs listed by project and error, root, type, filters over the run, its trace's root and its tree, trace,
 * ids, selected fields and pages (`list_runs` / `listRuns`, `POST /runs/query`), a run read with its child runs,
 * the newer `runs.query` (`POST /api/v2/runs/query`), feedback listed, projects listed by ids, reference dataset,
 * reference-free and metadata, and a dataset's examples listed. The Python `langsmith` (the test venv;
 * read_client.py) speaks to the bare URL without a workspace id, the JS `langsmith` (in this process) to `/api/v1`
 * with one; each traces its own runs and must read back exactly those.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "langsmith";
import { getCurrentRunTree, traceable } from "langsmith/traceable";
import { TEST_API_KEY, TEST_TENANT, admin, raw, startTestEmulator, type Emulator } from "../../helpers/emulator";
import { pythonCalls } from "../../helpers/pyarrow";

const SCRIPT = join(__dirname, "read_client.py");

interface Traced {
    id: string;
    name: string;
    parent: string | null;
    trace: string;
    error: boolean;
}

type Calls = Map<string, any>;

/** The project a client traces into, its dataset, and a rule copying the project's `lookup` runs into the dataset. */
async function prepare(em: Emulator, project: string): Promise<void> {
    const made = await raw(em, "POST", "/api/v1/sessions", { body: { name: project } });
    const dataset = await raw(em, "POST", "/api/v1/datasets", { body: { name: `${project}-ds` } });
    const rule = await raw(em, "POST", "/api/v1/runs/rules", {
        body: { display_name: "lookups", sampling_rate: 1, session_id: made.body.id, filter: 'eq(name, "lookup")', add_to_dataset_id: dataset.body.id },
    });
    assert.deepEqual([made.status, dataset.status, rule.status], [200, 200, 200], rule.text);
}

/** What read_client.py traces, through the JS client: three agents with a failing llm child and a tool child, a broken root, 120 ticks. */
async function jsTraces(client: Client, project: string): Promise<Traced[]> {
    const traced: Traced[] = [];
    const note = (error = false) => {
        const run = getCurrentRunTree();
        traced.push({ id: run.id, name: run.name, parent: run.parent_run?.id ?? null, trace: run.trace_id, error });
    };
    const options = { client, project_name: project, tracingEnabled: true };
    const lookup = traceable(async (q: string) => (note(), { answer: q.toUpperCase() }), { ...options, name: "lookup", run_type: "tool", tags: ["tool"] });
    const fails = traceable(
        async (q: string) => {
            note(true);
            throw new Error(`no model for ${q}`);
        },
        { ...options, name: "fails", run_type: "llm" },
    );
    const agent = traceable(
        async (q: string) => {
            note();
            await fails(q).catch(() => undefined);
            return lookup(q);
        },
        { ...options, name: "agent", tags: ["prod"] },
    );
    const broken = traceable(
        async (q: string) => {
            note(true);
            throw new Error(`broken on ${q}`);
        },
        { ...options, name: "broken" },
    );
    for (const q of ["one", "two", "three"]) await agent(q);
    await broken("four").catch(() => undefined);
    const tick = traceable(async (i: number) => i, { ...options, project_name: `${project}-many`, name: "tick" });
    for (let i = 0; i < 120; i++) await tick(i);
    await client.awaitPendingTraceBatches();
    return traced;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
    const out: T[] = [];
    for await (const x of items) out.push(x);
    return out;
}

const ids = async (items: AsyncIterable<{ id: string }>) => (await all(items)).map((r) => r.id).sort();
/** The ids of the traced runs that `pass`, sorted. */
const idsWhere = (traced: Traced[], pass: (t: Traced) => boolean) =>
    traced
        .filter(pass)
        .map((t) => t.id)
        .sort();

/** The reads of read_client.py, through the JS client, under the same names. */
async function jsReadRuns(client: Client, project: string, traced: Traced[]): Promise<Calls> {
    const calls: Calls = new Map();
    const projectName = project;
    calls.set("error=True", await ids(client.listRuns({ projectName, error: true })));
    calls.set("error=False", await ids(client.listRuns({ projectName, error: false })));
    calls.set("is_root", await ids(client.listRuns({ projectName, isRoot: true })));
    calls.set("run_type=llm", await ids(client.listRuns({ projectName, runType: "llm" })));
    calls.set("filter", await ids(client.listRuns({ projectName, filter: 'has(tags, "tool")' })));
    calls.set("trace_filter", await ids(client.listRuns({ projectName, filter: 'eq(run_type, "tool")', traceFilter: 'eq(name, "agent")' })));
    calls.set("tree_filter", await ids(client.listRuns({ projectName, isRoot: true, treeFilter: 'eq(name, "fails")' })));
    const firstTrace = traced.find((t) => t.name === "agent")!.trace;
    calls.set("trace_id", await ids(client.listRuns({ traceId: firstTrace })));
    calls.set("run_ids", await ids(client.listRuns({ id: traced.slice(0, 2).map((t) => t.id) })));
    const selected = await all(client.listRuns({ projectName, isRoot: true, select: ["name", "outputs", "error"] }));
    // Sorted as read_client.py sorts them: by their JSON text.
    const json = (v: unknown) => JSON.stringify(v);
    calls.set(
        "select",
        selected.map((r) => [r.name, r.outputs ?? null, r.error ?? null]).sort((a, b) => (json(a) < json(b) ? -1 : json(a) > json(b) ? 1 : 0)),
    );
    const many = await ids(client.listRuns({ projectName: `${project}-many` }));
    calls.set("pages", [many.length, new Set(many).size]);
    calls.set("limit", (await all(client.listRuns({ projectName: `${project}-many`, limit: 5 }))).length);
    const root = await client.readRun(firstTrace, { loadChildRuns: true });
    calls.set("read_run load_child_runs", [root.name, (root.child_runs ?? []).map((c) => c.name).sort()]);
    const projectId = (await client.readProject({ projectName })).id;
    const v2 = await all(client.runs.query({ project_ids: [projectId], has_error: true, selects: ["ID", "NAME", "STATUS"] }));
    calls.set("runs.query", v2.map((r) => [r.id, r.name, r.status]).sort());
    return calls;
}

/** Feedback through the JS client, under read_client.py's names. */
async function jsReadFeedback(client: Client, project: string, traced: Traced[], calls: Calls): Promise<void> {
    const byName = (name: string) => traced.filter((t) => t.name === name).map((t) => t.id);
    await client.createFeedback(byName("lookup")[0], "correct", { score: 1 });
    await client.createFeedback(byName("fails")[0], "correct", { score: 0 });
    await client.createFeedback(byName("lookup")[1], "helpful", { score: 1, feedbackSourceType: "model" });
    const runIds = [byName("lookup")[0], byName("fails")[0], byName("lookup")[1]];
    calls.set("list_feedback run_ids", (await all(client.listFeedback({ runIds }))).map((f) => [f.run_id, f.key, f.score]).sort());
    calls.set("list_feedback key", (await all(client.listFeedback({ runIds, feedbackKeys: ["helpful"] }))).map((f) => f.run_id).sort());
    calls.set("list_feedback source", (await all(client.listFeedback({ runIds, feedbackSourceTypes: ["model"] }))).map((f) => f.run_id).sort());
    const scored = await all(client.listRuns({ projectName: project, filter: 'and(eq(feedback_key, "correct"), eq(feedback_score, 1))' }));
    calls.set(
        "feedback filter",
        scored.map((r) => [r.id, r.feedback_stats?.correct.n, r.feedback_stats?.correct.avg]),
    );
}

/** Projects and examples through the JS client, under read_client.py's names. */
async function jsReadProjects(em: Emulator, client: Client, project: string, calls: Calls): Promise<void> {
    const dataset = await client.readDataset({ datasetName: `${project}-ds` });
    const projectId = (await client.readProject({ projectName: project })).id;
    await client.createProject({ projectName: `${project}-exp`, referenceDatasetId: dataset.id });
    await client.createProject({ projectName: `${project}-meta`, metadata: { team: project } });
    const names = async (items: AsyncIterable<{ name?: string }>) => (await all(items)).map((p) => String(p.name)).sort();
    calls.set("list_projects project_ids", await names(client.listProjects({ projectIds: [projectId] })));
    calls.set("list_projects reference_dataset_id", await names(client.listProjects({ referenceDatasetId: dataset.id })));
    calls.set("list_projects reference_free", await names(client.listProjects({ nameContains: project, referenceFree: true })));
    calls.set("list_projects metadata", await names(client.listProjects({ metadata: { team: project } })));

    await admin(em, "POST", "/evaluation/idle");
    const examples = await all(client.listExamples({ datasetName: `${project}-ds` }));
    calls.set("list_examples", examples.map((e) => e.source_run_id).sort());
    calls.set(
        "list_examples example_ids",
        (await all(client.listExamples({ datasetId: dataset.id, exampleIds: [examples[0].id] }))).map((e) => e.id),
    );
    calls.set("list_examples limit offset", (await all(client.listExamples({ datasetId: dataset.id, offset: 1, limit: 1 }))).length);
}

describe("emulator: the official clients' everyday reads (list_runs / listRuns, read_run, runs.query, list_feedback, list_projects, list_examples)", function () {
    this.timeout(240_000);
    let em: Emulator;
    const seen: Record<string, { calls: Calls; traced: Traced[]; project: string }> = {};

    before(async () => {
        em = await startTestEmulator({ keyWorkspaceId: TEST_TENANT, timing: { speed: "immediate" } });
        await prepare(em, "py-reads");
        const py = await pythonCalls(SCRIPT, [em.url, TEST_API_KEY, "py-reads"]);
        seen.Python = { calls: py, traced: py.get("traced"), project: "py-reads" };
        await prepare(em, "js-reads");
        const client = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        const traced = await jsTraces(client, "js-reads");
        const calls = await jsReadRuns(client, "js-reads", traced);
        await jsReadFeedback(client, "js-reads", traced, calls);
        await jsReadProjects(em, client, "js-reads", calls);
        seen.JS = { calls, traced, project: "js-reads" };
    });
    after(() => em?.close());

    for (const who of ["Python", "JS"]) {
        const of = (name: string) => seen[who].traced.filter((t) => t.name === name);
        const idsOf = (...names: string[]) => idsWhere(seen[who].traced, (t) => names.includes(t.name));

        it(`${who}: the runs listed with error=True are exactly those it traced with an error, and error=False the others`, () => {
            const { calls, traced } = seen[who];
            assert.equal(traced.length, 10);
            assert.deepEqual(
                calls.get("error=True"),
                idsWhere(traced, (t) => t.error),
            );
            assert.deepEqual(
                calls.get("error=False"),
                idsWhere(traced, (t) => !t.error),
            );
        });

        it(`${who}: is_root, run_type, filter, trace_filter, tree_filter, trace_id and run ids each select exactly their runs`, () => {
            const { calls, traced } = seen[who];
            assert.deepEqual(calls.get("is_root"), idsOf("agent", "broken"));
            assert.deepEqual(calls.get("run_type=llm"), idsOf("fails"));
            assert.deepEqual(calls.get("filter"), idsOf("lookup"));
            assert.deepEqual(calls.get("trace_filter"), idsOf("lookup"));
            assert.deepEqual(calls.get("tree_filter"), idsOf("agent"));
            const first = of("agent")[0].trace;
            assert.deepEqual(
                calls.get("trace_id"),
                idsWhere(traced, (t) => t.trace === first),
            );
            assert.deepEqual(
                calls.get("run_ids"),
                idsWhere(traced.slice(0, 2), () => true),
            );
        });

        it(`${who}: select answers the fields asked; 120 runs come over two pages, each once; limit stops at its count`, () => {
            const { calls } = seen[who];
            const agents = ["ONE", "THREE", "TWO"].map((a) => ["agent", { answer: a }, null]);
            const select = calls.get("select") as unknown[][];
            assert.deepEqual(select.slice(0, 3), agents);
            assert.equal(select[3][0], "broken");
            assert.match(String(select[3][2]), /broken on four/);
            assert.deepEqual(calls.get("pages"), [120, 120]);
            assert.equal(calls.get("limit"), 5);
        });

        it(`${who}: read_run with its child runs; runs.query (POST /api/v2/runs/query) lists the failed runs`, () => {
            const { calls } = seen[who];
            assert.deepEqual(calls.get("read_run load_child_runs"), ["agent", ["fails", "lookup"]]);
            const failed = [...of("fails"), ...of("broken")].map((t) => [t.id, t.name, "ERROR"]).sort();
            assert.deepEqual(calls.get("runs.query"), failed);
        });

        it(`${who}: list_feedback by runs, key and source type; runs listed by their feedback`, () => {
            const { calls } = seen[who];
            const [lookup, fails] = [of("lookup"), of("fails")];
            const given = [
                [lookup[0].id, "correct", 1],
                [fails[0].id, "correct", 0],
                [lookup[1].id, "helpful", 1],
            ];
            assert.deepEqual(calls.get("list_feedback run_ids"), given.sort());
            assert.deepEqual(calls.get("list_feedback key"), [lookup[1].id]);
            assert.deepEqual(calls.get("list_feedback source"), [lookup[1].id]);
            assert.deepEqual(calls.get("feedback filter"), [[lookup[0].id, 1, 1]], "a run's feedback is its feedback_stats, which filters read");
        });

        it(`${who}: list_projects by ids, reference dataset, reference-free, metadata; list_examples of the dataset a rule filled`, () => {
            const { calls, project } = seen[who];
            assert.deepEqual(calls.get("list_projects project_ids"), [project]);
            assert.deepEqual(calls.get("list_projects reference_dataset_id"), [`${project}-exp`]);
            assert.deepEqual(calls.get("list_projects reference_free"), [project, `${project}-many`, `${project}-meta`]);
            assert.deepEqual(calls.get("list_projects metadata"), [`${project}-meta`]);
            assert.deepEqual(calls.get("list_examples"), idsOf("lookup"));
            assert.equal(calls.get("list_examples example_ids").length, 1);
            assert.equal(calls.get("list_examples limit offset"), 1);
        });
    }
});
