/**
 * The charts area (docs/service.md R16): dashboards (the description's chart sections) and their charts, of a
 * workspace under `/api/v1/charts...` and of the organization under `/api/v1/org-charts...` (one organization per
 * emulator: every workspace's request there reads the same ones), kept in `--state-dir` (`charts.json`). Bodies
 * parse with the strict schemas of the shared wire contract (provider/api/schemas/charts.ts); the reads of a
 * chart's, a section's or every chart's data compute it from the runs the emulator holds (data.ts).
 *
 * Rules (decided where the description is silent, R16): a chart names its section (`section_id`; 400 without one,
 * 404 for one not in its scope, a move by PATCH included); an index left out is the next after the highest of the
 * section (of the scope, for a section), at most 100 for a chart; indexes are kept as given, never renumbered;
 * deleting a section deletes its charts; an organization's chart cannot chart feedback (400, the description's
 * words); a feedback metric needs its `feedback_key` (400). Cloning a section is not emulated (501).
 */
import { randomUUID } from "node:crypto";
import {
    ChartCreateRequestSchema,
    ChartsReadBaseSchema,
    ChartsReadSchema,
    ChartUpdateRequestSchema,
    FEEDBACK_METRICS,
    type ChartFilters,
    type ChartSeriesRequest,
    type GroupBy,
    SectionCreateRequestSchema,
    SectionReadSchema,
    SectionUpdateRequestSchema,
} from "../../provider/api/schemas/charts";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { badRequest, EmulatorError, requireUuid } from "../core/errors";
import { page, parse, type RequestContext, type Router, uuidParams } from "../core/http";
import { Store } from "../core/store";
import { type RunSource, type SeriesRecord, type Window, seriesData, windowOf } from "./data";
import { z } from "zod";

/** The scope of the organization's sections and charts (a workspace's: its id). */
const ORG = "organization";

interface SectionRecord {
    id: string;
    scope: string;
    title: string;
    description: string | null;
    index: number;
    created_at: string;
    modified_at: string;
}
interface ChartRecord {
    id: string;
    scope: string;
    section_id: string;
    title: string;
    description: string | null;
    index: number;
    chart_type: string;
    series: SeriesRecord[];
    metadata: Record<string, unknown> | null;
    common_filters: ChartFilters | null;
    created_at: string;
}
interface State {
    sections: SectionRecord[];
    charts: ChartRecord[];
}

const ok = (body: unknown = {}) => ({ status: 200, body });
const SORTS = ["created_at", "modified_at", "title", "index"] as const;

export function chartsArea(o: { clock: Clock; stateDir?: string; runs: RunSource }): Area {
    const store = new Store<State>(o.stateDir, "charts.json");
    let s: State = store.load() ?? { sections: [], charts: [] };
    const m = new Charts(
        () => s,
        () => store.save(s),
        o.clock,
        o.runs,
    );
    return {
        name: "charts",
        notEmulated: [/^\/api\/v1\/(org-)?charts\/section\/clone\/?$/],
        register(router: Router) {
            for (const base of ["/api/v1/charts", "/api/v1/org-charts"]) m.register(router, base, base.includes("org-"));
        },
        reset: () => {
            s = { sections: [], charts: [] };
            store.save(s);
        },
    };
}

class Charts {
    constructor(
        private readonly state: () => State,
        private readonly save: () => void,
        private readonly clock: Clock,
        private readonly runs: RunSource,
    ) {}

    private section(scope: string, id: string): SectionRecord {
        const found = this.state().sections.find((x) => x.id === id && x.scope === scope);
        if (!found) throw new EmulatorError(404, { detail: `Section ${id} not found` });
        return found;
    }

    private chart(scope: string, id: string): ChartRecord {
        const found = this.state().charts.find((x) => x.id === id && x.scope === scope);
        if (!found) throw new EmulatorError(404, { detail: `Chart ${id} not found` });
        return found;
    }

    private chartsOf(sectionId: string): ChartRecord[] {
        return this.state()
            .charts.filter((c) => c.section_id === sectionId)
            .sort((a, b) => a.index - b.index || (a.created_at < b.created_at ? -1 : 1));
    }

    private sectionView = (x: SectionRecord) => ({ ...x, scope: undefined, chart_count: this.chartsOf(x.id).length });
    private chartView = (c: ChartRecord) => ({ ...c, scope: undefined, created_at: undefined, common_filters: undefined });

