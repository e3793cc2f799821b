/**
 * Tracing projects through `/api/v1/sessions` (docs/service.md R5): made, read, listed, renamed, deleted.
 * They are the projects bulk export reads (projects.ts): one made here holds no generated runs (its runs are
 * those traced into it). A name is unique in a workspace (409); an update of a field leaves the others as
 * they are (null or absent changes nothing); a delete is answered at once and the project is gone.
 *
 * Not emulated: the counters of the real service (latency, tokens, cost, feedback); `run_count` is the
 * generated runs of a generated project, 0 for one made here.
 */
import { randomUUID } from "node:crypto";
import type { SessionCreateRequest, SessionUpdateRequest } from "../../provider/api/schemas/sessions";
import { EmulatorError, conflict } from "../core/errors";
import type { BulkExportModel } from "./model";
import type { TracingProject } from "./projects";

/** A project as the service answers it. */
export function sessionView(p: TracingProject, tenantId: string) {
    const s = p.session;
    return {
        id: p.session_id,
        name: s?.name ?? `project-${p.session_id.slice(0, 8)}`,
        tenant_id: p.tenant_id ?? tenantId,
        start_time: s?.created ?? p.start,
        end_time: s?.end_time ?? null,
        description: s?.description ?? null,
        extra: s?.extra ?? null,
        reference_dataset_id: s?.reference_dataset_id ?? null,
        trace_tier: s?.trace_tier ?? "longlived",
        run_count: p.count,
        last_run_start_time: p.count > 0 ? p.end : null,
    };
}

const visible = (p: TracingProject, tenantId: string) => !p.tenant_id || p.tenant_id === tenantId;
const nameOf = (p: TracingProject, tenantId: string) => sessionView(p, tenantId).name;

export function createSession(model: BulkExportModel, tenantId: string, body: SessionCreateRequest): ReturnType<typeof sessionView> {
    const taken = [...model.projects.values()].find((p) => visible(p, tenantId) && nameOf(p, tenantId) === body.name);
    if (taken) throw conflict(`Session with name ${body.name} already exists.`);
    const now = model.now();
    const p = model.addProject({
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
    return sessionView(p, tenantId);
}

export function readSession(model: BulkExportModel, tenantId: string, id: string): ReturnType<typeof sessionView> {
    return sessionView(model.project(tenantId, id), tenantId);
}

/** The workspace's projects, newest first; `name` exact, `name_contains` case-insensitive. */
export function listSessions(model: BulkExportModel, tenantId: string, q: { name?: string; nameContains?: string }): Array<ReturnType<typeof sessionView>> {
    return [...model.projects.values()]
        .filter((p) => visible(p, tenantId))
        .map((p) => sessionView(p, tenantId))
        .filter(
            (s) => (q.name === undefined || s.name === q.name) && (q.nameContains === undefined || s.name.toLowerCase().includes(q.nameContains.toLowerCase())),
        )
        .sort((a, b) => b.start_time.localeCompare(a.start_time));
}

export function updateSession(model: BulkExportModel, tenantId: string, id: string, body: SessionUpdateRequest): ReturnType<typeof sessionView> {
    const p = model.project(tenantId, id);
    const current = sessionView(p, tenantId);
    if (body.name && body.name !== current.name && listSessions(model, tenantId, { name: body.name }).length) {
        throw conflict(`Session with name ${body.name} already exists.`);
    }
    const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
    p.session = { ...(p.session ?? { name: current.name, created: current.start_time }), ...given };
    model.save();
    return sessionView(p, tenantId);
}

export function deleteSession(model: BulkExportModel, tenantId: string, id: string): void {
    model.project(tenantId, id);
    if (!model.projects.delete(id)) throw new EmulatorError(404, { detail: `Tracing project ${id} not found` });
    model.save();
}
