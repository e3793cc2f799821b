/**
 * A chart's data, computed from the runs the emulator holds (docs/service.md R16.4): for each series, the runs its
 * projects (`filters.session`, else the chart's `common_filters.session`, else every project of the workspace) hold
 * whose start falls in the read's window and that pass the series' and the chart's filters (both must hold; the one
 * run query of the tracing area, tracing/query.ts, with its parser and evaluator), put in buckets of the read's
 * `stride` from `start_time`, one point per bucket (and per group, with `group_by`: the `max_groups` groups with the
 * most runs in the window). What each metric is of a bucket's runs is `METRICS`; the costs are the sums (and
 * percentiles) of the runs' own costs, null while the runs carry none; a deployment's `project_metric` is not
 * emulated (its points are null). An organization's series reads the workspace it names, else every workspace.
 */
import type { FilterExpr } from "../../provider/api/filter";
import type { ChartFilters, ChartMetric, DataPoint, GroupBy, Stride } from "../../provider/api/schemas/charts";
import type { BulkExportModel } from "../bulkExport/model";
import { badRequest } from "../core/errors";
import { type FeedbackOf, type QueriedRun, type RunFeedback, queryFilter, selectRuns } from "../tracing/query";

/** A series as the emulator keeps it. */
export interface SeriesRecord {
    id: string;
    name: string;
    filters?: ChartFilters | null;
    metric: ChartMetric;
    feedback_key?: string | null;
    workspace_id?: string | null;
    project_metric?: string | null;
    group_by?: (GroupBy & { set_by?: "section" | "series" | null }) | null;
}

/** The window a read asks for: its start and end (ms) and the width of a bucket (ms). */
export interface Window {
    start: number;
    end: number;
    stride: number;
}

/** Buckets one read may ask for (decided, docs/service.md R16.4): a stride of a minute over a year would be half a million. */
export const MAX_BUCKETS = 1000;
/** The window of a read that names no start: the day before its end (decided, docs/service.md R16.4). */
const DEFAULT_SPAN_MS = 24 * 3600 * 1000;

/** The window of a read (`start_time`, `end_time`, `stride`); 400 for an empty stride, an end before the start, too many buckets. */
export function windowOf(body: { start_time?: string | null; end_time?: string | null; stride?: Stride }, now: number): Window {
    const s = body.stride ?? { minutes: 15 };
    const stride = (((s.days ?? 0) * 24 + (s.hours ?? 0)) * 60 + (s.minutes ?? 0)) * 60_000;
    if (!(stride > 0)) throw badRequest("stride must be a positive duration (days, hours, minutes)");
    const end = body.end_time ? Date.parse(body.end_time) : now;
    const start = body.start_time ? Date.parse(body.start_time) : end - DEFAULT_SPAN_MS;
    if (!(start < end)) throw badRequest(`start_time must be before end_time (${new Date(start).toISOString()} is not before ${new Date(end).toISOString()})`);
    if (Math.ceil((end - start) / stride) > MAX_BUCKETS)
        throw badRequest(`the window holds more than ${MAX_BUCKETS} buckets of the stride asked: ask a shorter window or a longer stride`);
    return { start, end, stride };
}

/** What a metric is of a bucket's runs and the feedback of the series' key on them. */
type Metric = (runs: QueriedRun[], feedback: RunFeedback[]) => number | Record<string, number> | null;

const seconds = (from: string | null, to: string | null) => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : undefined);
const defined = (xs: Array<number | null | undefined>): number[] => xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x));

