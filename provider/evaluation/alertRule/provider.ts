/**
 * The AlertRule's dynamic provider (its fields: declare.ts). Refused at preview, each at its property: no action,
 * a webhook action without an http(s) `url`, a PagerDuty action without its `routingKey`, a threshold alert
 * without a `threshold`, a filter that does not parse. The id is `<sessionId>:<alertId>`. The service keeps no list
 * of a project's alerts to look a create up in, so the create names the alert's id itself (`rule.id`,
 * docs/service.md R10.3): one the check derives from the resource (`requestedAlertId`), which a create first reads
 * (an alert there is the one a killed `pulumi up` of this resource made, or the one `pulumi up --replace` replaces,
 * which the engine checks as a new resource: taken over) and a lost answer is looked up by (api/rules.ts: never sent
 * again). A replacement whose check saw the old inputs (`replaceOnChanges`) asks for another id, derived from that
 * one. The answer's id is the alert's, whatever was asked. An update is one PATCH of the whole alert. The actions are
 * secret and sent as such.
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError } from "../../api/errors";
import type { RulesClient } from "../../api/rules";
import type { Alert, AlertWriteRequest } from "../../api/schemas/rules";
import { UUID_RE } from "../../api/values";
import { uuid5 } from "../../api/schemas/agentServer";
import { heldByThisStack, tookOver } from "../../kit/adoption";
import { withoutIdentity } from "../../kit/autoname";
import { Checker, isSet } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { ADOPT_IDS_VARIABLE, adoptionAsked, alreadyExistsMessage, takenOverWarning } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { UNKNOWN, known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { inItsWorkspace } from "../../kit/workspace";
import { checkFilter } from "../../tracing/traceExport/check";
import { SCHEMA_VERSION, alertRule, type AlertRuleInputs, type AlertRuleOutputs } from "./declare";

export const ALERT_RULE_DIFF = diffTableOf(alertRule.inputs);
type Action = NonNullable<AlertRuleInputs["actions"]>[number];

export function checkAlertRule(args: Record<string, unknown>, olds: Record<string, unknown> = {}) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = emptiesAsAbsent(c.declaration("AlertRule", alertRule.inputs, news));
    inputs.requestedAlertId = requestedId(olds, news, identity);
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

/** The namespace of the alert ids this provider derives (a uuid of its own). */
const ALERT_IDS = "8d3f5c1e-2b7a-4e69-9c0d-41f6a2e8b3d7";

/**
 * The id a create asks for (docs/service.md R10.3): the one the state has while the alert's project and workspace
 * stay; else derived from them and the resource's identity (its URN, which the front doors hand in: kit/
 * autoname.ts), so that a killed `pulumi up` and the next one ask for the same, and no other resource does; without
 * an identity (a check called directly), a new one. Unknown while the project is.
 */
function requestedId(olds: Record<string, unknown>, news: Record<string, unknown>, identity: string | undefined): unknown {
    const kept = typeof olds.requestedAlertId === "string" && sameValue(olds.sessionId, news.sessionId) && sameValue(olds.workspaceId, news.workspaceId);
    if (kept) return olds.requestedAlertId;
    if (!known(news.sessionId) || !known(news.workspaceId)) return UNKNOWN;
    return identity === undefined ? randomUUID() : uuid5(ALERT_IDS, JSON.stringify([news.workspaceId ?? "", news.sessionId, identity]));
}

/**
 * The id this create asks for: the resource's own, or, when a resource of this stack holds that one (a replacement
 * whose check saw the old inputs; not `pulumi up --replace`, which the engine checks without them), one derived from
 * it: made first, the new alert is another.
 */
