/**
 * The tracing area: what the official langsmith clients (Python and JS) call to trace and to manage
 * projects, under `/api/v1` and under no prefix (Router.onApi). Server info (`GET /info`), run ingestion
 * (`POST /runs/multipart`, `/runs/batch`, `/runs`, `PATCH /runs/{id}`; wire.ts, store.ts), runs read back
 * (`GET /runs/{id}`, and the run queries `POST /runs/query` and `/api/v2/runs/query`: query.ts, runViews.ts), and
 * tracing projects (`/sessions`, sessions.ts). Runs and projects live in the bulk-export model, which exports them.
 *
 * A request without `X-Tenant-Id` speaks to the API key's own workspace (the clients send the header only
 * when given a workspace id): the server resolves it (`keyWorkspace`).
 */
import { SessionCreateRequestSchema, SessionUpdateRequestSchema } from "../../provider/api/schemas/sessions";
import type { Area, TagAtCreate } from "../core/area";
import { Multipart } from "../core/body";
import { badRequest, EmulatorError, invalidField, requireUuid } from "../core/errors";
import { boolParam, page, parse, type Reply, type RequestContext, type Router, uuidParams } from "../core/http";
import type { BulkExportModel } from "../bulkExport/model";
import { type FeedbackOf, readRun } from "./query";
import { appPathOf, asProblem, queryRuns, queryRunsV2, v1Costs } from "./runViews";
import {
    SESSION_CLEANUP_MS,
    type SessionQuery,
    createSession,
    deleteSession,
    listSessions,
    projectOf,
    readSession,
    sweepDeleted,
    tierOf,
    updateSession,
} from "./sessions";
import { costOps } from "./modelPrices";
import { opOfPatch, opOfPost, opsOfBatch, opsOfMultipart, type RunCosts, type RunFields, type RunOp } from "./wire";

/**
 * What `GET /info` answers. The clients read `batch_ingest_config` whole or not at all (the Python client's
 * tracing thread dies on a partial one) and compress their uploads with zstd (both) or gzip (JS) when
 * `instance_flags` allows it; the emulator takes both.
 */
export const SERVER_INFO = {
    version: "0.18.0",
    license_expiration_time: null,
    batch_ingest_config: {
        use_multipart_endpoint: true,
        size_limit: 100,
        size_limit_bytes: 20_971_520,
        scale_up_qsize_trigger: 200,
        scale_up_nthreads_limit: 32,
        scale_down_nempty_trigger: 4,
    },
    instance_flags: { zstd_compression_enabled: true, gzip_body_enabled: true, dataset_examples_multipart_enabled: false },
};

/** The v2 run query: where the clients send it (`/api/v2`, their API URL without `/api/v1`) and where the description writes it. */
const V2_QUERY = /^(\/api)?\/v2\/runs\/query\/?$/;

/** `true`, `True`, `1`: a query flag as both clients spell it. */
const flag = (c: RequestContext, name: string) => /^(true|1)$/i.test(c.query.get(name) ?? "");

/** What the organization's settings decide for tracing (docs/service.md R11; emulator/org/settings.ts). */
export interface TracingRules {
    /** The tier of a new project whose create names none. */
    defaultTier(tenantId: string): "longlived" | "shortlived";
    /** Admits the new traces of one ingest request (answers how to count them once kept), or throws the refusal (429) of a usage limit. */
    admit(tenantId: string, traces: number, longlived: number): () => void;
}

const NO_RULES: TracingRules = { defaultTier: () => "longlived", admit: () => () => undefined };

/** The projects of a workspace that carry every one of the tag values given (the resource-tags area's taggings). */
export type TaggedProjects = (tenantId: string, valueIds: string[]) => Set<string>;

/** What the tracing area asks the other areas. */
export interface TracingLinks {
    /** The organization's settings (tiers, usage limits). */
    rules?: TracingRules;
    /** Told the ids of the runs each ingestion touched, after they are stored (the rule engine: it takes them later, off the request's path). */
    onIngest?: (tenantId: string, runIds: string[]) => void;
    /** The taggings `GET /sessions?tag_value_id=` filters by. */
    tagged?: TaggedProjects;
    /** The tags a project's create names (`tag_value_ids`). */
    tagAtCreate?: TagAtCreate;
    /** The feedback on the workspace's runs (the evaluation area's): a run query answers it as `feedback_stats` and filters by it. */
    feedbackOf?: FeedbackOf;
    /** What a run of the workspace costs now (the model price map's, modelPrices.ts): recorded with it when an ingestion brings its usage. */
    costOf?: (tenantId: string, run: RunFields) => RunCosts | undefined;
}

