/**
 * The emulator's evaluator of bulk-export filters: whether a run it holds passes a filter parsed by the
 * provider's parser (provider/api/filter.ts, the one parser: the provider checks filters with it, the
 * emulator refuses with it what does not parse and evaluates what does here). The worker exports only the
 * runs that `matches`; the tests count the rows they expect with it too.
 *
 * A field's values for a run: tags, the keys and values of inputs, metadata and feedback are lists (a
 * condition holds when one of them does, `neq` when all do); `latency` is end_time - start_time in seconds;
 * the time fields compare as times, the others as numbers; `like` is SQL LIKE, case-sensitive; `search`
 * looks through name, inputs, outputs and error (or the one field named), case-insensitively.
 */
import type { FilterExpr, Literal } from "../../provider/api/filter";

/** A run as the emulator holds it, in the fields a filter reads. */
export interface FilterableRun {
    id: string;
    name: string;
    run_type: string;
    start_time: string;
    end_time?: string | null;
    total_tokens?: number | null;
    error?: string | null;
    status?: string | null;
    tags?: string[] | null;
    is_root?: boolean | null;
    trace_id?: string | null;
    inputs?: Record<string, unknown> | null;
    outputs?: Record<string, unknown> | null;
    extra?: { metadata?: Record<string, unknown> } & Record<string, unknown>;
    feedback_stats?: Record<string, { avg?: number | null } & Record<string, unknown>> | null;
}

/** The values a field has for a run (a list: tags, keys and values of inputs or metadata have several). */
function valuesOf(run: FilterableRun, f: string): Literal[] {
    const metadata = run.extra?.metadata ?? {};
    const inputs = run.inputs ?? {};
    switch (f) {
        case "latency":
            return run.end_time ? [(Date.parse(run.end_time) - Date.parse(run.start_time)) / 1000] : [];
        case "tags":
            return run.tags ?? [];
        case "feedback_key":
            return Object.keys(run.feedback_stats ?? {});
        case "feedback_score":
            return Object.values(run.feedback_stats ?? {}).map((s) => s.avg ?? null);
        case "metadata_key":
            return Object.keys(metadata);
        case "metadata_value":
            return Object.values(metadata).map(scalar);
        case "input_key":
            return Object.keys(inputs);
        case "input_value":
            return Object.values(inputs).map(scalar);
        default: {
            const v: unknown = Reflect.get(run, f) ?? null;
            return Array.isArray(v) ? v.map(scalar) : [scalar(v)];
        }
    }
}

const scalar = (v: unknown): Literal => (v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as Literal) : JSON.stringify(v));
const TIME_FIELDS: readonly string[] = ["start_time", "end_time", "first_token_time"];

function compare(op: string, have: Literal, want: Literal, timeField: boolean): boolean {
    if (op === "eq") return have === want;
    if (op === "neq") return have !== want;
    if (op === "has") return have === want;
    if (op === "like") return typeof have === "string" && typeof want === "string" && likeToRegExp(want).test(have);
    if (have === null || want === null) return false;
    const a = timeField ? Date.parse(String(have)) : Number(have);
    const b = timeField ? Date.parse(String(want)) : Number(want);
    if (Number.isNaN(a) || Number.isNaN(b)) return false;
    return op === "gt" ? a > b : op === "gte" ? a >= b : op === "lt" ? a < b : a <= b;
}

/** SQL LIKE: `%` any run of characters, `_` one character; case-sensitive. */
function likeToRegExp(pattern: string): RegExp {
    const body = pattern
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace(/%/g, ".*")
        .replace(/_/g, ".");
    return new RegExp(`^${body}$`, "s");
}

/** Whether a run passes the filter (the emulator exports only those). */
export function matches(expr: FilterExpr, run: FilterableRun): boolean {
    switch (expr.kind) {
        case "and":
            return expr.args.every((e) => matches(e, run));
        case "or":
            return expr.args.some((e) => matches(e, run));
        case "in":
            return valuesOf(run, expr.field).some((v) => expr.values.includes(v));
        case "search": {
            const haystack = expr.field ? valuesOf(run, expr.field).map(String).join("\n") : JSON.stringify([run.name, run.inputs, run.outputs, run.error]);
            return haystack.toLowerCase().includes(expr.value.toLowerCase());
        }
        case "compare": {
            const have = valuesOf(run, expr.field);
            if (expr.op === "neq") return have.every((v) => compare("neq", v, expr.value, false));
            return have.some((v) => compare(expr.op, v, expr.value, TIME_FIELDS.includes(expr.field)));
        }
    }
}
