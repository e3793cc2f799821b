/**
 * The automations' routes (docs/service.md R10): saved evaluators (`/platform/evaluators`), run rules
 * (`/runs/rules`) and alert rules (`/platform/alerts/{session_id}`), on the tracing API under `/api/v1` and under
 * no prefix (Router.onApi); and the
 * test-only `/__admin/evaluation` (the engine's fault switches, its state, the webhook calls it made).
 */
import {
    AlertWriteRequestSchema,
    EvaluatorCreateRequestSchema,
    EvaluatorUpdateRequestSchema,
    RunRuleWriteRequestSchema,
    type RunRuleWriteRequest,
} from "../../provider/api/schemas/rules";
import { platformError, requireUuid } from "../core/errors";
import { type Handler, page, parse, type RequestContext, type Router } from "../core/http";
import type { AlertRecord, Alerts } from "./alerts";
import type { RuleEngine } from "./engine";
import type { EvaluatorRecord, Evaluators } from "./evaluators";
import type { RunRuleRecord, RunRules } from "./runRules";
import type { RuleTargets } from "./runRules";

export interface RuleParts {
    evaluators: Evaluators;
    rules: RunRules;
    alerts: Alerts;
    engine: RuleEngine;
    targets: RuleTargets;
}

/**
 * A platform route under `/api/v1/platform` and `/platform`; the description's `/v1/platform/...` reaches it too
 * (the server routes it as `/api/v1/platform/...`: core/server.ts routedPath), and answers what the shared schemas
 * refuse 400 `{error}`, as the platform's operations answer (core/server.ts PLATFORM_PATH).
 */
function onPlatform(router: Router, method: string, template: string, handler: Handler): void {
    router.onApi(method, `/platform${template}`, handler);
}

/**
 * The evaluators list's `limit` (1 to 100, default 100: the description's "Maximum number of results (1-100)") and
 * `offset` (default 0), read leniently (**decided**, docs/service.md R10.1: the description allows any integer): a
 * value outside is brought inside, never refused; what is no integer is 400.
 */
function platformPage(q: URLSearchParams): { limit: number; offset: number } {
    const int = (name: string, dflt: number) => {
        const raw = q.get(name);
        if (raw === null) return dflt;
        if (!/^-?\d+$/.test(raw.trim())) throw platformError(400, `${name} must be an integer`);
        return Number(raw);
    };
    return { limit: Math.min(100, Math.max(1, int("limit", 100))), offset: Math.max(0, int("offset", 0)) };
}

export function registerRules(router: Router, p: RuleParts): void {
    registerEvaluators(router, p);
    registerRunRules(router, p);
    registerAlerts(router, p);
    registerAdmin(router, p);
}

function registerEvaluators(router: Router, p: RuleParts): void {
    const view = (e: EvaluatorRecord) => {
        const rules = p.rules.list(e.tenant_id, { evaluatorId: e.id });
        const run_rules = rules.map((r) => ({
            id: r.id,
            session_id: r.session_id ?? undefined,
            session_name: r.session_id ? p.targets.session(r.tenant_id, r.session_id) : undefined,
            dataset_id: r.dataset_id ?? undefined,
            dataset_name: r.dataset_id ? p.targets.dataset(r.tenant_id, r.dataset_id) : undefined,
            use_corrections_dataset: r.use_corrections_dataset ?? false,
        }));
        const code_evaluator = e.code_evaluator ? { ...e.code_evaluator, evaluator_id: e.id } : undefined;
        const llm_evaluator = e.llm_evaluator ? { ...e.llm_evaluator, evaluator_id: e.id } : undefined;
        return { ...e, code_evaluator, llm_evaluator, run_rules };
    };
    const id = (c: RequestContext) => c.params.evaluator_id;
    onPlatform(router, "GET", "/evaluators", (c) => {
        const all = p.evaluators.list(c.tenantId, { type: c.query.get("type") ?? undefined, nameContains: c.query.get("name_contains") ?? undefined });
        const { limit, offset } = platformPage(c.query);
        return { status: 200, body: { evaluators: all.slice(offset, offset + limit).map(view), total: all.length } };
    });
    onPlatform(router, "POST", "/evaluators", (c) => {
        const body = parse(EvaluatorCreateRequestSchema, c.body, "body");
        return { status: 201, body: { evaluator: view(p.evaluators.create(c.tenantId, body)) } };
    });
    onPlatform(router, "GET", "/evaluators/{evaluator_id}", (c) => ({ status: 200, body: view(p.evaluators.get(c.tenantId, id(c))) }));
    onPlatform(router, "PATCH", "/evaluators/{evaluator_id}", (c) => {
        const body = parse(EvaluatorUpdateRequestSchema, c.body, "body");
        return { status: 200, body: { evaluator: view(p.evaluators.update(c.tenantId, id(c), body)) } };
    });
    onPlatform(router, "DELETE", "/evaluators/{evaluator_id}", (c) => {
        const using = p.rules.list(c.tenantId, { evaluatorId: id(c) });
        const cascade = /^(true|1)$/i.test(c.query.get("delete_run_rules") ?? "");
        const names = using.map((r) => `${r.display_name} (${r.id})`);
        p.evaluators.delete(c.tenantId, id(c), names, cascade ? () => void using.map((r) => p.rules.delete(c.tenantId, r.id)) : undefined);
        return { status: 204 };
    });
}

