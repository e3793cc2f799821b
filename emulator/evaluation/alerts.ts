/**
 * Alert rules on a tracing project (docs/service.md R10.3): `POST /api/v1/platform/alerts/{session_id}`,
 * `GET`/`PATCH`/`DELETE .../{session_id}/{alert_rule_id}` (the description's `alerts.*`). A create may name the
 * rule's id (`rule.id`, **decided**: a UUID, taken as the alert's id; one an alert already holds, or no UUID: 400,
 * the one status the description's create lists for a bad request). A rule measures an
 * attribute of the project's runs that ended in its window (`window_minutes`), aggregated, against a threshold;
 * it needs at least one action (400 otherwise). Each action's `config` is kept as an object (a JSON string is
 * read as one, **decided**) and sealed on disk (`alerts.json`): it holds webhook headers and PagerDuty keys.
 *
 * `evaluate(now)` (engine.ts calls it after the runs it takes, and on a timer) fires a rule whose measure crosses
 * its threshold, once per window: it POSTs `{alert_rule_id, session_id, name, attribute, value, threshold,
 * window_start, window_end}` to each `webhook` action's `url` with its `headers` (**decided**: the payload is not
 * published); PagerDuty and Dynatrace actions are recorded as deliveries and not sent (no network beyond the
 * caller's own receivers). What was sent is listed by `deliveries`.
 */
import { randomUUID } from "node:crypto";
import type { AlertWriteRequest } from "../../provider/api/schemas/rules";
import type { Clock } from "../core/clock";
import { type Sealed, Store } from "../core/store";
import { platformError } from "../core/errors";
import { UUID_RE } from "../../provider/api/values";

type Action = { id: string; alert_rule_id: string; target: string; config: Record<string, unknown>; created_at: string; updated_at: string };
export interface AlertRecord {
    id: string;
    tenant_id: string;
    session_id: string;
    rule: AlertWriteRequest["rule"];
    actions: Action[];
    created_at: string;
    updated_at: string;
    /** The start of the last window it fired for. */
    fired_window?: string;
}

export interface AlertDelivery {
    alert_rule_id: string;
    target: string;
    url?: string;
    payload: Record<string, unknown>;
    status?: number;
    error?: string;
}

/** What an alert measures: the runs of its project that ended since the window's start (one ending "in the future" by its own clock counts), as the engine reads them. */
export type Measure = (a: AlertRecord, fromMs: number) => number | undefined;

type Stored = Omit<AlertRecord, "actions"> & { actions: Sealed };

export class Alerts {
    private items: AlertRecord[] = [];
    readonly deliveries: AlertDelivery[] = [];
    private readonly store: Store<{ alerts: Stored[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "alerts.json");
        this.items = (this.store.load()?.alerts ?? []).map((a) => ({ ...a, actions: this.store.open<Action[]>(a.actions) }));
    }

    reset(): void {
        this.items = [];
        this.deliveries.length = 0;
        this.save();
    }

    private save(): void {
        this.store.save({ alerts: this.items.map((a) => ({ ...a, actions: this.store.seal(a.actions) })) });
    }

    get(tenantId: string, sessionId: string, id: string): AlertRecord {
        const a = this.items.find((x) => x.tenant_id === tenantId && x.session_id === sessionId && x.id === id);
        if (!a) throw platformError(404, `alert rule ${id} not found`);
        return a;
    }

    create(tenantId: string, sessionId: string, body: AlertWriteRequest): AlertRecord {
        const now = this.clock.iso();
        const { id: asked, ...rule } = body.rule;
        if (asked !== undefined && !UUID_RE.test(asked)) throw platformError(400, `rule.id ${JSON.stringify(asked)} is not a UUID`);
        if (asked !== undefined && this.items.some((x) => x.id.toLowerCase() === asked.toLowerCase()))
            throw platformError(400, `alert rule ${asked} already exists`);
        const id = asked?.toLowerCase() ?? randomUUID();
        const made: AlertRecord = { id, tenant_id: tenantId, session_id: sessionId, rule, actions: [], created_at: now, updated_at: now };
        made.actions = this.actions(made, body);
        this.items.push(made);
        this.save();
        return made;
    }

