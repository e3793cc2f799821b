/**
 * The datasets area (docs/service.md R5): `/datasets` on the tracing API, under `/api/v1` and under no prefix
 * (Router.onApi). Routes parse with the strict
 * request schemas of the shared wire contract; the model decides (model.ts).
 */
import { DatasetCreateRequestSchema, DatasetUpdateRequestSchema } from "../../provider/api/schemas/datasets";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { requireUuid } from "../core/errors";
import { page, parse, type RequestContext } from "../core/http";
import { type DatasetRecord, DatasetsModel } from "./model";

const BASE = "/datasets";

export interface DatasetsArea extends Area {
    readonly model: DatasetsModel;
}

/**
 * `sessionCount`: how many tracing projects of the workspace are experiments over a dataset (its
 * `session_count`, which the tracing area knows).
 */
export function datasetsArea(o: { clock: Clock; stateDir?: string; sessionCount?: (tenantId: string, datasetId: string) => number }): DatasetsArea {
    const model = new DatasetsModel(o.clock, o.stateDir);
    const id = (c: RequestContext) => requireUuid(c.params.dataset_id, "dataset_id");
    /** A dataset as a read answers it (`Dataset`), with its experiments counted. */
    const view = (d: DatasetRecord) => ({ ...d, session_count: o.sessionCount?.(d.tenant_id, d.id) ?? 0 });
    /** A dataset as an update answers it (`DatasetSchemaForUpdate`): no counters, no metadata, no modification time. */
    const written = ({ modified_at: _m, example_count: _e, metadata: _md, ...d }: DatasetRecord) => d;
    return {
        name: "datasets",
        model,
        notEmulated: [/^(\/api\/v1)?\/(examples|datasets\/[^/]+\/(tags|splits|versions|examples))/],
        register(router) {
            router
                .onApi("POST", BASE, (c) => ({ status: 200, body: view(model.create(c.tenantId, parse(DatasetCreateRequestSchema, c.body, "body"))) }))
                .onApi("GET", BASE, (c) => {
                    const q = { name: c.query.get("name") ?? undefined, nameContains: c.query.get("name_contains") ?? undefined };
                    return { status: 200, body: page(c, model.list(c.tenantId, q), { defaultLimit: 100 }).map(view) };
                })
                .onApi("GET", `${BASE}/{dataset_id}`, (c) => ({ status: 200, body: view(model.get(c.tenantId, id(c))) }))
                .onApi("PATCH", `${BASE}/{dataset_id}`, (c) => ({
                    status: 200,
                    body: written(model.update(c.tenantId, id(c), parse(DatasetUpdateRequestSchema, c.body, "body"))),
                }))
                .onApi("DELETE", `${BASE}/{dataset_id}`, (c) => {
                    model.delete(c.tenantId, id(c));
                    return { status: 200, body: {} };
                });
        },
        reset: () => model.reset(),
    };
}