function registerRunRules(router: Router, p: RuleParts): void {
    const view = (r: RunRuleRecord) => {
        const name = (look: (t: string, id: string) => string | undefined, id?: string | null) => (id ? (look(r.tenant_id, id) ?? null) : null);
        return {
            ...r,
            session_name: name((t, i) => p.targets.session(t, i), r.session_id),
            dataset_name: name((t, i) => p.targets.dataset(t, i), r.dataset_id),
            add_to_annotation_queue_name: name((t, i) => p.targets.queue(t, i), r.add_to_annotation_queue_id),
            add_to_dataset_name: name((t, i) => p.targets.dataset(t, i), r.add_to_dataset_id),
            evaluator_version: r.evaluator_version ?? 1,
        };
    };
    /** A write, answered; the backfill it asks (`backfill_from`, a new one at each write naming it) handed to the engine. */
    const write = (c: RequestContext, apply: (body: RunRuleWriteRequest) => RunRuleRecord) => {
        const body = parse(RunRuleWriteRequestSchema, c.body, "body");
        const r = apply(body);
        if (body.backfill_from) p.engine.backfill(r);
        return { status: 200, body: view(r) };
    };
    const id = (c: RequestContext) => requireUuid(c.params.rule_id, "rule_id");
    router
        .onApi("GET", "/runs/rules", (c) => {
            const q = {
                sessionId: c.query.get("session_id") ?? undefined,
                datasetId: c.query.get("dataset_id") ?? undefined,
                evaluatorId: c.query.get("evaluator_id") ?? undefined,
                nameContains: c.query.get("name_contains") ?? undefined,
                ids: c.query.getAll("id"),
            };
            return { status: 200, body: p.rules.list(c.tenantId, q).map(view) };
        })
        .onApi("POST", "/runs/rules", (c) => write(c, (b) => p.rules.create(c.tenantId, b)))
        .onApi("PATCH", "/runs/rules/{rule_id}", (c) => write(c, (b) => p.rules.update(c.tenantId, id(c), b)))
        .onApi("DELETE", "/runs/rules/{rule_id}", (c) => (p.rules.delete(c.tenantId, id(c)), { status: 200, body: {} }))
        .onApi("GET", "/runs/rules/{rule_id}/logs", (c) => {
            const rule = p.rules.get(c.tenantId, id(c));
            const logs = p.engine.logs.filter((l) => l.rule_id === rule.id);
            return { status: 200, body: page(c, logs, { defaultLimit: 100, maxLimit: 1000 }) };
        });
}

function registerAlerts(router: Router, p: RuleParts): void {
    const view = (a: AlertRecord) => ({
        rule: {
            ...a.rule,
            id: a.id,
            session_id: a.session_id,
            session_name: p.targets.session(a.tenant_id, a.session_id),
            created_at: a.created_at,
            updated_at: a.updated_at,
        },
        actions: a.actions,
    });
    const session = (c: RequestContext) => {
        const s = c.params.session_id;
        if (p.targets.session(c.tenantId, s) === undefined) throw platformError(404, `tracing project ${s} not found`);
        return s;
    };
    onPlatform(router, "POST", "/alerts/{session_id}", (c) => {
        const body = parse(AlertWriteRequestSchema, c.body, "body");
        return { status: 201, body: view(p.alerts.create(c.tenantId, session(c), body)) };
    });
    onPlatform(router, "GET", "/alerts/{session_id}/{alert_rule_id}", (c) => ({
        status: 200,
        body: view(p.alerts.get(c.tenantId, c.params.session_id, c.params.alert_rule_id)),
    }));
    onPlatform(router, "PATCH", "/alerts/{session_id}/{alert_rule_id}", (c) => {
        const body = parse(AlertWriteRequestSchema, c.body, "body");
        p.alerts.update(c.tenantId, c.params.session_id, c.params.alert_rule_id, body);
        // The description's answer (a map whose values are both strings and objects) admits only `{}`.
        return { status: 200, body: {} };
    });
    onPlatform(router, "DELETE", "/alerts/{session_id}/{alert_rule_id}", (c) => {
        p.alerts.delete(c.tenantId, c.params.session_id, c.params.alert_rule_id);
        return { status: 200, body: {} };
    });
}

/** `GET /__admin/evaluation`: the engine's state, the calls it made and the alert rules held (no route lists them); `PUT`: its fault switches; `POST .../idle`: waits for it. */
function registerAdmin(router: Router, p: RuleParts): void {
    const state = () => ({ ...p.engine.status(), rule_deliveries: p.engine.deliveries, alert_deliveries: p.alerts.deliveries, alert_rules: p.alerts.held() });
    router.on("GET", "/__admin/evaluation", () => ({ status: 200, body: state() }), { public: true });
    router.on(
        "PUT",
        "/__admin/evaluation",
        (c) => {
            const b = (c.body ?? {}) as { paused?: unknown; codeEvaluators?: unknown };
            if (b.paused !== undefined && typeof b.paused !== "boolean") throw platformError(400, "paused must be a boolean");
            if (b.codeEvaluators !== undefined && b.codeEvaluators !== "run" && b.codeEvaluators !== "unavailable") {
                throw platformError(400, "codeEvaluators must be run or unavailable");
            }
            p.engine.set(b as Parameters<RuleEngine["set"]>[0]);
            return { status: 200, body: state() };
        },
        { public: true },
    );
    router.on("POST", "/__admin/evaluation/idle", async () => (await p.engine.idle(), { status: 200, body: state() }), { public: true });
}
