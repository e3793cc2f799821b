/**
 * Dashboard and Chart (provider/tracing/dashboard, chart) and their look-ups against the emulator over HTTP, through
 * the registered providers: what preview refuses, naming the property and the fix (a metric, chart type or grouping the
 * service does not have, with the values allowed; a feedback metric without its key or in an organization's chart; a
 * filter that does not parse; no series; a place out of range; nothing sent); a dashboard and a chart with every field
 * made, read back unchanged, imported; a chart moved to another dashboard in place (the PATCH's section id); a removed
 * description and common filters cleared on the service; a chart made elsewhere shown by the dashboard's refresh, marked
 * by the first `up` after its import, and a dashboard's delete refused while it holds charts; a chart whose scope is not its dashboard's refused in words; a
 * title held refused; the organization's dashboards; getDashboard and getChart (its data from traced runs).
 */
import assert from "node:assert/strict";
import { CHART_DIFF } from "../../../provider/tracing/chart/provider";
import { diffByTable } from "../../../provider/kit/diff";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { Service } from "../../../provider/kit/service";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { traceRuns } from "../../helpers/evaluation";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const dashboard = RESOURCES.dashboard.provider as Provider;
const chart = RESOURCES.chart.provider as Provider;
const PROJECT = "11111111-2222-4333-8444-555555555555";

async function checked(p: Provider, news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await p.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}
const failures = async (p: Provider, news: Record<string, unknown>) => ((await p.check({}, news)).failures ?? []).map((f) => `${f.property}: ${f.reason}`);

const everyField = (dashboardId: string, projectId = PROJECT) => ({
    dashboardId,
    title: uniqueName("Latency"),
    description: "p50 and errors",
    chartType: "bar",
    index: 4,
    series: [
        {
            name: "p50",
            metric: "latency_p50",
            groupBy: { attribute: "metadata", path: "model", maxGroups: 3 },
            filters: { projectIds: [projectId], filter: 'eq(run_type, "llm")', traceFilter: 'eq(name, "agent")', treeFilter: 'eq(status, "error")' },
        },
        { name: "correct", metric: "feedback_score_avg", feedbackKey: "correct" },
    ],
    commonFilters: { projectIds: [projectId], filter: 'neq(name, "ping")' },
});

