/**
 * Feedback formulas (docs/service.md R9.5): `/feedback/formulas[/{feedback_formula_id}]` under `/api/v1` and under no
 * prefix. A formula is a weighted sum (`sum`: Σ weight·score) or average (`avg`: Σ weight·score / Σ weight) of feedback
 * keys, under a key of its own, on one dataset (its experiments) or one tracing project; kept in `--state-dir`
 * (`feedback-formulas.json`).
 *
 * The emulator computes it where the service shows it (decided: a composite score reads as feedback on the run):
 * `withFormulas` adds, to the feedback a run's read and the run queries sum up as `feedback_stats`, one score under
 * the formula's key for each run of its project (or of an experiment on its dataset) that has a score under every one
 * of its parts (the mean of the run's scores under that key); a run missing a part has no formula score. It is worked
 * out at each read, so a changed weight or a new feedback shows at once, and nothing is stored as feedback.
 *
 * Registered before the evaluation area's `/feedback/{feedback_id}`, which would take `/feedback/formulas` for an id.
 */
import { randomUUID } from "node:crypto";
import {
    FeedbackFormulaCreateRequestSchema,
    FeedbackFormulaUpdateRequestSchema,
    type FeedbackFormula,
    type FeedbackFormulaCreateRequest,
    type FeedbackFormulaUpdateRequest,
    formulaProblems,
} from "../../provider/api/schemas/feedbackFormulas";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { conflict, EmulatorError, invalidField, requireUuid, requireUuidAt, validation } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store } from "../core/store";
import type { RunFeedback } from "../tracing/query";

export type FormulaRecord = FeedbackFormula & { tenant_id: string };

/** What formulas read of the other areas. */
export interface FormulaLinks {
    /** Whether the workspace holds the dataset. */
    datasetExists(tenantId: string, datasetId: string): boolean;
    /** The workspace's project: its reference dataset (null: none), or undefined when it holds no such project. */
    projectDataset(tenantId: string, sessionId: string): string | null | undefined;
}

/** A feedback as the run reads sum it up, with the project it is in (evaluation/feedback.ts). */
export type ProjectFeedback = RunFeedback & { session_id: string | null };

export interface FormulasArea extends Area {
    /** The workspace's feedback with each formula's score added to the runs it applies to. */
    withFormulas(tenantId: string, feedback: readonly ProjectFeedback[]): RunFeedback[];
}

export function formulasArea(o: { clock: Clock; stateDir?: string; links: FormulaLinks }): FormulasArea {
    const model = new FormulaModel(o.clock, o.links, o.stateDir);
    return {
        name: "formulas",
        register: (router) => registerFormulas(router, model),
        reset: () => model.reset(),
        withFormulas(tenantId, feedback) {
            const formulas = model.live(tenantId);
            if (!formulas.length) return [...feedback];
            return [...feedback, ...computed(formulas, feedback, (s) => o.links.projectDataset(tenantId, s) ?? null)];
        },
    };
}

/** The formulas of every workspace, kept in `--state-dir`. */
class FormulaModel {
    private items: FormulaRecord[];
    private readonly store: Store<FormulaRecord[]>;

    constructor(
        private readonly clock: Clock,
        private readonly links: FormulaLinks,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "feedback-formulas.json");
        this.items = this.store.load() ?? [];
    }

    reset(): void {
        this.items = [];
        this.store.save(this.items);
    }

    /** The workspace's formulas whose dataset or project it still holds (one of a deleted one reads as gone). */
    live(tenantId: string): FormulaRecord[] {
        const there = (f: FormulaRecord) =>
            f.dataset_id ? this.links.datasetExists(tenantId, f.dataset_id) : this.links.projectDataset(tenantId, f.session_id ?? "") !== undefined;
        return this.items.filter((f) => f.tenant_id === tenantId && there(f));
    }

    get(tenantId: string, id: string): FormulaRecord {
        const f = this.live(tenantId).find((x) => x.id === id.toLowerCase());
        if (!f) throw new EmulatorError(404, { detail: `Feedback formula ${id} not found` });
        return f;
    }

    create(tenantId: string, body: FeedbackFormulaCreateRequest): FormulaRecord {
        const scope = scopeOf(tenantId, body.dataset_id ?? null, body.session_id ?? null, this.links);
        checkParts(body);
        this.keyFree(tenantId, scope, body.feedback_key);
        const now = this.clock.iso();
        const f: FormulaRecord = { ...body, ...scope, id: randomUUID(), tenant_id: tenantId, created_at: now, modified_at: now };
        this.items.push(f);
        return this.saved(f);
    }

    update(tenantId: string, id: string, body: FeedbackFormulaUpdateRequest): FormulaRecord {
        const f = this.get(tenantId, id);
        checkParts(body);
        this.keyFree(tenantId, f, body.feedback_key, f.id);
        return this.saved(Object.assign(f, body, { modified_at: this.clock.iso() }));
    }

    delete(tenantId: string, id: string): void {
        this.items.splice(this.items.indexOf(this.get(tenantId, id)), 1);
        this.saved(undefined);
    }

    /** Saves the snapshot; answers `x`. */
    private saved<T>(x: T): T {
        this.store.save(this.items);
        return x;
    }

    /** 409 when another formula of the dataset or project has the key (decided). */
    private keyFree(tenantId: string, scope: { dataset_id?: string | null; session_id?: string | null }, key: string, self?: string): void {
        const taken = this.live(tenantId).find(
            (f) => f.id !== self && f.feedback_key === key && f.dataset_id === scope.dataset_id && f.session_id === scope.session_id,
        );
        if (taken) throw conflict(`A feedback formula with key ${key} already exists on this ${scope.dataset_id ? "dataset" : "project"} (${taken.id})`);
    }
}

