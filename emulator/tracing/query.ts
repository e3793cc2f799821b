/**
 * Run queries (docs/service.md R5 "Reading traced runs"): which traced runs of a workspace a query selects, in which
 * order, a page at a time. Both dialects come here: `POST /runs/query` (the official clients' `list_runs` /
 * `listRuns`) and `POST /api/v2/runs/query` (their newer `runs.query`); runViews.ts words the answers.
 *
 * - **What is read.** The runs clients traced (store.ts), as bulk export writes them (exportable.ts), in the projects
 *   named (each must be the workspace's: 404), else in every project of the workspace not being deleted; a run
 *   expired by its project's retention (retention.ts), or only patched so far (no name, type or start yet), is not
 *   there. The runs the emulator generates for bulk-export tests (`--tracing-project`) are not queried (decided).
 * - **What selects.** Every criterion given must hold: ids, trace, parent, reference examples, run type, root or not,
 *   error or not (`status` `error`), start time within the bounds (inclusive), a free-text `query`, and the filters of
 *   the trace query syntax through the one parser and evaluator the rules and exports share (provider/api/filter.ts,
 *   bulkExport/filterEval.ts): `filter` on the run, `trace_filter` on its trace's root (a trace whose root is not there
 *   does not match), `tree_filter` on some run of its trace. A filter that does not parse, or reads a field the
 *   emulator cannot evaluate, is refused (400), as a bulk export's is.
 * - **Order and pages.** By start time, then id, newest first unless `asc`. A cursor is the place after (or before)
 *   the last (first) run of a page, its start time and id: runs traced while a client pages do not shift the pages
 *   it has not read yet, and none is answered twice.
 */
import type { FilterExpr } from "../../provider/api/filter";
import { badRequest, EmulatorError } from "../core/errors";
import { type BulkExportModel, checkFilter } from "../bulkExport/model";
import { matches } from "../bulkExport/filterEval";
import { exportRow } from "./exportable";
import type { TracedRun } from "./store";
import { isoOfMicros, microsOf } from "./times";

/** A run as a query reads it: its exported row (exportable.ts). */
export type QueriedRun = NonNullable<ReturnType<typeof exportRow>>;

/** What a query asks, in either dialect's words. */
export interface RunCriteria {
    /** Project ids; absent: every project of the workspace. */
    sessions?: string[];
    ids?: string[];
    trace?: string;
    parentRun?: string;
    referenceExamples?: string[];
    runType?: string;
    isRoot?: boolean;
    error?: boolean;
    /** Bounds of the runs' start time, inclusive (wire times). */
    minStart?: string;
    maxStart?: string;
    /** Free text looked for in the run's name, inputs, outputs and error. */
    search?: string;
    filter?: FilterExpr;
    traceFilter?: FilterExpr;
    treeFilter?: FilterExpr;
    order: "asc" | "desc";
}

/** A filter of a query's body, parsed; refused (400) naming the field when it does not parse or reads a field the emulator does not know. */
export function queryFilter(field: string, text: string | null | undefined): FilterExpr | undefined {
    try {
        return checkFilter(text);
    } catch (e) {
        if (e instanceof EmulatorError) throw badRequest(`${field}: ${e.message}`);
        throw e;
    }
}

/** A wire time in the stored form (UTC, microseconds), for comparing with the runs' times as strings. */
function stored(time: string | undefined): string | undefined {
    const us = time === undefined ? undefined : microsOf(time);
    return us === undefined ? undefined : isoOfMicros(us);
}

/** One feedback on a run, as the evaluation area holds it (evaluation/feedback.ts). */
export interface RunFeedback {
    run_id: string | null;
    key: string;
    score: number | boolean | null;
    value: unknown;
    comment: string | null;
    feedback_source: { type: string };
}

/** The feedback of a workspace, for its runs' `feedback_stats`. */
export type FeedbackOf = (tenantId: string) => readonly RunFeedback[];

/** What the scores of one key say: their mean, least, greatest and sample deviation, left out when there are none (or one, for the deviation). */
function scoreStats(scores: number[]): Record<string, number> {
    if (!scores.length) return {};
    const avg = scores.reduce((a, b) => a + b, 0) / scores.length;
    const stats: Record<string, number> = { avg, min: Math.min(...scores), max: Math.max(...scores) };
    if (scores.length > 1) stats.stdev = Math.sqrt(scores.reduce((a, b) => a + (b - avg) ** 2, 0) / (scores.length - 1));
    return stats;
}

