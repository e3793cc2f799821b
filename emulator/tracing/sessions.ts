/**
 * Tracing projects through `/sessions` (docs/service.md R5): made, read, listed, renamed, deleted, and made on
 * first use when a traced run names one (`projectOf`). They are the projects bulk export reads
 * (bulkExport/projects.ts): one made here holds no generated runs, only those traced into it. A name is
 * unique in a workspace (409, or with `?upsert=true` the project of that name, updated with what was
 * given); an update of a field leaves the others as they are (null or absent changes nothing). A delete is
 * accepted (202) and finishes later, as on the service: at once the project no longer lists and its name is free;
 * for `SESSION_CLEANUP_MS` of the emulator's clock (none at `--speed immediate`) it still reads by id (what a
 * client waiting for the delete sees), then it is gone, its traced runs with it (`sweepDeleted`).
 * A create and an update answer the project without its counters (`run_count`, ...), as the service's do. The list
 * filters by name, ids, tags, reference dataset and metadata (docs/service.md R5 "Reading traced runs" 5).
 *
 * The experiment fields the official clients may send (`num_examples`, `num_repetitions`, `evaluator_keys`) are
 * taken and not kept; `tag_value_ids` tag a new project (the resource-tags area's taggings; an unknown value 404
 * before anything is made), and an upsert onto a project of the name tags nothing. Not emulated: the counters of the real service (latency, tokens,
 * cost, feedback); `run_count` counts generated and traced runs.
 */
import { randomUUID } from "node:crypto";
import type { SessionCreateRequest, SessionUpdateRequest } from "../../provider/api/schemas/sessions";
import type { TagAtCreate } from "../core/area";
import { conflict } from "../core/errors";
import type { BulkExportModel } from "../bulkExport/model";
import type { TracingProject } from "../bulkExport/projects";
import type { TraceTier } from "./retention";
import type { RunOp } from "./wire";

const nameOf = (p: TracingProject) => p.session?.name ?? `project-${p.session_id.slice(0, 8)}`;

/** How long a deleted project takes to be gone, on the emulator's clock (docs/service.md R5: the service cleans up asynchronously). */
export const SESSION_CLEANUP_MS = 1_000;

/** A project as the service answers it. */
export function sessionView(model: BulkExportModel, p: TracingProject, tenantId: string) {
    const s = p.session;
    const traced = model.traced.of(p.session_id).filter((r) => model.keeps(r));
    const lastTraced = traced.reduce<string | undefined>((last, r) => (r.start_time && !(last && last >= r.start_time) ? r.start_time : last), undefined);
    return {
        id: p.session_id,
        name: nameOf(p),
        tenant_id: p.tenant_id ?? tenantId,
        start_time: s?.created ?? p.start,
        end_time: s?.end_time ?? null,
        description: s?.description ?? null,
        extra: s?.extra ?? null,
        reference_dataset_id: s?.reference_dataset_id ?? null,
        trace_tier: s?.trace_tier ?? "longlived",
        run_count: p.count + traced.length,
        last_run_start_time: lastTraced ?? (p.count > 0 ? p.end : null),
    };
}

const visible = (p: TracingProject, tenantId: string) => !p.tenant_id || p.tenant_id === tenantId;
/** Listed and found by name: visible and not being deleted. */
const listed = (p: TracingProject, tenantId: string) => visible(p, tenantId) && !p.deleting_until;
const named = (model: BulkExportModel, tenantId: string, name: string) => [...model.projects.values()].find((p) => listed(p, tenantId) && nameOf(p) === name);

type SessionView = ReturnType<typeof sessionView>;

/** A project as a create or an update answers it (`TracerSessionWithoutVirtualFields`): no counters. */
function writeView(view: SessionView) {
    const { run_count: _runs, last_run_start_time: _last, ...written } = view;
    return written;
}

/** Drops the projects whose deletion has finished (their time on the clock passed); every session route calls it first. */
export function sweepDeleted(model: BulkExportModel): void {
    const now = model.now();
    const done = [...model.projects.values()].filter((p) => p.deleting_until && p.deleting_until <= now);
    for (const p of done) {
        model.projects.delete(p.session_id);
        model.traced.dropProject(p.session_id);
    }
    if (done.length) model.save();
}

/** POST /sessions: a new project (`tier` when the body names none), or with `upsert` the one of that name brought up to date. */
export function createSession(
    model: BulkExportModel,
    tenantId: string,
    body: SessionCreateRequest,
    o: { upsert?: boolean; tier?: TraceTier; tagAtCreate?: TagAtCreate } = {},
) {
    const { upsert = false, tier = "longlived" } = o;
    const { num_examples, num_repetitions, evaluator_keys, tag_value_ids, ...given } = body;
    // No name: the service names it; here after its id, as a generated project is named.
    const id = given.id ?? randomUUID();
    const fields = { ...given, id, name: given.name ?? `project-${id.slice(0, 8)}` };
    const taken = named(model, tenantId, fields.name);
    if (taken && upsert)
        return updateSession(model, tenantId, taken.session_id, { description: fields.description, extra: fields.extra, trace_tier: fields.trace_tier });
    if (taken) throw conflict("Session already exists.");
    const tag = o.tagAtCreate?.(tenantId, tag_value_ids) ?? (() => undefined);
    const made = makeSession(model, tenantId, { ...fields, trace_tier: fields.trace_tier ?? tier });
    tag(made.session_id);
    return writeView(sessionView(model, made, tenantId));
}