/** `cleanupMs()`: how long a deleted project still reads by id (sessions.ts `deleteSession`), asked at each delete. */
export function tracingArea(model: BulkExportModel, cleanupMs: () => number = () => SESSION_CLEANUP_MS, links: TracingLinks = {}): Area {
    const { rules = NO_RULES } = links;
    return {
        name: "tracing",
        keyWorkspace: [/^(\/api\/v1)?\/(info|runs|sessions|datasets)(\/|$)/, V2_QUERY],
        notEmulated: [
            /^(\/api\/v1)?\/runs\/(query\/validate|stats|group|share|[^/]+\/(share|feedback))/,
            /^(\/api\/v1)?\/sessions\/[^/]+\/(dashboard|insights)/,
            // The rest of the v2 API (runs read by id, threads, traces, ...): only the run query is emulated here (the
            // sandboxes are emulator/sandboxes/'s).
            /^\/api\/v2\/(?!runs\/query\/?$|sandboxes\/)/,
        ],
        register(router) {
            router.onApi("GET", "/info", () => ({ status: 200, body: SERVER_INFO }));
            runRoutes(router, model, rules, links);
            sessionRoutes(router, model, cleanupMs, rules, links);
        },
        reset: () => undefined,
    };
}

/** The new traces of one request (root runs not seen before), and how many go to long-lived projects. */
function newTraces(model: BulkExportModel, tenantId: string, ops: RunOp[], tier: "longlived" | "shortlived") {
    const roots = ops.filter((op) => op.kind === "post" && !op.fields.parent_run_id && !model.traced.get(tenantId, op.id));
    const ids = new Map(roots.map((op) => [op.id, tierOf(model, tenantId, op, tier)]));
    return { traces: ids.size, longlived: [...ids.values()].filter((t) => t === "longlived").length };
}

function runRoutes(router: Router, model: BulkExportModel, rules: TracingRules, links: TracingLinks): void {
    const { onIngest = () => undefined, feedbackOf, costOf } = links;
    /** Ingestion is accepted (202), unless a usage limit refuses it whole; a run's PATCH under `/api/v1` answers 200 (the description has both). */
    const ingest = (c: RequestContext, ops: RunOp[], status = 202) => {
        sweepDeleted(model);
        const tier = rules.defaultTier(c.tenantId);
        const fresh = newTraces(model, c.tenantId, ops, tier);
        const counted = rules.admit(c.tenantId, fresh.traces, fresh.longlived);
        model.traced.apply(c.tenantId, ops, (op) => projectOf(model, c.tenantId, op, tier));
        // What the runs cost, recorded with them once their usage came (docs/service.md R15.3).
        if (costOf) {
            const priced = costOps(
                ops,
                (id) => model.traced.get(c.tenantId, id),
                (run) => costOf(c.tenantId, run),
            );
            if (priced.length) model.traced.apply(c.tenantId, priced, () => undefined);
        }
        counted();
        onIngest(
            c.tenantId,
            ops.map((op) => op.id),
        );
        return { status, body: {} };
    };
    const v2 = (c: RequestContext) => (sweepDeleted(model), { status: 200, body: queryRunsV2(model, c.tenantId, c.body, c.headers.accept, feedbackOf) });
    router
        .on("POST", "/api/v2/runs/query", v2, { refusal: asProblem })
        .on("POST", "/v2/runs/query", v2, { refusal: asProblem })
        .onApi("POST", "/runs/multipart", (c) => {
            if (!(c.body instanceof Multipart)) throw invalidField(["body"], "Expected a multipart/form-data body", "multipart_type");
            return ingest(c, opsOfMultipart(c.body.parts));
        })
        .onApi("POST", "/runs/batch", (c) => ingest(c, opsOfBatch(c.body)))
        .onApi("POST", "/runs", (c) => ingest(c, [opOfPost(c.body)]))
        .onApi("PATCH", "/runs/{run_id}", (c) =>
            ingest(c, [opOfPatch(requireUuid(c.params.run_id, "run_id").toLowerCase(), c.body)], c.path.startsWith("/api/v1/") ? 200 : 202),
        )
        .onApi("POST", "/runs/query", (c) => (sweepDeleted(model), { status: 200, body: queryRuns(model, c.tenantId, c.body, feedbackOf) }))
        .onApi("GET", "/runs/{run_id}", (c) => {
            sweepDeleted(model);
            const id = requireUuid(c.params.run_id, "run_id").toLowerCase();
            const view = runView(model, c.tenantId, id, feedbackOf);
            if (!view) throw new EmulatorError(404, { detail: `Run ${id} not found` });
            return { status: 200, body: view };
        });
}

