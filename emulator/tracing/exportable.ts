/**
 * A traced run as bulk export writes it (docs/service.md 2.8): the fields its client sent, and the ones the
 * service derives from them. Derived: `trace_id` (the run's own id when it names none), `is_root` (no
 * parent), `parent_run_ids` (the ids of its dotted order before its own; else its parent), `status`
 * (`error` when it has an error, `success` once ended, else `pending`), a one-segment `dotted_order` for a
 * run sent without one, token counts from its usage where the client sent no counts of its own (usage.ts), token
 * totals from the prompt and completion counts, costs as the model price map gave them at ingestion (modelPrices.ts,
 * docs/service.md R15.3), `first_token_time` from its first `new_token` event. Not sent by the clients, so left
 * empty: `feedback_stats`.
 *
 * A run not posted yet (only a patch came, without its name, type or start) is not exported.
 */
import type { FilterableRun } from "../bulkExport/filterEval";
import type { ExportableRun } from "../bulkExport/parquet";
import type { TracedRun } from "./store";
import { dottedSegmentOf, microsOf } from "./times";
import { tokensOf } from "./usage";

const cost = (text: string | undefined) => (text === undefined ? null : Number(text));

/** The ids of a dotted order's segments (`<time>Z<uuid>` each). */
function segmentIds(dotted: string): string[] {
    return dotted.split(".").map((seg) => seg.slice(seg.indexOf("Z") + 1));
}

function firstTokenTime(events: unknown[] | undefined): string | null {
    const first = events?.find((e) => typeof e === "object" && e !== null && (e as { name?: unknown }).name === "new_token") as { time?: unknown } | undefined;
    return typeof first?.time === "string" ? first.time : null;
}

export function exportRow(run: TracedRun, traceTier: string) {
    if (run.name === undefined || run.run_type === undefined || run.start_time === undefined) return undefined;
    const parent = run.parent_run_id ?? null;
    const dotted = run.dotted_order ?? dottedSegmentOf(microsOf(run.start_time) as number, run.id);
    const ancestors = run.dotted_order ? segmentIds(run.dotted_order).slice(0, -1) : parent ? [parent] : [];
    const tokens = tokensOf(run);
    return {
        id: run.id,
        tenant_id: run.tenant_id,
        session_id: run.session_id,
        trace_id: run.trace_id ?? run.id,
        parent_run_id: parent,
        parent_run_ids: ancestors,
        reference_example_id: run.reference_example_id ?? null,
        name: run.name,
        run_type: run.run_type,
        start_time: run.start_time,
        end_time: run.end_time ?? null,
        status: run.error !== undefined ? "error" : run.end_time !== undefined ? "success" : "pending",
        is_root: parent === null,
        dotted_order: dotted,
        trace_tier: traceTier,
        inputs: run.inputs ?? {},
        outputs: run.outputs ?? null,
        error: run.error ?? null,
        extra: { metadata: {}, ...run.extra },
        events: run.events ?? [],
        tags: run.tags ?? [],
        // The feedback stored on a run is another area's (evaluation/feedback.ts): a run query adds it (query.ts).
        feedback_stats: null as FilterableRun["feedback_stats"],
        total_tokens: tokens.total,
        prompt_tokens: tokens.prompt,
        completion_tokens: tokens.completion,
        total_cost: cost(run.total_cost),
        prompt_cost: cost(run.prompt_cost),
        completion_cost: cost(run.completion_cost),
        first_token_time: firstTokenTime(run.events),
    } satisfies FilterableRun & ExportableRun;
}