/** `/feedback/formulas[/{feedback_formula_id}]`: create, list (by dataset or project, paged), read, replace, delete. */
function registerFormulas(router: Router, model: FormulaModel): void {
    const id = (c: RequestContext) => requireUuid(c.params.feedback_formula_id, "feedback_formula_id");
    const uuidQuery = (c: RequestContext, name: string) => {
        const v = c.query.get(name);
        return v === null ? undefined : requireUuidAt(v, ["query", name]).toLowerCase();
    };
    router
        .onApi("POST", "/feedback/formulas", (c) => ({
            status: 200,
            body: view(model.create(c.tenantId, parse(FeedbackFormulaCreateRequestSchema, c.body, "body"))),
        }))
        .onApi("GET", "/feedback/formulas", (c) => {
            const [d, s] = [uuidQuery(c, "dataset_id"), uuidQuery(c, "session_id")];
            const all = model.live(c.tenantId).filter((f) => (d === undefined || f.dataset_id === d) && (s === undefined || f.session_id === s));
            // The description bounds neither: a negative offset reads from the start, a limit under 1 lists none (decided).
            const [limit, offset] = [integer(c, "limit", 20), Math.max(0, integer(c, "offset", 0))];
            return { status: 200, body: all.slice(offset, offset + Math.max(0, limit)).map(view) };
        })
        .onApi("GET", "/feedback/formulas/{feedback_formula_id}", (c) => ({ status: 200, body: view(model.get(c.tenantId, id(c))) }))
        .onApi("PUT", "/feedback/formulas/{feedback_formula_id}", (c) => ({
            status: 200,
            body: view(model.update(c.tenantId, id(c), parse(FeedbackFormulaUpdateRequestSchema, c.body, "body"))),
        }))
        .onApi("DELETE", "/feedback/formulas/{feedback_formula_id}", (c) => {
            model.delete(c.tenantId, id(c));
            return { status: 200, body: {} };
        });
}

/** An integer query parameter the description bounds by nothing (422 `int_parsing` for anything else). */
function integer(c: RequestContext, name: string, dflt: number): number {
    const v = c.query.get(name);
    if (v === null) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n)) throw invalidField(["query", name], "Input should be a valid integer, unable to parse string as an integer", "int_parsing");
    return n;
}

/** A formula as the service answers it (`FeedbackFormula`: no tenant). */
const view = ({ tenant_id: _t, ...f }: FormulaRecord): FeedbackFormula => f;

/** Exactly one of a dataset and a project, which the workspace holds (decided: 422, 404). */
function scopeOf(tenantId: string, datasetId: string | null, sessionId: string | null, links: FormulaLinks) {
    if ((datasetId === null) === (sessionId === null)) {
        throw invalidField(["body", "dataset_id"], "A feedback formula is on a dataset (dataset_id) or a tracing project (session_id): give exactly one");
    }
    if (datasetId !== null && !links.datasetExists(tenantId, datasetId.toLowerCase()))
        throw new EmulatorError(404, { detail: `Dataset ${datasetId} not found` });
    if (sessionId !== null && links.projectDataset(tenantId, sessionId.toLowerCase()) === undefined) {
        throw new EmulatorError(404, { detail: `Session ${sessionId} not found` });
    }
    return { dataset_id: datasetId?.toLowerCase() ?? null, session_id: sessionId?.toLowerCase() ?? null };
}

/** The rules beyond the shape (R9.5, decided): 422 at each part that breaks one. */
function checkParts(body: FeedbackFormulaUpdateRequest): void {
    const problems = formulaProblems(body.feedback_key, body.formula_parts);
    if (problems.length) throw validation(problems.map(([i, msg]) => ({ loc: ["body", "formula_parts", i, "key"], msg, type: "value_error" })));
}

/** The formulas' scores of the runs they apply to, as feedback of the source `formula` (decided). */
function computed(formulas: readonly FormulaRecord[], feedback: readonly ProjectFeedback[], datasetOf: (sessionId: string) => string | null): RunFeedback[] {
    const byRun = new Map<string, ProjectFeedback[]>();
    for (const f of feedback) if (f.run_id && f.score !== null) byRun.set(f.run_id, [...(byRun.get(f.run_id) ?? []), f]);
    const out: RunFeedback[] = [];
    for (const [runId, given] of byRun) {
        const session = given[0].session_id;
        if (!session) continue;
        for (const formula of formulas.filter((x) => x.session_id === session || (x.dataset_id !== null && x.dataset_id === datasetOf(session)))) {
            const score = scoreOf(formula, given);
            if (score !== undefined)
                out.push({ run_id: runId, key: formula.feedback_key, score, value: null, comment: null, feedback_source: { type: "formula" } });
        }
    }
    return out;
}

/** Σ weight·mean score (`sum`), divided by Σ weight (`avg`); undefined when a part has no score on the run, or an average's weights sum to 0. */
export function scoreOf(formula: Pick<FeedbackFormula, "aggregation_type" | "formula_parts">, given: readonly RunFeedback[]): number | undefined {
    let total = 0;
    let weights = 0;
    for (const part of formula.formula_parts) {
        const scores = given.filter((f) => f.key === part.key && f.score !== null).map((f) => Number(f.score));
        if (!scores.length) return undefined;
        total += part.weight * (scores.reduce((a, b) => a + b, 0) / scores.length);
        weights += part.weight;
    }
    if (formula.aggregation_type === "sum") return total;
    return weights === 0 ? undefined : total / weights;
}
