/**
 * The datasets area (docs/service.md R5): `/datasets` on the tracing API, under `/api/v1` and under no prefix
 * (Router.onApi). Routes parse with the strict
 * request schemas of the shared wire contract; the model decides (model.ts).
 */
import { DatasetCreateRequestSchema, DatasetUpdateRequestSchema } from "../../provider/api/schemas/datasets";
import type { Area, TagAtCreate } from "../core/area";
import type { Clock } from "../core/clock";
import { requireUuid } from "../core/errors";
import { page, parse, type RequestContext } from "../core/http";
import { type ExampleRoutes, registerExampleRoutes } from "./exampleRoutes";
import { Examples } from "./examples";
import { type DatasetRecord, DatasetsModel } from "./model";
import { DatasetVersions } from "./versions";

const BASE = "/datasets";

export interface DatasetsArea extends Area {
    readonly model: DatasetsModel;
    readonly examples: Examples;
    readonly versions: DatasetVersions;
}

/**
 * `sessionCount`: how many tracing projects of the workspace are experiments over a dataset (its
 * `session_count`, which the tracing area knows).
 */
export function datasetsArea(o: {
    clock: Clock;
    stateDir?: string;
    sessionCount?: (tenantId: string, datasetId: string) => number;
    /** The tags a create names (`tag_value_ids`): a new dataset is tagged with them. */
    tagAtCreate?: TagAtCreate;
    /** A traced run, for an example made from its inputs and outputs (the tracing area knows them). */
    sourceRun?: ExampleRoutes["sourceRun"];
}): DatasetsArea {
    const model = new DatasetsModel(o.clock, o.stateDir);
    const examples = new Examples(o.clock, o.stateDir);
    const versions = new DatasetVersions((d) => examples.versions(d), o.stateDir);
    const id = (c: RequestContext) => requireUuid(c.params.dataset_id, "dataset_id");
    /** A dataset as a read answers it (`Dataset`), with its experiments counted. */
    const view = (d: DatasetRecord) => ({ ...d, example_count: examples.count(d.tenant_id, d.id), session_count: o.sessionCount?.(d.tenant_id, d.id) ?? 0 });
    /** A dataset as an update answers it (`DatasetSchemaForUpdate`): no counters, no metadata, no modification time. */
    const written = ({ modified_at: _m, example_count: _e, metadata: _md, ...d }: DatasetRecord) => d;
    return {
        name: "datasets",
        model,
        examples,
        versions,
        // The official clients read examples without `X-Tenant-Id` unless given a workspace id: the key's workspace.
        keyWorkspace: [/^(\/api\/v1)?\/examples(\/|$)/],
        // A CSV upload, validation, and the multipart paths the clients use only when `/info` says so: not emulated.
        notEmulated: [/^(\/api\/v1)?\/(examples\/(upload|multipart|validate)|datasets\/[^/]+\/examples)/],
        register(router) {
            router
                .onApi("POST", BASE, (c) => {
                    const body = parse(DatasetCreateRequestSchema, c.body, "body");
                    const tag = o.tagAtCreate?.(c.tenantId, body.tag_value_ids) ?? (() => undefined);
                    const made = model.create(c.tenantId, body);
                    tag(made.id);
                    return { status: 200, body: view(made) };
                })
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
                    examples.dropDataset(id(c));
                    versions.dropDataset(id(c));
                    return { status: 200, body: {} };
                });
            registerExampleRoutes(router, {
                examples,
                versions,
                requireDataset: (t, d) => void model.get(t, d),
                tenantOf: (d) => model.datasets.get(d)?.tenant_id ?? "",
                datasetView: (d) => view(model.datasets.get(d) as DatasetRecord),
                sourceRun: (t, run) => o.sourceRun?.(t, run),
            });
        },
        reset: () => {
            model.reset();
            examples.reset();
            versions.reset();
        },
    };
}
