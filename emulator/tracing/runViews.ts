/**
 * Run queries in the two dialects the official clients speak (docs/service.md R5 "Reading traced runs"), over the
 * one selection of query.ts:
 *
 * - `POST /runs/query` (`list_runs` / `listRuns`): `BodyParamsForRunsQuerySchema` in, `ListRunsResponse` out:
 *   `{runs, cursors: {next, prev}}`, each run a `RunSchema` holding the columns `select` names (the description's
 *   default list when it names none) and the ones every run carries (`id`, `name`, `run_type`, `start_time`,
 *   `status`, `trace_id`, `dotted_order`, `session_id`, `app_path`: decided, the description requires them); a
 *   page of `limit` (100) runs, `skip_pagination` all of them.
 * - `POST /api/v2/runs/query` (`runs.query`): `query.QueryRunsRequestBody` in, `query.QueryRunsResponseBody` out:
 *   `{items, has_more, next_cursor}`, each run its `id` and the fields `selects` names, in the v2 words (run types
 *   and statuses upper case), a field the run has no value for left out; exactly one of `project_ids` and
 *   `reference_dataset_id` (400 otherwise); start times from `min_start_time` (a day before now unless given, or the
 *   dataset's first experiment's creation) to `max_start_time` (now); `page_size` (100) runs a page. Errors are RFC
 *   7807 problem details (`shared.ProblemDetails`): 400, 422 for a malformed UUID, 404 for a project the workspace
 *   does not have; `ai_query` (the clients' `ai_search`) 406 without `Accept: text/event-stream`, else 501, as an
 *   installation whose queries go to its v1 backend answers.
 *
 * Costs are what the model price map gave the run at ingestion (modelPrices.ts, docs/service.md R15.3): v1 answers
 * them as decimal strings (`RunSchema`), v2 as numbers, with the `price_model_id` of the entry that priced them.
 * What the emulator does not hold is answered empty (null in v1, absent in v2): token and cost details,
 * manifests, serialized components, attachments, share tokens, feedback statistics. Derived (decided): a preview is the
 * JSON text of the inputs or outputs cut at 200 characters, an error's preview its first line so cut; `thread_id` the
 * metadata's `thread_id`, `session_id` or `conversation_id`, as the service groups threads; `reference_dataset_id` the
 * project's reference dataset, for a run that names a reference example.
 */
import { STATUS_CODES } from "node:http";
import type { z } from "zod";
import type { FilterExpr } from "../../provider/api/filter";
import { DEFAULT_RUN_SELECT, type RunSelect, type RunSelectField, RunsQueryRequestSchema, RunsQueryV2RequestSchema } from "../../provider/api/schemas/runs";
import { EmulatorError } from "../core/errors";
import { parse } from "../core/http";
import type { BulkExportModel } from "../bulkExport/model";
import { ORGANIZATION_ID } from "../org/model";
import { type FeedbackOf, pageOf, type QueriedRun, queryFilter, type Reading, type RunCriteria, selectRuns } from "./query";
import { microsOf } from "./times";

/** Where the UI shows a run (`RunSchema.app_path`, required there). */
export const appPathOf = (row: QueriedRun) => `/o/${ORGANIZATION_ID}/projects/p/${row.session_id}/r/${row.id}?trace_id=${row.trace_id}`;

const PREVIEW_CHARS = 200;
const preview = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v).slice(0, PREVIEW_CHARS));
const metadataOf = (row: QueriedRun) => (row.extra?.metadata ?? {}) as Record<string, unknown>;
const THREAD_KEYS = ["thread_id", "session_id", "conversation_id"];

function threadOf(row: QueriedRun): string | null {
    const m = metadataOf(row);
    const key = THREAD_KEYS.find((k) => typeof m[k] === "string" || typeof m[k] === "number");
    return key ? String(m[key]) : null;
}

/** The ids of a run's descendants in its trace, by their parents (a run sent without its dotted order has no other ancestry). */
function descendants(row: QueriedRun, trace: QueriedRun[]): string[] {
    const found = new Set<string>();
    for (let parents = new Set([row.id]); parents.size; ) {
        // Each run once, should a client have sent parents that loop.
        const children = trace.filter((r) => r.parent_run_id !== null && parents.has(r.parent_run_id) && !found.has(r.id) && r.id !== row.id);
        for (const r of children) found.add(r.id);
        parents = new Set(children.map((r) => r.id));
    }
    return [...found];
}

