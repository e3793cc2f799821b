/**
 * The one parser of bulk-export filters (the trace query syntax: docs/service.md 2.8, R4), shared by
 * the provider's `check` (a typo fails at preview: the whole filter, a caret under where the parser
 * stopped, and what it expected there) and the emulator (which refuses what does not parse and filters the
 * runs it exports with its own evaluator, emulator/bulkExport/filterEval.ts). No Pulumi import.
 *
 * Grammar:
 *   expr       := call
 *   call       := name "(" [arg ("," arg)*] ")"
 *   arg        := call | field | literal | "[" [literal ("," literal)*] "]"
 *   literal    := "string" or 'string' (JSON escapes) | number | true | false | null
 * Typographic quotes (“x”, ‘x’) and backticks are not quotes: the error says so, and a quoted field name
 * (eq("name", "x")) is told that field names take none.
 * Combinators `and(expr, expr, ...)`, `or(expr, expr, ...)` (at least two); comparators `eq`, `neq`, `gt`,
 * `gte`, `lt`, `lte`, `has`, `like` (field, value), `in` (field, [values]), `search` (value, or field and
 * value).
 *
 * Fields: every exportable run field of docs/service.md 2.8 and the query fields of docs/service.md R4 (FILTER_FIELDS). The
 * service knows more than the material lists, so a field outside that list parses (a typo of a function,
 * a quote or a bracket is still a syntax error with its position); `unknownFields` names such fields, for
 * the provider to warn about and the emulator (which cannot evaluate them) to refuse.
 */
import { EXPORTABLE_FIELDS } from "./schemas/bulkExport";

/** Query fields beyond the exportable ones (docs/service.md R4; `input_key`, `input_value` from docs/service.md 2.8). */
const QUERY_FIELDS = ["latency", "feedback_key", "feedback_score", "metadata_key", "metadata_value", "input_key", "input_value"] as const;

/** Every field this parser knows: the exportable fields of docs/service.md 2.8 and the query fields. */
export const FILTER_FIELDS: readonly string[] = [...EXPORTABLE_FIELDS, ...QUERY_FIELDS];

const COMPARATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "has", "like", "in", "search"] as const;
const COMBINATORS = ["and", "or"] as const;
export type Comparator = (typeof COMPARATORS)[number];
export type Literal = string | number | boolean | null;

export type FilterExpr =
    | { kind: "and" | "or"; args: FilterExpr[] }
    | { kind: "compare"; op: Exclude<Comparator, "search" | "in">; field: string; value: Literal }
    | { kind: "in"; field: string; values: Literal[] }
    | { kind: "search"; field?: string; value: string };

/**
 * A filter that does not parse. The message says where (1-based column, and line when the filter has
 * several) and what is wrong or was expected there, then shows the whole filter, indented, with a caret
 * under that place, then how to fix it when known; it reads on from "filter does not parse":
 *
 *     at column 25: expected "," or ")"
 *       and(eq(run_type, "llm") gt(latency, 2))
 *                               ^
 */
export class FilterSyntaxError extends Error {
    constructor(
        readonly reason: string,
        /** 0-based offset into the filter text. */
        readonly offset: number,
        readonly filter: string,
        /** How to write it instead, after the filter. */
        readonly hint?: string,
    ) {
        const { where, shown } = pointAt(filter, offset);
        super(`at ${where}: ${reason}\n${shown}${hint ? `\n${hint}` : ""}`);
        this.name = "FilterSyntaxError";
    }
}

/**
 * Where `offset` is in `src` in words (`column 25`, or `line 2, column 3`: columns count characters) and
 * `src` shown whole, each line indented by two spaces, the caret line under the line it points into (tabs
 * kept, so that the caret stands under the character).
 */
function pointAt(src: string, offset: number): { where: string; shown: string } {
    const lines = src.split("\n").map((l) => l.replace(/\r$/, ""));
    const row = src.slice(0, offset).split("\n").length - 1;
    const before = [...src.slice(src.lastIndexOf("\n", offset - 1) + 1, offset)];
    const caret = `  ${before.map((c) => (c === "\t" ? "\t" : " ")).join("")}^`;
    const shown = lines.map((l) => `  ${l}`);
    shown.splice(row + 1, 0, caret);
    const where = lines.length > 1 ? `line ${row + 1}, column ${before.length + 1}` : `column ${before.length + 1}`;
    return { where, shown: shown.join("\n") };
}

/**
 * Characters that look like quotes but are not the filter's: typographic quotes (a filter pasted from a
 * document or a chat turns "x" into “x”), primes and backticks. Met where a token begins, the error says
 * which quotes strings take.
 */
const LOOKALIKE_QUOTES = "‘’‚‛“”„‟′″`´";
const QUOTE_HINT = 'strings go in straight quotes, "x" or \'x\', e.g. eq(name, "x"); typographic quotes and backticks are not quotes here';

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
        } else if (c === '"' || c === "'") {
            const start = i;
            let j = i + 1;
            while (j < src.length && src[j] !== c) j += src[j] === "\\" ? 2 : 1;
            if (j >= src.length) throw new FilterSyntaxError(`unterminated string, expected a closing ${c}`, start, src);
            out.push({ t: "string", v: unquote(src.slice(start + 1, j), start, src), at: start });
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
            throw new FilterSyntaxError(`unexpected ${JSON.stringify(c)}`, i, src, LOOKALIKE_QUOTES.includes(c) ? QUOTE_HINT : undefined);
        }
    }
    out.push({ t: "end", at: src.length });
    return out;
}

