/**
 * The Chart, declared once (kit/declare.ts): a chart of a `Dashboard` (docs/service.md R16): its title, type, series
 * (each a metric of the service's, its projects and filters, a feedback key, a grouping), common filters and place
 * change in place, and so does its dashboard (a move is the service's PATCH of its section, not a replacement); its
 * scope is its dashboard's and fixed. provider.ts holds what a table cannot say (the filters parsed at preview, the
 * feedback metrics' key, the scope's rules).
 */
import { CHART_METRICS, CHART_TYPES, GROUP_BY_ATTRIBUTES, HOST_METRICS } from "../../api/schemas/charts";
import { boolean, list, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";
import { scopeField } from "../dashboard/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const filterOf = (what: string, on: string) => string(`Runs ${on} must match this filter (the trace query syntax, parsed at preview${what}).`);

/** Which runs: their projects and filters (a series', and the chart's `commonFilters`: one type in the schema and the SDKs). */
const chartFilters = object("ChartFilters", "Which runs are charted: their projects and filters.", {
    projectIds: list("The tracing projects (their ids) whose runs are charted.", string("A tracing project's id.")),
    filter: filterOf(': `eq(run_type, "llm")`', "charted"),
    traceFilter: filterOf("", "whose trace's root"),
    treeFilter: filterOf("", "some run of whose trace"),
});

export const chartGroupBy = object("ChartGroupBy", "How a series' runs are grouped: a line (or bar) per group.", {
    attribute: string("What runs are grouped by: `name`, `run_type`, `tag` or `metadata` (the value at `path`).", {
        values: GROUP_BY_ATTRIBUTES,
        required: true,
    }),
    path: string("The metadata key grouped by (`attribute: metadata`)."),
    maxGroups: number("How many groups are drawn, those with the most runs (default 5).", { integer: true, default: 5 }),
});

/** A series of a chart (kept out of the resource's literal, as a queue's rubric item is). */
export const chartSeries = object("ChartSeries", "A line (or set of bars) of the chart: a metric of some runs.", {
    name: string("The series' name, as the legend shows it.", { required: true }),
    metric: string(
        "What is charted, one of the service's metrics: run counts, latencies, tokens, costs, error and streaming rates, feedback (`feedback`, `feedback_score_avg`, `feedback_values`: they need `feedbackKey`, and an organization's chart cannot have them).",
        { values: CHART_METRICS, required: true },
    ),
    feedbackKey: string("The feedback key a feedback metric charts (a `FeedbackConfig`'s `feedbackKey`)."),
    workspaceId: string("The workspace (a UUID) whose runs an organization's chart charts; absent: every workspace. Only in an organization's chart."),
    projectMetric: string("A metric of a deployment's agent server, charted instead of the runs'.", { values: HOST_METRICS }),
    groupBy: chartGroupBy,
    filters: chartFilters,
});

export const chart = resource({
    name: "Chart",
    description:
        "A chart of a LangSmith `Dashboard`: series of metrics of traced runs (counts, latency, tokens, costs, error rate, feedback scores), each over some projects and filters, optionally grouped. Everything changes in place, its dashboard too (a move to another dashboard is an update); its scope must be its dashboard's.",
    inputs: {
        dashboardId: string("The dashboard (a `Dashboard`'s id) the chart is in. A change moves the chart there, in place.", {
            required: true,
            onChange: "update",
        }),
        title: string("The chart's title (unique in its dashboard: this provider refuses a second of the same title). Updated in place.", {
            required: true,
            onChange: "update",
        }),
        description: string("What the chart shows. Updated in place.", { onChange: "update" }),
        chartType: string("`line` (default) or `bar`. Updated in place.", { values: CHART_TYPES, default: "line", onChange: "update" }),
        series: list("The chart's series (at least one), in the legend's order. Updated in place.", chartSeries, { required: true, onChange: "update" }),
        commonFilters: {
            ...chartFilters,
            description: "Filters every series' runs must also match, and the projects of the series that name none. Updated in place.",
            onChange: "update" as const,
        },
        index: number(
            "Its place in the dashboard (0 first, at most 100). Updated in place. Absent: the service places it after the others, and its place is not managed.",
            { integer: true, onChange: "update" },
        ),
        scope: scopeField("chart (its dashboard's scope)"),
        workspaceId: workspaceIdField,
    },
    outputs: {
        schemaVersion: number("Version of the output shape.", { stable: true }),
        unmarked: boolean(
            "Set by a read of a chart without the mark of a Pulumi program (one made in the UI, then imported: docs/service.md R16.3): the next `up` marks it (an update of the metadata alone), so that its dashboard no longer lists it as made elsewhere.",
            { hidden: true },
        ),
    },
});

export type ChartInputs = Inputs<typeof chart>;
export type ChartOutputs = Outputs<typeof chart>;