    /** A chart with its data over the window (none with `omitData`), its series' group-by set by the section's read where it has none. */
    private withData(c: ChartRecord, w: Window | undefined, sectionGroupBy?: GroupBy | null) {
        const series = c.series.map((x) =>
            !x.group_by && sectionGroupBy
                ? { ...x, group_by: { ...sectionGroupBy, set_by: "section" as const } }
                : x.group_by
                  ? { ...x, group_by: { ...x.group_by, set_by: x.group_by.set_by ?? ("series" as const) } }
                  : x,
        );
        const tenant = c.scope === ORG ? undefined : c.scope;
        const data = w ? series.flatMap((x) => seriesData(this.runs, tenant, x, c.common_filters, w)) : [];
        const { section_id: _, ...rest } = this.chartView(c);
        return { ...rest, series, common_filters: c.common_filters, data };
    }

    /** The series of a create or update, each with an id (kept when the update names one of the chart's), checked for the scope. */
    private seriesOf(scope: string, given: ChartSeriesRequest[], held: SeriesRecord[] = []): SeriesRecord[] {
        return given.map((x, i) => {
            if (FEEDBACK_METRICS.includes(x.metric)) {
                if (scope === ORG) throw badRequest(`series[${i}]: feedback metrics are not available for organization-scoped charts (metric ${x.metric})`);
                if (!x.feedback_key) throw badRequest(`series[${i}]: metric ${x.metric} needs a feedback_key`);
            }
            const id = x.id && held.some((h) => h.id === x.id) ? x.id : randomUUID();
            return { ...x, id };
        });
    }

    private nextIndex(indexes: number[], max = Number.MAX_SAFE_INTEGER): number {
        return Math.min(max, indexes.length ? Math.max(...indexes) + 1 : 0);
    }

