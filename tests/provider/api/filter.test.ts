/**
 * The one filter parser (provider/api/filter.ts): what parses, where a typo is reported (the whole filter,
 * a caret under where the parser stopped, what it expected), the fields it knows and the canonical form.
 * How the emulator's evaluator matches runs: tests/emulator/bulkExport/filterEval.test.ts.
 */
import assert from "node:assert/strict";
import { FILTER_FIELDS, FilterSyntaxError, canonicalFilter, parseFilter, unknownFields } from "../../../provider/api/filter";
import { EXPORTABLE_FIELDS } from "../../../provider/api/schemas/bulkExport";

function syntaxError(src: string): FilterSyntaxError {
    try {
        parseFilter(src);
    } catch (e) {
        assert.ok(e instanceof FilterSyntaxError, `expected FilterSyntaxError, got ${e}`);
        return e;
    }
    throw new Error(`${src} parsed`);
}

describe("filter: parse", () => {
    it("parse: the examples of docs/service.md 2.8 and R4", () => {
        assert.deepEqual(parseFilter('and(eq(run_type, "llm"), like(name, "%chat%"))'), {
            kind: "and",
            args: [
                { kind: "compare", op: "eq", field: "run_type", value: "llm" },
                { kind: "compare", op: "like", field: "name", value: "%chat%" },
            ],
        });
        assert.deepEqual(parseFilter('in(run_type, ["llm", "tool"])'), { kind: "in", field: "run_type", values: ["llm", "tool"] });
        assert.deepEqual(parseFilter("gt(total_tokens, 100)"), { kind: "compare", op: "gt", field: "total_tokens", value: 100 });
        assert.deepEqual(parseFilter('search("timeout")'), { kind: "search", field: undefined, value: "timeout" });
        assert.deepEqual(parseFilter("eq(is_root, true)"), { kind: "compare", op: "eq", field: "is_root", value: true });
        assert.equal(parseFilter('or(has(tags, "a"), eq(input_key, "q"), neq(status, "error"))').kind, "or");
        assert.deepEqual(parseFilter('eq(name, "say \\"hi\\"")'), { kind: "compare", op: "eq", field: "name", value: 'say "hi"' });
    });

    for (const [src, reason, column] of [
        ['and(eq(run_type, "llm"), like(name, "%chat%")', 'expected "," or ")"', 46],
        ['eq(true, "llm")', "expected a field name", 4],
        ["eq(name, 'x)", "unterminated string", 10],
        ['equals(name, "x")', "unknown function", 1],
        ['eq(name "x")', 'expected ","', 9],
        ['eq(name, "x)', "unterminated string", 10],
        ['and(eq(name, "x"))', 'needs at least two conditions, expected "," and another', 18],
        ["eq(name, llm)", "expected a value", 10],
        ['eq(name, "x") extra', "unexpected text after the filter", 15],
        ["", "expected a function", 1],
    ] as const) {
        it(`parse: ${JSON.stringify(src)} fails with "${reason}" at column ${column}`, () => {
            const e = syntaxError(src);
            assert.match(e.reason, new RegExp(reason.replace(/[()"]/g, "\\$&")));
            assert.equal(e.offset + 1, column);
            assert.match(e.message, new RegExp(`^at column ${column}: `));
        });
    }

    /** The caret's column in a message (1-based, tabs as one): the line after the filter's, less the indent. */
    const caretColumn = (message: string) => message.split("\n")[2].indexOf("^") - 1;

    for (const [what, src, column, expected] of [
        ["a missing comma", 'and(eq(run_type, "llm") gt(latency, 2))', 25, 'expected "," or ")"'],
        ["a missing comma in a list", 'in(tags, ["a" "b"])', 15, 'expected "," or "]"'],
        ["a missing closing parenthesis", 'and(eq(run_type, "llm")', 24, 'expected "," or ")"'],
        ["an unclosed quote", 'and(eq(run_type, "llm), gt(latency, 2))', 18, 'unterminated string, expected a closing "'],
        ["an unclosed single quote", "eq(name, 'x)", 10, "unterminated string, expected a closing '"],
        [
            "an unknown operator",
            'and(eq(run_type, "llm"), greater(latency, 2))',
            26,
            'unknown function "greater", expected one of and, or, eq, neq, gt, gte, lt, lte, has, like, in, search',
        ],
        ["trailing garbage", 'eq(run_type, "llm"))', 20, "unexpected text after the filter, expected its end"],
        ["one condition in and()", 'and(eq(name, "x"))', 18, 'and() needs at least two conditions, expected "," and another'],
    ] as const) {
        it(`parse: ${what}: the whole filter, a caret at column ${column}, and what was expected there`, () => {
            const e = syntaxError(src);
            assert.equal(e.message, `at column ${column}: ${expected}\n  ${src}\n  ${" ".repeat(column - 1)}^`);
            assert.equal(caretColumn(e.message), column);
            assert.equal(e.offset + 1, column);
        });
    }

    it("parse: a filter of several lines is shown whole, the caret under the line it points into (tabs kept)", () => {
        const e = syntaxError('and(eq(run_type, "llm"),\n\teq(name, "x")\n\tgt(latency, 2))');
        assert.equal(e.message, 'at line 3, column 2: expected "," or ")"\n  and(eq(run_type, "llm"),\n  \teq(name, "x")\n  \tgt(latency, 2))\n  \t^');
    });

    it("parse: a long filter is shown whole, not cut", () => {
        const conditions = Array.from({ length: 8 }, (_, i) => `eq(metadata_value, "customer-${i}")`);
        const src = `or(${conditions.join(", ")} eq(name, "x"))`;
        const e = syntaxError(src);
        assert.equal(e.message.split("\n")[1], `  ${src}`);
        assert.equal(caretColumn(e.message), src.indexOf(' eq(name, "x")') + 2);
    });

    it("parse: single straight quotes are quotes: eq(name, 'x') is eq(name, \"x\")", () => {
        assert.deepEqual(parseFilter("eq(name, 'x')"), parseFilter('eq(name, "x")'));
    });

    const QUOTE_HINT = 'strings go in straight quotes, "x" or \'x\', e.g. eq(name, "x"); typographic quotes and backticks are not quotes here';
    for (const [src, quote] of [
        ["eq(name, ‘x’)", "‘"],
        ["eq(name, “x”)", "“"],
        ["eq(name, `x`)", "`"],
        ["in(run_type, [„llm“])", "„"],
    ] as const) {
        it(`parse: ${src} (a look-alike quote) says which quotes strings take`, () => {
            const e = syntaxError(src);
            assert.equal(e.reason, `unexpected ${JSON.stringify(quote)}`);
            assert.equal(e.hint, QUOTE_HINT);
            assert.equal(src[e.offset], quote);
            assert.equal(e.message, `at column ${e.offset + 1}: unexpected ${JSON.stringify(quote)}\n  ${src}\n  ${" ".repeat(e.offset)}^\n${QUOTE_HINT}`);
        });
    }

    it("parse: another unexpected character gets no quote hint", () => {
        const e = syntaxError("eq(name, #x)");
        assert.equal(e.reason, 'unexpected "#"');
        assert.equal(e.hint, undefined);
        assert.equal(e.message, 'at column 10: unexpected "#"\n  eq(name, #x)\n           ^');
    });

    it("parse: a quoted field name says field names take no quotes", () => {
        const e = syntaxError("eq('name', 'x')");
        assert.equal(e.message, `at column 4: expected a field name, not a string\n  eq('name', 'x')\n     ^\nfield names take no quotes, e.g. eq(name, "x")`);
    });
});

describe("filter: fields", () => {
    it("parse: every exportable field of docs/service.md 2.8 can be filtered on, gt(total_cost, 0.1) among them", () => {
        for (const f of EXPORTABLE_FIELDS) {
            assert.deepEqual(unknownFields(parseFilter(`eq(${f}, "x")`)), [], f);
            assert.ok(FILTER_FIELDS.includes(f), f);
        }
        assert.deepEqual(parseFilter("gt(total_cost, 0.1)"), { kind: "compare", op: "gt", field: "total_cost", value: 0.1 });
    });

    it("unknownFields: a field outside the list parses and is named once, in order", () => {
        assert.deepEqual(unknownFields(parseFilter('and(eq(runtype, "llm"), eq(name, "x"), gt(cost_usd, 1), eq(runtype, "tool"))')), ["runtype", "cost_usd"]);
        assert.deepEqual(unknownFields(parseFilter('search(thread_id, "x")')), ["thread_id"]);
    });

    it("canonicalFilter: whitespace, quotes and escapes a service may rewrite are the same filter; a real change is not", () => {
        const written = 'and(eq(run_type, "llm"), like(name, "%chat\'s%"), in(tags, ["a", "b"]))';
        for (const rewritten of [
            "and(eq(run_type,'llm'),like(name,'%chat\\'s%'),in(tags,['a','b']))",
            'and( eq( run_type , "llm" ) ,\n  like(name, "%chat\'s%"), in(tags, ["a","b"]) )',
        ]) {
            assert.equal(canonicalFilter(rewritten), canonicalFilter(written), rewritten);
        }
        assert.notEqual(canonicalFilter('eq(run_type, "tool")'), canonicalFilter('eq(run_type, "llm")'));
        assert.notEqual(canonicalFilter('in(tags, ["b", "a"])'), canonicalFilter('in(tags, ["a", "b"])'));
        assert.equal(canonicalFilter("eq(name"), "eq(name", "a filter that does not parse is its own text");
    });

    it("parse: single-quoted strings hold double quotes as they are", () => {
        assert.deepEqual(parseFilter(`eq(name, 'say "hi"')`), { kind: "compare", op: "eq", field: "name", value: 'say "hi"' });
    });
});