describe("Dashboard and Chart", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();

    it("check: metrics, chart types and groupings the service does not have, feedback rules, filters, series, places fail at preview by property; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const base = { dashboardId: PROJECT, title: "t", series: [{ name: "n", metric: "run_count" }] };
        const bad = await failures(chart, { ...base, chartType: "pie", series: [{ name: "n", metric: "latency_p95", groupBy: { attribute: "model" } }] });
        assert.equal(bad.length, 3, bad.join("\n"));
        assert.match(bad.find((f) => f.startsWith("chartType:"))!, /must be one of line, bar \(got "pie"\)/);
        assert.match(bad.find((f) => f.startsWith("series[0].metric:"))!, /must be one of run_count, latency_p50, .*cost_p99 \(got "latency_p95"\)/);
        assert.match(bad.find((f) => f.startsWith("series[0].groupBy.attribute:"))!, /must be one of name, run_type, tag, metadata/);
        assert.deepEqual(await failures(chart, { ...base, series: [{ name: "n", metric: "feedback_values" }] }), [
            "series[0].feedbackKey: series[0].feedbackKey is required by metric feedback_values: name the feedback key charted",
        ]);
        assert.deepEqual(await failures(chart, { ...base, scope: "organization", series: [{ name: "n", metric: "feedback", feedbackKey: "k" }] }), [
            "series[0].metric: series[0].metric feedback is a feedback metric, which an organization's chart cannot have (the service's rule): chart it in a workspace's dashboard",
        ]);
        assert.deepEqual(
            (await failures(chart, { ...base, series: [{ name: "n", metric: "run_count", workspaceId: PROJECT, groupBy: { attribute: "metadata" } }] })).map(
                (f) => f.split(":")[0],
            ),
            ["series[0].workspaceId", "series[0].groupBy.path"],
        );
        const filter = await failures(chart, {
            ...base,
            series: [{ name: "n", metric: "run_count", filters: { filter: 'and(eq(name, "a") gt(latency, 2))' } }],
        });
        assert.equal(filter.length, 1);
        assert.match(filter[0], /^series\[0\]\.filters\.filter: series\[0\]\.filters\.filter does not parse at column \d+/);
        assert.match(
            (await failures(chart, { ...base, commonFilters: { projectIds: ["prod"] } }))[0],
            /commonFilters\.projectIds\[0\] must be a tracing project's id/,
        );
        assert.deepEqual(await failures(chart, { ...base, series: [], index: 101, dashboardId: "main" }), [
            "dashboardId: dashboardId must be a dashboard's id (a `Dashboard`'s id) (a UUID), got \"main\"",
            "index: index must be between 0 and 100 (the service's range), got 101",
            "series: series must hold at least one series: a chart of nothing draws nothing",
        ]);
        assert.deepEqual(await failures(dashboard, { title: " ", scope: "team" }), [
            'scope: scope must be one of workspace, organization (got "team")',
            "title: title must not be empty: give the dashboard a title",
        ]);
        assert.deepEqual(writes(em()), []);
    });

    it("diff: a move to another dashboard is an update in place; a change of scope replaces", () => {
        const olds = { dashboardId: "a", title: "t", chartType: "line", series: [{ name: "n", metric: "run_count" }], scope: "workspace" };
        assert.deepEqual(diffByTable(CHART_DIFF, olds, { ...olds, dashboardId: "b" }), { changes: true, replaces: [], updates: ["dashboardId"] });
        assert.deepEqual(diffByTable(CHART_DIFF, olds, { ...olds, scope: "organization" }).replaces, ["scope"]);
    });

    it("a dashboard and a chart with every field: made, read back unchanged, imported; moved in place; removed fields cleared; drift and a held delete", async () => {
        const d = await dashboard.create(await checked(dashboard, { title: uniqueName("Agents"), description: "agents in prod", index: 2 }));
        const other = await dashboard.create(await checked(dashboard, { title: uniqueName("Other") }));
        const inputs = await checked(chart, everyField(d.id));
        const c = await chart.create(inputs);
        const read = await chart.read(c.id, c.outs as never);
        assert.deepEqual(read.inputs, inputs, "what the service answers is what was given");
        assert.equal((await chart.diff(c.id, read.props as never, inputs)).changes, false);
        assert.deepEqual((await chart.read(c.id, {} as never)).inputs, inputs, "an import reads every field");
        const dr = await dashboard.read(d.id, d.outs as never);
        assert.deepEqual(
            [dr.inputs, dr.props?.chartsMadeElsewhere],
            [{ title: d.outs.title, description: "agents in prod", index: 2, scope: "workspace" }, []],
        );

        // Moved to the other dashboard, its description and common filters removed: one PATCH, in place.
        const { description: _d, commonFilters: _c, ...rest } = inputs;
        const moved = await checked(chart, { ...rest, dashboardId: other.id });
        em().admin.requests.length = 0;
        await chart.update(c.id, c.outs, moved);
        const patch = em().admin.requests.filter((r) => r.method === "PATCH");
        assert.equal(patch.length, 1);
        const onService = await raw(em(), "POST", `/api/v1/charts/${c.id}`, { body: { omit_data: true } });
        assert.deepEqual([onService.body.description, onService.body.common_filters], [null, null]);
        assert.equal((await chart.read(c.id, moved as never)).inputs?.dashboardId, other.id);

        // A chart made in the UI in the dashboard: the dashboard's refresh shows it; the dashboard's delete is refused while charts are in it.
        const ui = await raw(em(), "POST", "/api/v1/charts/create", {
            body: { title: "by hand", chart_type: "line", section_id: other.id, series: [{ name: "n", metric: "run_count" }] },
        });
        const refreshed = await dashboard.read(other.id, other.outs as never);
        assert.deepEqual(refreshed.props?.chartsMadeElsewhere, [ui.body.id]);
        const refused = String((await rejection(() => dashboard.delete(other.id, other.outs as never)))?.message);
        assert.match(refused, new RegExp(`still holds 2 charts: .*${ui.body.id} \\("by hand", made elsewhere\\).*Nothing was deleted`));
        // Taken into the program by `pulumi import`: its first `up` marks it (an update of that alone), and the dashboard no longer lists it.
        const imported = await chart.read(ui.body.id, {} as never);
        assert.equal(imported.props?.unmarked, true);
        const declared = await checked(chart, imported.inputs as Record<string, unknown>);
        assert.deepEqual(await chart.diff(ui.body.id, imported.props as never, declared), {
            changes: true,
            replaces: [],
            updates: ["unmarked"],
            deleteBeforeReplace: true,
        });
        const marked = await chart.update(ui.body.id, imported.props as never, declared);
        assert.equal(marked.outs.unmarked, false);
        assert.deepEqual((await dashboard.read(other.id, refreshed.props as never)).props?.chartsMadeElsewhere, []);
        await chart.delete(ui.body.id, marked.outs as never);
        await chart.delete(c.id, moved as never);
        await dashboard.delete(other.id, other.outs as never);
        await dashboard.delete(d.id, d.outs as never);
        assert.deepEqual((await raw(em(), "GET", "/api/v1/charts/section")).body, []);
    });

    it("a chart whose scope is not its dashboard's, a title held, a dashboard title held: refused in words, nothing made", async () => {
        const d = await dashboard.create(await checked(dashboard, { title: "Held", scope: "organization" }));
        assert.deepEqual((await dashboard.read(d.id, {} as never)).inputs?.scope, "organization", "an import finds the organization's");
        const wrongScope = { dashboardId: d.id, title: "t", series: [{ name: "n", metric: "run_count" }] };
        assert.match(
            String((await rejection(async () => chart.create(await checked(chart, wrongScope))))?.message),
            new RegExp(`dashboard ${d.id} is the organization's, and a chart's scope must be its dashboard's: set scope: organization`),
        );
        const ok = await chart.create(await checked(chart, { ...wrongScope, scope: "organization" }));
        assert.match(
            String((await rejection(async () => chart.create(await checked(chart, { ...wrongScope, scope: "organization" }))))?.message),
            new RegExp(`already holds chart ${ok.id} titled "t"`),
        );
        assert.match(
            String((await rejection(async () => dashboard.create(await checked(dashboard, { title: "Held", scope: "organization" }))))?.message),
            new RegExp(`already holds dashboard ${d.id} titled "Held"`),
        );
        assert.equal((await raw(em(), "GET", "/api/v1/org-charts/section")).body.length, 1);
    });

    it("a create whose answer is lost converges on one dashboard and one chart: looked up by title, never sent twice", async () => {
        em().addFault({ method: "POST", path: "^/api/v1/charts/section$", kind: "drop", when: "after" });
        em().addFault({ method: "POST", path: "^/api/v1/charts/create$", kind: "drop", when: "after" });
        const d = await dashboard.create(await checked(dashboard, { title: "Lost" }));
        const c = await chart.create(await checked(chart, { dashboardId: d.id, title: "lost", series: [{ name: "n", metric: "run_count" }] }));
        const sections = (await raw(em(), "GET", "/api/v1/charts/section")).body as Array<{ id: string; chart_count: number }>;
        assert.deepEqual(
            sections.map((s) => [s.id, s.chart_count]),
            [[d.id, 1]],
        );
        const sent = em().admin.requests.filter((r) => r.method === "POST" && /\/charts\/(section|create)$/.test(r.path));
        assert.deepEqual(
            sent.map((r) => r.status),
            [0, 0],
            "each create sent once, its answer lost",
        );
        assert.equal((await chart.read(c.id, c.outs as never)).id, c.id);
    });

    it("getDashboard and getChart: by title and by id, with the charts held now and the data the traced runs make", async () => {
        const project = uniqueName("charted");
        await traceRuns(em(), project, 3);
        const projectId = (await raw(em(), "GET", `/api/v1/sessions?name=${project}`)).body[0].id;
        const d = await dashboard.create(await checked(dashboard, { title: uniqueName("Runs") }));
        const c = await chart.create(
            await checked(chart, { dashboardId: d.id, title: "count", series: [{ name: "runs", metric: "run_count", filters: { projectIds: [projectId] } }] }),
        );
        const service = new Service();
        const found = (await FUNCTIONS.getDashboard.run(service, { title: d.outs.title } as never)) as any;
        assert.deepEqual([found.id, found.charts], [d.id, [{ id: c.id, title: "count", index: 0, managed: true }]]);
        const start = new Date(Date.now() - 3600_000).toISOString();
        const end = new Date(Date.now() + 60_000).toISOString();
        const got = (await FUNCTIONS.getChart.run(service, { id: c.id, startTime: start, endTime: end, strideMinutes: 120 } as never)) as any;
        assert.deepEqual(
            [got.dashboardId, got.series, got.data.map((p: any) => [p.seriesId, p.value])],
            [d.id, [{ name: "runs", metric: "run_count", filters: { projectIds: [projectId] } }], [[got.seriesIds[0], 3]]],
        );
        await assert.rejects(FUNCTIONS.getDashboard.run(service, { id: c.id } as never), /the workspace holds no dashboard/);
    });
});
