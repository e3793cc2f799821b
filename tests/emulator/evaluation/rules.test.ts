/**
 * The emulator's automations over raw HTTP (docs/service.md R9): saved evaluators (code normalised, the rules using
 * one listed, a delete while in use refused with 409 naming the rule), run rules (the service's 422s: a filter
 * that does not parse, a rate outside 0..1, a saved and an inline evaluator together; 404 for what the workspace
 * lacks), alert rules (no action: 400); the engine applying a rule to traced runs (filter, deterministic
 * sampling, the annotation queue, examples in the dataset, webhook calls, the code evaluator's scores stored as feedback, an LLM evaluator skipped and
 * said so, the fault switches; a backfill applying a rule to the runs since its time, at each write naming it; the official
 * Python client's traces judged by it); and everything across a restart on the same `--state-dir`, secrets sealed.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { sampleOf } from "../../../emulator/evaluation/engine";
import { TEST_API_KEY, TEST_TENANT, admin, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { pythonPath } from "../../helpers/pyarrow";

const CODE = "def perform_eval(run, example):   \r\n    return {'short': len(str(run['outputs'])) < 40, 'label': 'ok'}\n\n";

/** A receiver of webhook calls: the bodies and headers it was sent. */
async function receiver(): Promise<{ url: string; calls: Array<{ body: any; headers: Record<string, unknown> }>; server: Server }> {
    const calls: Array<{ body: any; headers: Record<string, unknown> }> = [];
    const server = createServer((req, res) => {
        let s = "";
        req.on("data", (d) => (s += d)).on("end", () => {
            calls.push({ body: JSON.parse(s), headers: req.headers });
            res.end("ok");
        });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, calls, server };
}

/** Traces `n` ended runs into a project by name through `/runs/batch`, every other one an LLM run; answers their ids. */
async function trace(em: Emulator, project: string, n: number, over: Record<string, unknown> = {}): Promise<Array<{ id: string; llm: boolean }>> {
    const runs = Array.from({ length: n }, (_, i) => ({ id: randomUUID(), llm: i % 2 === 0 }));
    const start = new Date().toISOString();
    const post = runs.map((r, i) => ({
        id: r.id,
        name: r.llm ? "model" : "chain",
        run_type: r.llm ? "llm" : "chain",
        start_time: start,
        end_time: new Date(Date.parse(start) + 500).toISOString(),
        inputs: { q: `question ${i}` },
        outputs: { a: `answer ${i}` },
        session_name: project,
        ...over,
    }));
    assert.equal((await raw(em, "POST", "/runs/batch", { body: { post } })).status, 202);
    return runs;
}

async function madeProject(em: Emulator): Promise<{ id: string; name: string }> {
    const r = await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("proj") } });
    assert.equal(r.status, 200, r.text);
    return r.body;
}

/** An alert rule on the run count of its window: 3 or more runs in 5 minutes. */
function runCountRule(name: string, description = "") {
    return { name, description, type: "threshold", attribute: "run_count", aggregation: "sum", window_minutes: 5, operator: "gte", threshold: 3 };
}