function makeSession(model: BulkExportModel, tenantId: string, body: SessionCreateRequest & { name: string }): TracingProject {
    const now = model.now();
    return model.addProject({
        session_id: body.id ?? randomUUID(),
        tenant_id: tenantId,
        start: now,
        end: new Date(Date.parse(now) + 1).toISOString(),
        count: 0,
        session: {
            name: body.name,
            description: body.description,
            extra: body.extra,
            reference_dataset_id: body.reference_dataset_id,
            trace_tier: body.trace_tier ?? "longlived",
            created: body.start_time ?? now,
            end_time: body.end_time,
        },
    });
}

/**
 * The project a traced run is filed under: the one it names by id (404 when the workspace has none), else
 * the one of its `session_name`, or of the name `default` when it gives none, made on first use (of `tier`).
 */
export function projectOf(model: BulkExportModel, tenantId: string, op: RunOp, tier: TraceTier = "longlived"): string {
    if (op.session.id) return model.project(tenantId, op.session.id).session_id;
    const name = op.session.name ?? "default";
    return (named(model, tenantId, name) ?? makeSession(model, tenantId, { name, trace_tier: tier })).session_id;
}

/** The tier of the project a run would be filed under (`tier`: a new project's). */
export function tierOf(model: BulkExportModel, tenantId: string, op: RunOp, tier: TraceTier): TraceTier {
    const p = op.session.id ? model.projects.get(op.session.id) : named(model, tenantId, op.session.name ?? "default");
    return (p?.session?.trace_tier as TraceTier | undefined) ?? (p ? "longlived" : tier);
}

export function readSession(model: BulkExportModel, tenantId: string, id: string): SessionView {
    return sessionView(model, model.project(tenantId, id), tenantId);
}

/** What `GET /sessions` lists by (docs/service.md R5 "Reading traced runs" 5): every criterion given must hold. */
export interface SessionQuery {
    /** Exact. */
    name?: string;
    /** Case-insensitive. */
    nameContains?: string;
    /** Only these (`id`, and the tag filter's). */
    ids?: Set<string>;
    /** Experiments of one of these datasets (`reference_dataset`). */
    referenceDatasets?: string[];
    /** True: projects that are no experiment; false: experiments (`reference_free`). */
    referenceFree?: boolean;
    /** Each key holding this value in the project's `extra.metadata` (`metadata`, a JSON object). */
    metadata?: Record<string, unknown>;
}

function listedBy(p: TracingProject, q: SessionQuery): boolean {
    const dataset = p.session?.reference_dataset_id ?? null;
    const metadata = (p.session?.extra?.metadata ?? {}) as Record<string, unknown>;
    return (
        (!q.ids || q.ids.has(p.session_id)) &&
        (!q.referenceDatasets || (dataset !== null && q.referenceDatasets.includes(dataset))) &&
        (q.referenceFree === undefined || (dataset === null) === q.referenceFree) &&
        Object.entries(q.metadata ?? {}).every(([k, v]) => JSON.stringify(metadata[k]) === JSON.stringify(v))
    );
}

/** The workspace's projects the query lists, newest first. */
export function listSessions(model: BulkExportModel, tenantId: string, q: SessionQuery): SessionView[] {
    return [...model.projects.values()]
        .filter((p) => listed(p, tenantId) && listedBy(p, q))
        .map((p) => sessionView(model, p, tenantId))
        .filter(
            (s) => (q.name === undefined || s.name === q.name) && (q.nameContains === undefined || s.name.toLowerCase().includes(q.nameContains.toLowerCase())),
        )
        .sort((a, b) => b.start_time.localeCompare(a.start_time));
}

export function updateSession(model: BulkExportModel, tenantId: string, id: string, body: SessionUpdateRequest) {
    const p = model.project(tenantId, id);
    if (body.name && body.name !== nameOf(p) && named(model, tenantId, body.name)) throw conflict("Session already exists.");
    const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
    p.session = { ...(p.session ?? { name: nameOf(p), created: p.start }), ...given };
    model.save();
    return writeView(sessionView(model, p, tenantId));
}

/**
 * DELETE /sessions/{id}: accepted; the project goes `cleanupMs` later (`SESSION_CLEANUP_MS`; 0 at `--speed
 * immediate`, as a deleted deployment then goes at once); a second delete meanwhile is accepted too.
 */
export function deleteSession(model: BulkExportModel, tenantId: string, id: string, cleanupMs = SESSION_CLEANUP_MS): void {
    const p = model.project(tenantId, id);
    p.deleting_until ??= new Date(model.clock.now() + cleanupMs).toISOString();
    model.save();
}