/** The text between quotes, read with JSON's escapes; `\'` is a quote too, and `"` inside single quotes is itself. */
function unquote(body: string, at: number, src: string): string {
    let json = "";
    for (let i = 0; i < body.length; i++) {
        const c = body[i];
        if (c === "\\" && body[i + 1] === "'") json += body[++i];
        else if (c === "\\") json += c + (body[++i] ?? "");
        else json += c === '"' ? '\\"' : c;
    }
    try {
        return JSON.parse(`"${json}"`);
    } catch {
        throw new FilterSyntaxError("bad escape in string", at, src);
    }
}

/** Parses a filter; throws FilterSyntaxError with the position of the first problem. */
export function parseFilter(src: string): FilterExpr {
    const p = new Parser(src);
    const expr = p.call();
    if (p.peek().t !== "end") p.fail("unexpected text after the filter, expected its end");
    return expr;
}

const KEYWORDS = ["true", "false", "null"];

/** A recursive-descent parser over the tokens of one filter: one method per rule of the grammar. */
class Parser {
    private readonly tokens: Token[];
    private pos = 0;

    constructor(private readonly src: string) {
        this.tokens = tokenize(src);
    }

    peek(): Token {
        return this.tokens[this.pos];
    }

    fail(reason: string, at = this.peek().at, hint?: string): never {
        throw new FilterSyntaxError(reason, at, this.src, hint);
    }

    /** True when the next token is the punctuation `v`. */
    private next(v: string): boolean {
        const tok = this.peek();
        return tok.t === "punct" && tok.v === v;
    }

    /** True (and consumed) when the next token is the punctuation `v`. */
    private take(v: string): boolean {
        if (!this.next(v)) return false;
        this.pos++;
        return true;
    }

    private expect(v: string): void {
        if (!this.take(v)) this.fail(`expected "${v}"`);
    }

    private literal(): Literal {
        const tok = this.tokens[this.pos++];
        if (tok.t === "string" || tok.t === "number") return tok.v;
        if (tok.t === "name" && KEYWORDS.includes(tok.v)) return JSON.parse(tok.v);
        return this.fail('expected a value (a "string", a number, true, false or null)', tok.at);
    }

    private field(): string {
        const tok = this.peek();
        if (tok.t === "string") return this.fail("expected a field name, not a string", tok.at, 'field names take no quotes, e.g. eq(name, "x")');
        if (tok.t !== "name" || KEYWORDS.includes(tok.v)) return this.fail("expected a field name", tok.at);
        this.pos++;
        return tok.v;
    }

    /** `name(args)`: a combinator, `in`, `search` or a comparator. */
    call(): FilterExpr {
        const tok = this.peek();
        if (tok.t !== "name") return this.fail("expected a function such as and(...) or eq(field, value)", tok.at);
        const fn = tok.v;
        this.pos++;
        this.expect("(");
        const expr = (COMBINATORS as readonly string[]).includes(fn)
            ? this.combination(fn as "and" | "or")
            : fn === "in"
              ? this.inList()
              : fn === "search"
                ? this.search()
                : (COMPARATORS as readonly string[]).includes(fn)
                  ? this.comparison(fn as Exclude<Comparator, "search" | "in">)
                  : this.fail(`unknown function ${JSON.stringify(fn)}, expected one of ${[...COMBINATORS, ...COMPARATORS].join(", ")}`, tok.at);
        this.expect(")");
        return expr;
    }

    private combination(kind: "and" | "or"): FilterExpr {
        const args = [this.call()];
        while (this.take(",")) args.push(this.call());
        if (!this.next(")")) this.fail('expected "," or ")"');
        if (args.length < 2) this.fail(`${kind}() needs at least two conditions, expected "," and another`);
        return { kind, args };
    }

    /** `in(field, [v, ...])` */
    private inList(): FilterExpr {
        const field = this.field();
        this.expect(",");
        this.expect("[");
        const values: Literal[] = [];
        if (!this.take("]")) {
            do values.push(this.literal());
            while (this.take(","));
            if (!this.take("]")) this.fail('expected "," or "]"');
        }
        return { kind: "in", field, values };
    }

    /** `search("text")` or `search(field, "text")` */
    private search(): FilterExpr {
        const first = this.peek();
        const field = first.t === "name" && !KEYWORDS.includes(first.v) ? this.field() : undefined;
        if (field !== undefined) this.expect(",");
        const value = this.literal();
        if (typeof value !== "string") this.fail("search needs a string", first.at);
        return { kind: "search", field, value: value as string };
    }

    /** `op(field, value)` */
    private comparison(op: Exclude<Comparator, "search" | "in">): FilterExpr {
        const field = this.field();
        this.expect(",");
        return { kind: "compare", op, field, value: this.literal() };
    }
}

/** The fields a parsed filter reads that are not in FILTER_FIELDS, in order of appearance, once each. */
export function unknownFields(expr: FilterExpr): string[] {
    const seen: string[] = [];
    const walk = (e: FilterExpr): void => {
        if ("args" in e) e.args.forEach(walk);
        else if (e.field !== undefined && !FILTER_FIELDS.includes(e.field) && !seen.includes(e.field)) seen.push(e.field);
    };
    walk(expr);
    return seen;
}

/**
 * A filter in one canonical text, for telling a real change from a service's rewriting of the same filter
 * (whitespace, quotes, escapes): the parsed form, serialized. A filter that does not parse is its own text.
 */
export function canonicalFilter(src: string): string {
    try {
        return JSON.stringify(parseFilter(src));
    } catch (e) {
        if (e instanceof FilterSyntaxError) return src;
        throw e;
    }
}