/** A run's costs as v1 answers them: decimals as the description's `RunSchema` types them (strings), as kept with the run, and the entry that priced it. */
export function v1Costs(model: BulkExportModel, row: QueriedRun) {
    const run = model.traced.get(row.tenant_id, row.id);
    return {
        total_cost: run?.total_cost ?? null,
        prompt_cost: run?.prompt_cost ?? null,
        completion_cost: run?.completion_cost ?? null,
        price_model_id: run?.price_model_id ?? null,
    };
}

/** The columns a run answers, each read when asked (a run's trace is read for its children and its times). */
function columns(model: BulkExportModel, row: QueriedRun, reading: Reading): Record<string, () => unknown> {
    const none = () => null;
    const direct = Object.fromEntries(Object.keys(row).map((k) => [k, () => (row as unknown as Record<string, unknown>)[k]]));
    // ISO times in one form (UTC, microseconds): in order as strings.
    const traceTimes = () =>
        reading
            .trace(row)
            .map((r) => r.start_time)
            .sort();
    return {
        ...direct,
        ...Object.fromEntries(
            [
                ...["serialized", "manifest_id", "manifest_s3_id", "manifest", "s3_urls", "inputs_s3_urls", "outputs_s3_urls", "messages"],
                ...["prompt_token_details", "completion_token_details", "prompt_cost_details", "completion_cost_details"],
                ...["last_queued_at", "in_dataset", "share_token", "trace_first_received_at", "ttl_seconds"],
            ].map((k) => [k, none]),
        ),
        app_path: () => appPathOf(row),
        ...Object.fromEntries(Object.entries(v1Costs(model, row)).map(([k, v]) => [k, () => v])),
        inputs_preview: () => preview(row.inputs),
        outputs_preview: () => preview(row.outputs),
        reference_dataset_id: () => (row.reference_example_id ? (model.projects.get(row.session_id)?.session?.reference_dataset_id ?? null) : null),
        thread_id: () => threadOf(row),
        trace_upgrade: () => false,
        child_run_ids: () => descendants(row, reading.trace(row)),
        trace_min_start_time: () => traceTimes()[0],
        trace_max_start_time: () => traceTimes().at(-1),
    };
}

/** The columns a `select` name answers: its own, but for the signed-URL forms (the value inline) and the trace's time span. */
const SELECTED: Partial<Record<RunSelect, string[]>> = {
    inputs_or_signed_url: ["inputs"],
    outputs_or_signed_url: ["outputs"],
    error_or_signed_url: ["error"],
    events_or_signed_url: ["events"],
    extra_or_signed_url: ["extra"],
    serialized_or_signed_url: ["serialized"],
    trace_min_max_start_time: ["trace_min_start_time", "trace_max_start_time"],
    inserted_at: [],
};
/** What every run answers, whatever is selected (`RunSchema`'s required fields, and the start time every run has). */
const ALWAYS = ["id", "name", "run_type", "start_time", "status", "trace_id", "dotted_order", "session_id", "app_path"];

function v1View(model: BulkExportModel, row: QueriedRun, reading: Reading, select: readonly RunSelect[]): Record<string, unknown> {
    const cols = columns(model, row, reading);
    const keys = new Set([...ALWAYS, ...select.flatMap((s) => SELECTED[s] ?? [s])]);
    return Object.fromEntries([...keys].filter((k) => k in cols).map((k) => [k, cols[k]()]));
}

const nonEmpty = <T>(list: T[] | null | undefined) => (list?.length ? list : undefined);
/** Two filters that must both hold, as one. */
const both = (a?: FilterExpr, b?: FilterExpr): FilterExpr | undefined => (a && b ? { kind: "and", args: [a, b] } : (a ?? b));

