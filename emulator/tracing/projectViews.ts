/**
 * A tracing project's saved views (docs/service.md R5 "Saved views"): `/sessions/{session_id}/views[/{view_id}]` and
 * `.../{view_id}/rename`, under `/api/v1` and under no prefix. A view is a name, a type (`runs`, `threads`,
 * `single_run`), the three filters of the trace query syntax (`filter_string` on the run, `trace_filter_string` on its
 * trace's root, `tree_filter_string` on some run of its trace) and a time range (`start_time`/`end_time`, or a
 * `duration`): what the UI opens the project's runs with. Kept in `--state-dir` (`views.json`).
 *
 * Decided where the description is silent: a filter that does not parse (the shared parser, provider/api/filter.ts)
 * is refused (400, naming the field and the place); names are not unique (the description has no rule); PATCH leaves
 * absent fields and clears a nullable one given null; the rename changes the name (and the description when given) and
 * nothing else; a view of a deleted project is gone with it (404, not listed).
 */
import { randomUUID } from "node:crypto";
import { FilterSyntaxError, parseFilter } from "../../provider/api/filter";
import {
    type View,
    ViewCreateRequestSchema,
    type ViewCreateRequest,
    ViewRenameRequestSchema,
    VIEW_TYPES,
    ViewUpdateRequestSchema,
    type ViewUpdateRequest,
} from "../../provider/api/schemas/projectViews";
import type { Area } from "../core/area";
import { badRequest, EmulatorError, invalidField, requireUuid } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store } from "../core/store";
import type { BulkExportModel } from "../bulkExport/model";

type ViewRecord = View & { tenant_id: string };
const FILTERS = ["filter_string", "trace_filter_string", "tree_filter_string"] as const;

/** The views of every workspace's projects, kept in `--state-dir`. */
class ViewModel {
    private items: ViewRecord[];
    private readonly store: Store<ViewRecord[]>;

    constructor(
        private readonly projects: BulkExportModel,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "views.json");
        this.items = this.store.load() ?? [];
    }

    reset(): void {
        this.items = [];
        this.store.save(this.items);
    }

    /** The project's views (404 when the workspace holds no such project, or it is being deleted). */
    of(tenantId: string, sessionId: string): ViewRecord[] {
        const p = this.projects.project(tenantId, sessionId);
        if (p.deleting_until) throw new EmulatorError(404, { detail: `Tracing project ${sessionId} not found` });
        return this.items.filter((v) => v.tenant_id === tenantId && v.session_id === p.session_id);
    }

    get(tenantId: string, sessionId: string, id: string): ViewRecord {
        const v = this.of(tenantId, sessionId).find((x) => x.id === id.toLowerCase());
        if (!v) throw new EmulatorError(404, { detail: `Filter view ${id} not found` });
        return v;
    }

    create(tenantId: string, sessionId: string, body: ViewCreateRequest): ViewRecord {
        this.of(tenantId, sessionId);
        checkFilters(body);
        const now = this.projects.now();
        const v: ViewRecord = {
            ...Object.fromEntries(FILTERS.map((f) => [f, null])),
            description: null,
            start_time: null,
            end_time: null,
            duration: null,
            ...body,
            type: body.type ?? "runs",
            id: randomUUID(),
            session_id: sessionId.toLowerCase(),
            tenant_id: tenantId,
            created_at: now,
            updated_at: now,
        };
        this.items.push(v);
        return this.saved(v);
    }

    /** Sets what the body gives (null clears; a name or type given null stays). */
    update(tenantId: string, sessionId: string, id: string, body: ViewUpdateRequest): ViewRecord {
        const v = this.get(tenantId, sessionId, id);
        checkFilters(body);
        const given = Object.entries(body).filter(([k, x]) => x !== undefined && !(x === null && (k === "display_name" || k === "type")));
        return this.saved(Object.assign(v, Object.fromEntries(given), { updated_at: this.projects.now() }));
    }

    delete(tenantId: string, sessionId: string, id: string): void {
        this.items.splice(this.items.indexOf(this.get(tenantId, sessionId, id)), 1);
        this.saved(undefined);
    }

    /** Saves the snapshot; answers `x`. */
    private saved<T>(x: T): T {
        this.store.save(this.items);
        return x;
    }
}

/** Each filter given parses (400 naming the field and the place: decided). */
function checkFilters(body: Partial<Record<(typeof FILTERS)[number], string | null>>): void {
    for (const f of FILTERS) {
        const text = body[f];
        if (typeof text !== "string" || text.trim() === "") continue;
        try {
            parseFilter(text);
        } catch (e) {
            if (e instanceof FilterSyntaxError) throw badRequest(`${f}: filter does not parse: ${e.message}`);
            throw e;
        }
    }
}

/** A view as the service answers it (`FilterView`: no tenant). */
const view = ({ tenant_id: _t, ...v }: ViewRecord): View => v;

export function viewsArea(o: { model: BulkExportModel; stateDir?: string }): Area {
    const model = new ViewModel(o.model, o.stateDir);
    return {
        name: "views",
        register: (router) => registerViews(router, model),
        reset: () => model.reset(),
    };
}

function registerViews(router: Router, model: ViewModel): void {
    const session = (c: RequestContext) => requireUuid(c.params.session_id, "session_id");
    const id = (c: RequestContext) => requireUuid(c.params.view_id, "view_id");
    const ok = (v: ViewRecord) => ({ status: 200, body: view(v) });
    router
        .onApi("GET", "/sessions/{session_id}/views", (c) => {
            const type = c.query.get("type");
            if (type !== null && !(VIEW_TYPES as readonly string[]).includes(type)) {
                throw invalidField(["query", "type"], "Input should be 'runs', 'threads' or 'single_run'", "enum");
            }
            return {
                status: 200,
                body: model
                    .of(c.tenantId, session(c))
                    .filter((v) => type === null || v.type === type)
                    .map(view),
            };
        })
        .onApi("POST", "/sessions/{session_id}/views", (c) => ok(model.create(c.tenantId, session(c), parse(ViewCreateRequestSchema, c.body, "body"))))
        .onApi("GET", "/sessions/{session_id}/views/{view_id}", (c) => ok(model.get(c.tenantId, session(c), id(c))))
        .onApi("PATCH", "/sessions/{session_id}/views/{view_id}", (c) =>
            ok(model.update(c.tenantId, session(c), id(c), parse(ViewUpdateRequestSchema, c.body, "body"))),
        )
        .onApi("PATCH", "/sessions/{session_id}/views/{view_id}/rename", (c) => {
            const body = parse(ViewRenameRequestSchema, c.body, "body");
            return ok(model.update(c.tenantId, session(c), id(c), body));
        })
        .onApi("DELETE", "/sessions/{session_id}/views/{view_id}", (c) => {
            model.delete(c.tenantId, session(c), id(c));
            return { status: 200, body: {} };
        });
}
