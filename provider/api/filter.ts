/**
 * The one parser of bulk-export filters (the trace query syntax: spec 2.8, real-service notes 4), shared by
 * the provider's `check` (a typo fails at preview, with the column of the error) and the emulator (which
 * filters the runs it exports with `matches`). No Pulumi import.
 *
 * Grammar:
 *   expr       := call
 *   call       := name "(" [arg ("," arg)*] ")"
 *   arg        := call | field | literal | "[" [literal ("," literal)*] "]"
 *   literal    := "string" (JSON escapes) | number | true | false | null
 * Combinators `and(expr, expr, ...)`, `or(expr, expr, ...)` (at least two); comparators `eq`, `neq`, `gt`,
 * `gte`, `lt`, `lte`, `has`, `like` (field, value), `in` (field, [values]), `search` (value, or field and
 * value). Fields are the ones the notes and the spec name.
 */

export const FILTER_FIELDS = [
    "id",
    "name",
    "run_type",
    "start_time",
    "end_time",
    "latency",
    "total_tokens",
    "error",
    "status",
    "tags",
    "is_root",
    "feedback_key",
    "feedback_score",
    "metadata_key",
    "metadata_value",
    "trace_id",
    "input_key",
    "input_value",
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

const COMPARATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "has", "like", "in", "search"] as const;
const COMBINATORS = ["and", "or"] as const;
export type Comparator = (typeof COMPARATORS)[number];
export type Literal = string | number | boolean | null;

export type FilterExpr =
    | { kind: "and" | "or"; args: FilterExpr[] }
    | { kind: "compare"; op: Exclude<Comparator, "search" | "in">; field: FilterField; value: Literal }
    | { kind: "in"; field: FilterField; values: Literal[] }
    | { kind: "search"; field?: FilterField; value: string };

/** A filter that does not parse: the message names what was expected and where (1-based column). */
export class FilterSyntaxError extends Error {
    constructor(
        readonly reason: string,
        /** 0-based offset into the filter text. */
        readonly offset: number,
        readonly filter: string,
    ) {
        super(`${reason} at column ${offset + 1}: ${filter.slice(Math.max(0, offset - 20), offset)}⟨here⟩${filter.slice(offset, offset + 20)}`);
        this.name = "FilterSyntaxError";
    }
}

type Token =
    | { t: "name"; v: string; at: number }
    | { t: "string"; v: string; at: number }
    | { t: "number"; v: number; at: number }
    | { t: "punct"; v: "(" | ")" | "," | "[" | "]"; at: number }
    | { t: "end"; at: number };

function tokenize(src: string): Token[] {
    const out: Token[] = [];
    let i = 0;
    while (i < src.length) {
        const c = src[i];
        if (/\s/.test(c)) {
            i++;
        } else if ("(),[]".includes(c)) {
            out.push({ t: "punct", v: c as "(", at: i++ });
        } else if (c === '"') {
            const start = i;
            let j = i + 1;
            while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
            if (j >= src.length) throw new FilterSyntaxError("unterminated string", start, src);
            let v: string;
            try {
                v = JSON.parse(src.slice(start, j + 1));
            } catch {
                throw new FilterSyntaxError("bad escape in string", start, src);
            }
            out.push({ t: "string", v, at: start });
            i = j + 1;
        } else if (/[-0-9.]/.test(c)) {
            const m = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(i));
            if (!m) throw new FilterSyntaxError(`unexpected ${JSON.stringify(c)}`, i, src);
            out.push({ t: "number", v: Number(m[0]), at: i });
            i += m[0].length;
        } else if (/[A-Za-z_]/.test(c)) {
            const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
            out.push({ t: "name", v: m[0], at: i });
            i += m[0].length;
        } else {
            throw new FilterSyntaxError(`unexpected ${JSON.stringify(c)}`, i, src);
        }
    }
    out.push({ t: "end", at: src.length });
    return out;
}

/** Parses a filter; throws FilterSyntaxError with the position of the first problem. */
export function parseFilter(src: string): FilterExpr {
    const tokens = tokenize(src);
    let pos = 0;
    const peek = () => tokens[pos];
    const fail = (reason: string, at = peek().at): never => {
        throw new FilterSyntaxError(reason, at, src);
    };
    const expect = (v: string) => {
        const tok = peek();
        if (tok.t !== "punct" || tok.v !== v) fail(`expected "${v}"`);
        pos++;
    };

    function literal(): Literal {
        const tok = peek();
        pos++;
        if (tok.t === "string" || tok.t === "number") return tok.v;
        if (tok.t === "name" && ["true", "false", "null"].includes(tok.v)) return JSON.parse(tok.v);
        return fail("expected a value (a \"string\", a number, true, false or null)", tok.at);
    }

    function field(): FilterField {
        const tok = peek();
        if (tok.t !== "name") return fail("expected a field name", tok.at);
        if (!(FILTER_FIELDS as readonly string[]).includes(tok.v)) {
            fail(`unknown field ${JSON.stringify(tok.v)} (fields: ${FILTER_FIELDS.join(", ")})`, tok.at);
        }
        pos++;
        return tok.v as FilterField;
    }

    function call(): FilterExpr {
        const tok = peek();
        if (tok.t !== "name") return fail("expected a function such as and(...) or eq(field, value)", tok.at);
        const fn = tok.v;
        pos++;
        expect("(");
        let expr: FilterExpr;
        if ((COMBINATORS as readonly string[]).includes(fn)) {
            const args = [call()];
            while (peek().t === "punct" && (peek() as { v: string }).v === ",") {
                pos++;
                args.push(call());
            }
            if (args.length < 2) fail(`${fn}() needs at least two conditions`, tok.at);
            expr = { kind: fn as "and" | "or", args };
        } else if (fn === "in") {
            const f = field();
            expect(",");
            expect("[");
            const values: Literal[] = [];
            if (!(peek().t === "punct" && (peek() as { v: string }).v === "]")) {
                values.push(literal());
                while (peek().t === "punct" && (peek() as { v: string }).v === ",") {
                    pos++;
                    values.push(literal());
                }
            }
            expect("]");
            expr = { kind: "in", field: f, values };
        } else if (fn === "search") {
            const first = peek();
            const f = first.t === "name" && !["true", "false", "null"].includes(first.v) ? (field(), expect(","), first.v as FilterField) : undefined;
            const v = literal();
            if (typeof v !== "string") fail("search needs a string", first.at);
            expr = { kind: "search", field: f, value: v as string };
        } else if ((COMPARATORS as readonly string[]).includes(fn)) {
            const f = field();
            expect(",");
            const value = literal();
            expr = { kind: "compare", op: fn as Exclude<Comparator, "search" | "in">, field: f, value };
        } else {
            return fail(`unknown function ${JSON.stringify(fn)} (functions: ${[...COMBINATORS, ...COMPARATORS].join(", ")})`, tok.at);
        }
        expect(")");
        return expr;
    }

    const expr = call();
    if (peek().t !== "end") fail("unexpected text after the filter");
    return expr;
}

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
function valuesOf(run: FilterableRun, f: FilterField): Literal[] {
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
        default:
            return [((run as unknown as Record<string, unknown>)[f] ?? null) as Literal];
    }
}

const scalar = (v: unknown): Literal => (v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as Literal) : JSON.stringify(v));
const TIME_FIELDS: readonly string[] = ["start_time", "end_time"];

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
    const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/_/g, ".");
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
