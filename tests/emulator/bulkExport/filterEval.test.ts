/**
 * The emulator's evaluator of bulk-export filters (emulator/bulkExport/filterEval.ts): how a filter parsed
 * by the provider's parser (tests/provider/api/filter.test.ts) matches runs.
 */
import assert from "node:assert/strict";
import { matches, type FilterableRun } from "../../../emulator/bulkExport/filterEval";
import { parseFilter } from "../../../provider/api/filter";

const RUN: FilterableRun = {
    id: "r1",
    name: "ChatOpenAI",
    run_type: "llm",
    start_time: "2026-11-01T10:00:00.000Z",
    end_time: "2026-11-01T10:00:02.500Z",
    total_tokens: 120,
    error: null,
    status: "success",
    tags: ["prod", "v2"],
    is_root: false,
    inputs: { question: "What is LangSmith?" },
    outputs: { answer: "A platform" },
    extra: { metadata: { customer: "acme" } },
    feedback_stats: { correctness: { avg: 0.9 } },
};

describe("filter: matches", () => {
    const m = (src: string, run: Partial<FilterableRun> = {}) => matches(parseFilter(src), { ...RUN, ...run });

    it("matches: equality, like (case-sensitive), and/or", () => {
        assert.equal(m('and(eq(run_type, "llm"), like(name, "%Open%"))'), true);
        assert.equal(m('like(name, "%open%")'), false);
        assert.equal(m('or(eq(run_type, "tool"), eq(status, "success"))'), true);
        assert.equal(m('neq(run_type, "llm")'), false);
    });

    it("matches: numbers, latency and timestamps compare by value", () => {
        assert.equal(m("gt(total_tokens, 100)"), true);
        assert.equal(m("lte(total_tokens, 100)"), false);
        assert.equal(m("gte(latency, 2.5)"), true);
        assert.equal(m('lt(start_time, "2026-11-01T10:00:01Z")'), true);
        assert.equal(m('gt(start_time, "2026-11-02")'), false);
    });

    it("matches: lists (tags), keys and values of inputs, metadata and feedback", () => {
        assert.equal(m('has(tags, "prod")'), true);
        assert.equal(m('has(tags, "dev")'), false);
        assert.equal(m('in(run_type, ["chain", "llm"])'), true);
        assert.equal(m('eq(input_key, "question")'), true);
        assert.equal(m('like(input_value, "%LangSmith%")'), true);
        assert.equal(m('and(eq(metadata_key, "customer"), eq(metadata_value, "acme"))'), true);
        assert.equal(m('and(eq(feedback_key, "correctness"), gt(feedback_score, 0.5))'), true);
    });

    it("matches: costs, token counts, first_token_time and list fields of docs/service.md 2.8", () => {
        const run = {
            total_cost: 0.25,
            prompt_tokens: 80,
            first_token_time: "2026-11-01T10:00:00.400Z",
            parent_run_ids: ["p1", "p2"],
            trace_tier: "longlived",
        } as Partial<FilterableRun>;
        assert.equal(m("gt(total_cost, 0.1)", run), true);
        assert.equal(m("gt(total_cost, 0.3)", run), false);
        assert.equal(m("lt(prompt_tokens, 100)", run), true);
        assert.equal(m('lt(first_token_time, "2026-11-01T10:00:01Z")', run), true);
        assert.equal(m('has(parent_run_ids, "p2")', run), true);
        assert.equal(m('eq(trace_tier, "shortlived")', run), false);
        assert.equal(m("gt(total_cost, 0)", { total_cost: null } as Partial<FilterableRun>), false);
    });

    it("matches: search looks through name, inputs, outputs and error, case-insensitively", () => {
        assert.equal(m('search("platform")'), true);
        assert.equal(m('search("nowhere")'), false);
        assert.equal(m('search(error, "boom")', { error: "Boom: crashed" }), true);
    });
});
