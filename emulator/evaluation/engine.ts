/**
 * The rule engine (docs/service.md R10.4): what the service does with a run traced into a project that has run
 * rules. Ingestion only hands it the ids of the runs a request touched (`notify`, a push onto a list): the work
 * happens after the request is answered, in slices between other requests (setImmediate), so ingestion's
 * critical section does not grow with the rules (`npm run bench -- rules`).
 *
 * A run is taken once it has ended (`end_time`; a run still going waits for its patch). For each enabled rule of
 * its project (or of the dataset its project is an experiment of), once per rule and run:
 * - `filter` must match the run, `trace_filter` the root run of its trace (as held when the run is taken: a trace
 *   whose root has not arrived does not match), `tree_filter` some run of its trace (the shared filter
 *   evaluator, bulkExport/filterEval.ts);
 * - the run is sampled: kept when `sampleOf(rule, run) < sampling_rate`, a hash of the two ids, so the same run
 *   and rule always decide alike and tests can count;
 * - its actions: added to the annotation queue; added to the dataset as an example (inputs, outputs, the run as
 *   its source); the rule's webhooks called (one POST per rule and slice: `{rule_id, start_time, end_time,
 *   runs}`, decided); scored by the saved or inline code evaluators (codeRunner.ts, at most two at a time), each
 *   score stored as feedback under its key with `feedback_source.type = "auto_eval"`; an LLM evaluator is never
 *   run (no model offline) and never faked: its log says `skipped` and why.
 * Each application is logged (`GET /runs/rules/{id}/logs`, `RuleLogSchema`). Alerts are measured after each
 * slice and on a timer (alerts.ts). A backfill (a rule's write naming `backfill_from`) hands the engine the runs of
 * the rule's project since that time, each taken for that one rule the same way, whether it took them before or
 * not (`backfill`).
 *
 * Fault switches (`PUT /__admin/evaluation`): `paused` holds every run until switched off; `codeEvaluators:
 * "unavailable"` makes every code evaluation fail with an error in the log, as a service whose sandbox is down.
 */
import { type FilterExpr, parseFilter } from "../../provider/api/filter";
import type { Clock } from "../core/clock";
import { type FilterableRun, matches } from "../bulkExport/filterEval";
import type { TracedRun } from "../tracing/store";
import { exportRow } from "../tracing/exportable";
import { microsOf } from "../tracing/times";
import type { AlertRecord, Alerts } from "./alerts";
import { runCode, type Score } from "./codeRunner";
import type { Evaluators } from "./evaluators";
import type { RunRuleRecord, RunRules } from "./runRules";

/** A run as the rules read it: its exported row (tracing/exportable.ts), in the fields the engine uses. */
export type Row = FilterableRun & {
    id: string;
    tenant_id: string;
    session_id: string;
    trace_id: string;
    name: string;
    run_type: string;
    start_time: string;
    end_time: string | null;
    status: string;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown> | null;
    total_cost: number | null;
};
/** What exportRow derives at a cost (times parsed and printed, events scanned): read on demand, by a filter that names them. */
const DERIVED = ["dotted_order", "parent_run_ids", "first_token_time"] as const;

/**
 * A run as a rule reads it: its exported row (tracing/exportable.ts) with the costly derived fields computed only
 * when read. Most rules never read them, and the engine builds a row for nearly every run of a project with rules.
 */
function rowOf(run: TracedRun | undefined): Row | undefined {
    if (!run || run.name === undefined || run.run_type === undefined || run.start_time === undefined) return undefined;
    const prompt = run.prompt_tokens ?? 0;
    const completion = run.completion_tokens ?? 0;
    let whole: ReturnType<typeof exportRow>;
    const row = {
        ...run,
        trace_id: run.trace_id ?? run.id,
        parent_run_id: run.parent_run_id ?? null,
        end_time: run.end_time ?? null,
        status: run.error !== undefined ? "error" : run.end_time !== undefined ? "success" : "pending",
        is_root: !run.parent_run_id,
        inputs: run.inputs ?? {},
        outputs: run.outputs ?? null,
        error: run.error ?? null,
        extra: { metadata: {}, ...run.extra },
        tags: run.tags ?? [],
        feedback_stats: null,
        total_tokens: run.total_tokens ?? prompt + completion,
        total_cost: null,
    } as Row;
    for (const f of DERIVED) Object.defineProperty(row, f, { enumerable: true, get: () => (whole ??= exportRow(run, "longlived"))?.[f] });
    return row;
}

