/**
 * The wire contract of dashboards and their charts (docs/service.md R16): chart sections (`/api/v1/charts/section`,
 * a workspace's; `/api/v1/org-charts/section`, the organization's) and charts (`/api/v1/charts/create`,
 * `/api/v1/charts/{id}`, the same under `/org-charts`), and the reads of their data (`POST /api/v1/charts`, `POST
 * .../section/{id}`, `POST .../{chart_id}`), as the description's `CustomChart*` schemas have them. Requests the
 * provider sends are strict (the emulator refuses an unknown field with 422); answers are tolerant of fields this
 * provider does not read. The enums (metrics, chart types, groupings) are the description's, and the provider's
 * check refuses anything else at preview naming the values allowed.
 */
import { z } from "zod";
import { dateTime, filledString } from "./common";

/** An integer of any size (the description bounds none; zod's `int()` refuses past 2^53). */
const integer = z.number().refine((v) => Number.isInteger(v), "Input should be a valid integer");
/** A place among a section's charts: 0 to 100 (the description's bounds). */
const chartIndex = z
    .number()
    .min(0)
    .max(100)
    .refine((v) => Number.isInteger(v), "Input should be a valid integer");
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");

/** `CustomChartType`. */
export const CHART_TYPES = ["line", "bar"] as const;
/** `CustomChartMetric`: what a series charts. The feedback ones are not available to an organization's charts. */
export const CHART_METRICS = [
    "run_count",
    "latency_p50",
    "latency_p99",
    "latency_avg",
    "first_token_p50",
    "first_token_p99",
    "total_tokens",
    "prompt_tokens",
    "completion_tokens",
    "median_tokens",
    "completion_tokens_p50",
    "prompt_tokens_p50",
    "tokens_p99",
    "completion_tokens_p99",
    "prompt_tokens_p99",
    "feedback",
    "feedback_score_avg",
    "feedback_values",
    "total_cost",
    "prompt_cost",
    "completion_cost",
    "error_rate",
    "streaming_rate",
    "cost_p50",
    "cost_p99",
] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];
/** The metrics of feedback, which need a `feedback_key` and which an organization's chart cannot have (the description's words). */
export const FEEDBACK_METRICS: readonly ChartMetric[] = ["feedback", "feedback_score_avg", "feedback_values"];
/** `HostProjectChartMetric`: the metrics of a deployment's agent server. */
export const HOST_METRICS = [
    "memory_usage",
    "cpu_usage",
    "disk_usage",
    "restart_count",
    "replica_count",
    "worker_count",
    "lg_run_count",
    "responses_per_second",
    "error_responses_per_second",
    "p95_latency",
] as const;
/** `RunStatsGroupBy.attribute`. */
export const GROUP_BY_ATTRIBUTES = ["name", "run_type", "tag", "metadata"] as const;

/** `CustomChartSeriesFilters`: the filters of the trace query syntax (provider/api/filter.ts), and the projects read. */
export const ChartFiltersSchema = z
    .object({
        filter: z.string().nullish(),
        trace_filter: z.string().nullish(),
        tree_filter: z.string().nullish(),
        session: z.array(uuid).nullish(),
    })
    .strict();
export type ChartFilters = z.infer<typeof ChartFiltersSchema>;

/** `RunStatsGroupBy` (a request's); the answer's adds `set_by`. */
export const GroupBySchema = z.object({ attribute: z.enum(GROUP_BY_ATTRIBUTES), path: z.string().nullish(), max_groups: integer.optional() }).strict();
export type GroupBy = z.infer<typeof GroupBySchema>;

/** `CustomChartSeriesCreate` (and `...Update`, which may name the series' `id`). */
export const ChartSeriesRequestSchema = z
    .object({
        name: z.string(),
        filters: ChartFiltersSchema.nullish(),
        metric: z.enum(CHART_METRICS),
        feedback_key: z.string().nullish(),
        workspace_id: uuid.nullish(),
        project_metric: z.enum(HOST_METRICS).nullish(),
        group_by: GroupBySchema.nullish(),
        id: uuid.nullish(),
    })
    .strict();
export type ChartSeriesRequest = z.infer<typeof ChartSeriesRequestSchema>;

/** `CustomChartsSectionCreate`. */
export const SectionCreateRequestSchema = z.object({ title: z.string(), description: z.string().nullish(), index: integer.nullish() }).strict();
export type SectionCreateRequest = z.infer<typeof SectionCreateRequestSchema>;

/** `CustomChartsSectionUpdate`: absent fields stay (the description's `Missing`); a `null` description clears it. */
export const SectionUpdateRequestSchema = z.object({ title: z.string().optional(), description: z.string().nullish(), index: integer.optional() }).strict();
export type SectionUpdateRequest = z.infer<typeof SectionUpdateRequestSchema>;

