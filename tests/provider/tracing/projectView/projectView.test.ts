/**
 * ProjectView (provider/tracing/projectView) against the emulator over HTTP, through the registered provider (its
 * workspace, the adoption guard): what preview refuses (a filter that does not parse, with its field, column and caret;
 * an empty name, a project id that is not a uuid, an end before the start, a duration beside a start; nothing sent); a
 * new name is the service's rename (one `PATCH .../rename`, the same view), never a replace; other changes one PATCH,
 * a field the program drops cleared; drift from a change made elsewhere; import by `<sessionId>:<viewId>`; delete; a
 * name the project already has refused naming the view, taken with LANGSMITH_ADOPT_IDS; a lost answer converging on
 * one view.
 */
import assert from "node:assert/strict";
import { PROJECT_VIEW_DIFF } from "../../../../provider/tracing/projectView/provider";
import { diffByTable, type TableDiffResult } from "../../../../provider/kit/diff";
import { RESOURCES } from "../../../../provider/registry";
import { withEnv } from "../../../helpers/async";
import { raw, rejection, uniqueName, type Emulator } from "../../../helpers/emulator";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const view = RESOURCES.projectView.provider as Provider;
const SOME_UUID = "6f0c2d8e-1b9a-4c3e-9d7f-2a5b8c1e4f60";

async function checked(news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await view.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

async function project(em: Emulator): Promise<string> {
    return (await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("proj") } })).body.id;
}