/** What the engine reads and writes in the other areas (the tracing store, the queues, the datasets, the feedback). */
export interface EngineSinks {
    run(tenantId: string, id: string): TracedRun | undefined;
    runsOf(sessionId: string): readonly TracedRun[];
    /** The dataset a project is an experiment of, if any. */
    datasetOf(sessionId: string): string | undefined;
    /** The projects that are experiments of a dataset (the ones a rule on the dataset takes the runs of). */
    experimentsOf(tenantId: string, datasetId: string): string[];
    addToQueue(tenantId: string, queueId: string, runIds: string[]): void;
    addExamples(tenantId: string, datasetId: string, rows: Row[]): void;
    addFeedback(
        tenantId: string,
        f: { run_id: string; trace_id: string; key: string; score: number | null; value: string | null; source: Record<string, unknown> },
    ): void;
    /** The scores stored on a run (for feedback-score alerts). */
    scoresOf(tenantId: string, runId: string, key?: string): number[];
}

type Outcome = { outcome: "success" | "skipped" | "error"; payload?: Record<string, unknown> };
export interface RuleLog {
    rule_id: string;
    run_id: string;
    run_name: string | null;
    run_type: string | null;
    run_session_id: string | null;
    start_time: string;
    end_time: string;
    application_time: string;
    add_to_annotation_queue: Outcome | null;
    add_to_dataset: Outcome | null;
    evaluators: Outcome | null;
    webhooks: Outcome | null;
}

export interface RuleDelivery {
    rule_id: string;
    url: string;
    runs: number;
    status?: number;
    error?: string;
}

export interface EngineSettings {
    paused: boolean;
    codeEvaluators: "run" | "unavailable";
}

/** FNV-1a, 32 bits. */
function fnv(s: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
}

/**
 * Where a run and rule fall in 0..1: the FNV-1a hashes of the two ids, mixed (murmur3's finalizer), so the same pair
 * always decides alike (tests count with it) and a run's hash is made once for all the rules of its project.
 */
