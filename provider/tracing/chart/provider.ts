/**
 * The Chart's dynamic provider (its fields: declare.ts): a chart of a dashboard of the workspace or of the
 * organization (docs/service.md R16). At preview, before any call: a metric, chart type or grouping the service does not
 * have (naming the values allowed), a feedback metric without its key or in an organization's chart, a series'
 * workspace outside an organization's chart, a grouping by metadata without its key, and every filter through the
 * exports' parser (provider/api/filter.ts: the caret under the place it stops). A create checks that its dashboard is
 * one of its scope's and holds no chart of its title (R16.2), and marks the chart as a program's (R16.3); a move to
 * another dashboard is the PATCH's `section_id`, in place. `read` with only an id is `pulumi import` (`<id>`,
 * `<workspaceId>/<id>`; the workspace's charts are looked in first, then the organization's).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isManaged, MANAGED_MARK, type ChartScope, type ChartsClient } from "../../api/charts";
import {
    FEEDBACK_METRICS,
    type ChartFilters,
    type ChartSeries,
    type ChartSeriesRequest,
    type ChartUpdateRequest,
    type ChartWithData,
} from "../../api/schemas/charts";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { checkFilter } from "../traceExport/check";
import { CHART_SCOPES } from "../dashboard/declare";
import { SCHEMA_VERSION, chart, type ChartInputs, type ChartOutputs } from "./declare";

export const CHART_DIFF = diffTableOf(chart.inputs);

type Filters = { projectIds?: string[]; filter?: string; traceFilter?: string; treeFilter?: string };
type SeriesInput = ChartInputs["series"][number];

/** A uuid where one is asked for, when known. */
function uuidAt(c: Checker, v: unknown, property: string, what: string): void {
    if (typeof v === "string" && known(v) && !UUID_RE.test(v)) c.fail(property, `${property} must be ${what} (a UUID), got ${JSON.stringify(v)}`);
}

/** The filters at `at` parsed (their projects' ids checked). */
function checkFilters(c: Checker, f: unknown, at: string): void {
    if (!f || typeof f !== "object" || !known(f)) return;
    const given = f as Record<string, unknown>;
    for (const k of ["filter", "traceFilter", "treeFilter"]) checkFilter(c, given[k], `${at}.${k}`, `omit ${k} to chart every run`);
    if (Array.isArray(given.projectIds)) for (const [j, id] of given.projectIds.entries()) uuidAt(c, id, `${at}.projectIds[${j}]`, "a tracing project's id");
}

function checkSeries(c: Checker, s: Record<string, unknown>, i: number, scope: unknown): void {
    const at = `series[${i}]`;
    if (typeof s.metric === "string" && (FEEDBACK_METRICS as readonly string[]).includes(s.metric)) {
        if (scope === "organization")
            c.fail(
                `${at}.metric`,
                `${at}.metric ${s.metric} is a feedback metric, which an organization's chart cannot have (the service's rule): chart it in a workspace's dashboard`,
            );
        else if (s.feedbackKey === undefined || s.feedbackKey === "")
            c.fail(`${at}.feedbackKey`, `${at}.feedbackKey is required by metric ${s.metric}: name the feedback key charted`);
    }
    if (s.workspaceId !== undefined && scope !== "organization")
        c.fail(
            `${at}.workspaceId`,
            `${at}.workspaceId applies only to an organization's chart (scope: organization); a workspace's chart charts its own workspace`,
        );
    uuidAt(c, s.workspaceId, `${at}.workspaceId`, "a workspace id");
    const g = s.groupBy as Record<string, unknown> | undefined;
    if (g && known(g) && g.attribute === "metadata" && !g.path)
        c.fail(`${at}.groupBy.path`, `${at}.groupBy.path is required to group by metadata: name the metadata key`);
    if (typeof g?.maxGroups === "number" && g.maxGroups < 1)
        c.fail(`${at}.groupBy.maxGroups`, `${at}.groupBy.maxGroups must be at least 1, got ${g.maxGroups}`);
    checkFilters(c, s.filters, `${at}.filters`);
}

