/**
 * Evaluator, RunRule and AlertRule (provider/evaluation) against the emulator over HTTP, through the registered
 * providers: what preview refuses at its property before any call (a filter that does not parse, with its caret; a
 * rate outside 0..1; a saved and an inline evaluator together; an alert without an action; an evaluator of one type
 * given the other's fields); each made, read back and imported by id (an alert by `<sessionId>:<alertId>`),
 * changed in place, deleted; code the service normalises does not diff; an evaluator a rule still uses is refused
 * by the service naming the rule; an evaluator of the same name made elsewhere refused with its id unless
 * LANGSMITH_ADOPT_IDS names it; a lost create answer is looked up, not sent again; the secrets never in an error; a
 * rule's backfill sent only when asked anew, its webhooks' empty headers no change.
 */
import assert from "node:assert/strict";
import { EVALUATOR_DIFF } from "../../../provider/evaluation/evaluator/provider";
import { RUN_RULE_DIFF } from "../../../provider/evaluation/runRule/provider";
import { diffByTable } from "../../../provider/kit/diff";
import { RESOURCES } from "../../../provider/registry";
import { stderrOf, withEnv } from "../../helpers/async";
import { admin, raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const evaluators = RESOURCES.evaluator.provider as Provider;
const rules = RESOURCES.runRule.provider as Provider;
const alerts = RESOURCES.alertRule.provider as Provider;

const CODE = "def perform_eval(run, example):\r\n    return {'short': len(str(run['outputs'])) < 40}   \n\n";

describe("Evaluator, RunRule, AlertRule (provider level)", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const failures = async (p: Provider, news: Record<string, unknown>) => ((await p.check({}, news)).failures ?? []).map((f) => [f.property, f.reason]);
    const checked = async (p: Provider, news: Record<string, unknown>) => {
        const r = await p.check({}, news);
        assert.deepEqual(r.failures ?? [], []);
        return r.inputs as Record<string, any>;
    };
    const project = async () => (await raw(em(), "POST", "/api/v1/sessions", { body: { name: uniqueName("proj") } })).body as { id: string; name: string };

    it("check: bad input refused at its property before any call", async () => {
        em().admin.requests.length = 0;
        const rule = { name: "r", sessionId: "11111111-2222-4333-8444-555555555555", samplingRate: 1 };
        const bad = await failures(rules, { ...rule, filter: 'and(eq(run_type, "llm") gt(latency, 2))', samplingRate: 1.5 });
        assert.deepEqual(
            bad.map(([p]) => p),
            ["filter", "samplingRate"],
        );
        assert.match(bad[0][1], /filter does not parse at column 25: expected "," or "\)"\n\s+and\(eq\(run_type, "llm"\) gt\(latency, 2\)\)\n\s+\^/);
        const both = await failures(rules, { ...rule, evaluatorId: "e", codeEvaluators: [{ code: "x" }] });
        assert.deepEqual(both[0][0], "evaluatorId");
        assert.match(both[0][1], /not both/);
        assert.deepEqual(
            (await failures(rules, { name: "r", samplingRate: 1 })).map(([p]) => p),
            ["sessionId"],
        );
        const noAction = await failures(alerts, {
            sessionId: rule.sessionId,
            name: "a",
            attribute: "run_count",
            aggregation: "sum",
            windowMinutes: 5,
            operator: "gte",
            threshold: 1,
            actions: [],
        });
        assert.deepEqual(
            noAction.map(([p]) => p),
            ["actions"],
        );
        assert.deepEqual(
            (await failures(evaluators, { name: "e", type: "code", promptHandle: "judge" })).map(([p]) => p),
            ["code", "promptHandle"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("Evaluator: made, normalised code never diffs, imported by id, changed in place; a rule using it blocks its delete, naming the rule", async () => {
        const inputs = await checked(evaluators, { name: uniqueName("ev"), type: "code", code: CODE });
        const made = await evaluators.create(inputs);
        const normalised = "def perform_eval(run, example):\n    return {'short': len(str(run['outputs'])) < 40}";
        const held = (await raw(em(), "GET", `/api/v1/platform/evaluators/${made.id}`)).body;
        assert.equal(held.code_evaluator.code, normalised);
        // The same code by the diff: a refresh reads it as the state records it (kit/asRecorded.ts).
        const read = await evaluators.read(made.id, made.outs);
        assert.equal(read.props?.code, CODE);
        assert.deepEqual(diffByTable(EVALUATOR_DIFF, made.outs, read.inputs ?? {}).changes, false);
        const imported = await evaluators.read(made.id, {});
        assert.deepEqual(imported.inputs, { name: inputs.name, type: "code", code: normalised, language: "python" });
        const renamed = await evaluators.update(made.id, made.outs, { ...inputs, name: `${inputs.name}-2` });
        assert.equal(renamed.outs?.name, `${inputs.name}-2`);
        const p = await project();
        const rule = await rules.create(await checked(rules, { name: "uses it", sessionId: p.id, samplingRate: 1, evaluatorId: made.id }));
        const refused = await rejection(() => evaluators.delete(made.id, renamed.outs ?? {}));
        assert.match(refused.message, /409/);
        assert.match(refused.message, new RegExp(`uses it \\(${rule.id}\\)`));
        await rules.delete(rule.id, rule.outs);
        await evaluators.delete(made.id, renamed.outs ?? {});
        assert.deepEqual(await evaluators.read(made.id, renamed.outs), {});
    });

    it("Evaluator: one of its name made elsewhere is refused with its id, nothing sent; LANGSMITH_ADOPT_IDS=<id> takes it in with the program's code; a lost create answer is looked up, not sent twice", async () => {
        const name = uniqueName("ev");
        const theirs = (await raw(em(), "POST", "/api/v1/platform/evaluators", { body: { name, type: "code", code_evaluator: { code: "x = 1" } } })).body
            .evaluator;
        const inputs = await checked(evaluators, { name, type: "code", code: CODE });
        em().admin.requests.length = 0;
        const refused = await rejection(() => evaluators.create(inputs));
        assert.match(refused.message, new RegExp(`Evaluator: the workspace already holds evaluator ${theirs.id} named "${name}"`));
        assert.match(refused.message, new RegExp(`LANGSMITH_ADOPT_IDS=${theirs.id} pulumi up`));
        assert.deepEqual(writes(em()), [], "sent beside an evaluator of its name");
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: theirs.id }, () => evaluators.create(inputs));
        assert.equal(taken.id, theirs.id);
        const adopted = (await raw(em(), "GET", `/api/v1/platform/evaluators/${taken.id}`)).body;
        assert.equal(adopted.code_evaluator.code, CODE.replace(/\r\n/g, "\n").replace(/\s+\n/g, "\n").trimEnd());

        em().addFault({ method: "POST", path: "^/api/v1/platform/evaluators$", kind: "status", status: 502, when: "after" });
        const lost = await evaluators.create(await checked(evaluators, { name: `${name}-2`, type: "code", code: CODE }));
        const named = (await raw(em(), "GET", "/api/v1/platform/evaluators")).body.evaluators.filter((e: { name: string }) => e.name === `${name}-2`);
        assert.deepEqual(
            named.map((e: { id: string }) => e.id),
            [lost.id],
        );
    });

    it("RunRule: made with secret webhooks, imported by id, inline code never diffs, changed in place, deleted", async () => {
        const p = await project();
        const queue = (await raw(em(), "POST", "/api/v1/annotation-queues", { body: { name: uniqueName("q") } })).body;
        const news = {
            name: "llm runs",
            sessionId: p.id,
            samplingRate: 0.5,
            filter: 'eq(run_type, "llm")',
            addToAnnotationQueueId: queue.id,
            codeEvaluators: [{ code: CODE }],
            webhooks: [{ url: "https://hooks.example.com/t/secret-path", headers: { authorization: "Bearer rule-secret" } }],
        };
        const made = await rules.create(await checked(rules, news));
        const read = await rules.read(made.id, made.outs);
        assert.deepEqual(diffByTable(RUN_RULE_DIFF, made.outs, read.inputs ?? {}).changes, false);
        const imported = await rules.read(made.id, {});
        assert.equal(imported.inputs?.addToAnnotationQueueId, queue.id);
        assert.deepEqual(imported.inputs?.webhooks, news.webhooks);
        const changed = await rules.update(made.id, made.outs, { ...news, samplingRate: 1, isEnabled: false, codeEvaluators: undefined });
        const after = (await raw(em(), "GET", `/api/v1/runs/rules?id=${made.id}`)).body[0];
        assert.equal(after.sampling_rate, 1);
        assert.equal(after.is_enabled, false);
        assert.equal(after.code_evaluators, null);
        await rules.delete(made.id, changed.outs);
        assert.deepEqual(await rules.read(made.id, changed.outs), {});
    });

    it("RunRule: backfillFrom sent at the create and when it changes, never again with another change (the service would backfill again); a read keeps the state's; webhooks' headers {} never diff", async () => {
        const p = await project();
        const news = {
            name: "backfilled",
            sessionId: p.id,
            samplingRate: 1,
            backfillFrom: "2026-01-01T00:00:00Z",
            webhooks: [{ url: "https://hooks.example.com/t/backfill", headers: {} }],
        };
        const rule = async (id: string) => (await raw(em(), "GET", `/api/v1/runs/rules?id=${id}`)).body[0];
        const made = await rules.create(await checked(rules, news));
        const first = (await rule(made.id)).backfill_id;
        assert.ok(first, "the create asked a backfill");
        const renamed = await rules.update(made.id, made.outs, await checked(rules, { ...news, name: "renamed" }));
        assert.deepEqual([(await rule(made.id)).backfill_id, (await rule(made.id)).backfill_from], [first, null], "a rename sent it again");
        const read = await rules.read(made.id, renamed.outs);
        assert.equal(read.inputs?.backfillFrom, news.backfillFrom, "the state's backfill is kept");
        assert.equal(diffByTable(RUN_RULE_DIFF, read.props ?? {}, await checked(rules, { ...news, name: "renamed" })).changes, false, "headers {} diff");
        const sameInstant = await checked(rules, { ...news, name: "renamed", backfillFrom: "2026-01-01T01:00:00+01:00" });
        assert.equal(diffByTable(RUN_RULE_DIFF, renamed.outs, sameInstant).changes, false, "the same instant written otherwise");
        await rules.update(made.id, renamed.outs, await checked(rules, { ...news, name: "renamed", backfillFrom: "2026-02-01T00:00:00Z" }));
        assert.notEqual((await rule(made.id)).backfill_id, first, "a new backfillFrom is sent");
        await rules.delete(made.id, renamed.outs);
    });

    it("Evaluator: a lost create answer is looked up past the list's first page (100 a page), not sent twice", async () => {
        for (let i = 0; i < 100; i++) {
            const r = await raw(em(), "POST", "/api/v1/platform/evaluators", {
                body: { name: uniqueName("filler"), type: "code", code_evaluator: { code: CODE } },
            });
            assert.equal(r.status, 201, r.text);
        }
        const name = uniqueName("late");
        em().addFault({ method: "POST", path: "^/api/v1/platform/evaluators$", kind: "status", status: 502, when: "after" });
        const made = await evaluators.create(await checked(evaluators, { name, type: "code", code: CODE }));
        const listed = (await raw(em(), "GET", `/api/v1/platform/evaluators?name_contains=${name}`)).body.evaluators;
        assert.deepEqual(
            listed.map((e: any) => e.id),
            [made.id],
        );
    });

    it("RunRule: a lost create answer is looked up, not sent twice", async () => {
        const p = await project();
        em().addFault({ method: "POST", path: "^/api/v1/runs/rules$", kind: "status", status: 502, when: "after" });
        const made = await rules.create(await checked(rules, { name: "once", sessionId: p.id, samplingRate: 1 }));
        const all = (await raw(em(), "GET", `/api/v1/runs/rules?session_id=${p.id}`)).body;
        assert.deepEqual(
            all.map((r: any) => r.id),
            [made.id],
        );
    });

    it("AlertRule: the create asks for an id derived from the resource (docs/service.md R10.3): a lost answer finds it, a killed run's alert (or the one `--replace` replaces: checked without olds, alike) is taken over, a replacement checked with its olds asks for another; a lost answer not found is an error, never sent again", async () => {
        const p = await project();
        const args = (name: string) => ({
            sessionId: p.id,
            name,
            attribute: "latency",
            aggregation: "avg",
            windowMinutes: 5,
            operator: "gt",
            threshold: 2,
            actions: [{ target: "webhook", url: "https://hooks.example.com/lost", headers: { "x-token": "alert-secret" } }],
            __identity: `urn:pulumi:s::p::langsmith:index:AlertRule::${name}`,
        });
        const held = async () => (await admin(em(), "GET", "/evaluation")).alert_rules as Array<{ id: string }>;
        const posts = () => writes(em()).filter((r) => r.method === "POST").length;
        // The answer lost after the service made it: the alert under the asked id is this create's.
        const inputs = await checked(alerts, args(uniqueName("lost")));
        assert.equal((await checked(alerts, args(inputs.name))).requestedAlertId, inputs.requestedAlertId, "the same resource asks for the same id");
        em().admin.requests.length = 0;
        em().addFault({ method: "POST", path: "^/api/v1/platform/alerts/", kind: "drop", when: "after" });
        const lost = await alerts.create(inputs);
        assert.equal(lost.id, `${p.id}:${inputs.requestedAlertId}`);
        assert.deepEqual([(await held()).length, posts()], [1, 1]);
        // Made by a killed run (or replaced by `--replace`: the engine checks it without olds too): the next create of the same
        // program takes it over, sends no second.
        em().admin.requests.length = 0;
        const again = await alerts.create(await checked(alerts, args(inputs.name)));
        assert.deepEqual([again.id, (await held()).length, posts()], [lost.id, 1, 0]);
        // Other settings under that id may be another stack's (the same project, stack and resource names ask for the same
        // id): refused with the way in, and taken over and set to the program's only when LANGSMITH_ADOPT_IDS names it.
        const other = await checked(alerts, { ...args(inputs.name), threshold: 3 });
        const notOurs = await rejection(() => alerts.create(other));
        assert.match(notOurs.message, new RegExp(`holds other settings than the program's[\\s\\S]*LANGSMITH_ADOPT_IDS=${lost.id} pulumi up`));
        assert.equal(posts(), 0);
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: lost.id }, () => alerts.create(other));
        assert.deepEqual([adopted.id, adopted.outs.threshold, (await held()).length], [lost.id, 3, 1]);
        // A replacement whose check had the old inputs (`replaceOnChanges`): the create asks for another id; the old one stays until its delete.
        const replacement = await alerts.create((await alerts.check(lost.outs, args(inputs.name))).inputs);
        assert.notEqual(replacement.id, lost.id);
        assert.equal((await held()).length, 2);
        // Lost and not made (the request dropped before the service saw it): an error saying so, nothing sent again.
        em().admin.requests.length = 0;
        em().addFault({ method: "POST", path: "^/api/v1/platform/alerts/", kind: "drop" });
        const refused = await rejection(async () => alerts.create(await checked(alerts, args(uniqueName("unmade")))));
        assert.match(
            refused.message,
            /was lost .* no alert \S+ \(the id it asked for\) is on the project: the service may still have made it, under another id\. It was not sent again/,
        );
        assert.doesNotMatch(refused.message, /alert-secret/);
        assert.equal(posts(), 1);
    });

    it("Evaluator: a new type keeping the name while a run rule uses it is refused at preview (its delete-first would be refused by the service), naming the rule and the way through; with a new name it is made first", async () => {
        const name = uniqueName("judge");
        const made = await evaluators.create(await checked(evaluators, { name, type: "code", code: CODE }));
        const p = await project();
        const rule = await rules.create(await checked(rules, { name: "scores", sessionId: p.id, samplingRate: 1, evaluatorId: made.id }));
        const asLlm = await checked(evaluators, { name, type: "llm", promptHandle: "judge-prompt" });
        em().admin.requests.length = 0;
        const refused = await rejection(() => evaluators.diff(made.id, made.outs, asLlm));
        assert.match(refused.message, new RegExp(`run rules use it: ${rule.id} \\(on ${p.name}\\)\\. Give it a new name in the same change`));
        assert.deepEqual(writes(em()), [], "the preview sent something");
        const renamed = await evaluators.diff(made.id, made.outs, { ...asLlm, name: `${name}-llm` });
        assert.deepEqual([renamed.replaces, renamed.deleteBeforeReplace], [["type"], undefined]);
        await rules.delete(rule.id, rule.outs);
        assert.equal((await evaluators.diff(made.id, made.outs, asLlm)).deleteBeforeReplace, true, "no rule uses it: deleted first");
    });

    it("AlertRule: an id the service refuses (400 naming it: another project's alert holds it) is given up: made without one, with a warning", async () => {
        const [p1, p2] = [await project(), await project()];
        const args = (sessionId: string) => ({
            sessionId,
            name: "same id",
            attribute: "run_count",
            aggregation: "sum",
            windowMinutes: 5,
            operator: "gte",
            threshold: 3,
            actions: [{ target: "webhook", url: "https://hooks.example.com/id" }],
        });
        const first = await alerts.create(await checked(alerts, args(p1.id)));
        const second = await checked(alerts, args(p2.id));
        const asked = first.id.split(":")[1];
        const warned = await stderrOf(async () => {
            const made = await alerts.create({ ...second, requestedAlertId: asked });
            assert.ok(made.id.startsWith(`${p2.id}:`) && made.id !== `${p2.id}:${asked}`, made.id);
        });
        assert.match(warned, /the service refused the id this resource asks for \(alert rule \S+ already exists\); made without one/);
    });

    it("AlertRule: made on a project, its id <sessionId>:<alertId>, imported, changed in place, deleted; the service's error shown without the secret", async () => {
        const p = await project();
        const news = {
            sessionId: p.id,
            name: "errors",
            attribute: "error_count",
            aggregation: "pct",
            windowMinutes: 15,
            operator: "gt",
            threshold: 5,
            actions: [
                { target: "webhook", url: "https://hooks.example.com/alert", headers: { "x-token": "alert-secret" } },
                { target: "pagerduty", routingKey: "pd-routing-secret", config: { severity: "critical" } },
            ],
        };
        const made = await alerts.create(await checked(alerts, news));
        assert.match(made.id, new RegExp(`^${p.id}:[0-9a-f-]{36}$`));
        const imported = await alerts.read(made.id, {});
        assert.deepEqual(imported.inputs, { ...news, type: "threshold" });
        const changed = await alerts.update(made.id, made.outs, { ...news, threshold: 10 });
        assert.equal(changed.outs?.threshold, 10);
        const bad = await rejection(() => alerts.create({ ...news, sessionId: "11111111-2222-4333-8444-000000000000" }));
        assert.match(bad.message, /404/);
        assert.doesNotMatch(bad.message, /alert-secret|pd-routing-secret/);
        await alerts.delete(made.id, changed.outs);
        assert.deepEqual(await alerts.read(made.id, changed.outs), {});
    });
});