const askedId = (i: AlertRuleInputs): string => {
    const own = i.requestedAlertId ?? randomUUID();
    return heldByThisStack() ? uuid5(ALERT_IDS, `${own}|replacement`) : own;
};

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
        async check(olds, news) {
            return service.check(() => checkAlertRule(news, olds), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(ALERT_RULE_DIFF, olds, news);
        },
        async create(inputs) {
            const rc = rules();
            const id = askedId(inputs);
            const found = await rc.tryGetAlert(inputs.sessionId, id);
            const a = found ? await takeOver(rc, inputs, found) : await createAsking(rc, inputs, id);
            return { id: `${inputs.sessionId}:${a.rule.id}`, outs: outputs(inputs, a) };
        },
        async read(id, props) {
            const { sessionId, alertId } = alertIdOf(id);
            const a = await rules().tryGetAlert(sessionId, alertId);
            if (!a) return {};
            const inputs = (
                isImport(props)
                    ? inputsOf(sessionId, a)
                    : prune({ ...inputsOf(sessionId, a), workspaceId: props?.workspaceId, requestedAlertId: props?.requestedAlertId })
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

/**
 * The alert that already holds the id this create asks for. When it is what the program declares, it is this
 * resource's: made by a `pulumi up` of it killed before the state recorded it, or the one `pulumi up --replace` of it
 * replaces (the engine checks it as a new resource: the two look alike here); taken over, with a warning, and its
 * delete in this run (the resource replaced) leaves it (kit/adoption.ts). Otherwise it may be another's (another
 * stack of the same project, stack and resource names asks for the same id): refused, unless LANGSMITH_ADOPT_IDS
 * names it (then set to the program's).
 */
async function takeOver(rc: RulesClient, i: AlertRuleInputs, found: Alert): Promise<Alert> {
    const id = `${i.sessionId}:${found.rule.id}`;
    const held = { ...inputsOf(i.sessionId, found), workspaceId: i.workspaceId, requestedAlertId: i.requestedAlertId };
    const declared = !diffByTable(ALERT_RULE_DIFF, held, i).changes;
    if (!declared && !adoptionAsked(id)) throw new Error(heldElsewhere(id, found));
    if (declared) tookOver();
    const name = JSON.stringify((found.rule as Record<string, unknown>).name);
    await warn(
        takenOverWarning(
            `AlertRule ${id} (${name})`,
            declared
                ? "it holds the id this resource asks the service for (derived from the resource: docs/service.md R10.3) and is what the program declares"
                : `${ADOPT_IDS_VARIABLE} names it`,
        ),
    );
    if (!declared) await rc.updateAlert(i.sessionId, found.rule.id, wire(i), secretsOf(i));
    return (await rc.tryGetAlert(i.sessionId, found.rule.id)) ?? found;
}

function heldElsewhere(id: string, found: Alert): string {
    return alreadyExistsMessage({
        what: `AlertRule: alert ${id} (${JSON.stringify((found.rule as Record<string, unknown>).name)}), the id this resource asks the service for, holds other settings than the program's`,
        existing:
            "the id is derived from the stack, the project and the resource (docs/service.md R10.3), so another stack of the same project and stack names, with a resource of this name, asks for it too",
        id,
        ifOurs: "it is this resource's (an interrupted `pulumi up`, or `pulumi up --replace` of a changed program)",
        ifTheirs: "give this resource another name, so that it asks for another id",
        why: "an alert keeps no mark of the stack that made it: the provider takes one over by itself only when it is what the program declares.",
    });
}

/**
 * Creates the alert asking for `id`; when the service refuses that id (400 naming it: an id its deleted alerts keep, or
 * no caller-chosen ids), creates it without one, with a warning: a lost answer to that create cannot be found again
 * (api/rules.ts). A 400 made nothing, so sending again is safe.
 */
async function createAsking(rc: RulesClient, i: AlertRuleInputs, id: string): Promise<Alert> {
    try {
        return await rc.createAlert(i.sessionId, wire(i, id), secretsOf(i));
    } catch (e) {
        if (!(e instanceof ApiError && e.status === 400 && (e.detail.includes(id) || /rule\.id\b/.test(e.detail)))) throw e;
        await warn(
            `AlertRule on project ${i.sessionId}: the service refused the id this resource asks for (${e.detail}); made without one, so a lost answer to this create could not be found again.`,
        );
        return rc.createAlert(i.sessionId, wire(i), secretsOf(i));
    }
}

/** The alert as the service takes it: a create names its id (`id`), an update does not. */
function wire(i: AlertRuleInputs, id?: string): AlertWriteRequest {
    return {
        rule: prune({
            id,
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