export function checkChart(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("Chart", chart.inputs, news));
    const title = c.str(news.title, "title", true);
    if (typeof title === "string" && title.trim() === "") c.fail("title", "title must not be empty: give the chart a title");
    uuidAt(c, news.dashboardId, "dashboardId", "a dashboard's id (a `Dashboard`'s id)");
    if (typeof news.index === "number" && (news.index < 0 || news.index > 100))
        c.fail("index", `index must be between 0 and 100 (the service's range), got ${news.index}`);
    if (Array.isArray(news.series)) {
        if (news.series.length === 0) c.fail("series", "series must hold at least one series: a chart of nothing draws nothing");
        news.series.forEach((s, i) => {
            if (s && typeof s === "object" && known(s)) checkSeries(c, s as Record<string, unknown>, i, news.scope ?? "workspace");
        });
    }
    checkFilters(c, news.commonFilters, "commonFilters");
    return c.done(inputs);
}

export function createChartProvider(o: { charts?: () => ChartsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const charts = o.charts ?? (() => service.charts());
    const provider: ProviderOf<typeof chart> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkChart(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(CHART_DIFF, olds, news);
            const deleteBeforeReplace = sameValue(olds.title, news.title) && sameValue(olds.dashboardId, news.dashboardId);
            // Read without the program's mark (made in the UI, imported): an update marks it (R16.3).
            if (olds.unmarked && !replaces.length) return { changes: true, replaces, updates: [...updates, "unmarked"], deleteBeforeReplace };
            return { changes, replaces, updates, deleteBeforeReplace };
        },
        async create(inputs) {
            const cc = charts();
            const held = (await dashboardCharts(cc, inputs)).find((x) => x.title === inputs.title);
            if (held && !adoptionAsked(held.id)) throw new Error(heldMessage(held, inputs.dashboardId));
            const made = held
                ? await cc.updateChart(inputs.scope, held.id, { ...wholeBody(inputs), section_id: inputs.dashboardId })
                : await cc.createChart(inputs.scope, { ...wholeBody(inputs), index: inputs.index, section_id: inputs.dashboardId });
            return { id: made.id, outs: outputs(inputs) };
        },
        async read(id, props) {
            const cc = charts();
            for (const scope of isImport(props) ? CHART_SCOPES : [props?.scope ?? "workspace"]) {
                const found = await cc.findChart(scope, id);
                if (!found) continue;
                const inputs = inputsOf(found.chart, found.sectionId, scope, isImport(props) || props?.index !== undefined);
                return { id, props: outputs(inputs, !isManaged(found.chart)), inputs };
            }
            return {};
        },
        async update(id, olds, news) {
            const cc = charts();
            if (!sameValue(olds.dashboardId, news.dashboardId)) await dashboardCharts(cc, news);
            await cc.updateChart(news.scope, id, changesTo(olds, news));
            return { outs: outputs(news) };
        },
        async delete(id, props) {
            await charts().deleteChart(props.scope ?? "workspace", id);
        },
    };
    return provider;
}

/** The charts of the chart's dashboard, which must be one of its scope's (R16.2). */
async function dashboardCharts(cc: ChartsClient, i: ChartInputs): Promise<ChartWithData[]> {
    const s = await cc.readSection(i.scope, i.dashboardId);
    if (s) return s.charts;
    const other: ChartScope = i.scope === "organization" ? "workspace" : "organization";
    const there = await cc.tryGetSection(other, i.dashboardId);
    throw new Error(
        there
            ? `Chart: dashboard ${i.dashboardId} is ${other === "organization" ? "the organization's" : "a workspace's"}, and a chart's scope must be its dashboard's: set scope: ${other} (as its Dashboard's). Nothing was changed.`
            : `Chart: the ${i.scope === "organization" ? "organization" : "workspace"} holds no dashboard ${i.dashboardId} (deleted elsewhere?): name a Dashboard's id. Nothing was changed.`,
    );
}

const filtersWire = (f: Filters | undefined): ChartFilters | undefined =>
    f && prune({ session: f.projectIds, filter: f.filter, trace_filter: f.traceFilter, tree_filter: f.treeFilter });

