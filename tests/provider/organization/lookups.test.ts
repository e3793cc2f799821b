/**
 * The look-ups (getWorkspace, getWorkspaces, getRole, getServiceKey, getPrompt, getTracingProjects,
 * getAnnotationQueue, getFeedbackConfig, getListener, getEvaluator) against the emulator over HTTP, run as both front doors run them (the registry's `run`: the plugin's Invoke and
 * dynamic/functions.ts): found by id and by name, a name matching nothing failing in words, bad arguments failing
 * before any call, a service key's secret never answered, projects filtered by name prefix and by resource tag.
 */
import assert from "node:assert/strict";
import { Service } from "../../../provider/kit/service";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { withEnv } from "../../helpers/async";
import { raw, rejection, sleep, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const make = async (type: keyof typeof RESOURCES, args: Record<string, unknown>) => {
    const p = RESOURCES[type].provider as Provider;
    const r = await p.check({}, args);
    assert.deepEqual(r.failures ?? [], []);
    return p.create(r.inputs);
};
const run = (name: keyof typeof FUNCTIONS, args: Record<string, unknown>) =>
    (FUNCTIONS[name].run as (s: Service, a: unknown) => Promise<any>)(new Service(), args);
const failure = async (fn: () => Promise<unknown>) => String((await rejection(fn))?.message);

describe("look-ups: workspaces, roles, service keys, prompts, tracing projects, queues, feedback configs, listeners, evaluators", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();

    it("getWorkspace by id and by name, getWorkspaces by prefix; nothing found or both ways given fail in words, before any call", async () => {
        const a = await make("workspace", { displayName: uniqueName("Lookup A") });
        await make("workspace", { displayName: uniqueName("Lookup B") });
        await make("workspace", { displayName: uniqueName("Other") });
        const byId = await run("getWorkspace", { id: a.id });
        assert.deepEqual([byId.id, byId.displayName, byId.isPersonal], [a.id, a.outs.displayName, false]);
        assert.equal((await run("getWorkspace", { displayName: a.outs.displayName })).id, a.id);
        assert.match(await failure(() => run("getWorkspace", { displayName: "nope" })), /getWorkspace: the organization holds no workspace named "nope"/);
        em().admin.requests.length = 0;
        assert.match(
            await failure(() => run("getWorkspace", { id: a.id, displayName: "x" })),
            /give exactly one of id and displayName \(got id and displayName\)/,
        );
        assert.match(await failure(() => run("getWorkspace", {})), /got neither/);
        assert.deepEqual(
            em().admin.requests.filter((r) => !r.path.startsWith("/__admin")),
            [],
        );
        const listed = (await run("getWorkspaces", { namePrefix: "LOOKUP" })).workspaces.map((w: { displayName: string }) => w.displayName);
        assert.equal(listed.length, 2);
        assert.ok(
            listed.every((n: string) => n.startsWith("lookup-")),
            "a prefix in any case",
        );
        assert.ok((await run("getWorkspaces", {})).workspaces.length >= 3);
    });

    it("getRole: a custom role by id and by name, a built-in one by name or title; getServiceKey never answers the key", async () => {
        const role = await make("role", { name: uniqueName("Reader"), permissions: ["projects:read"] });
        const r = await run("getRole", { name: role.outs.name });
        assert.deepEqual([r.id, r.permissions, r.builtIn, r.accessScope], [role.id, ["projects:read"], false, "workspace"]);
        assert.equal((await run("getRole", { id: role.id })).name, role.outs.name);
        const admin = await run("getRole", { name: "WORKSPACE_ADMIN" });
        assert.deepEqual([admin.roleName, admin.builtIn], ["WORKSPACE_ADMIN", true]);
        assert.equal((await run("getRole", { name: admin.name })).id, admin.id);
        assert.match(await failure(() => run("getRole", { name: "nope" })), /no role named "nope"/);

        const description = uniqueName("ci key");
        const key = await make("serviceKey", { description, orgRoleId: "ORGANIZATION_VIEWER" });
        const k = await run("getServiceKey", { description });
        assert.equal(k.id, key.id);
        assert.equal(k.accessScope, "organization");
        assert.ok(!("key" in k), "the key itself is never answered");
        assert.ok(!JSON.stringify(k).includes(String(key.outs.key)), "nor anywhere in the answer");
        assert.ok(String(key.outs.key).startsWith(k.shortKey.replace(/\*+.*$/, "").slice(0, 8)));
        assert.equal((await run("getServiceKey", { id: key.id })).description, description);
    });

    it("getPrompt by handle; getTracingProjects by name prefix, by resource tag, and both", async () => {
        const handle = uniqueName("lk");
        const made = await make("prompt", { handle, description: "triage", tags: ["a"] });
        const p = await run("getPrompt", { handle });
        assert.deepEqual([p.id, p.handle, p.description, p.tags, p.isPublic], [made.outs.promptId, handle, "triage", ["a"], false]);
        assert.match(await failure(() => run("getPrompt", { handle: `${handle}-none` })), /holds no prompt/);

        const prefix = uniqueName("svc");
        const support = await make("tracingProject", { name: `${prefix}-support`, tags: { team: "support" } });
        await make("tracingProject", { name: `${prefix}-research`, tags: { team: "research" } });
        const elsewhere = await make("tracingProject", { name: `x-${prefix}-support`, tags: { team: "support" } });
        const names = async (args: Record<string, unknown>) => (await run("getTracingProjects", args)).projects.map((s: { name: string }) => s.name).sort();
        assert.deepEqual(await names({ namePrefix: prefix }), [`${prefix}-research`, `${prefix}-support`]);
        assert.deepEqual(await names({ tag: { key: "team", value: "support" } }), [`${prefix}-support`, `x-${prefix}-support`].sort());
        assert.deepEqual(await names({ namePrefix: prefix, tag: { key: "team", value: "support" } }), [`${prefix}-support`]);
        assert.deepEqual(await names({ tag: { key: "team", value: "nobody" } }), []);
        assert.deepEqual(await names({ tag: { key: "nokey", value: "x" } }), []);
        assert.equal((await run("getTracingProjects", { namePrefix: `${prefix}-s` })).projects[0].id, support.id);
        assert.ok(elsewhere.id);
        em().admin.requests.length = 0;
        assert.match(await failure(() => run("getTracingProjects", { tag: { key: "team", value: "" } })), /tag.value/);
        assert.deepEqual(writes(em()), []);
        // The service's own filter is what is read: the project list answers it.
        const value = (await raw(em(), "GET", "/api/v1/workspaces/current/tags")).body[0].values[0].id;
        assert.equal((await raw(em(), "GET", `/api/v1/sessions?tag_value_id=${value}`)).status, 200);
    });

    /** The resource's inputs as its own refresh reads them, without the fields a look-up does not answer. */
    const readBack = async (type: keyof typeof RESOURCES, id: string, leftOut: string[]) => {
        const { inputs } = await (RESOURCES[type].provider as Provider).read(id, {});
        return Object.fromEntries(Object.entries(inputs ?? {}).filter(([k]) => !leftOut.includes(k)));
    };
    const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

    it("getAnnotationQueue by id and by name, getFeedbackConfig by key: the resources' own fields as refresh reads them; two queues of a name fail naming both", async () => {
        const feedbackKey = uniqueName("correct");
        await make("feedbackConfig", { feedbackKey, type: "continuous", min: 0, max: 1, isLowerScoreBetter: true });
        const config = await run("getFeedbackConfig", { feedbackKey });
        assert.deepEqual(without(config, "modifiedAt"), { feedbackKey, type: "continuous", min: 0, max: 1, isLowerScoreBetter: true });
        assert.ok(config.modifiedAt);
        assert.match(await failure(() => run("getFeedbackConfig", { feedbackKey: `${feedbackKey}-none` })), /no feedback config for the key ".*-none"/);

        const name = uniqueName("Review");
        const rubricItems = [{ feedbackKey, description: "Is it right?", isRequired: true }];
        const q = await make("annotationQueue", { name, description: "support answers", rubricItems, numReviewersPerItem: 2 });
        const byName = await run("getAnnotationQueue", { name });
        assert.deepEqual(without(byName, "id", "createdAt"), await readBack("annotationQueue", q.id, ["sessionIds", "workspaceId"]));
        assert.deepEqual([byName.id, byName.rubricItems, byName.numReviewersPerItem, byName.createdAt], [q.id, rubricItems, 2, q.outs.createdAt]);
        assert.deepEqual(await run("getAnnotationQueue", { id: q.id }), byName);
        assert.match(await failure(() => run("getAnnotationQueue", { name: `${name}-none` })), /holds no annotation queue named ".*-none"/);

        // The service keeps no name unique: a second queue of the name, made elsewhere, makes the name ambiguous.
        const other = await raw(em(), "POST", "/api/v1/annotation-queues", { body: { name } });
        assert.equal(other.status, 200, other.text);
        const ambiguous = await failure(() => run("getAnnotationQueue", { name }));
        assert.match(ambiguous, /holds 2 queues named .*look it up by id/);
        assert.ok(ambiguous.includes(q.id) && ambiguous.includes(other.body.id), ambiguous);
        assert.equal((await run("getAnnotationQueue", { id: other.body.id })).numReviewersPerItem, 1);

        em().admin.requests.length = 0;
        assert.match(await failure(() => run("getAnnotationQueue", { id: q.id, name })), /give exactly one of id and name \(got id and name\)/);
        assert.match(await failure(() => run("getFeedbackConfig", {})), /getFeedbackConfig: feedbackKey:/);
        assert.deepEqual(
            em().admin.requests.filter((r) => !r.path.startsWith("/__admin")),
            [],
            "bad arguments fail before any call",
        );
    });

    it("getListener by id and by compute id: the resource's own fields; an unknown one fails in words", async () => {
        // The control plane is the emulator's too (its /v2), for this test only.
        await withEnv({ LANGSMITH_CONTROL_PLANE_URL: em().url }, async () => {
            const computeId = uniqueName("cluster");
            const l = await make("listener", { computeId, k8sNamespaces: ["agents", "batch"] });
            const byCompute = await run("getListener", { computeId });
            assert.deepEqual(without(byCompute, "id", "version", "createdAt"), await readBack("listener", l.id, ["workspaceId"]));
            assert.deepEqual([byCompute.id, byCompute.k8sNamespaces, byCompute.createdAt], [l.id, ["agents", "batch"], l.outs.createdAt]);
            assert.deepEqual(await run("getListener", { id: l.id }), byCompute);
            assert.match(await failure(() => run("getListener", { computeId: `${computeId}-none` })), /no listener for compute ".*-none"/);
            assert.match(await failure(() => run("getListener", { id: "00000000-0000-4000-8000-000000000000" })), /no listener of id/);
            assert.match(await failure(() => run("getListener", {})), /give exactly one of id and computeId \(got neither\)/);
        });
    });

    it("getEvaluator by id and by name: the feedback keys its scores went under as runs arrive, which the resource's refresh leaves as they were", async () => {
        const name = uniqueName("judge");
        const ev = await make("evaluator", { name, type: "code", code: "def perform_eval(run, example):\n    return {'short': 1}\n" });
        const session = (await raw(em(), "POST", "/api/v1/sessions", { body: { name: uniqueName("judged") } })).body as { id: string; name: string };
        await make("runRule", { name: "scores", sessionId: session.id, samplingRate: 1, evaluatorId: ev.id });
        assert.deepEqual((await run("getEvaluator", { id: ev.id })).feedbackKeys, []);
        const start = new Date().toISOString();
        const post = [
            { id: crypto.randomUUID(), name: "model", run_type: "llm", start_time: start, end_time: start, outputs: { a: "yes" }, session_name: session.name },
        ];
        assert.equal((await raw(em(), "POST", "/runs/batch", { body: { post } })).status, 202);
        // The rule engine scores after the ingest is answered (docs/service.md R10.4).
        let byName = await run("getEvaluator", { name });
        for (const until = Date.now() + 10_000; !byName.feedbackKeys.length && Date.now() < until; await sleep(100))
            byName = await run("getEvaluator", { name });
        assert.deepEqual(byName, { id: ev.id, name, type: "code", feedbackKeys: ["short"], createdAt: ev.outs.createdAt });
        assert.deepEqual(await run("getEvaluator", { id: ev.id }), byName);
        const refreshed = await (RESOURCES.evaluator.provider as Provider).read(ev.id, ev.outs);
        assert.deepEqual(refreshed.props, ev.outs, "the scores are data: the evaluator's outputs are what its create recorded");
        assert.match(await failure(() => run("getEvaluator", { name: `${name}-none` })), /holds no evaluator named ".*-none"/);
        assert.match(await failure(() => run("getEvaluator", { id: ev.id, name })), /give exactly one of id and name \(got id and name\)/);
    });
});