/** `POST /runs/query`: a page of the runs the body selects, as `ListRunsResponse`. */
export function queryRuns(model: BulkExportModel, tenantId: string, given: unknown, feedbackOf?: FeedbackOf) {
    const body = parse(RunsQueryRequestSchema, given ?? {}, "body");
    const q: RunCriteria = {
        sessions: nonEmpty(body.session),
        ids: nonEmpty(body.id),
        trace: body.trace ?? undefined,
        parentRun: body.parent_run ?? undefined,
        referenceExamples: nonEmpty(body.reference_example),
        runType: body.run_type ?? undefined,
        // `execution_order: 1`, the older way of asking for a trace's first run, is its root.
        isRoot: body.is_root ?? (body.execution_order === 1 ? true : undefined),
        error: body.error ?? undefined,
        minStart: body.start_time ?? undefined,
        maxStart: body.end_time ?? undefined,
        search: body.query || undefined,
        filter: both(queryFilter("filter", body.filter), queryFilter("search_filter", body.search_filter)),
        traceFilter: queryFilter("trace_filter", body.trace_filter),
        treeFilter: queryFilter("tree_filter", body.tree_filter),
        order: body.order ?? "desc",
    };
    const { runs, reading } = selectRuns(model, tenantId, q, feedbackOf);
    const page = body.skip_pagination ? { items: runs, next: undefined, prev: undefined } : pageOf(runs, q.order, body.limit ?? 100, body.cursor);
    const select = body.select ?? DEFAULT_RUN_SELECT;
    return {
        runs: page.items.map((r) => v1View(model, r, reading, select)),
        cursors: { next: page.next ?? null, prev: body.skip_prev_cursor ? null : (page.prev ?? null) },
    };
}

/** A v2 field of a run (`query.RunResponse`), by its select name; undefined or null: left out. */
const V2: Record<RunSelectField, (row: QueriedRun, cols: Record<string, () => unknown>) => unknown> = {
    ID: (r) => r.id,
    NAME: (r) => r.name,
    RUN_TYPE: (r) => r.run_type.toUpperCase(),
    STATUS: (r) => r.status?.toUpperCase(),
    START_TIME: (r) => r.start_time,
    END_TIME: (r) => r.end_time,
    LATENCY_SECONDS: (r) => (r.end_time ? ((microsOf(r.end_time) ?? 0) - (microsOf(r.start_time) ?? 0)) / 1e6 : undefined),
    FIRST_TOKEN_TIME: (r) => r.first_token_time,
    ERROR: (r) => r.error,
    ERROR_PREVIEW: (r) => r.error?.split("\n")[0].slice(0, PREVIEW_CHARS),
    EXTRA: (r) => r.extra,
    METADATA: (r) => metadataOf(r),
    EVENTS: (r) => r.events,
    INPUTS: (r) => r.inputs,
    INPUTS_PREVIEW: (r) => preview(r.inputs),
    OUTPUTS: (r) => r.outputs,
    OUTPUTS_PREVIEW: (r) => preview(r.outputs),
    MANIFEST: () => undefined,
    PARENT_RUN_IDS: (r) => r.parent_run_ids,
    PROJECT_ID: (r) => r.session_id,
    TRACE_ID: (r) => r.trace_id,
    // The v2 thread is a UUID (`query.RunResponse.thread_id`): a metadata thread of another form is left out.
    THREAD_ID: (r) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(threadOf(r) ?? "") ? threadOf(r) : undefined),
    DOTTED_ORDER: (r) => r.dotted_order,
    IS_ROOT: (r) => r.is_root,
    REFERENCE_EXAMPLE_ID: (r) => r.reference_example_id,
    REFERENCE_DATASET_ID: (_r, cols) => cols.reference_dataset_id(),
    TOTAL_TOKENS: (r) => r.total_tokens,
    PROMPT_TOKENS: (r) => r.prompt_tokens,
    COMPLETION_TOKENS: (r) => r.completion_tokens,
    TOTAL_COST: (r) => r.total_cost,
    PROMPT_COST: (r) => r.prompt_cost,
    COMPLETION_COST: (r) => r.completion_cost,
    PROMPT_TOKEN_DETAILS: () => undefined,
    COMPLETION_TOKEN_DETAILS: () => undefined,
    PROMPT_COST_DETAILS: () => undefined,
    COMPLETION_COST_DETAILS: () => undefined,
    PRICE_MODEL_ID: (_r, cols) => cols.price_model_id(),
    TAGS: (r) => r.tags,
    APP_PATH: (r) => appPathOf(r),
    ATTACHMENTS: () => undefined,
    THREAD_EVALUATION_TIME: () => undefined,
    IS_IN_DATASET: () => undefined,
    SHARE_URL: () => undefined,
    FEEDBACK_STATS: (r) => r.feedback_stats,
};

