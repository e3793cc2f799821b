/**
 * The Dashboard, declared once (kit/declare.ts): a chart section of the service (docs/service.md R16), in a workspace
 * or, with `scope: "organization"`, of the organization; its title, description and place change in place, its scope
 * is fixed (a change replaces it). Its charts are `Chart` resources; the charts in it that no Pulumi program manages
 * (made in the UI or by an SDK) are an output, which a refresh shows changing (R16.3). provider.ts holds what a
 * table cannot say.
 */
import { list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const CHART_SCOPES = ["workspace", "organization"] as const;

/** Where a dashboard or a chart lives (shared with the Chart's declaration, whose scope must be its dashboard's). */
export const scopeField = (what: string) =>
    string(
        `Where the ${what} lives: \`workspace\` (default: the workspace's dashboards) or \`organization\` (the organization's, under the service's \`/org-charts\`; no feedback metrics there). A change replaces it.`,
        { values: CHART_SCOPES, default: "workspace", onChange: "replace" },
    );

export const dashboard = resource({
    name: "Dashboard",
    description:
        "A LangSmith dashboard (the service's chart section), of a workspace or of the organization, holding `Chart`s. Its title, description and place change in place; its scope is fixed (a change replaces it). Charts made in it elsewhere (the UI, an SDK) are listed in `chartsMadeElsewhere`: `pulumi refresh` shows them as drift. A dashboard that still holds charts at its delete is refused, so none is lost.",
    inputs: {
        title: string(
            "The dashboard's title (the service does not keep titles unique; this provider refuses a second dashboard of the same title in the scope). Updated in place.",
            { required: true, onChange: "update" },
        ),
        description: string("What the dashboard shows. Updated in place.", { onChange: "update" }),
        index: number(
            "Its place among the scope's dashboards (0 first). Updated in place. Absent: the service places it after the others, and its place is not managed (a move in the UI is no drift).",
            { integer: true, onChange: "update" },
        ),
        scope: scopeField("dashboard"),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        chartsMadeElsewhere: list(
            "The ids of the charts in it that no Pulumi program manages (made in the UI or by an SDK; a `Chart` of any stack is managed), sorted: empty on a dashboard only programs change, so a refresh that fills it shows charts added elsewhere. Delete them, or take them into the program (`pulumi import`).",
            string("A chart's id."),
        ),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type DashboardInputs = Inputs<typeof dashboard>;
export type DashboardOutputs = Outputs<typeof dashboard>;