/**
 * A run's `feedback_stats`, by key, in the fields the v2 description gives them (`query.RunFeedbackStat`; the v1 one
 * leaves the object open): how many (`n`), what the scores say (true counts 1, false 0), how many times each value
 * was given, the comments and the sources' types; `errors` 0 and no thread feedback (neither is emulated).
 */
function feedbackStats(given: readonly RunFeedback[]): NonNullable<QueriedRun["feedback_stats"]> {
    const keys = [...new Set(given.map((f) => f.key))];
    return Object.fromEntries(
        keys.map((key) => {
            const of = given.filter((f) => f.key === key);
            const values: Record<string, number> = {};
            for (const f of of) if (typeof f.value === "string") values[f.value] = (values[f.value] ?? 0) + 1;
            const stat = {
                n: of.length,
                ...scoreStats(of.filter((f) => f.score !== null).map((f) => Number(f.score))),
                values,
                errors: 0,
                comments: of.map((f) => f.comment).filter((c): c is string => typeof c === "string"),
                sources: [...new Set(of.map((f) => f.feedback_source.type))],
                contains_thread_feedback: false,
            };
            return [key, stat];
        }),
    );
}

/** The runs a query reads, and their rows, made once each (a trace's root and tree are read again by the filters). */
export class Reading {
    private readonly rows = new Map<TracedRun, QueriedRun | undefined>();
    /** By project, its runs by trace. */
    private readonly traces = new Map<string, Map<string, QueriedRun[]>>();
    private readonly feedback = new Map<string, RunFeedback[]>();

    constructor(
        readonly model: BulkExportModel,
        readonly tenantId: string,
        feedbackOf?: FeedbackOf,
    ) {
        for (const f of feedbackOf?.(tenantId) ?? []) {
            if (!f.run_id) continue;
            const held = this.feedback.get(f.run_id) ?? [];
            if (!held.length) this.feedback.set(f.run_id, held);
            held.push(f);
        }
    }

    row(run: TracedRun | undefined): QueriedRun | undefined {
        if (!run || run.tenant_id !== this.tenantId || !this.model.keeps(run)) return undefined;
        if (!this.rows.has(run)) {
            const tier = this.model.traced.retentionOf(run)?.tier ?? this.model.projects.get(run.session_id)?.session?.trace_tier ?? "longlived";
            const row = exportRow(run, tier);
            const given = this.feedback.get(run.id);
            this.rows.set(run, row && given ? { ...row, feedback_stats: feedbackStats(given) } : row);
        }
        return this.rows.get(run);
    }

    /** Every run of a trace, in its project (whose runs are grouped by trace once, when a first trace of it is read). */
    trace(row: QueriedRun): QueriedRun[] {
        let traces = this.traces.get(row.session_id);
        if (!traces) {
            traces = new Map();
            for (const run of this.model.traced.of(row.session_id)) {
                const r = this.row(run);
                if (!r) continue;
                const same = traces.get(r.trace_id) ?? [];
                if (!same.length) traces.set(r.trace_id, same);
                same.push(r);
            }
            this.traces.set(row.session_id, traces);
        }
        return traces.get(row.trace_id) ?? [];
    }

    /** The runs of the projects a query names (404 for one the workspace does not have), or of all the workspace's. */
    candidates(q: RunCriteria): TracedRun[] {
        const projects = q.sessions
            ? q.sessions.map((id) => this.model.project(this.tenantId, id).session_id)
            : [...this.model.projects.values()].filter((p) => (!p.tenant_id || p.tenant_id === this.tenantId) && !p.deleting_until).map((p) => p.session_id);
        if (q.ids) {
            const within = new Set(projects);
            return q.ids.map((id) => this.model.traced.get(this.tenantId, id)).filter((r): r is TracedRun => r !== undefined && within.has(r.session_id));
        }
        return projects.flatMap((id) => this.model.traced.of(id));
    }
}

/** Whether a stored run passes the criteria its own fields decide, before its row is made. */
function passesCheaply(run: TracedRun, q: RunCriteria, bounds: { min?: string; max?: string }): boolean {
    if (q.trace && (run.trace_id ?? run.id) !== q.trace) return false;
    if (q.parentRun && run.parent_run_id !== q.parentRun) return false;
    if (q.runType && run.run_type !== q.runType) return false;
    if (q.isRoot !== undefined && !run.parent_run_id !== q.isRoot) return false;
    if (q.referenceExamples && !(run.reference_example_id && q.referenceExamples.includes(run.reference_example_id))) return false;
    if (bounds.min && !(run.start_time && run.start_time >= bounds.min)) return false;
    if (bounds.max && !(run.start_time && run.start_time <= bounds.max)) return false;
    return true;
}