function v2View(model: BulkExportModel, row: QueriedRun, reading: Reading, selects: readonly RunSelectField[]): Record<string, unknown> {
    const cols = columns(model, row, reading);
    const fields = new Set<RunSelectField>(["ID", ...selects]);
    return Object.fromEntries([...fields].map((f) => [f.toLowerCase(), V2[f](row, cols)] as const).filter(([, v]) => v !== undefined && v !== null));
}

/** An error as the v2 API words it (`shared.ProblemDetails`, RFC 7807). */
export function problem(status: number, detail: string): EmulatorError {
    return new EmulatorError(status, { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail });
}

/** The v2 body, parsed: a malformed UUID 422, anything else the schema refuses 400, each in words. */
function parseV2(given: unknown): z.infer<typeof RunsQueryV2RequestSchema> {
    const r = RunsQueryV2RequestSchema.safeParse(given ?? {});
    if (r.success) return r.data;
    const words = r.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw problem(r.error.issues.every((i) => /UUID/.test(i.message)) ? 422 : 400, words);
}

/** The projects a v2 query reads: those it names, or the experiments of the dataset it names (exactly one of the two). */
function v2Projects(model: BulkExportModel, tenantId: string, body: z.infer<typeof RunsQueryV2RequestSchema>) {
    const named = nonEmpty(body.project_ids);
    if (!named === !body.reference_dataset_id) throw problem(400, "set exactly one of project_ids and reference_dataset_id");
    if (named) return { sessions: named, earliest: undefined };
    const experiments = [...model.projects.values()].filter(
        (p) => p.session?.reference_dataset_id === body.reference_dataset_id && (!p.tenant_id || p.tenant_id === tenantId) && !p.deleting_until,
    );
    const earliest = experiments.map((p) => p.session?.created ?? p.start).sort()[0];
    return { sessions: experiments.map((p) => p.session_id), earliest };
}

/** `POST /api/v2/runs/query`: a page of the runs the body selects, as `query.QueryRunsResponseBody`. */
export function queryRunsV2(model: BulkExportModel, tenantId: string, given: unknown, accept: string | undefined, feedbackOf?: FeedbackOf) {
    const body = parseV2(given);
    if (body.ai_query || body.ai_search) {
        if (!/text\/event-stream/.test(accept ?? "")) throw problem(406, "ai_query needs Accept: text/event-stream");
        throw problem(501, "AI search is unavailable on this installation: its queries go to the v1 backend");
    }
    const { sessions, earliest } = v2Projects(model, tenantId, body);
    const now = model.clock.now();
    const filters = {
        filter: queryFilter("filter", body.filter),
        traceFilter: queryFilter("trace_filter", body.trace_filter),
        treeFilter: queryFilter("tree_filter", body.tree_filter),
    };
    const order = body.sort_order === "ASC" ? "asc" : "desc";
    const { runs, reading } = selectRuns(
        model,
        tenantId,
        {
            sessions,
            ids: nonEmpty(body.ids),
            trace: body.trace_id ?? undefined,
            referenceExamples: nonEmpty(body.reference_examples),
            runType: body.run_type?.toLowerCase(),
            isRoot: body.is_root ?? undefined,
            error: body.has_error ?? undefined,
            minStart: body.min_start_time ?? earliest ?? new Date(now - 86_400_000).toISOString(),
            maxStart: body.max_start_time ?? new Date(now).toISOString(),
            ...filters,
            order,
        },
        feedbackOf,
    );
    const page = pageOf(runs, order, body.page_size ?? 100, body.cursor);
    return {
        items: page.items.map((r) => v2View(model, r, reading, body.selects ?? [])),
        has_more: page.next !== undefined,
        ...(page.next ? { next_cursor: page.next } : {}),
    };
}

/** A refusal on a v2 route as problem details (`{detail}` words kept as the detail; a 422 of the body's reading 400). */
export function asProblem(e: unknown): unknown {
    if (!(e instanceof EmulatorError) || (e.body as { title?: unknown }).title) return e;
    const detail = (e.body as { detail?: unknown }).detail;
    if (typeof detail === "string") return problem(e.status, detail);
    const words = Array.isArray(detail)
        ? detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join(".")}: ${d.msg}`).join("; ")
        : JSON.stringify(detail);
    return problem(e.status === 422 ? 400 : e.status, words);
}
