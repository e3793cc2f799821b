/**
 * `getDashboard`: a dashboard of the workspace or of the organization looked up by id or by its exact title (docs/service.md
 * R16), for programs that add charts to a dashboard another stack or the UI made: its fields as refresh reads them, and
 * its charts now (ids, titles, which no program manages), which traffic of other hands changes and no output holds. One
 * implementation behind both front doors. Nothing here changes anything on the service.
 */
import { isManaged, type ChartsClient } from "../../api/charts";
import type { Section } from "../../api/schemas/charts";
import { checkFunctionArgs, oneOf } from "../../kit/check";
import { list, lookup, number, object, boolean, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { CHART_SCOPES } from "./declare";

export const scopeArg = string("`workspace` (default) or `organization`: whose dashboards to look in.", { values: CHART_SCOPES });

/** A chart of a dashboard (kept out of the function's literal: inline, TypeScript finds the result too deep to type). */
const dashboardChart = object("DashboardChart", "A chart of a dashboard.", {
    id: string("The chart's id.", { required: true }),
    title: string("Its title.", { required: true }),
    index: number("Its place in the dashboard.", { required: true }),
    managed: boolean("Whether a Pulumi program's `Chart` manages it (else it was made in the UI or by an SDK).", { required: true }),
});

export const getDashboardFunction = lookup({
    name: "getDashboard",
    description:
        "Looks up a dashboard (a chart section) of the workspace or of the organization by id or by its exact title (one of them), with the charts it holds now; fails naming it when there is none, and when two share the title (the service does not keep titles unique), naming their ids.",
    args: { id: string("The dashboard's id."), title: string("Its exact title."), scope: scopeArg, workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The dashboard's id (a `Chart`'s `dashboardId`).", { required: true }),
        title: string("Its title.", { required: true }),
        description: string("What it shows."),
        index: number("Its place among the scope's dashboards."),
        scope: string("`workspace` or `organization`.", { required: true }),
        createdAt: string("When it was made."),
        charts: list("The charts it holds now, in their order.", dashboardChart, { required: true }),
    },
});

export type GetDashboardArgs = FunctionInputs<typeof getDashboardFunction>;
export type GetDashboardResult = FunctionResult<typeof getDashboardFunction>;

export async function getDashboard(cc: ChartsClient, args: GetDashboardArgs): Promise<GetDashboardResult> {
    const { by, value } = oneOf("getDashboard", args, "id", "title");
    checkFunctionArgs("getDashboard", (c) => c.declaration("getDashboard", { scope: scopeArg }, { scope: args.scope }));
    const scope = args.scope ?? "workspace";
    let found: Section | undefined;
    if (by === "id") found = await cc.tryGetSection(scope, value);
    else {
        const titled = await cc.sectionsTitled(scope, value);
        if (titled.length > 1)
            throw new Error(
                `getDashboard: the ${scope} holds ${titled.length} dashboards titled ${JSON.stringify(value)} (${titled.map((s) => s.id).join(", ")}): look it up by id`,
            );
        found = titled[0];
    }
    const held = found && (await cc.readSection(scope, found.id));
    if (!found || !held) throw new Error(`getDashboard: the ${scope} holds no dashboard ${by === "id" ? value : `titled ${JSON.stringify(value)}`}`);
    return {
        id: found.id,
        title: found.title,
        description: found.description || undefined,
        index: found.index ?? undefined,
        scope,
        createdAt: found.created_at ?? undefined,
        charts: held.charts.map((c) => ({ id: c.id, title: c.title, index: c.index, managed: isManaged(c) })),
    };
}