    register(router: Router, base: string, org: boolean): void {
        const scope = (c: RequestContext) => (org ? ORG : c.tenantId);
        const sectionId = (c: RequestContext) => requireUuid(c.params.section_id, "section_id").toLowerCase();
        const chartId = (c: RequestContext) => requireUuid(c.params.chart_id, "chart_id").toLowerCase();
        router
            .on("GET", `${base}/section`, (c) => ok(page(c, this.listSections(c, scope(c)), { defaultLimit: 100 })))
            .on("POST", `${base}/section`, (c) => ok(this.sectionView(this.createSection(scope(c), c.body))))
            .on("POST", `${base}/section/{section_id}`, (c) => {
                const x = this.section(scope(c), sectionId(c));
                const body = parse(org ? ChartsReadBaseSchema : SectionReadSchema, c.body ?? {}, "body");
                const w = body.omit_data ? undefined : windowOf(body, this.clock.now());
                const groupBy = (body as { group_by?: GroupBy | null }).group_by;
                const charts = this.chartsOf(x.id).map((ch) => this.withData(ch, w, groupBy));
                return ok({ id: x.id, title: x.title, description: x.description, index: x.index, session_id: null, charts, sub_sections: null });
            })
            .on("PATCH", `${base}/section/{section_id}`, (c) => {
                const x = this.section(scope(c), sectionId(c));
                const body = parse(SectionUpdateRequestSchema, c.body, "body");
                Object.assign(x, Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)), { modified_at: this.clock.iso() });
                this.save();
                return ok(this.sectionView(x));
            })
            .on("DELETE", `${base}/section/{section_id}`, (c) => {
                const x = this.section(scope(c), sectionId(c));
                const st = this.state();
                st.sections = st.sections.filter((y) => y.id !== x.id);
                st.charts = st.charts.filter((ch) => ch.section_id !== x.id);
                this.save();
                return ok();
            })
            .on("POST", `${base}/create`, (c) => ok(this.chartView(this.createChart(scope(c), c.body))))
            .on("POST", `${base}/preview`, (c) => ok({ data: this.preview(scope(c), c.body) }))
            .on("POST", base, (c) => ok({ sections: this.readAll(c, scope(c)) }))
            .on("POST", `${base}/{chart_id}`, (c) => {
                const ch = this.chart(scope(c), chartId(c));
                const body = parse(ChartsReadSchema, c.body ?? {}, "body");
                return ok(this.withData(ch, body.omit_data ? undefined : windowOf(body, this.clock.now())));
            })
            .on("PATCH", `${base}/{chart_id}`, (c) => ok(this.chartView(this.updateChart(scope(c), chartId(c), c.body))))
            .on("DELETE", `${base}/{chart_id}`, (c) => {
                const ch = this.chart(scope(c), chartId(c));
                this.state().charts = this.state().charts.filter((y) => y.id !== ch.id);
                this.save();
                return ok();
            });
    }

    private listSections(c: RequestContext, scope: string): ReturnType<Charts["sectionView"]>[] {
        const ids = uuidParams(c, "ids");
        const contains = c.query.get("title_contains")?.toLowerCase();
        const sort = (c.query.get("sort_by") ?? "created_at") as (typeof SORTS)[number];
        if (!SORTS.includes(sort)) throw badRequest(`sort_by must be one of ${SORTS.join(", ")}, got ${JSON.stringify(sort)}`);
        const desc = !/^(false|0)$/i.test(c.query.get("sort_by_desc") ?? "true");
        // Nothing here is tagged (resource tags name projects and datasets): a read by tag values finds no section.
        const tagged = c.query.getAll("tag_value_id").length > 0;
        const found = this.state().sections.filter(
            (x) => x.scope === scope && !tagged && (!ids.length || ids.includes(x.id)) && (!contains || x.title.toLowerCase().includes(contains)),
        );
        const key = (x: SectionRecord) => x[sort];
        found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (desc ? -1 : 1));
        return found.map(this.sectionView);
    }

    private createSection(scope: string, raw: unknown): SectionRecord {
        const body = parse(SectionCreateRequestSchema, raw, "body");
        const now = this.clock.iso();
        const held = this.state().sections.filter((x) => x.scope === scope);
        const x: SectionRecord = {
            id: randomUUID(),
            scope,
            title: body.title,
            description: body.description ?? null,
            index: body.index ?? this.nextIndex(held.map((y) => y.index)),
            created_at: now,
            modified_at: now,
        };
        this.state().sections.push(x);
        this.save();
        return x;
    }

    private createChart(scope: string, raw: unknown): ChartRecord {
        const body = parse(ChartCreateRequestSchema, raw, "body");
        if (!body.section_id) throw badRequest("section_id: a chart is made in a section (a dashboard): name it");
        const x = this.section(scope, body.section_id.toLowerCase());
        const ch: ChartRecord = {
            id: randomUUID(),
            scope,
            section_id: x.id,
            title: body.title,
            description: body.description ?? null,
            index:
                body.index ??
                this.nextIndex(
                    this.chartsOf(x.id).map((y) => y.index),
                    100,
                ),
            chart_type: body.chart_type,
            series: this.seriesOf(scope, body.series),
            metadata: body.metadata ?? null,
            common_filters: body.common_filters ?? null,
            created_at: this.clock.iso(),
        };
        this.state().charts.push(ch);
        this.save();
        return ch;
    }

    private updateChart(scope: string, id: string, raw: unknown): ChartRecord {
        const ch = this.chart(scope, id);
        const body = parse(ChartUpdateRequestSchema, raw, "body");
        const section = body.section_id ? this.section(scope, body.section_id.toLowerCase()).id : ch.section_id;
        const series = body.series ? this.seriesOf(scope, body.series, ch.series) : ch.series;
        for (const [k, v] of Object.entries(body))
            if (v !== undefined && k !== "series" && k !== "section_id") (ch as unknown as Record<string, unknown>)[k] = v;
        Object.assign(ch, { section_id: section, series });
        this.save();
        return ch;
    }

    /** Every section of the scope with its charts (those after `after_index`), with their data. */
    private readAll(c: RequestContext, scope: string) {
        const body = parse(ChartsReadSchema, c.body ?? {}, "body");
        const w = body.omit_data ? undefined : windowOf(body, this.clock.now());
        const after = body.after_index ?? -1;
        const tagged = (body.tag_value_id ?? []).length > 0;
        return this.state()
            .sections.filter((x) => x.scope === scope && !tagged)
            .sort((a, b) => a.index - b.index)
            .map((x) => ({
                id: x.id,
                title: x.title,
                description: x.description,
                index: x.index,
                session_id: null,
                charts: this.chartsOf(x.id)
                    .filter((ch) => ch.index > after)
                    .map((ch) => this.withData(ch, w)),
                sub_sections: null,
            }));
    }

    /** The data a chart not made would have (`CustomChartPreviewRequest`). */
    private preview(scope: string, raw: unknown) {
        const body = parse(PreviewSchema, raw, "body");
        const w = windowOf(body.bucket_info, this.clock.now());
        const series = this.seriesOf(scope, body.chart.series);
        return series.flatMap((x) => seriesData(this.runs, scope === ORG ? undefined : scope, x, body.chart.common_filters, w));
    }
}

/** `CustomChartPreviewRequest`: the window, and a chart's series (each may carry an id) and common filters. */
const PreviewSchema = z
    .object({
        bucket_info: ChartsReadBaseSchema,
        chart: z
            .object({
                series: ChartCreateRequestSchema.shape.series.element.extend({ id: z.string().nullish() }).array(),
                common_filters: ChartCreateRequestSchema.shape.common_filters,
            })
            .strict(),
    })
    .strict();
