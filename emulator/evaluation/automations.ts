/**
 * The automations area (docs/service.md R10): saved evaluators, run rules, alert rules (routes: rules.ts) and the
 * engine that applies the rules to the runs traced into the emulator (engine.ts). The tracing area hands the
 * engine the ids of the runs each ingestion touched (`onIngest`); what the engine writes elsewhere (queues,
 * examples, feedback) goes through `sinks`, given by the server.
 */
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { Alerts } from "./alerts";
import { type EngineSinks, RuleEngine } from "./engine";
import { Evaluators } from "./evaluators";
import { registerRules } from "./rules";
import { type RuleTargets, RunRules } from "./runRules";

export interface AutomationsArea extends Area {
    readonly evaluators: Evaluators;
    readonly rules: RunRules;
    readonly alerts: Alerts;
    readonly engine: RuleEngine;
    /** What ingestion calls with the runs a request touched. */
    onIngest(tenantId: string, runIds: Iterable<string>): void;
}

export function automationsArea(o: {
    clock: Clock;
    stateDir?: string;
    /** What a rule names, in the other areas (the evaluator is this area's). */
    targets: Omit<RuleTargets, "evaluator">;
    sinks: EngineSinks;
}): AutomationsArea {
    const evaluators = new Evaluators(o.clock, o.stateDir);
    const targets: RuleTargets = { ...o.targets, evaluator: (t, id) => evaluators.find(t, id)?.name };
    const rules = new RunRules(o.clock, targets, o.stateDir);
    const alerts = new Alerts(o.clock, o.stateDir);
    const engine = new RuleEngine(o.clock, rules, evaluators, alerts, o.sinks);
    return {
        name: "automations",
        evaluators,
        rules,
        alerts,
        engine,
        keyWorkspace: [/^(\/api\/v1)?\/platform\/(evaluators|alerts)(\/|$)/],
        notEmulated: [
            /^(\/api\/v1)?\/platform\/alerts\/[^/]+\/test\/?$/,
            /^(\/api\/v1)?\/runs\/rules\/(validate|trigger|[^/]+\/(trigger|last_applied|logs\/v2))/,
        ],
        onIngest: (tenantId, runIds) => engine.notify(tenantId, runIds),
        register: (router) => registerRules(router, { evaluators, rules, alerts, engine, targets }),
        reset: () => {
            evaluators.reset();
            rules.reset();
            alerts.reset();
            engine.reset();
        },
        close: async () => engine.close(),
    };
}
