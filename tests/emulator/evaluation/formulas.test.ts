/**
 * The emulator's feedback formulas over raw HTTP (docs/service.md R9.5): made on a project or a dataset (neither or both
 * 422, an unknown one 404, a key twice or the formula's own key among its parts 422 at the part, a taken key 409),
 * listed by dataset or project, read, changed by a PUT, deleted; computed over the feedback it holds: a run's
 * `feedback_stats` (its read, the run query and its feedback filters, and the official Python client's `read_run`)
 * carries the formula's score when the run has every part, a weighted sum or average, and follows a changed weight
 * at once; a dataset's formula scores the runs of its experiments; kept across a restart on the same `--state-dir`.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { traceRuns } from "../../helpers/evaluation";
import { pythonPath } from "../../helpers/pyarrow";

const FORMULAS = "/api/v1/feedback/formulas";
const part = (key: string, weight: number) => ({ part_type: "weighted_key", key, weight });

/** The id of the project named `name` (traced into first). */
async function projectId(em: Emulator, name: string): Promise<string> {
    return (await raw(em, "GET", `/api/v1/sessions?name=${name}`)).body[0].id;
}

async function feedback(em: Emulator, runId: string, key: string, score: number): Promise<void> {
    const r = await raw(em, "POST", "/api/v1/feedback", { body: { run_id: runId, key, score } });
    assert.equal(r.status, 200, r.text);
}

/** The run's `feedback_stats` under `key`, as its read answers it. */
async function statOf(em: Emulator, runId: string, key: string): Promise<Record<string, any> | undefined> {
    const r = await raw(em, "GET", `/api/v1/runs/${runId}`);
    assert.equal(r.status, 200, r.text);
    return r.body.feedback_stats?.[key];
}