    update(tenantId: string, sessionId: string, id: string, body: AlertWriteRequest): AlertRecord {
        const a = this.get(tenantId, sessionId, id);
        const actions = this.actions(a, body);
        // The path names the alert: an id in the body changes nothing.
        const { id: _, ...rule } = body.rule;
        Object.assign(a, { rule, actions, updated_at: this.clock.iso(), fired_window: undefined });
        this.save();
        return a;
    }

    delete(tenantId: string, sessionId: string, id: string): void {
        const a = this.get(tenantId, sessionId, id);
        this.items = this.items.filter((x) => x !== a);
        this.save();
    }

    /** The rules held, without their actions (the test-only admin state lists them: the service lists no project's alerts). */
    held(): Array<{ id: string; tenant_id: string; session_id: string; name: string }> {
        return this.items.map((a) => ({ id: a.id, tenant_id: a.tenant_id, session_id: a.session_id, name: a.rule.name }));
    }

    /** The alerts of a deleted project go with it. */
    dropSession(sessionId: string): void {
        const before = this.items.length;
        this.items = this.items.filter((a) => a.session_id !== sessionId);
        if (this.items.length !== before) this.save();
    }

    /** The actions of a write: at least one; each config an object (a JSON string read as one); a webhook needs a `url`. */
    private actions(a: AlertRecord, body: AlertWriteRequest): Action[] {
        if (!body.actions.length) throw platformError(400, "an alert rule needs at least one action");
        if (body.rule.type === "threshold" && body.rule.threshold === undefined) throw platformError(400, "a threshold alert needs a threshold");
        const now = this.clock.iso();
        return body.actions.map((x, i) => {
            let config: unknown = x.config;
            if (typeof config === "string") {
                try {
                    config = JSON.parse(config);
                } catch {
                    throw platformError(400, `actions[${i}].config is not JSON`);
                }
            }
            if (typeof config !== "object" || config === null || Array.isArray(config)) throw platformError(400, `actions[${i}].config must be an object`);
            const c = config as Record<string, unknown>;
            if (x.target === "webhook" && typeof c.url !== "string") throw platformError(400, `actions[${i}].config.url is required for a webhook`);
            if (x.target === "pagerduty" && typeof c.routing_key !== "string")
                throw platformError(400, `actions[${i}].config.routing_key is required for pagerduty`);
            return { id: x.id ?? randomUUID(), alert_rule_id: a.id, target: x.target, config: c, created_at: now, updated_at: now };
        });
    }

    /** Fires the alerts whose measure over their window crosses the threshold, once per window. */
    evaluate(measure: Measure): void {
        const now = this.clock.now();
        for (const a of this.items) {
            const windowMs = a.rule.window_minutes * 60_000;
            const from = Math.floor(now / windowMs) * windowMs;
            const start = new Date(from).toISOString();
            if (a.fired_window === start) continue;
            const value = measure(a, now - windowMs);
            if (value === undefined || !crosses(a.rule.operator, value, a.rule.threshold ?? 0)) continue;
            a.fired_window = start;
            this.save();
            this.fire(a, value, now - windowMs, now);
        }
    }

    private fire(a: AlertRecord, value: number, from: number, to: number): void {
        const payload = {
            alert_rule_id: a.id,
            session_id: a.session_id,
            name: a.rule.name,
            attribute: a.rule.attribute,
            aggregation: a.rule.aggregation,
            value,
            threshold: a.rule.threshold ?? null,
            window_start: new Date(from).toISOString(),
            window_end: new Date(to).toISOString(),
        };
        for (const action of a.actions) {
            const d: AlertDelivery = { alert_rule_id: a.id, target: action.target, payload };
            this.deliveries.push(d);
            if (action.target !== "webhook") continue;
            d.url = String(action.config.url);
            const headers = { "content-type": "application/json", ...(action.config.headers as Record<string, string> | undefined) };
            fetch(d.url, { method: "POST", headers, body: JSON.stringify(payload), signal: AbortSignal.timeout(10_000) })
                .then((r) => void (d.status = r.status))
                .catch((e: Error) => void (d.error = e.message));
        }
    }
}

function crosses(op: string, value: number, threshold: number): boolean {
    return op === "gt" ? value > threshold : op === "gte" ? value >= threshold : op === "lt" ? value < threshold : value <= threshold;
}
