/**
 * The AlertRule, declared once (kit/declare.ts): an alert on a tracing project (docs/service.md R10.3): a metric of
 * its runs over a window against a threshold, and what it calls when crossed (webhooks, PagerDuty, Dynatrace; their
 * credentials secret). At least one action. Its project is fixed (a change replaces); the rest changes in place. Its
 * id is `<sessionId>:<alertId>` (the service names an alert under its project): `pulumi import` takes that. The id
 * its create asks for is the provider's own (`requestedAlertId`, hidden): provider.ts says why.
 */
import { ALERT_AGGREGATIONS, ALERT_ATTRIBUTES, ALERT_OPERATORS, ALERT_TARGETS } from "../../api/schemas/rules";
import { canonicalJson } from "../../kit/diff";
import { any, list, map, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const action = object("AlertRuleAction", "What the alert calls when it fires.", {
    target: string("`webhook`, `pagerduty` or `dynatrace` (Slack: a `webhook` on its incoming-webhook URL).", { required: true, values: ALERT_TARGETS }),
    url: string("The URL a `webhook` calls."),
    headers: map("Headers a `webhook` sends.", string("A header's value.")),
    routingKey: string("The PagerDuty integration's routing key."),
    config: map("Further settings of the target, as the service takes them (`severity`, `summary`, ...).", any("A setting.")),
});

export const alertRule = resource({
    name: "AlertRule",
    description:
        "An alert on a tracing project: a metric of its runs (`error_count`, `latency`, `feedback_score`, `run_count`, ...) aggregated over a window, against a threshold, and the actions it calls when crossed (at least one; their credentials secret). Its project is fixed (a change replaces); the rest changes in place. Imported by `<sessionId>:<alertId>`.",
    inputs: {
        sessionId: string("The tracing project it watches (a `TracingProject`'s id). A change replaces it.", { required: true, onChange: "replace" }),
        name: string("Its name. Updated in place.", { required: true, onChange: "update" }),
        description: string("What it is for. Updated in place.", { onChange: "update", compareAs: (v: unknown) => v ?? "" }),
        type: string("`threshold` (the default: the metric against `threshold`) or `change` (against the previous window). Updated in place.", {
            values: ["threshold", "change"],
            onChange: "update",
            compareAs: (v: unknown) => v ?? "threshold",
        }),
        attribute: string("What is measured. Updated in place.", { required: true, values: ALERT_ATTRIBUTES, onChange: "update" }),
        aggregation: string("How: `avg`, `sum` or `pct` (a percentage). Updated in place.", { required: true, values: ALERT_AGGREGATIONS, onChange: "update" }),
        windowMinutes: number("The window, 1 to 60 minutes. Updated in place.", { required: true, integer: true, onChange: "update" }),
        operator: string("`gt`, `gte`, `lt` or `lte`. Updated in place.", { required: true, values: ALERT_OPERATORS, onChange: "update" }),
        threshold: number("The value crossed (a `threshold` alert needs it). Updated in place.", { onChange: "update" }),
        thresholdMultiplier: number("A `change` alert's multiplier of the previous window. Updated in place.", { onChange: "update" }),
        thresholdWindowMinutes: number("A `change` alert's previous window, up to 60 minutes. Updated in place.", { integer: true, onChange: "update" }),
        filter: string("The runs measured, in the trace query syntax (checked at preview). Updated in place.", { onChange: "update" }),
        denominatorFilter: string("The runs a `pct` is taken over. Updated in place.", { onChange: "update" }),
        actions: list("What it calls when it fires (at least one): secret (URLs, headers, routing keys). Updated in place.", action, {
            required: true,
            secret: true,
            onChange: "update",
            compareAs: (v: unknown) => canonicalJson(v ?? []),
        }),
        workspaceId: workspaceIdField,
        requestedAlertId: string(
            "The id the create asks the service to give the alert (`rule.id`, docs/service.md R10.3): derived from the resource's URN and its project, so that a create whose answer was lost, or that a killed `pulumi up` made, is found by it. Read only at creation; `alertId` is the service's answer.",
            { onChange: "none", filled: true, fromIdentity: true, hidden: true },
        ),
    },
    outputs: {
        alertId: string("The service's id of the alert (the resource's id is `<sessionId>:<alertId>`).", { stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type AlertRuleInputs = Inputs<typeof alertRule>;
export type AlertRuleOutputs = Outputs<typeof alertRule>;
