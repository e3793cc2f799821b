/**
 * The emulator's evaluation area over raw HTTP (docs/service.md R9): feedback configs (made, a taken key 409, the type's
 * rules 422 where the field is, listed by key, changed, deleted by key); annotation queues (made with every field, an
 * unknown default dataset 404, a taken id 409, read with the rubric, listed with their size, changed without touching
 * their runs, deleted with them); the runs in a queue (added once each, an untraced run 404 with none added, listed,
 * read by index, counted, taken out by queue-run id, by run id, in bulk); feedback fitting its key's config; the
 * functions a rule engine calls; the whole area across a restart on the same `--state-dir`; and the official Python and
 * JS clients reading and writing all of it.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "langsmith";
import { TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { evaluatedByPython, traceRuns } from "../../helpers/evaluation";

const CONFIGS = "/api/v1/feedback-configs";
const QUEUES = "/api/v1/annotation-queues";

/** A new queue (200 asserted); answers its body. */
async function queueOf(em: Emulator, body: Record<string, unknown> = {}) {
    const r = await raw(em, "POST", QUEUES, { body: { name: uniqueName("queue"), ...body } });
    assert.equal(r.status, 200, r.text);
    return r.body;
}

const runIds = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe("emulator: evaluation and review", function () {
    this.timeout(60_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(() => em.close());

    it("feedback configs: made, a taken key 409, the type's rules 422 at the field, listed by key, changed, deleted by key", async () => {
        const key = uniqueName("correctness");
        const made = await raw(em, "POST", CONFIGS, { body: { feedback_key: key, feedback_config: { type: "continuous", min: 0, max: 1 } } });
        assert.equal(made.status, 200, made.text);
        assert.deepEqual(made.body.feedback_config, { type: "continuous", min: 0, max: 1, categories: null });
        assert.equal(made.body.is_lower_score_better, false);
        assert.equal((await raw(em, "POST", CONFIGS, { body: { feedback_key: key, feedback_config: { type: "freeform" } } })).status, 409);
        const refused = async (feedback_config: unknown, field: string) => {
            const r = await raw(em, "POST", CONFIGS, { body: { feedback_key: uniqueName("bad"), feedback_config } });
            assert.equal(r.status, 422, r.text);
            assert.deepEqual(r.body.detail[0].loc, ["body", "feedback_config", field]);
        };
        await refused({ type: "continuous", min: 2, max: 1 }, "min");
        await refused({ type: "categorical", categories: [] }, "categories");
        await refused({ type: "categorical", categories: [{ value: 1 }, { value: 1 }] }, "categories");
        await refused({ type: "freeform", max: 3 }, "max");
        await refused({ type: "ordinal" }, "type");
        const other = uniqueName("tone");
        await raw(em, "POST", CONFIGS, {
            body: {
                feedback_key: other,
                feedback_config: {
                    type: "categorical",
                    categories: [
                        { value: 0, label: "rude" },
                        { value: 1, label: "kind" },
                    ],
                },
            },
        });
        const listed = await raw(em, "GET", `${CONFIGS}?key=${key}&key=${other}`);
        assert.deepEqual(listed.body.map((c: { feedback_key: string }) => c.feedback_key).sort(), [key, other].sort());
        const changed = await raw(em, "PATCH", CONFIGS, {
            body: { feedback_key: key, feedback_config: { type: "continuous", min: 0, max: 10 }, is_lower_score_better: true },
        });
        assert.equal(changed.status, 200, changed.text);
        assert.deepEqual([changed.body.feedback_config.max, changed.body.is_lower_score_better], [10, true]);
        assert.equal((await raw(em, "PATCH", CONFIGS, { body: { feedback_key: key, feedback_config: { type: "continuous", min: 5, max: 1 } } })).status, 422);
        assert.equal((await raw(em, "DELETE", `${CONFIGS}?feedback_key=${key}`)).status, 204);
        assert.deepEqual((await raw(em, "GET", `${CONFIGS}?key=${key}`)).body, []);
        assert.equal((await raw(em, "DELETE", `${CONFIGS}?feedback_key=${key}`)).status, 404);
        assert.equal((await raw(em, "PATCH", CONFIGS, { body: { feedback_key: key, is_lower_score_better: false } })).status, 404);
    });

    it("queues: made with every field, an unknown dataset 404, a taken id 409, read with the rubric, listed with their size, changed (absent fields stay, null clears), deleted", async () => {
        const dataset = await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } });
        const project = await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("proj") } });
        const id = randomUUID();
        const rubric = [{ feedback_key: "correctness", description: "is it right", score_descriptions: { "0": "wrong", "1": "right" } }];
        const q = await queueOf(em, {
            id,
            description: "d",
            rubric_instructions: "read twice",
            rubric_items: rubric,
            default_dataset: dataset.body.id,
            num_reviewers_per_item: 2,
            enable_reservations: false,
            reservation_minutes: 5,
            session_ids: [project.body.id],
            metadata: { team: "qa" },
        });
        assert.equal(q.id, id);
        assert.deepEqual([q.default_dataset, q.num_reviewers_per_item, q.enable_reservations, q.reservation_minutes], [dataset.body.id, 2, false, 5]);
        assert.equal((await raw(em, "POST", QUEUES, { body: { name: "again", id } })).status, 409);
        assert.equal((await raw(em, "POST", QUEUES, { body: { name: "x", default_dataset: randomUUID() } })).status, 404);
        assert.equal((await raw(em, "POST", QUEUES, { body: { name: "x", num_reviewers_per_item: 0 } })).status, 422);
        const read = await raw(em, "GET", `${QUEUES}/${id}`);
        assert.deepEqual([read.body.rubric_items, read.body.rubric_instructions, read.body.metadata], [rubric, "read twice", { team: "qa" }]);
        const listed = (await raw(em, "GET", `${QUEUES}?ids=${id}`)).body;
        assert.deepEqual([listed.length, listed[0].total_runs, listed[0].rubric_items], [1, 0, undefined]);
        const patched = await raw(em, "PATCH", `${QUEUES}/${id}`, { body: { name: "renamed", metadata: null, default_dataset: null } });
        assert.equal(patched.status, 200, patched.text);
        const after = (await raw(em, "GET", `${QUEUES}/${id}`)).body;
        assert.deepEqual([after.name, after.description, after.metadata, after.default_dataset, after.num_reviewers_per_item], ["renamed", "d", null, null, 2]);
        assert.equal((await raw(em, "DELETE", `${QUEUES}/${id}`)).status, 200);
        assert.equal((await raw(em, "GET", `${QUEUES}/${id}`)).status, 404);
        assert.equal((await raw(em, "GET", `${QUEUES}/not-a-uuid`)).status, 422);
    });

    it("a queue's runs: added once each, an untraced run 404 (none added), listed, read by index, counted; an update leaves them; taken out one by one or in bulk", async () => {
        const [a, b, c] = await traceRuns(em, uniqueName("traced"), 3);
        const q = await queueOf(em);
        const runs = `${QUEUES}/${q.id}/runs`;
        const unknown = await raw(em, "POST", runs, { body: [a, randomUUID()] });
        assert.equal(unknown.status, 404, unknown.text);
        const added = await raw(em, "POST", runs, { body: [{ run_id: a }, { run_id: b }] });
        assert.equal(added.status, 200, added.text);
        assert.deepEqual(
            added.body.map((r: { run_id: string }) => r.run_id),
            [a, b],
        );
        assert.equal((await raw(em, "POST", runs, { body: [a, { run_id: b }] })).status, 422, "ids or objects, not both");
        const again = await raw(em, "POST", runs, { body: [a, c] });
        assert.equal(again.body[0].id, added.body[0].id, "a run already in the queue keeps its place");
        const listed = await raw(em, "GET", `${runs}?limit=2`);
        assert.deepEqual(runIds(listed.body), [a, b]);
        assert.equal(listed.body[0].queue_run_id, added.body[0].id);
        assert.equal(listed.body[0].run_type, "llm");
        assert.equal((await raw(em, "GET", `${QUEUES}/${q.id}/run/2`)).body.id, c);
        assert.equal((await raw(em, "GET", `${QUEUES}/${q.id}/run/3`)).status, 404);
        assert.deepEqual((await raw(em, "GET", `${QUEUES}/${q.id}/size`)).body, { size: 3 });
        assert.deepEqual((await raw(em, "GET", `${QUEUES}/${q.id}/total_size`)).body, { size: 3 });
        await raw(em, "PATCH", `${QUEUES}/${q.id}`, { body: { name: "renamed", rubric_items: [] } });
        assert.equal((await raw(em, "GET", `${QUEUES}/${q.id}/total_size`)).body.size, 3, "an update leaves the runs");
        assert.equal((await raw(em, "DELETE", `${runs}/${added.body[0].id}`)).status, 200);
        assert.equal((await raw(em, "DELETE", `${runs}/${b}`)).status, 200, "by the run's own id, as the Python client sends it");
        assert.deepEqual(runIds((await raw(em, "GET", runs)).body), [c]);
        assert.equal((await raw(em, "POST", `${runs}/delete`, { body: { delete_all: true } })).status, 200);
        assert.deepEqual((await raw(em, "GET", runs)).body, []);
        assert.deepEqual((await raw(em, "GET", `${runs}?status=bogus`)).status, 422);
    });

    it("feedback fits its key's config (continuous range, categorical values); an untraced run 404; listed by run and key; a rule engine's calls land in the same place", async () => {
        const [run] = await traceRuns(em, uniqueName("scored"), 1);
        const [cont, cat] = [uniqueName("range"), uniqueName("tone")];
        await raw(em, "POST", CONFIGS, { body: { feedback_key: cont, feedback_config: { type: "continuous", min: 0, max: 1 } } });
        await raw(em, "POST", CONFIGS, {
            body: {
                feedback_key: cat,
                feedback_config: {
                    type: "categorical",
                    categories: [
                        { value: 0, label: "rude" },
                        { value: 1, label: "kind" },
                    ],
                },
            },
        });
        const post = (body: Record<string, unknown>) => raw(em, "POST", "/api/v1/feedback", { body: { run_id: run, ...body } });
        assert.equal((await post({ key: cont, score: 1.5 })).status, 422);
        assert.equal((await post({ key: cat, score: 0.5 })).status, 422);
        assert.equal((await post({ key: cat, value: "meh" })).status, 422);
        assert.equal((await post({ key: cont, score: 0.25 })).status, 200);
        assert.equal((await post({ key: cat, score: 1, value: "kind" })).status, 200);
        assert.equal((await post({ key: "unconfigured", score: 42 })).status, 200, "a key without a config takes any score");
        assert.equal((await raw(em, "POST", "/api/v1/feedback", { body: { run_id: randomUUID(), key: cont, score: 0 } })).status, 404);
        const stored = em.evaluation.feedback.storeFeedback(TEST_TENANT, { key: cont, run_id: run, score: 0.5, feedback_source: { type: "auto_eval" } });
        assert.throws(
            () => em.evaluation.feedback.storeFeedback(TEST_TENANT, { key: cont, run_id: run, score: 7 }),
            (e: { status: number; body: unknown }) => e.status === 422 && JSON.stringify(e.body).includes("outside the range"),
        );
        const listed = await raw(em, "GET", `/api/v1/feedback?run=${run}&key=${cont}`);
        assert.deepEqual(
            listed.body.map((f: { score: number }) => f.score),
            [0.5, 0.25],
        );
        assert.equal((await raw(em, "GET", `/api/v1/feedback?run=${run}&source=auto_eval`)).body[0].id, stored.id);
        const q = await queueOf(em);
        em.evaluation.model.addRunsToQueue(TEST_TENANT, q.id, [{ run_id: run }]);
        assert.deepEqual(runIds((await raw(em, "GET", `${QUEUES}/${q.id}/runs`)).body), [run]);
        assert.equal((await raw(em, "PATCH", `/api/v1/feedback/${stored.id}`, { body: { score: 3 } })).status, 422);
        assert.equal((await raw(em, "DELETE", `/api/v1/feedback/${stored.id}`)).status, 200);
        assert.equal((await raw(em, "GET", `/api/v1/feedback/${stored.id}`)).status, 404);
    });

    it("the official Python client: configures a key, queues runs and lists them, scores a run (a score out of range refused), takes a run out", async () => {
        const key = uniqueName("py");
        const [a, b] = await traceRuns(em, uniqueName("python"), 2);
        const py = await evaluatedByPython(em.url, TEST_API_KEY, TEST_TENANT, key, [a, b]);
        assert.deepEqual(py.get("create_feedback_config"), { key, config: { type: "continuous", min: 0, max: 1, categories: null }, lower: true });
        assert.deepEqual(py.get("list_feedback_configs"), [[key, { type: "continuous", min: 0, max: 1, categories: null }]]);
        assert.deepEqual(py.get("list_runs_from_annotation_queue"), [a, b]);
        assert.equal(py.get("get_run_from_annotation_queue"), b);
        assert.deepEqual(py.get("read_annotation_queue"), { name: `review ${key}`, rubric: [key] });
        assert.equal(py.get("list_annotation_queues")[0][0], `review ${key}`);
        assert.equal(py.get("create_feedback 0.75"), 0.75);
        assert.match(py.get("create_feedback 2").message, /422.*outside the range/s);
        assert.deepEqual(py.get("list_feedback"), [[key, 0.75]]);
        assert.deepEqual(py.get("after delete_run_from_annotation_queue"), [a]);
        assert.deepEqual(py.get("after delete_feedback_config"), []);
    });

    it("the official JS client reads a queue, its runs and its size", async () => {
        const [a, b] = await traceRuns(em, uniqueName("js"), 2);
        const q = await queueOf(em, { rubric_items: [{ feedback_key: "helpful" }] });
        await raw(em, "POST", `${QUEUES}/${q.id}/runs`, { body: [a, b] });
        const js = new Client({ apiUrl: em.url, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        const read = await js.annotationQueues.retrieve(q.id);
        assert.deepEqual([read.name, read.rubric_items?.[0]?.feedback_key], [q.name, "helpful"]);
        const listed = await js.annotationQueues.runs.list(q.id);
        assert.deepEqual(
            listed.map((r) => r.id),
            [a, b],
        );
        assert.equal((await js.annotationQueues.retrieveSize(q.id)).size, 2);
    });

    it("keeps configs, queues, their runs and feedback in --state-dir across a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "evaluation-state-"));
        try {
            const one = await startTestEmulator({ stateDir: dir });
            const key = uniqueName("kept");
            const [run] = await traceRuns(one, uniqueName("kept"), 1);
            await raw(one, "POST", CONFIGS, { body: { feedback_key: key, feedback_config: { type: "continuous", min: 0, max: 1 } } });
            const q = await queueOf(one);
            await raw(one, "POST", `${QUEUES}/${q.id}/runs`, { body: [run] });
            await raw(one, "POST", "/api/v1/feedback", { body: { run_id: run, key, score: 1 } });
            await one.close();
            const two = await startTestEmulator({ stateDir: dir });
            try {
                assert.equal((await raw(two, "GET", `${CONFIGS}?key=${key}`)).body.length, 1);
                assert.deepEqual(runIds((await raw(two, "GET", `${QUEUES}/${q.id}/runs`)).body), [run]);
                assert.equal((await raw(two, "GET", `/api/v1/feedback?run=${run}`)).body[0].score, 1);
                assert.equal((await raw(two, "POST", "/api/v1/feedback", { body: { run_id: run, key, score: 2 } })).status, 422);
            } finally {
                await two.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