/**
 * A traced run as `GET /runs/{id}` answers it (`RunSchema`), with the feedback stored on it when `feedbackOf` is given,
 * or undefined when the workspace has not traced it (all of it) or it expired (retention.ts).
 */
export function runView(model: BulkExportModel, tenantId: string, id: string, feedbackOf?: FeedbackOf) {
    const row = readRun(model, tenantId, id, feedbackOf);
    return row && { ...row, ...v1Costs(model, row), app_path: appPathOf(row) };
}

/** What `GET /sessions` lists by: name, ids, tags, reference dataset, metadata (docs/service.md R5 "Reading traced runs" 5). */
function sessionQuery(c: RequestContext, tagged: TaggedProjects | undefined): SessionQuery {
    const valueIds = c.query.getAll("tag_value_id").map((v) => requireUuid(v, "tag_value_id"));
    const byTags = valueIds.length ? (tagged?.(c.tenantId, valueIds) ?? new Set<string>()) : undefined;
    const named = uuidParams(c, "id");
    const ids = named.length ? new Set(named.filter((id) => !byTags || byTags.has(id))) : byTags;
    const datasets = uuidParams(c, "reference_dataset");
    return {
        name: c.query.get("name") ?? undefined,
        nameContains: c.query.get("name_contains") ?? undefined,
        ids,
        referenceDatasets: datasets.length ? datasets : undefined,
        referenceFree: boolParam(c, "reference_free"),
        metadata: metadataParam(c.query.get("metadata")),
    };
}

/** The `metadata` a project list asks for: a JSON object (400 otherwise, decided). */
function metadataParam(text: string | null): Record<string, unknown> | undefined {
    if (text === null) return undefined;
    let parsed: unknown;
    try {
        parsed = JSON.parse(text);
    } catch {
        parsed = undefined;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw badRequest(`metadata must be a JSON object, got ${JSON.stringify(text)}`);
    return parsed as Record<string, unknown>;
}

function sessionRoutes(router: Router, model: BulkExportModel, cleanupMs: () => number, rules: TracingRules, links: TracingLinks): void {
    const { tagged, tagAtCreate } = links;
    const id = (c: RequestContext) => requireUuid(c.params.session_id, "session_id");
    // Every session route first drops the projects whose deletion finished (sessions.ts `sweepDeleted`).
    const on = (method: string, template: string, answer: (c: RequestContext) => Reply) =>
        router.onApi(method, template, (c) => (sweepDeleted(model), answer(c)));
    on("POST", "/sessions", (c) => ({
        status: 200,
        body: createSession(model, c.tenantId, parse(SessionCreateRequestSchema, c.body, "body"), {
            upsert: flag(c, "upsert"),
            tier: rules.defaultTier(c.tenantId),
            tagAtCreate,
        }),
    }));
    on("GET", "/sessions", (c) => ({ status: 200, body: page(c, listSessions(model, c.tenantId, sessionQuery(c, tagged)), { defaultLimit: 100 }) }));
    on("GET", "/sessions/{session_id}", (c) => ({ status: 200, body: readSession(model, c.tenantId, id(c)) }));
    on("PATCH", "/sessions/{session_id}", (c) => ({
        status: 200,
        body: updateSession(model, c.tenantId, id(c), parse(SessionUpdateRequestSchema, c.body, "body")),
    }));
    on("DELETE", "/sessions/{session_id}", (c) => (deleteSession(model, c.tenantId, id(c), cleanupMs()), { status: 202, body: {} }));
}