/** Whether a run's row passes the error flag, the free text and the three filters. */
function passes(row: QueriedRun, q: RunCriteria, reading: Reading): boolean {
    if (q.error !== undefined && (row.status === "error") !== q.error) return false;
    if (q.search && !matches({ kind: "search", value: q.search }, row)) return false;
    if (q.filter && !matches(q.filter, row)) return false;
    if (q.traceFilter) {
        const root = reading.row(reading.model.traced.get(reading.tenantId, row.trace_id));
        if (!root || !matches(q.traceFilter, root)) return false;
    }
    const tree = q.treeFilter;
    return !tree || reading.trace(row).some((r) => matches(tree, r));
}

/** Orders runs by start time, then id. */
const byStart = (a: { start_time: string; id: string }, b: { start_time: string; id: string }) =>
    a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The runs a query selects, in its order, and the reading that made them (for the views: a run's trace). */
export function selectRuns(model: BulkExportModel, tenantId: string, q: RunCriteria, feedbackOf?: FeedbackOf): { runs: QueriedRun[]; reading: Reading } {
    const reading = new Reading(model, tenantId, feedbackOf);
    const bounds = { min: stored(q.minStart), max: stored(q.maxStart) };
    const runs: QueriedRun[] = [];
    for (const run of reading.candidates(q)) {
        if (!passesCheaply(run, q, bounds)) continue;
        const row = reading.row(run);
        if (row && passes(row, q, reading)) runs.push(row);
    }
    runs.sort(q.order === "asc" ? byStart : (a, b) => byStart(b, a));
    return { runs, reading };
}

/** One run as a read answers it, with its feedback; undefined when the workspace has not traced it (all of it) or it expired. */
export function readRun(model: BulkExportModel, tenantId: string, id: string, feedbackOf?: FeedbackOf): QueriedRun | undefined {
    return new Reading(model, tenantId, feedbackOf).row(model.traced.get(tenantId, id));
}

/** A page of runs, and the cursors of the pages after and before it (absent: none). */
export interface RunPage {
    items: QueriedRun[];
    next?: string;
    prev?: string;
}

type Place = { start_time: string; id: string; before: boolean };

function cursorOf(run: QueriedRun, before: boolean): string {
    return Buffer.from(JSON.stringify([run.start_time, run.id, before ? "p" : "n"])).toString("base64url");
}

function placeOf(cursor: string): Place {
    try {
        const [start_time, id, way] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
        if (typeof start_time === "string" && typeof id === "string" && (way === "n" || way === "p")) return { start_time, id, before: way === "p" };
    } catch {
        // refused below
    }
    throw badRequest(`Invalid cursor ${JSON.stringify(cursor)}: pass the cursor a previous page answered.`);
}

/** The index of the first run that `pass`es, or the length when none does. */
function firstWhere(runs: QueriedRun[], pass: (r: QueriedRun) => boolean): number {
    const i = runs.findIndex(pass);
    return i === -1 ? runs.length : i;
}

/** The page of `limit` runs at the cursor (none: the first page) of runs already in the query's order. */
export function pageOf(runs: QueriedRun[], order: "asc" | "desc", limit: number, cursor?: string | null): RunPage {
    const place = cursor ? placeOf(cursor) : undefined;
    // Where a run stands to the place, in the query's order: > 0 after it.
    const from = (r: QueriedRun) => (place ? (order === "asc" ? byStart(r, place) : byStart(place, r)) : 1);
    let start: number;
    let end: number;
    if (place?.before) {
        end = firstWhere(runs, (r) => from(r) >= 0);
        start = Math.max(0, end - limit);
    } else {
        start = firstWhere(runs, (r) => from(r) > 0);
        end = Math.min(runs.length, start + limit);
    }
    const items = runs.slice(start, end);
    return {
        items,
        ...(end < runs.length && items.length ? { next: cursorOf(items[items.length - 1], false) } : {}),
        ...(start > 0 && items.length ? { prev: cursorOf(items[0], true) } : {}),
    };
}