describe("emulator: feedback formulas", function () {
    this.timeout(60_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(() => em.close());

    it("made on a project or a dataset, refused where the rules say (422 at the field, 404, 409), listed, read, changed by PUT, deleted", async () => {
        const project = uniqueName("proj");
        await traceRuns(em, project, 1);
        const sessionId = await projectId(em, project);
        const dataset = (await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } })).body;
        const body = { session_id: sessionId, feedback_key: "overall", aggregation_type: "sum", formula_parts: [part("a", 0.5), part("b", 0.5)] };
        const made = await raw(em, "POST", FORMULAS, { body });
        assert.equal(made.status, 200, made.text);
        assert.deepEqual([made.body.session_id, made.body.dataset_id, made.body.feedback_key], [sessionId, null, "overall"]);
        const refused = async (over: Record<string, unknown>, status: number, loc?: unknown[]) => {
            const r = await raw(em, "POST", FORMULAS, { body: { ...body, ...over } });
            assert.equal(r.status, status, r.text);
            if (loc) assert.deepEqual(r.body.detail[0].loc, loc);
            return r;
        };
        await refused({ session_id: undefined }, 422, ["body", "dataset_id"]);
        await refused({ dataset_id: dataset.id }, 422, ["body", "dataset_id"]);
        await refused({ session_id: "6f0c2d8e-1b9a-4c3e-9d7f-2a5b8c1e4f60" }, 404);
        await refused({ feedback_key: "x", formula_parts: [part("a", 1), part("a", 2)] }, 422, ["body", "formula_parts", 1, "key"]);
        await refused({ feedback_key: "x", formula_parts: [part("x", 1)] }, 422, ["body", "formula_parts", 0, "key"]);
        await refused({ feedback_key: "x", formula_parts: [] }, 422);
        await refused({ feedback_key: "x", formula_parts: [{ part_type: "weighted_key", key: "a", weight: "heavy" }] }, 422);
        assert.match((await refused({}, 409)).body.detail, /already exists/);
        const onDataset = await raw(em, "POST", FORMULAS, { body: { ...body, session_id: undefined, dataset_id: dataset.id } });
        assert.equal(onDataset.status, 200, "the same key on another scope");
        assert.deepEqual(
            (await raw(em, "GET", `${FORMULAS}?session_id=${sessionId}`)).body.map((f: { id: string }) => f.id),
            [made.body.id],
        );
        assert.equal((await raw(em, "GET", `${FORMULAS}/${made.body.id}`)).body.feedback_key, "overall");
        const put = await raw(em, "PUT", `${FORMULAS}/${made.body.id}`, {
            body: { feedback_key: "total", aggregation_type: "avg", formula_parts: [part("a", 1)] },
        });
        assert.equal(put.status, 200, put.text);
        assert.deepEqual([put.body.feedback_key, put.body.aggregation_type, put.body.session_id], ["total", "avg", sessionId]);
        assert.equal((await raw(em, "PUT", `${FORMULAS}/${made.body.id}`, { body: { ...body, session_id: sessionId } })).status, 422, "the scope is fixed");
        assert.equal((await raw(em, "DELETE", `${FORMULAS}/${made.body.id}`)).status, 200);
        assert.equal((await raw(em, "GET", `${FORMULAS}/${made.body.id}`)).status, 404);
    });

    it("computed over the feedback held: a run with every part has the formula's score in its feedback_stats (read, queried, filtered, the Python client); a run missing a part has none; a new weight shows at once", async () => {
        const project = uniqueName("scored");
        const [full, partial] = await traceRuns(em, project, 2);
        const sessionId = await projectId(em, project);
        await feedback(em, full, "correctness", 1);
        await feedback(em, full, "helpfulness", 0.4);
        await feedback(em, full, "helpfulness", 0.6);
        await feedback(em, partial, "correctness", 1);
        const f = await raw(em, "POST", FORMULAS, {
            body: {
                session_id: sessionId,
                feedback_key: "overall",
                aggregation_type: "sum",
                formula_parts: [part("correctness", 0.7), part("helpfulness", 0.3)],
            },
        });
        assert.equal(f.status, 200, f.text);
        const sum = await statOf(em, full, "overall");
        assert.ok(sum && Math.abs(sum.avg - 0.85) < 1e-9, `0.7·1 + 0.3·mean(0.4, 0.6): ${JSON.stringify(sum)}`);
        assert.deepEqual([sum.n, sum.sources], [1, ["formula"]]);
        assert.equal(await statOf(em, partial, "overall"), undefined, "no helpfulness score: no formula score");
        const query = await raw(em, "POST", "/api/v1/runs/query", {
            body: { session: [sessionId], filter: 'and(eq(feedback_key, "overall"), gt(feedback_score, 0.8))' },
        });
        assert.deepEqual(
            query.body.runs.map((r: { id: string }) => r.id),
            [full],
        );
        await raw(em, "PUT", `${FORMULAS}/${f.body.id}`, {
            body: { feedback_key: "overall", aggregation_type: "avg", formula_parts: [part("correctness", 1), part("helpfulness", 3)] },
        });
        const avg = await statOf(em, full, "overall");
        assert.ok(avg && Math.abs(avg.avg - 0.625) < 1e-9, `(1·1 + 3·0.5) / 4: ${JSON.stringify(avg)}`);
        const script =
            "import sys, json\nfrom langsmith import Client\nrun = Client(api_url=sys.argv[1], api_key=sys.argv[2]).read_run(sys.argv[3])\nprint(json.dumps(run.feedback_stats))";
        const { stdout } = await promisify(execFile)(pythonPath(), ["-c", script, em.url, TEST_API_KEY, full], {
            env: { ...process.env, LANGSMITH_WORKSPACE_ID: TEST_TENANT, LANGSMITH_TRACING: "false" },
        });
        assert.ok(Math.abs(JSON.parse(stdout).overall.avg - 0.625) < 1e-9, stdout);
    });

    it("a dataset's formula scores the runs of its experiments (projects whose reference dataset it is)", async () => {
        const dataset = (await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } })).body;
        const experiment = uniqueName("exp");
        assert.equal((await raw(em, "POST", "/api/v1/sessions", { body: { name: experiment, reference_dataset_id: dataset.id } })).status, 200);
        const [run] = await traceRuns(em, experiment, 1);
        await feedback(em, run, "correctness", 0.5);
        await raw(em, "POST", FORMULAS, {
            body: { dataset_id: dataset.id, feedback_key: "double", aggregation_type: "sum", formula_parts: [part("correctness", 2)] },
        });
        assert.equal((await statOf(em, run, "double"))?.avg, 1);
    });

    it("keeps formulas in --state-dir across a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "formulas-"));
        try {
            const one = await startTestEmulator({ stateDir: dir });
            const dataset = (await raw(one, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } })).body;
            const made = (
                await raw(one, "POST", FORMULAS, {
                    body: { dataset_id: dataset.id, feedback_key: "k", aggregation_type: "avg", formula_parts: [part("a", 1)] },
                })
            ).body;
            await one.close();
            const two = await startTestEmulator({ stateDir: dir });
            try {
                assert.deepEqual((await raw(two, "GET", `${FORMULAS}/${made.id}`)).body, made);
            } finally {
                await two.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