/** `CustomChartsSectionResponse`. */
export const SectionSchema = z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullish(),
    index: integer.nullish(),
    chart_count: integer.nullish(),
    created_at: z.string().nullish(),
    modified_at: z.string().nullish(),
});
export type Section = z.infer<typeof SectionSchema>;

/** `CustomChartCreate`: `index` between 0 and 100. */
export const ChartCreateRequestSchema = z
    .object({
        title: filledString,
        description: z.string().nullish(),
        index: chartIndex.nullish(),
        chart_type: z.enum(CHART_TYPES),
        series: z.array(ChartSeriesRequestSchema.omit({ id: true }).strict()),
        section_id: uuid.nullish(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
        common_filters: ChartFiltersSchema.nullish(),
    })
    .strict();
export type ChartCreateRequest = z.infer<typeof ChartCreateRequestSchema>;

/** `CustomChartUpdate`: absent fields stay; `null` clears a description, the metadata or the common filters. */
export const ChartUpdateRequestSchema = z
    .object({
        title: filledString.optional(),
        description: z.string().nullish(),
        index: chartIndex.optional(),
        chart_type: z.enum(CHART_TYPES).optional(),
        series: z.array(ChartSeriesRequestSchema).optional(),
        section_id: uuid.optional(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
        common_filters: ChartFiltersSchema.nullish(),
    })
    .strict();
export type ChartUpdateRequest = z.infer<typeof ChartUpdateRequestSchema>;

/** `CustomChartSeries` as answered: with its id, its group-by saying where it was set. */
export const ChartSeriesSchema = z.object({
    id: z.string(),
    name: z.string(),
    filters: z
        .object({ filter: z.string().nullish(), trace_filter: z.string().nullish(), tree_filter: z.string().nullish(), session: z.array(z.string()).nullish() })
        .nullish(),
    metric: z.string(),
    feedback_key: z.string().nullish(),
    workspace_id: z.string().nullish(),
    project_metric: z.string().nullish(),
    group_by: z.object({ attribute: z.string(), path: z.string().nullish(), max_groups: integer.nullish(), set_by: z.string().nullish() }).nullish(),
});
export type ChartSeries = z.infer<typeof ChartSeriesSchema>;

/** `CustomChartResponse` (create, update). */
export const ChartSchema = z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullish(),
    index: integer,
    chart_type: z.string(),
    section_id: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    series: z.array(ChartSeriesSchema).nullish(),
});
export type Chart = z.infer<typeof ChartSchema>;

/** `TimedeltaInput`: a bucket's width. */
export const StrideSchema = z.object({ days: integer.optional(), hours: integer.optional(), minutes: integer.optional() }).strict();
export type Stride = z.infer<typeof StrideSchema>;

/** `CustomChartsRequestBase` (a section's read): which time, in buckets of `stride`; `omit_data` reads the charts alone. */
export const ChartsReadBaseSchema = z
    .object({
        timezone: z.string().optional(),
        start_time: dateTime.nullish(),
        end_time: dateTime.nullish(),
        stride: StrideSchema.optional(),
        omit_data: z.boolean().optional(),
    })
    .strict();
/** `CustomChartsRequest` (every chart's read, one chart's): the base, and the description's paging and tag fields. */
export const ChartsReadSchema = ChartsReadBaseSchema.extend({ after_index: integer.nullish(), tag_value_id: z.array(uuid).nullish() }).strict();
/** `CustomChartsSectionRequest` (a workspace section's read): the base and a group-by over every chart of it. */
export const SectionReadSchema = ChartsReadBaseSchema.extend({ group_by: GroupBySchema.nullish() }).strict();
export type ChartsRead = z.infer<typeof ChartsReadSchema>;

/** `CustomChartsDataPoint`: one bucket's value of one series (and group). */
export const DataPointSchema = z.object({
    series_id: z.string(),
    timestamp: z.string(),
    value: z.union([z.number(), z.record(z.string(), z.unknown()), z.null()]),
    group: z.string().nullish(),
});
export type DataPoint = z.infer<typeof DataPointSchema>;

/** `SingleCustomChartResponse`: a chart with its data (none with `omit_data`). No section id: a chart's section is read from its section's list. */
export const ChartWithDataSchema = z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    index: integer,
    chart_type: z.string(),
    series: z.array(ChartSeriesSchema),
    common_filters: ChartSeriesSchema.shape.filters,
    data: z.array(DataPointSchema),
});
export type ChartWithData = z.infer<typeof ChartWithDataSchema>;

/** `CustomChartsSection`: a section with its charts. */
export const SectionWithChartsSchema = z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullish(),
    index: integer.nullish(),
    session_id: z.string().nullish(),
    charts: z.array(ChartWithDataSchema),
});
export type SectionWithCharts = z.infer<typeof SectionWithChartsSchema>;

/** `CustomChartsResponse`: every section, with its charts. */
export const SectionsWithChartsSchema = z.object({ sections: z.array(SectionWithChartsSchema) });