describe("ProjectView", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const views = (sessionId: string, ...rest: string[]) => [`/api/v1/sessions/${sessionId}/views`, ...rest].join("/");

    it("check: a filter that does not parse (its field, column and caret), an empty name, a project id that is not a uuid, an end before the start, a duration beside a start fail at preview; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const base = { sessionId: SOME_UUID, displayName: "LLM errors" };
        const failures = async (over: Record<string, unknown>) =>
            ((await view.check({}, { ...base, ...over })).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
        const [bad] = await failures({ traceFilter: 'and(eq(run_type, "llm") eq(error, true))' });
        assert.match(bad, /^traceFilter: .*at column 25: expected "," or "\)"/);
        assert.match(bad, /\n\s+and\(eq\(run_type, "llm"\) eq\(error, true\)\)\n\s+\^/, "the caret under the place");
        assert.match(String(await failures({ displayName: "" })), /^displayName: /);
        assert.match(String(await failures({ sessionId: "support-bot" })), /^sessionId: sessionId must be a tracing project's id \(a UUID\)/);
        assert.match(
            String(await failures({ startTime: "2026-11-02T00:00:00Z", endTime: "2026-11-01T00:00:00Z" })),
            /^endTime: endTime .* must be after startTime/,
        );
        assert.match(String(await failures({ startTime: "2026-11-02T00:00:00Z", duration: "7d" })), /^duration: give a duration back from now, or a startTime/);
        assert.match(String(await failures({ type: "traces" })), /^type: /);
        assert.deepEqual(await failures({ filter: 'eq(run_type, "llm")', duration: "7d" }), []);
        assert.deepEqual(writes(em()), []);
    });

    it("diff: another project replaces; a new name, filters, type and range update in place", () => {
        const olds = { sessionId: SOME_UUID, displayName: "a", type: "runs", filter: 'eq(run_type, "llm")' };
        assert.deepEqual(diffByTable(PROJECT_VIEW_DIFF, olds, { ...olds, sessionId: "7f0c2d8e-1b9a-4c3e-9d7f-2a5b8c1e4f60" }).replaces, ["sessionId"]);
        const d = diffByTable(PROJECT_VIEW_DIFF, olds, { ...olds, displayName: "b", type: "threads", filter: undefined });
        assert.deepEqual([d.replaces, d.updates], [[], ["displayName", "type", "filter"]]);
    });

    it("made with every field; a new name is the service's rename (one PATCH .../rename, the same view); other changes one PATCH, a dropped field cleared; drift read; imported; deleted", async () => {
        const sessionId = await project(em());
        const all = {
            sessionId,
            displayName: uniqueName("errors"),
            description: "failing LLM calls",
            type: "runs",
            filter: 'and(eq(run_type, "llm"), eq(error, true))',
            traceFilter: 'eq(name, "agent")',
            treeFilter: 'eq(run_type, "tool")',
            startTime: "2026-11-01T00:00:00Z",
            endTime: "2026-11-08T00:00:00Z",
        };
        const made = await view.create(await checked(all));
        const [sid, viewId] = made.id.split(":");
        assert.deepEqual([sid, made.outs.viewId], [sessionId, viewId]);
        const held = (await raw(em(), "GET", views(sessionId, viewId))).body;
        assert.deepEqual(
            [held.filter_string, held.trace_filter_string, held.tree_filter_string, held.end_time],
            [all.filter, all.traceFilter, all.treeFilter, all.endTime],
        );
        const renamed = await checked({ ...all, displayName: uniqueName("renamed") });
        const d = (await view.diff(made.id, made.outs, renamed)) as TableDiffResult;
        assert.deepEqual([d.replaces, d.updates], [[], ["displayName"]]);
        em().admin.requests.length = 0;
        const r1 = await view.update(made.id, made.outs, renamed);
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path} ${r.status}`),
            [`PATCH ${views(sessionId, viewId, "rename")} 200`],
        );
        assert.equal((await raw(em(), "GET", views(sessionId, viewId))).body.display_name, renamed.displayName);
        const { description: _d, treeFilter: _t, startTime: _s, endTime: _e, ...fewer } = renamed;
        const news = await checked({ ...fewer, type: "threads", duration: "24h" });
        em().admin.requests.length = 0;
        const r2 = await view.update(made.id, r1.outs, news);
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path} ${r.status}`),
            [`PATCH ${views(sessionId, viewId)} 200`],
        );
        const after = (await raw(em(), "GET", views(sessionId, viewId))).body;
        assert.deepEqual(
            [after.description, after.tree_filter_string, after.start_time, after.end_time, after.type, after.duration],
            [null, null, null, null, "threads", "24h"],
        );
        const refreshed = await view.read(made.id, r2.outs);
        assert.equal((await view.diff(made.id, refreshed.props as any, news)).changes, false, "no drift after an update");
        await raw(em(), "PATCH", views(sessionId, viewId), { body: { filter_string: 'eq(run_type, "chain")' } });
        const drifted = await view.read(made.id, r2.outs);
        assert.deepEqual(((await view.diff(made.id, drifted.props as any, news)) as { updates?: string[] }).updates, ["filter"]);
        assert.deepEqual((await view.read(made.id, {} as any)).inputs, drifted.inputs, "import by <sessionId>:<viewId> reads what refresh reads");
        await view.delete(made.id, r2.outs);
        assert.equal((await raw(em(), "GET", views(sessionId, viewId))).status, 404);
        await view.delete(made.id, r2.outs);
        assert.deepEqual(await view.read(made.id, r2.outs), {});
        assert.match(String((await rejection(() => view.read(viewId, {} as any)))?.message), /expected <sessionId>:<viewId>/);
    });

    it("a name the project already has is refused naming the view; LANGSMITH_ADOPT_IDS=<sessionId>:<viewId> takes it and brings it in line", async () => {
        const sessionId = await project(em());
        const other = (await raw(em(), "POST", views(sessionId), { body: { display_name: "Errors", duration: "7d" } })).body;
        const inputs = await checked({ sessionId, displayName: "Errors", filter: "eq(error, true)" });
        const id = `${sessionId}:${other.id}`;
        const refused = String((await rejection(() => view.create(inputs)))?.message);
        assert.match(refused, new RegExp(`already has view ${other.id} named "Errors"[\\s\\S]*LANGSMITH_ADOPT_IDS=${id} pulumi up`));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: id }, () => view.create(inputs));
        assert.equal(taken.id, id);
        const held = (await raw(em(), "GET", views(sessionId, other.id))).body;
        assert.deepEqual([held.filter_string, held.duration], ["eq(error, true)", null]);
    });

    it("a create whose answer is lost is looked up, not sent again", async () => {
        const sessionId = await project(em());
        em().addFault({ method: "POST", path: "/views$", kind: "drop", when: "after" });
        const made = await view.create(await checked({ sessionId, displayName: "lost" }));
        assert.equal(em().admin.requests.filter((r) => r.method === "POST" && r.path.endsWith("/views")).length, 1, "sent once");
        assert.deepEqual(
            (await raw(em(), "GET", views(sessionId))).body.map((v: { id: string }) => `${sessionId}:${v.id}`),
            [made.id],
        );
    });
});