describe("emulator: automations (evaluators, run rules, alerts, the engine)", function () {
    this.timeout(60_000);
    let em: Emulator;
    let stateDir: string;
    let hook: Awaited<ReturnType<typeof receiver>>;
    before(async () => {
        stateDir = mkdtempSync(join(tmpdir(), "automations-"));
        em = await startTestEmulator({ stateDir });
        hook = await receiver();
    });
    after(async () => {
        await em.close();
        hook.server.close();
        rmSync(stateDir, { recursive: true, force: true });
    });

    it("evaluators: code kept normalised, a bad type 400, listed; a delete while a rule uses it 409 naming the rule", async () => {
        const made = await raw(em, "POST", "/api/v1/platform/evaluators", { body: { name: uniqueName("ev"), type: "code", code_evaluator: { code: CODE } } });
        assert.equal(made.status, 201, made.text);
        const ev = made.body.evaluator;
        assert.equal(ev.code_evaluator.code, "def perform_eval(run, example):\n    return {'short': len(str(run['outputs'])) < 40, 'label': 'ok'}");
        assert.equal(ev.code_evaluator.language, "python");
        const bad = await raw(em, "POST", "/api/v1/platform/evaluators", { body: { name: "x", type: "judge" } });
        assert.equal(bad.status, 400);
        assert.match(bad.body.error, /type must be one of llm, code/);
        const llm = await raw(em, "POST", "/platform/evaluators", { body: { name: uniqueName("llm"), type: "llm", llm_evaluator: {} } });
        assert.equal(llm.status, 400);
        assert.match(llm.body.error, /prompt_repo_handle/);
        const project = await madeProject(em);
        const rule = await raw(em, "POST", "/api/v1/runs/rules", {
            body: { display_name: "uses it", sampling_rate: 1, session_id: project.id, evaluator_id: ev.id },
        });
        assert.equal(rule.status, 200, rule.text);
        const read = await raw(em, "GET", `/api/v1/platform/evaluators/${ev.id}`);
        assert.deepEqual(
            read.body.run_rules.map((r: any) => [r.id, r.session_name]),
            [[rule.body.id, project.name]],
        );
        const refused = await raw(em, "DELETE", `/api/v1/platform/evaluators/${ev.id}`);
        assert.equal(refused.status, 409);
        assert.match(refused.body.error, new RegExp(`uses it \\(${rule.body.id}\\)`));
        assert.equal((await raw(em, "DELETE", `/api/v1/runs/rules/${rule.body.id}`)).status, 200);
        assert.equal((await raw(em, "DELETE", `/api/v1/platform/evaluators/${ev.id}`)).status, 204);
        assert.equal((await raw(em, "GET", `/api/v1/platform/evaluators/${ev.id}`)).status, 404);
    });

    it("the description's /v1/platform paths reach the same objects as /api/v1/platform (evaluators, alerts, access policies), logged as sent; another /v1 path stays 501", async () => {
        await admin(em, "DELETE", "/requests");
        const name = uniqueName("v1");
        const created = await raw(em, "POST", "/v1/platform/evaluators", { body: { name, type: "code", code_evaluator: { code: CODE } } });
        assert.equal(created.status, 201, created.text);
        const ev = created.body.evaluator;
        assert.equal((await raw(em, "GET", `/api/v1/platform/evaluators/${ev.id}`)).body.name, name);
        const listed = await raw(em, "GET", "/v1/platform/evaluators");
        assert.ok(
            listed.body.evaluators.some((e: any) => e.id === ev.id),
            listed.text,
        );
        const project = await madeProject(em);
        const rule = runCountRule("v1");
        const made = await raw(em, "POST", `/v1/platform/alerts/${project.id}`, {
            body: { rule, actions: [{ target: "webhook", config: { url: hook.url } }] },
        });
        assert.equal(made.status, 201, made.text);
        assert.equal((await raw(em, "GET", `/api/v1/platform/alerts/${project.id}/${made.body.rule.id}`)).body.rule.name, "v1");
        const policy = {
            name: uniqueName("pol"),
            effect: "allow",
            condition_groups: [
                {
                    permission: "projects:read",
                    resource_type: "project",
                    conditions: [{ attribute_name: "resource_tag_key", attribute_key: "team", operator: "equals", attribute_value: "a" }],
                },
            ],
        };
        const p = await raw(em, "POST", "/v1/platform/orgs/current/access-policies", { body: policy, tenantId: null });
        assert.equal(p.status, 201, p.text);
        assert.equal((await raw(em, "GET", `/api/v1/platform/orgs/current/access-policies/${p.body.id}`, { tenantId: null })).body.name, policy.name);
        assert.equal((await raw(em, "DELETE", `/v1/platform/orgs/current/access-policies/${p.body.id}`, { tenantId: null })).status, 204);
        assert.equal((await raw(em, "GET", "/v1/integrations")).status, 501);
        const logged = (await admin(em, "GET", "/requests")).map((r: any) => `${r.method} ${r.path} ${r.status}`);
        assert.ok(logged.includes("POST /v1/platform/evaluators 201"), logged.join("\n"));
        assert.ok(logged.includes(`POST /v1/platform/alerts/${project.id} 201`), logged.join("\n"));
    });

    it("run rules: the service's 422s (filter with its caret, rate, saved and inline evaluators together), 404 for a missing project; changed, listed, deleted", async () => {
        const project = await madeProject(em);
        const base = { display_name: "r", sampling_rate: 1, session_id: project.id };
        const cases: Array<[Record<string, unknown>, string, RegExp]> = [
            [{ filter: 'eq(run_type, "llm"' }, "filter", /Invalid filter at .*\n.*\n\s*\^/],
            [{ sampling_rate: 1.5 }, "sampling_rate", /between 0 and 1/],
            [{ evaluator_id: randomUUID(), code_evaluators: [{ code: "x" }] }, "evaluator_id", /cannot be set together/],
        ];
        for (const [over, field, msg] of cases) {
            const r = await raw(em, "POST", "/api/v1/runs/rules", { body: { ...base, ...over } });
            assert.equal(r.status, 422, `${field}: ${r.text}`);
            assert.deepEqual(r.body.detail[0].loc, ["body", field]);
            assert.match(r.body.detail[0].msg, msg);
        }
        assert.equal((await raw(em, "POST", "/api/v1/runs/rules", { body: { ...base, session_id: randomUUID() } })).status, 404);
        const made = await raw(em, "POST", "/api/v1/runs/rules", { body: { ...base, filter: 'eq(run_type, "llm")' } });
        assert.equal(made.status, 200, made.text);
        assert.equal(made.body.session_name, project.name);
        const patched = await raw(em, "PATCH", `/api/v1/runs/rules/${made.body.id}`, { body: { ...base, display_name: "r2", is_enabled: false } });
        assert.equal(patched.body.display_name, "r2");
        assert.equal(patched.body.filter, null);
        const listed = await raw(em, "GET", `/api/v1/runs/rules?session_id=${project.id}`);
        assert.deepEqual(
            listed.body.map((r: any) => r.id),
            [made.body.id],
        );
        assert.equal((await raw(em, "DELETE", `/runs/rules/${made.body.id}`)).status, 200);
        assert.equal((await raw(em, "GET", `/api/v1/runs/rules?session_id=${project.id}`)).body.length, 0);
    });

    it("the engine: matching runs sampled deterministically, added to the queue and the dataset, sent to the webhook, scored; an LLM evaluator skipped with the reason", async () => {
        const project = await madeProject(em);
        const dataset = (await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } })).body;
        const queue = (await raw(em, "POST", "/api/v1/annotation-queues", { body: { name: uniqueName("q") } })).body;
        const rule = await raw(em, "POST", "/api/v1/runs/rules", {
            body: {
                display_name: "llm runs",
                sampling_rate: 0.5,
                session_id: project.id,
                filter: 'eq(run_type, "llm")',
                add_to_dataset_id: dataset.id,
                add_to_annotation_queue_id: queue.id,
                webhooks: [{ url: hook.url, headers: { authorization: "Bearer hook-secret" } }],
                code_evaluators: [{ code: CODE }],
            },
        });
        assert.equal(rule.status, 200, rule.text);
        const llmOnly = await raw(em, "POST", "/api/v1/runs/rules", {
            body: { display_name: "judge", sampling_rate: 1, session_id: project.id, evaluators: [{ structured: { prompt: [["system", "grade"]] } }] },
        });
        const runs = await trace(em, project.name, 20);
        await admin(em, "POST", "/evaluation/idle");
        const expected = runs.filter((r) => r.llm && sampleOf(rule.body.id, r.id) < 0.5).map((r) => r.id);
        assert.ok(expected.length > 0 && expected.length < 10, `a rate of 0.5 keeps some of the 10 LLM runs: ${expected.length}`);
        const examples = await raw(em, "GET", `/api/v1/examples?dataset=${dataset.id}`);
        assert.deepEqual(examples.body.map((e: any) => e.source_run_id).sort(), [...expected].sort());
        const queued = await raw(em, "GET", `/api/v1/annotation-queues/${queue.id}/runs`);
        assert.deepEqual(queued.body.map((r: any) => r.id).sort(), [...expected].sort());
        assert.equal(rule.body.add_to_annotation_queue_name, queue.name);
        for (const id of expected) {
            const scores = (await raw(em, "GET", `/api/v1/feedback?run=${id}&source=auto_eval`)).body;
            assert.deepEqual(scores.map((f: any) => [f.key, f.score ?? f.value]).sort(), [
                ["label", "ok"],
                ["short", 1],
            ]);
        }
        const logs = await raw(em, "GET", `/api/v1/runs/rules/${rule.body.id}/logs`);
        assert.deepEqual(logs.body.map((l: any) => l.run_id).sort(), [...expected].sort());
        assert.ok(
            logs.body.every((l: any) => l.add_to_dataset.outcome === "success" && l.evaluators.outcome === "success"),
            JSON.stringify(logs.body[0]),
        );
        assert.deepEqual(logs.body[0].evaluators.payload.feedback_keys, ["short", "label"]);
        const judged = await raw(em, "GET", `/api/v1/runs/rules/${llmOnly.body.id}/logs`);
        assert.equal(judged.body.length, 20);
        assert.equal(judged.body[0].evaluators.outcome, "skipped");
        assert.match(judged.body[0].evaluators.payload.reason, /not run by the emulator/);
        const sent = hook.calls.filter((c) => c.body.rule_id === rule.body.id);
        assert.deepEqual(sent.flatMap((c) => c.body.runs.map((r: any) => r.id)).sort(), [...expected].sort());
        assert.equal(sent[0].headers.authorization, "Bearer hook-secret");
    });

    it("a backfill: a write naming backfill_from applies the rule to the ended runs since then, answered running then completed; one without it applies nothing, naming it again applies the rule again", async () => {
        const project = await madeProject(em);
        const dataset = (await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } })).body;
        const hour = 3_600_000;
        const old = await trace(em, project.name, 2, { start_time: new Date(Date.now() - 3 * hour).toISOString() });
        const recent = await trace(em, project.name, 3, { start_time: new Date(Date.now() - hour).toISOString() });
        const running = await trace(em, project.name, 1, { start_time: new Date(Date.now() - hour).toISOString(), end_time: undefined });
        await admin(em, "POST", "/evaluation/idle");
        const body = {
            display_name: "backfilled",
            sampling_rate: 1,
            session_id: project.id,
            add_to_dataset_id: dataset.id,
            backfill_from: new Date(Date.now() - 2 * hour).toISOString(),
        };
        const made = await raw(em, "POST", "/api/v1/runs/rules", { body });
        assert.equal(made.status, 200, made.text);
        assert.deepEqual([made.body.backfill_status, made.body.backfill_progress], ["running", 0]);
        await admin(em, "POST", "/evaluation/idle");
        const sources = async () => ((await raw(em, "GET", `/api/v1/examples?dataset=${dataset.id}`)).body as any[]).map((e) => e.source_run_id).sort();
        const since = recent.map((r) => r.id).sort();
        assert.deepEqual(await sources(), since, `not the older runs (${old.map((r) => r.id)}) nor the one still running (${running[0].id})`);
        const done = (await raw(em, "GET", `/api/v1/runs/rules?id=${made.body.id}`)).body[0];
        assert.deepEqual([done.backfill_id, done.backfill_status, done.backfill_progress], [made.body.backfill_id, "completed", 1]);
        assert.ok(done.backfill_completed_at);

        const { backfill_from: _, ...without } = body;
        const renamed = await raw(em, "PATCH", `/api/v1/runs/rules/${made.body.id}`, { body: { ...without, display_name: "renamed" } });
        assert.deepEqual([renamed.body.backfill_from, renamed.body.backfill_id, renamed.body.backfill_status], [null, made.body.backfill_id, "completed"]);
        await admin(em, "POST", "/evaluation/idle");
        assert.deepEqual(await sources(), since, "a write without backfill_from applies nothing");
        const again = await raw(em, "PATCH", `/api/v1/runs/rules/${made.body.id}`, { body });
        assert.notEqual(again.body.backfill_id, made.body.backfill_id);
        await admin(em, "POST", "/evaluation/idle");
        assert.deepEqual(await sources(), [...since, ...since].sort(), "naming it again applies the rule to those runs again");
    });

    it("the official Python client's traces (multipart): exactly its LLM runs in the queue, each scored under the key; the chains neither", async () => {
        const project = await madeProject(em);
        const queue = (await raw(em, "POST", "/api/v1/annotation-queues", { body: { name: uniqueName("q") } })).body;
        const code = "def perform_eval(run, example):\n    return {'concise': 1 if len(str(run['outputs']['answer'])) <= 40 else 0}";
        const ev = (await raw(em, "POST", "/api/v1/platform/evaluators", { body: { name: uniqueName("concise"), type: "code", code_evaluator: { code } } }))
            .body;
        const body = { display_name: "llm", sampling_rate: 1, session_id: project.id, filter: 'eq(run_type, "llm")', add_to_annotation_queue_id: queue.id };
        assert.equal((await raw(em, "POST", "/api/v1/runs/rules", { body: { ...body, evaluator_id: ev.evaluator.id } })).status, 200);
        const args = [join(__dirname, "rules_client.py"), em.url, TEST_API_KEY, TEST_TENANT, project.name, queue.id, "concise"];
        const { stdout } = await promisify(execFile)(pythonPath(), args);
        const seen = JSON.parse(stdout.trim().split("\n").at(-1) as string);
        assert.deepEqual([...seen.queued].sort(), [...seen.llm].sort());
        assert.deepEqual(
            seen.llm.map((id: string) => seen.scores[id]),
            [1, 0, 1],
        );
        assert.ok(seen.chains.every((id: string) => !(id in seen.scores)));
    });

    it("alert rules: no action 400; a run count over its threshold calls the webhook once per window", async () => {
        const project = await madeProject(em);
        const rule = runCountRule("busy", "many runs");
        const none = await raw(em, "POST", `/api/v1/platform/alerts/${project.id}`, { body: { rule, actions: [] } });
        assert.equal(none.status, 400);
        assert.match(none.body.error, /at least one action/);
        const made = await raw(em, "POST", `/api/v1/platform/alerts/${project.id}`, {
            body: { rule, actions: [{ target: "webhook", config: JSON.stringify({ url: hook.url, headers: { "x-alert": "1" } }) }] },
        });
        assert.equal(made.status, 201, made.text);
        assert.deepEqual(made.body.actions[0].config, { url: hook.url, headers: { "x-alert": "1" } });
        await trace(em, project.name, 4);
        await admin(em, "POST", "/evaluation/idle");
        await trace(em, project.name, 4);
        await admin(em, "POST", "/evaluation/idle");
        const fired = (await admin(em, "GET", "/evaluation")).alert_deliveries.filter((d: any) => d.alert_rule_id === made.body.rule.id);
        assert.equal(fired.length, 1, JSON.stringify(fired));
        assert.ok(fired[0].payload.value >= 3);
        const read = await raw(em, "GET", `/api/v1/platform/alerts/${project.id}/${made.body.rule.id}`);
        assert.equal(read.body.rule.name, "busy");
        assert.equal((await raw(em, "DELETE", `/api/v1/platform/alerts/${project.id}/${made.body.rule.id}`)).status, 200);
        assert.equal((await raw(em, "GET", `/api/v1/platform/alerts/${project.id}/${made.body.rule.id}`)).status, 404);
    });

    it("alert rules: the id a create names is the alert's; a taken one or one that is no UUID 400, nothing made (docs/service.md R10.3)", async () => {
        const project = await madeProject(em);
        const actions = [{ target: "webhook", config: { url: hook.url } }];
        const id = randomUUID();
        const made = await raw(em, "POST", `/api/v1/platform/alerts/${project.id}`, { body: { rule: { ...runCountRule("named"), id }, actions } });
        assert.equal(made.status, 201, made.text);
        assert.equal(made.body.rule.id, id);
        assert.equal((await raw(em, "GET", `/api/v1/platform/alerts/${project.id}/${id}`)).body.rule.name, "named");
        const held = () => admin(em, "GET", "/evaluation").then((e) => e.alert_rules.filter((a: { id: string }) => a.id === id).length);
        for (const [asked, error] of [
            [id.toUpperCase(), `alert rule ${id.toUpperCase()} already exists`],
            ["alert-1", 'rule.id "alert-1" is not a UUID'],
        ]) {
            const refused = await raw(em, "POST", `/api/v1/platform/alerts/${project.id}`, {
                body: { rule: { ...runCountRule("again"), id: asked }, actions },
            });
            assert.deepEqual([refused.status, refused.body.error], [400, error]);
        }
        assert.equal(await held(), 1, "a refused create made an alert");
        const patched = await raw(em, "PATCH", `/api/v1/platform/alerts/${project.id}/${id}`, {
            body: { rule: { ...runCountRule("renamed"), id: randomUUID() }, actions },
        });
        assert.equal(patched.status, 200, patched.text);
        assert.deepEqual((await raw(em, "GET", `/api/v1/platform/alerts/${project.id}/${id}`)).body.rule.id, id, "a PATCH's body id changes nothing");
    });

    it("fault switches: a paused engine holds the runs; an unavailable sandbox logs an error, no score", async () => {
        const project = await madeProject(em);
        const rule = await raw(em, "POST", "/api/v1/runs/rules", {
            body: { display_name: "c", sampling_rate: 1, session_id: project.id, code_evaluators: [{ code: CODE }] },
        });
        await admin(em, "PUT", "/evaluation", { paused: true, codeEvaluators: "unavailable" });
        await trace(em, project.name, 2);
        await admin(em, "POST", "/evaluation/idle");
        assert.equal((await raw(em, "GET", `/api/v1/runs/rules/${rule.body.id}/logs`)).body.length, 0);
        assert.equal((await admin(em, "GET", "/evaluation")).pending, 2);
        await admin(em, "PUT", "/evaluation", { paused: false });
        await admin(em, "POST", "/evaluation/idle");
        const logs = (await raw(em, "GET", `/api/v1/runs/rules/${rule.body.id}/logs`)).body;
        assert.equal(logs.length, 2);
        assert.equal(logs[0].evaluators.outcome, "error");
        assert.match(logs[0].evaluators.payload.errors[0], /sandbox is unavailable/);
        await admin(em, "PUT", "/evaluation", { codeEvaluators: "run" });
    });

    it("a code evaluator that loops is stopped at its time limit, and one that reads the environment finds nothing", async () => {
        const { runCode } = await import("../../../emulator/evaluation/codeRunner");
        const loop = await runCode("def perform_eval(run, example):\n    while True: pass", "python", {}, null, 1_000);
        assert.deepEqual(loop, { ok: false, error: "the evaluator ran over its time limit of 1000 ms" });
        process.env.SANDBOX_PROBE = "secret";
        const env = await runCode(
            "import os\ndef perform_eval(run, example):\n    return {'leak': 'SANDBOX_PROBE' in os.environ or 'LANGSMITH_API_KEY' in os.environ}",
            "python",
            {},
            null,
        );
        assert.deepEqual(env, { ok: true, scores: [{ key: "leak", score: 0, value: null }] });
        const js = await runCode(
            "function performEval(run) { return { key: 'len', score: run.outputs.a.length }; }",
            "javascript",
            { outputs: { a: "abc" } },
            null,
        );
        assert.deepEqual(js, { ok: true, scores: [{ key: "len", score: 3, value: null }] });
        delete process.env.SANDBOX_PROBE;
    });

    it("evaluators, rules and alerts survive a restart on the same --state-dir; webhook headers and alert configs are sealed on disk", async () => {
        const project = await madeProject(em);
        const ev = (await raw(em, "POST", "/api/v1/platform/evaluators", { body: { name: uniqueName("keep"), type: "code", code_evaluator: { code: CODE } } }))
            .body.evaluator;
        const rule = (
            await raw(em, "POST", "/api/v1/runs/rules", {
                body: {
                    display_name: "kept",
                    sampling_rate: 1,
                    session_id: project.id,
                    evaluator_id: ev.id,
                    webhooks: [{ url: hook.url, headers: { "x-token": "sealed-token" } }],
                },
            })
        ).body;
        const rule2 = {
            name: "a",
            description: "",
            type: "threshold",
            attribute: "error_count",
            aggregation: "pct",
            window_minutes: 10,
            operator: "gt",
            threshold: 50,
        };
        const alert = (
            await raw(em, "POST", `/api/v1/platform/alerts/${project.id}`, {
                body: { rule: rule2, actions: [{ target: "pagerduty", config: { routing_key: "pd-sealed-key" } }] },
            })
        ).body;
        await em.close();
        for (const f of ["run-rules.json", "alerts.json"]) assert.doesNotMatch(readFileSync(join(stateDir, f), "utf8"), /sealed-token|pd-sealed-key/);
        em = await startTestEmulator({ stateDir });
        assert.equal((await raw(em, "GET", `/api/v1/platform/evaluators/${ev.id}`)).body.run_rules[0].id, rule.id);
        const back = (await raw(em, "GET", `/api/v1/runs/rules?id=${rule.id}`)).body[0];
        assert.deepEqual(back.webhooks, [{ url: hook.url, headers: { "x-token": "sealed-token" } }]);
        assert.equal((await raw(em, "GET", `/api/v1/platform/alerts/${project.id}/${alert.rule.id}`)).body.actions[0].config.routing_key, "pd-sealed-key");
    });
});
