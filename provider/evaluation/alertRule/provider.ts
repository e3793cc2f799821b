/**
 * The AlertRule's dynamic provider (its fields: declare.ts). Refused at preview, each at its property: no action,
 * a webhook action without an http(s) `url`, a PagerDuty action without its `routingKey`, a threshold alert
 * without a `threshold`, a filter that does not parse. The id is `<sessionId>:<alertId>`. The service keeps no list
 * of a project's alerts to look a lost create up in: the create is sent once, and a lost answer is an error saying
 * so (api/rules.ts). An update is one PATCH of the whole alert. The actions are secret and sent as such.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RulesClient } from "../../api/rules";
import type { Alert, AlertWriteRequest } from "../../api/schemas/rules";
import { UUID_RE } from "../../api/values";
import { Checker, isSet } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { checkFilter } from "../../tracing/traceExport/check";
import { SCHEMA_VERSION, alertRule, type AlertRuleInputs, type AlertRuleOutputs } from "./declare";

export const ALERT_RULE_DIFF = diffTableOf(alertRule.inputs);
type Action = NonNullable<AlertRuleInputs["actions"]>[number];

export function checkAlertRule(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("AlertRule", alertRule.inputs, news));
    checkFilter(c, news.filter, "filter", "omit filter to measure every run");
    checkFilter(c, news.denominatorFilter, "denominatorFilter", "omit it");
    if (Array.isArray(news.actions) && news.actions.length === 0) {
        c.fail("actions", "actions must hold at least one action (a webhook, PagerDuty, Dynatrace): an alert that calls nothing is refused by the service");
    }
    (Array.isArray(news.actions) ? (news.actions as Action[]) : []).forEach((a, i) => {
        if (a?.target === "webhook") c.httpUrl(a.url, `actions[${i}].url`, `actions[${i}].url must be an http or https URL (a webhook calls it)`, true);
        if (a?.target === "pagerduty" && !isSet(a.routingKey) && known(a.routingKey))
            c.fail(`actions[${i}].routingKey`, `actions[${i}].routingKey is required for pagerduty`);
    });
    if ((news.type ?? "threshold") === "threshold" && news.threshold === undefined) c.fail("threshold", "threshold is required for a threshold alert");
    const w = news.windowMinutes;
    if (typeof w === "number" && (w < 1 || w > 60)) c.fail("windowMinutes", `windowMinutes must be 1 to 60, got ${w}`);
    if (typeof news.sessionId === "string" && known(news.sessionId) && !UUID_RE.test(news.sessionId))
        c.fail("sessionId", "sessionId must be a tracing project's id (a UUID)");
    return c.done(inputs);
}

/** `<sessionId>:<alertId>`, the resource's id; refused with how to write it otherwise. */
export function alertIdOf(id: string): { sessionId: string; alertId: string } {
    const [sessionId, alertId, ...rest] = id.split(":");
    if (!sessionId || !alertId || rest.length)
        throw new Error(
            `AlertRule id ${JSON.stringify(id)}: expected <sessionId>:<alertId> (the project's id, a colon, the alert's id; <workspaceId>/ before it for another workspace)`,
        );
    return { sessionId, alertId };
}

export function createAlertRuleProvider(o: { rules?: () => RulesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const rules = o.rules ?? (() => service.rules());
    const provider: ProviderOf<typeof alertRule> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkAlertRule(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(ALERT_RULE_DIFF, olds, news);
        },
        async create(inputs) {
            const a = await rules().createAlert(inputs.sessionId, wire(inputs), secretsOf(inputs));
            return { id: `${inputs.sessionId}:${a.rule.id}`, outs: outputs(inputs, a) };
        },
        async read(id, props) {
            const { sessionId, alertId } = alertIdOf(id);
            const a = await rules().tryGetAlert(sessionId, alertId);
            if (!a) return {};
            const inputs = (
                isImport(props) ? inputsOf(sessionId, a) : prune({ ...inputsOf(sessionId, a), workspaceId: props?.workspaceId })
            ) as AlertRuleInputs;
            return { id, props: outputs(inputs, a), inputs };
        },
        async update(id, _olds, news) {
            const { sessionId, alertId } = alertIdOf(id);
            await rules().updateAlert(sessionId, alertId, wire(news), secretsOf(news));
            const a = await rules().tryGetAlert(sessionId, alertId);
            return { outs: a ? outputs(news, a) : { ...news, alertId, createdAt: "", schemaVersion: SCHEMA_VERSION } };
        },
        async delete(id) {
            const { sessionId, alertId } = alertIdOf(id);
            await rules().deleteAlert(sessionId, alertId);
        },
    };
    return provider;
}

const secretsOf = (i: Partial<AlertRuleInputs>) =>
    (i.actions ?? []).flatMap((a) => [a.url, a.routingKey, ...Object.values(a.headers ?? {})]).filter((v): v is string => typeof v === "string" && v !== "");

function wire(i: AlertRuleInputs): AlertWriteRequest {
    return {
        rule: prune({
            name: i.name,
            description: i.description ?? "",
            type: i.type ?? "threshold",
            attribute: i.attribute,
            aggregation: i.aggregation,
            window_minutes: i.windowMinutes,
            operator: i.operator,
            threshold: i.threshold,
            threshold_multiplier: i.thresholdMultiplier,
            threshold_window_minutes: i.thresholdWindowMinutes,
            filter: i.filter,
            denominator_filter: i.denominatorFilter,
        }) as AlertWriteRequest["rule"],
        actions: (i.actions ?? []).map((a) => ({
            target: a.target as AlertWriteRequest["actions"][number]["target"],
            config: prune({ ...a.config, url: a.url, headers: a.headers, routing_key: a.routingKey }),
        })),
    };
}

/** The inputs as the service says them (refresh, import). */
function inputsOf(sessionId: string, a: Alert): AlertRuleInputs {
    const r = a.rule as Record<string, any>;
    const actions = a.actions.map((x): Action => {
        const { url, headers, routing_key, ...config } = (x.config ?? {}) as Record<string, any>;
        return prune({ target: x.target, url, headers, routingKey: routing_key, config: Object.keys(config).length ? config : undefined }) as Action;
    });
    return prune({
        sessionId,
        name: r.name,
        description: r.description || undefined,
        type: r.type,
        attribute: r.attribute,
        aggregation: r.aggregation,
        windowMinutes: r.window_minutes,
        operator: r.operator,
        threshold: r.threshold,
        thresholdMultiplier: r.threshold_multiplier,
        thresholdWindowMinutes: r.threshold_window_minutes,
        filter: r.filter,
        denominatorFilter: r.denominator_filter,
        actions,
    }) as AlertRuleInputs;
}

function outputs(i: AlertRuleInputs, a: Alert): AlertRuleOutputs {
    return { ...i, alertId: a.rule.id, createdAt: String((a.rule as Record<string, unknown>).created_at ?? ""), schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const alertRuleProvider = inItsWorkspace(createAlertRuleProvider());