function seriesWire(s: SeriesInput): ChartSeriesRequest {
    return prune({
        name: s.name,
        metric: s.metric,
        feedback_key: s.feedbackKey,
        workspace_id: s.workspaceId,
        project_metric: s.projectMetric,
        group_by: s.groupBy && prune({ attribute: s.groupBy.attribute, path: s.groupBy.path, max_groups: s.groupBy.maxGroups }),
        filters: filtersWire(s.filters),
    }) as ChartSeriesRequest;
}

/** What a create (and an adoption's PATCH) says whole: everything but the place and the dashboard, with the program's mark. */
function wholeBody(i: ChartInputs) {
    return prune({
        title: i.title,
        description: i.description,
        chart_type: i.chartType,
        series: i.series.map(seriesWire),
        common_filters: filtersWire(i.commonFilters),
        metadata: { ...MANAGED_MARK },
    }) as Required<Pick<ChartUpdateRequest, "title" | "chart_type" | "series">> & ChartUpdateRequest;
}

/** The PATCH of what changed (a removed description or common filters cleared with `null`), with the program's mark (an imported chart gets it). */
function changesTo(olds: Partial<ChartInputs>, news: ChartInputs): ChartUpdateRequest {
    const changed = (k: keyof ChartInputs) => !sameValue(olds[k], news[k]);
    return prune({
        title: changed("title") ? news.title : undefined,
        description: changed("description") ? (news.description ?? null) : undefined,
        chart_type: changed("chartType") ? news.chartType : undefined,
        series: changed("series") ? news.series.map(seriesWire) : undefined,
        common_filters: changed("commonFilters") ? (filtersWire(news.commonFilters) ?? null) : undefined,
        section_id: changed("dashboardId") ? news.dashboardId : undefined,
        index: changed("index") ? news.index : undefined,
        metadata: { ...MANAGED_MARK },
    }) as ChartUpdateRequest;
}

/** Filters as the program says them: nulls and empties absent; none at all: undefined. */
function filtersOf(f: ChartSeries["filters"]): Filters | undefined {
    if (!f) return undefined;
    const out = prune({
        projectIds: f.session?.length ? f.session : undefined,
        filter: f.filter || undefined,
        traceFilter: f.trace_filter || undefined,
        treeFilter: f.tree_filter || undefined,
    }) as Filters;
    return Object.keys(out).length ? out : undefined;
}

function seriesOf(s: ChartSeries): SeriesInput {
    return prune({
        name: s.name,
        metric: s.metric,
        feedbackKey: s.feedback_key || undefined,
        workspaceId: s.workspace_id || undefined,
        projectMetric: s.project_metric || undefined,
        groupBy: s.group_by ? prune({ attribute: s.group_by.attribute, path: s.group_by.path || undefined, maxGroups: s.group_by.max_groups ?? 5 }) : undefined,
        filters: filtersOf(s.filters),
    }) as SeriesInput;
}

/** The inputs as the service says them (refresh, import); `withIndex`: the place too (managed, or an import). */
export function inputsOf(c: ChartWithData, sectionId: string, scope: ChartScope, withIndex: boolean): ChartInputs {
    return prune({
        dashboardId: sectionId,
        title: c.title,
        description: c.description || undefined,
        chartType: c.chart_type,
        series: c.series.map(seriesOf),
        commonFilters: filtersOf(c.common_filters),
        index: withIndex ? c.index : undefined,
        scope,
    }) as ChartInputs;
}

function heldMessage(c: ChartWithData, dashboardId: string): string {
    return alreadyExistsMessage({
        what: `Chart: dashboard ${dashboardId} already holds chart ${c.id} titled ${JSON.stringify(c.title)}`,
        existing: "two charts of one title in a dashboard are told apart by nobody",
        id: c.id,
        ifTheirs: "give this one another title",
        why: "a chart carries no mark of which stack made it (only that a program did: docs/service.md R16.3), so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

/** The outputs; `unmarked`: the chart on the service lacks the program's mark, until the next update sends it. */
function outputs(i: ChartInputs, unmarked = false): ChartOutputs {
    return { ...i, schemaVersion: SCHEMA_VERSION, unmarked };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const chartProvider = inItsWorkspace(createChartProvider());