/** The nearest-rank percentile `p` (0..1) of the numbers, null when there are none. */
function percentile(xs: number[], p: number): number | null {
    if (!xs.length) return null;
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** The sum of the values the runs carry, null when none carries one (the costs). */
const sumOrNull = (xs: Array<number | null | undefined>) => (defined(xs).length ? sum(defined(xs)) : null);

const latencies = (runs: QueriedRun[]) => defined(runs.map((r) => seconds(r.start_time, r.end_time)));
const firstTokens = (runs: QueriedRun[]) => defined(runs.map((r) => seconds(r.start_time, r.first_token_time)));
const field = (k: "total_tokens" | "prompt_tokens" | "completion_tokens") => (runs: QueriedRun[]) => runs.map((r) => r[k]);
const costs = (k: "total_cost" | "prompt_cost" | "completion_cost") => (runs: QueriedRun[]) => runs.map((r) => r[k] as number | null);
const rate = (runs: QueriedRun[], yes: (r: QueriedRun) => boolean) => (runs.length ? runs.filter(yes).length / runs.length : null);

export const METRICS: Record<ChartMetric, Metric> = {
    run_count: (runs) => runs.length,
    latency_p50: (runs) => percentile(latencies(runs), 0.5),
    latency_p99: (runs) => percentile(latencies(runs), 0.99),
    latency_avg: (runs) => mean(latencies(runs)),
    first_token_p50: (runs) => percentile(firstTokens(runs), 0.5),
    first_token_p99: (runs) => percentile(firstTokens(runs), 0.99),
    total_tokens: (runs) => sum(field("total_tokens")(runs)),
    prompt_tokens: (runs) => sum(field("prompt_tokens")(runs)),
    completion_tokens: (runs) => sum(field("completion_tokens")(runs)),
    median_tokens: (runs) => percentile(field("total_tokens")(runs), 0.5),
    completion_tokens_p50: (runs) => percentile(field("completion_tokens")(runs), 0.5),
    prompt_tokens_p50: (runs) => percentile(field("prompt_tokens")(runs), 0.5),
    tokens_p99: (runs) => percentile(field("total_tokens")(runs), 0.99),
    completion_tokens_p99: (runs) => percentile(field("completion_tokens")(runs), 0.99),
    prompt_tokens_p99: (runs) => percentile(field("prompt_tokens")(runs), 0.99),
    feedback: (_runs, fb) => fb.length,
    feedback_score_avg: (_runs, fb) => mean(defined(fb.map((f) => (f.score === null ? null : Number(f.score))))),
    feedback_values: (_runs, fb) => {
        const counts: Record<string, number> = {};
        for (const f of fb) {
            const v = f.value ?? f.score;
            if (v !== null && v !== undefined) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
        }
        return counts;
    },
    total_cost: (runs) => sumOrNull(costs("total_cost")(runs)),
    prompt_cost: (runs) => sumOrNull(costs("prompt_cost")(runs)),
    completion_cost: (runs) => sumOrNull(costs("completion_cost")(runs)),
    error_rate: (runs) => rate(runs, (r) => r.status === "error"),
    streaming_rate: (runs) => rate(runs, (r) => r.first_token_time !== null),
    cost_p50: (runs) => percentile(defined(costs("total_cost")(runs)), 0.5),
    cost_p99: (runs) => percentile(defined(costs("total_cost")(runs)), 0.99),
};

/** The groups a run falls in under `g` (a run with several tags is in each). */
function groupsOf(r: QueriedRun, g: GroupBy): string[] {
    if (g.attribute === "name") return [r.name];
    if (g.attribute === "run_type") return [r.run_type];
    if (g.attribute === "tag") return r.tags;
    const v = (r.extra as { metadata?: Record<string, unknown> }).metadata?.[g.path ?? ""];
    return v === undefined || v === null ? [] : [typeof v === "string" ? v : JSON.stringify(v)];
}

/** Where the emulator reads runs and feedback, and the workspaces an organization's series reads. */
export interface RunSource {
    model: BulkExportModel;
    feedbackOf: FeedbackOf;
    /** Every workspace of the organization that holds projects. */
    workspaces(): string[];
}

/** One filter of the series and the chart, both parsed (400 naming the field when one does not parse). */
function both(key: "filter" | "trace_filter" | "tree_filter", own?: ChartFilters | null, common?: ChartFilters | null): FilterExpr | undefined {
    const exprs = [queryFilter(`filters.${key}`, own?.[key]), queryFilter(`common_filters.${key}`, common?.[key])].filter((e): e is FilterExpr => !!e);
    return exprs.length > 1 ? { kind: "and", args: exprs } : exprs[0];
}

/** The runs of a series in the window (from its workspace, or `workspaces` of an organization's chart), with the feedback of its key. */
function seriesRuns(src: RunSource, tenants: string[], s: SeriesRecord, common: ChartFilters | null | undefined, w: Window) {
    const sessions = s.filters?.session ?? common?.session ?? undefined;
    const criteria = {
        sessions: sessions ?? undefined,
        minStart: new Date(w.start).toISOString(),
        maxStart: new Date(w.end - 1).toISOString(),
        filter: both("filter", s.filters, common),
        traceFilter: both("trace_filter", s.filters, common),
        treeFilter: both("tree_filter", s.filters, common),
        order: "asc" as const,
    };
    const runs = tenants.flatMap((t) => selectRuns(src.model, t, criteria, src.feedbackOf).runs);
    const ids = new Set(runs.map((r) => r.id));
    const feedback = s.feedback_key ? tenants.flatMap((t) => src.feedbackOf(t)).filter((f) => f.key === s.feedback_key && f.run_id && ids.has(f.run_id)) : [];
    return { runs, feedback };
}

/** The points of one series over the window: one per bucket, or per bucket and group. */
export function seriesData(src: RunSource, tenant: string | undefined, s: SeriesRecord, common: ChartFilters | null | undefined, w: Window): DataPoint[] {
    const buckets = Math.ceil((w.end - w.start) / w.stride);
    const at = (i: number) => new Date(w.start + i * w.stride).toISOString();
    if (s.project_metric) return Array.from({ length: buckets }, (_, i) => ({ series_id: s.id, timestamp: at(i), value: null }));
    const tenants = tenant !== undefined ? [tenant] : s.workspace_id ? [s.workspace_id] : src.workspaces();
    const { runs, feedback } = seriesRuns(src, tenants, s, common, w);
    const bucketOf = (r: QueriedRun) => Math.floor((Date.parse(r.start_time) - w.start) / w.stride);
    const metric = METRICS[s.metric];
    const points = (group: string | undefined, inGroup: (r: QueriedRun) => boolean): DataPoint[] =>
        Array.from({ length: buckets }, (_, i) => {
            const here = runs.filter((r) => bucketOf(r) === i && inGroup(r));
            const ids = new Set(here.map((r) => r.id));
            const value = metric(
                here,
                feedback.filter((f) => f.run_id && ids.has(f.run_id)),
            );
            return { series_id: s.id, timestamp: at(i), value, ...(group !== undefined ? { group } : {}) };
        });
    const g = s.group_by;
    if (!g) return points(undefined, () => true);
    const counts = new Map<string, number>();
    for (const r of runs) for (const k of groupsOf(r, g)) counts.set(k, (counts.get(k) ?? 0) + 1);
    const top = [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, g.max_groups ?? 5)
        .map(([k]) => k);
    return top.flatMap((k) => points(k, (r) => groupsOf(r, g).includes(k)));
}