export function sampleOf(ruleId: string, runId: string | number): number {
    let h = (typeof runId === "number" ? runId : fnv(runId)) ^ fnv(ruleId);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/** What the runs of a slice add to one queue or dataset, and the logs that say how it went. */
type Pending = { rows: Row[]; logs: RuleLog[] };
class SliceWrites {
    constructor(readonly at: string) {}
    readonly queues = new Map<string, Pending>();
    readonly datasets = new Map<string, Pending>();
    readonly hooks = new Map<RunRuleRecord, Row[]>();
    add(to: Map<string, Pending>, key: string, row: Row, log: RuleLog): void {
        const p = to.get(key) ?? { rows: [], logs: [] };
        if (!to.has(key)) to.set(key, p);
        p.rows.push(row);
        p.logs.push(log);
    }
}

/** A backfill in progress: its rule, which of the rule's backfills, and how many of its runs are taken. */
interface BackfillWork {
    ruleId: string;
    backfillId: string;
    total: number;
    done: number;
}

/** A run handed over: by ingestion (for every rule of its project), or by a backfill (for its one rule). */
type Handed = [tenantId: string, runId: string, backfill?: BackfillWork];

/** A slice takes at most this many runs, or this many ms. */
const SLICE = 500;
const SLICE_MS = 3;
/** While ingestion is busy (a run came in the last BUSY_MS), one slice per BUSY_MS... */
const BUSY_MS = 25;
/** ...unless this many runs wait: then at full speed (the backlog's memory bounded). */
const MAX_BACKLOG = 100_000;
const MAX_CODE_AT_ONCE = 2;

export class RuleEngine {
    /** The runs handed over and not taken yet, from `head` on (a list read from the front, compacted now and then). */
    private pending: Handed[] = [];
    private head = 0;
    /** The runs taken (by tenant and id): each once, whatever its later patches. */
    private readonly taken = new Set<string>();
    readonly logs: RuleLog[] = [];
    readonly deliveries: RuleDelivery[] = [];
    readonly settings: EngineSettings = { paused: false, codeEvaluators: "run" };
    private scheduled = false;
    private lastIngest = 0;
    private running = 0;
    private readonly codeQueue: Array<() => Promise<void>> = [];
    private readonly filters = new Map<string, FilterExpr>();
    private readonly waiters: Array<() => void> = [];
    private timer: NodeJS.Timeout | undefined;

    constructor(
        private readonly clock: Clock,
        private readonly rules: RunRules,
        private readonly evaluators: Evaluators,
        private readonly alerts: Alerts,
        private readonly sinks: EngineSinks,
    ) {
        this.timer = setInterval(() => this.alerts.evaluate(this.measure), 5_000);
        this.timer.unref();
    }

    /** Ingestion's one call: the runs a request touched, taken later. */
    notify(tenantId: string, runIds: Iterable<string>): void {
        this.lastIngest = performance.now();
        for (const id of runIds) this.pending.push([tenantId, id]);
        this.schedule();
    }

    private schedule(): void {
        if (this.scheduled || this.settings.paused || !this.waiting()) {
            this.settle();
            return;
        }
        this.scheduled = true;
        const run = () => {
            this.scheduled = false;
            this.slice();
            this.schedule();
        };
        // While runs keep coming, a slice every BUSY_MS (ingestion first); once they stop, or the backlog is large, at once.
        const busy = performance.now() - this.lastIngest < BUSY_MS && this.waiting() < MAX_BACKLOG;
        if (busy) setTimeout(run, BUSY_MS);
        else setImmediate(run);
    }

    private waiting(): number {
        return this.pending.length - this.head;
    }

    /** Switches the fault switches; taking runs again once unpaused. */
    set(s: Partial<EngineSettings>): EngineSettings {
        Object.assign(this.settings, s);
        this.schedule();
        return this.settings;
    }

    /**
     * The backfill `rule`'s write asked (docs/service.md R10.4): the ended runs of its project (or of its dataset's
     * experiments) that started at `backfill_from` or later, handed over for that rule; its progress told to the
     * rules (`backfillProgress`), done at once when there are none.
     */
    backfill(rule: RunRuleRecord): void {
        const backfillId = rule.backfill_id as string;
        const from = Date.parse(rule.backfill_from ?? "") * 1000;
        const sessions = rule.session_id ? [rule.session_id] : this.sinks.experimentsOf(rule.tenant_id, rule.dataset_id ?? "");
        const runs = sessions.flatMap((s) => this.sinks.runsOf(s)).filter((r) => r.end_time && (microsOf(r.start_time) ?? -Infinity) >= from);
        if (!runs.length) {
            this.rules.backfillProgress(rule.tenant_id, rule.id, backfillId, 1);
            return;
        }
        const work: BackfillWork = { ruleId: rule.id, backfillId, total: runs.length, done: 0 };
        for (const r of runs) this.pending.push([rule.tenant_id, r.id, work]);
        this.schedule();
    }

    /** Resolves once every run handed over has been taken and every evaluation finished (tests, the bench). */
    idle(): Promise<void> {
        if (this.isIdle()) return Promise.resolve();
        return new Promise((resolve) => this.waiters.push(resolve));
    }

    status() {
        return { pending: this.waiting(), evaluating: this.running + this.codeQueue.length, ...this.settings };
    }

    private isIdle(): boolean {
        return (this.settings.paused || !this.waiting()) && !this.scheduled && this.running === 0 && !this.codeQueue.length;
    }

    private settle(): void {
        if (!this.isIdle()) return;
        for (const w of this.waiters.splice(0)) w();
    }

    reset(): void {
        this.pending = [];
        this.head = 0;
        this.taken.clear();
        this.logs.length = 0;
        this.deliveries.length = 0;
        this.codeQueue.length = 0;
        Object.assign(this.settings, { paused: false, codeEvaluators: "run" });
    }

    close(): void {
        clearInterval(this.timer);
    }

    /**
     * Takes up to SLICE runs: each against its project's rules, once; what the rules add to a queue or a dataset
     * is added once per target for the slice, and each rule's webhooks are called once for it.
     */
    private slice(): void {
        const writes = new SliceWrites(this.clock.iso());
        const t0 = performance.now();
        let taken = 0;
        while (this.waiting() && taken < SLICE && (taken % 50 || performance.now() - t0 < SLICE_MS)) {
            const [tenantId, id, backfill] = this.pending[this.head++];
            taken++;
            if (backfill) {
                this.backfillOne(tenantId, id, backfill, writes);
                continue;
            }
            const run = this.sinks.run(tenantId, id);
            if (!run?.end_time) continue;
            const rules = this.rulesOf(tenantId, run.session_id);
            const key = `${tenantId}/${id}`;
            if (!rules.length || this.taken.has(key)) continue;
            this.taken.add(key);
            let row: Row | undefined;
            const runHash = fnv(id);
            for (const rule of rules) {
                // Sampled first: a hash costs less than the row and its filters, and most runs are sampled out.
                if (sampleOf(rule.id, runHash) >= rule.sampling_rate) continue;
                row ??= rowOf(run);
                if (row && this.matchesRule(rule, row)) this.apply(rule, row, writes);
            }
        }
        if (this.head > 4096 && this.head * 2 > this.pending.length) {
            this.pending = this.pending.slice(this.head);
            this.head = 0;
        }
        this.flush(writes);
        if (taken) this.alerts.evaluate(this.measure);
    }

    /** A run of a backfill, taken for its rule (still enabled, and still at that backfill: a later write's replaces it). */
    private backfillOne(tenantId: string, id: string, work: BackfillWork, writes: SliceWrites): void {
        const [rule] = this.rules.list(tenantId, { ids: [work.ruleId] });
        const run = this.sinks.run(tenantId, id);
        if (rule?.is_enabled && rule.backfill_id === work.backfillId && run && sampleOf(rule.id, id) < rule.sampling_rate) {
            const row = rowOf(run);
            if (row && this.matchesRule(rule, row)) this.apply(rule, row, writes);
        }
        this.rules.backfillProgress(tenantId, work.ruleId, work.backfillId, ++work.done / work.total);
    }

    private rulesOf(tenantId: string, sessionId: string): RunRuleRecord[] {
        const dataset = this.sinks.datasetOf(sessionId);
        const own = this.rules.ofSession(tenantId, sessionId);
        return dataset ? [...own, ...this.rules.ofDataset(tenantId, dataset)] : own;
    }

    /** Whether a run passes a rule's filters: its own, its trace root's, some run of its tree's. */
    private matchesRule(rule: RunRuleRecord, row: Row): boolean {
        if (!this.holds(rule.filter, row)) return false;
        if (rule.trace_filter && !this.holds(rule.trace_filter, rowOf(this.sinks.run(row.tenant_id, row.trace_id)))) return false;
        if (rule.tree_filter) {
            const tree = this.sinks.runsOf(row.session_id).filter((r) => (r.trace_id ?? r.id) === row.trace_id);
            if (!tree.some((r) => this.holds(rule.tree_filter, rowOf(r)))) return false;
        }
        return true;
    }

    private holds(filter: string | null | undefined, run: FilterableRun | undefined): boolean {
        if (!run) return false;
        if (!filter) return true;
        let expr = this.filters.get(filter);
        if (!expr) this.filters.set(filter, (expr = parseFilter(filter)));
        return matches(expr, run);
    }

    private apply(rule: RunRuleRecord, row: Row, writes: SliceWrites): void {
        const now = writes.at;
        const log: RuleLog = {
            rule_id: rule.id,
            run_id: row.id,
            run_name: row.name,
            run_type: row.run_type,
            run_session_id: row.session_id,
            start_time: now,
            end_time: now,
            application_time: now,
            add_to_annotation_queue: null,
            add_to_dataset: null,
            evaluators: null,
            webhooks: null,
        };
        this.logs.push(log);
        if (rule.add_to_annotation_queue_id) writes.add(writes.queues, `${row.tenant_id}/${rule.add_to_annotation_queue_id}`, row, log);
        if (rule.add_to_dataset_id) writes.add(writes.datasets, `${row.tenant_id}/${rule.add_to_dataset_id}`, row, log);
        if (rule.webhooks.length) {
            writes.hooks.set(rule, [...(writes.hooks.get(rule) ?? []), row]);
            log.webhooks = { outcome: "success", payload: { urls: rule.webhooks.length } };
        }
        this.evaluate(rule, row, log);
    }

    /** The slice's additions, one call per queue and per dataset (their outcome in each run's log), and its webhook calls. */
    private flush(writes: SliceWrites): void {
        const each = (
            targets: Map<string, Pending>,
            write: (tenantId: string, target: string, rows: Row[]) => void,
            field: "add_to_annotation_queue" | "add_to_dataset",
        ) => {
            for (const [key, { rows, logs }] of targets) {
                const [tenantId, target] = key.split("/");
                let outcome: Outcome = { outcome: "success" };
                try {
                    write(tenantId, target, rows);
                } catch (e) {
                    outcome = { outcome: "error", payload: { error: (e as Error).message } };
                }
                for (const l of logs) l[field] = outcome;
            }
        };
        each(
            writes.queues,
            (t, q, rows) =>
                this.sinks.addToQueue(
                    t,
                    q,
                    rows.map((r) => r.id),
                ),
            "add_to_annotation_queue",
        );
        each(writes.datasets, (t, d, rows) => this.sinks.addExamples(t, d, rows), "add_to_dataset");
        for (const [rule, rows] of writes.hooks) this.callWebhooks(rule, rows);
    }

    /** The rule's evaluators on the run: code ones queued for the sandbox; LLM ones skipped with the reason. */
    private evaluate(rule: RunRuleRecord, row: Row, log: RuleLog): void {
        const saved = rule.evaluator_id ? this.evaluators.find(rule.tenant_id, rule.evaluator_id) : undefined;
        const code = [
            ...(saved?.code_evaluator ? [{ ...saved.code_evaluator, evaluator_id: saved.id }] : []),
            ...(rule.code_evaluators ?? []).map((c) => ({ code: c.code, language: c.language ?? "python", evaluator_id: undefined })),
        ];
        const llm = (saved?.type === "llm" ? 1 : 0) + (rule.evaluators?.length ?? 0);
        if (rule.evaluator_id && !saved) log.evaluators = { outcome: "error", payload: { error: `evaluator ${rule.evaluator_id} not found` } };
        else if (llm && !code.length) log.evaluators = LLM_SKIPPED;
        if (!code.length) return;
        const scores: Score[] = [];
        const errors: string[] = [];
        let left = code.length;
        for (const c of code) {
            this.codeQueue.push(async () => {
                const out =
                    this.settings.codeEvaluators === "unavailable"
                        ? { ok: false as const, error: "the code evaluator sandbox is unavailable (fault switch)" }
                        : await runCode(c.code, c.language, runView(row), null);
                if (!out.ok) errors.push(out.error);
                for (const s of out.ok ? out.scores : []) {
                    try {
                        this.store(rule, row, s, c.evaluator_id);
                        scores.push(s);
                    } catch (e) {
                        errors.push(`feedback ${s.key} not stored: ${(e as Error).message}`);
                    }
                }
                if (--left === 0) log.evaluators = evaluationOutcome(scores, errors, llm);
            });
        }
        this.pump();
    }

    private store(rule: RunRuleRecord, row: Row, s: Score, evaluatorId: string | undefined): void {
        const source = { type: "auto_eval", metadata: { rule_id: rule.id, ...(evaluatorId ? { evaluator_id: evaluatorId } : {}) } };
        this.sinks.addFeedback(row.tenant_id, { run_id: row.id, trace_id: row.trace_id, key: s.key, score: s.score, value: s.value, source });
        const saved = evaluatorId && this.evaluators.find(rule.tenant_id, evaluatorId);
        if (saved) this.evaluators.noteKey(saved, s.key);
    }

    /** Runs queued code evaluations, at most MAX_CODE_AT_ONCE at a time. */
    private pump(): void {
        while (this.running < MAX_CODE_AT_ONCE && this.codeQueue.length) {
            const next = this.codeQueue.shift() as () => Promise<void>;
            this.running++;
            next()
                .catch((e: Error) => console.error("[emulator] code evaluator failed:", e))
                .finally(() => {
                    this.running--;
                    this.pump();
                    this.settle();
                });
        }
    }

    private callWebhooks(rule: RunRuleRecord, rows: Row[]): void {
        const now = this.clock.iso();
        const body = JSON.stringify({ rule_id: rule.id, start_time: now, end_time: now, runs: rows.map(runView), feedback_stats: null });
        for (const w of rule.webhooks) {
            const d: RuleDelivery = { rule_id: rule.id, url: w.url, runs: rows.length };
            this.deliveries.push(d);
            fetch(w.url, { method: "POST", headers: { "content-type": "application/json", ...w.headers }, body, signal: AbortSignal.timeout(10_000) })
                .then((r) => void (d.status = r.status))
                .catch((e: Error) => void (d.error = e.message));
        }
    }

    /** An alert's measure over the runs of its project that ended in the window (alerts.ts). */
    private readonly measure = (a: AlertRecord, from: number): number | undefined => {
        const filter = a.rule.filter;
        const runs = this.sinks
            .runsOf(a.session_id)
            .filter((r) => r.end_time && Date.parse(r.end_time) >= from)
            .map((r) => rowOf(r))
            .filter((r): r is Row => r !== undefined && (!filter || this.holds(filter, r)));
        return measureOf(a, runs, (id) => this.sinks.scoresOf(a.tenant_id, id));
    };
}

const LLM_SKIPPED: Outcome = {
    outcome: "skipped",
    payload: { reason: "LLM-as-judge evaluators are not run by the emulator: it calls no model. No score was stored." },
};

function evaluationOutcome(scores: Score[], errors: string[], llm: number): Outcome {
    const payload: Record<string, unknown> = { feedback_keys: scores.map((s) => s.key) };
    if (errors.length) payload.errors = errors;
    if (llm) payload.skipped = LLM_SKIPPED.payload?.reason;
    return { outcome: errors.length ? "error" : "success", payload };
}

/** A run as an evaluator and a webhook see it. */
function runView(row: Row) {
    const { tenant_id: _t, ...rest } = row;
    return rest;
}

/** The aggregate of an alert's attribute over the runs of its window (undefined: nothing to measure). */
function measureOf(a: AlertRecord, runs: Row[], scores: (runId: string) => number[]): number | undefined {
    const { attribute, aggregation } = a.rule;
    const agg = (xs: number[]) =>
        xs.length === 0 ? undefined : aggregation === "sum" ? xs.reduce((s, x) => s + x, 0) : xs.reduce((s, x) => s + x, 0) / xs.length;
    switch (attribute) {
        case "run_count":
            return runs.length;
        case "error_count": {
            const errors = runs.filter((r) => r.status === "error").length;
            if (aggregation === "sum") return errors;
            return runs.length ? (errors / runs.length) * (aggregation === "pct" ? 100 : 1) : undefined;
        }
        case "latency":
        case "run_latency":
            return agg(runs.filter((r) => r.end_time).map((r) => (Date.parse(r.end_time as string) - Date.parse(r.start_time)) / 1000));
        case "total_cost":
            return agg(runs.map((r) => Number(r.total_cost ?? 0)));
        case "feedback_score":
            return agg(runs.flatMap((r) => scores(r.id)));
    }
}
