/**
 * `getChart`: a chart of a dashboard looked up by id (docs/service.md R16), with its series as refresh reads them and,
 * when a window is given, its data over it: what its runs make now, which traffic changes and no output may hold (the
 * emulator computes it from the runs it holds: emulator/charts/data.ts). One implementation behind both front doors.
 * Nothing here changes anything on the service.
 */
import type { ChartsClient } from "../../api/charts";
import type { ChartsRead } from "../../api/schemas/charts";
import { checkFunctionArgs } from "../../kit/check";
import { any, list, lookup, number, object, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { scopeArg } from "../dashboard/lookups";
import { chartSeries } from "./declare";
import { inputsOf } from "./provider";

/** One point of a chart's data (kept out of the function's literal: inline, TypeScript finds the result too deep to type). */
const dataPoint = object("ChartDataPoint", "One bucket's value of one series (and group).", {
    seriesId: string("The series' id.", { required: true }),
    timestamp: string("The bucket's start.", { required: true }),
    value: any("The value: a number, null for none, or an object (`feedback_values`: how many times each value was given)."),
    group: string("The group, for a grouped series."),
});

export const getChartFunction = lookup({
    name: "getChart",
    description:
        "Looks up a chart by id, with its series and, given `startTime`, its data: one point per series (and group) per bucket of `strideMinutes` from `startTime` to `endTime` (default: now); fails naming it when there is none.",
    args: {
        id: string("The chart's id.", { required: true }),
        scope: scopeArg,
        startTime: string("The start of the window whose data is read (ISO 8601, e.g. 2026-11-01T00:00:00Z); absent: no data is read."),
        endTime: string("The end of the window (ISO 8601); absent: now."),
        strideMinutes: number("The width of a bucket, in minutes (default 60).", { integer: true }),
        workspaceId: lookupWorkspaceIdField,
    },
    result: {
        id: string("The chart's id.", { required: true }),
        dashboardId: string("The dashboard it is in.", { required: true }),
        title: string("Its title.", { required: true }),
        description: string("What it shows."),
        chartType: string("`line` or `bar`.", { required: true }),
        index: number("Its place in the dashboard.", { required: true }),
        series: list("Its series, as a `Chart`'s `series` says them.", chartSeries, { required: true }),
        seriesIds: list("The service's id of each series, in the same order (a data point's `seriesId`).", string("A series' id."), { required: true }),
        data: list("The data over the window (none without `startTime`).", dataPoint, { required: true }),
    },
});

export type GetChartArgs = FunctionInputs<typeof getChartFunction>;
export type GetChartResult = FunctionResult<typeof getChartFunction>;

export async function getChart(cc: ChartsClient, args: GetChartArgs): Promise<GetChartResult> {
    checkFunctionArgs("getChart", (c) => {
        c.str(args.id, "id", true);
        c.declaration("getChart", { scope: scopeArg }, { scope: args.scope });
        c.timestamp(args.startTime, "startTime");
        c.timestamp(args.endTime, "endTime");
        if (args.strideMinutes !== undefined && !(args.strideMinutes >= 1))
            c.fail("strideMinutes", `strideMinutes must be at least 1, got ${args.strideMinutes}`);
    });
    const scope = args.scope ?? "workspace";
    const found = await cc.findChart(scope, args.id);
    if (!found) throw new Error(`getChart: the ${scope} holds no chart ${args.id}`);
    const read: ChartsRead = args.startTime
        ? { start_time: args.startTime, end_time: args.endTime, stride: { minutes: args.strideMinutes ?? 60 } }
        : { omit_data: true };
    const withData = args.startTime ? await cc.readChart(scope, args.id, read) : found.chart;
    if (!withData) throw new Error(`getChart: the ${scope} holds no chart ${args.id}`);
    const i = inputsOf(found.chart, found.sectionId, scope, true);
    return {
        id: found.chart.id,
        dashboardId: found.sectionId,
        title: i.title,
        description: i.description,
        chartType: i.chartType,
        index: found.chart.index,
        series: i.series,
        seriesIds: found.chart.series.map((s) => s.id),
        data: withData.data.map((p) => ({ seriesId: p.series_id, timestamp: p.timestamp, value: p.value, group: p.group ?? undefined })),
    };
}
