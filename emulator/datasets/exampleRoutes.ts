/**
 * The routes of a dataset's examples, versions, tags, splits and share (docs/service.md R14), under
 * `/api/v1` and under no prefix: `/examples` (read `as_of` a time or a tag, by dataset, ids, splits and metadata;
 * made one or in bulk, changed one or in bulk, deleted one or several), `/datasets/{id}/versions`, `/version`,
 * `/tags`, `/splits`, `/share`, and `/public/{token}/examples` (a shared dataset's, read without a key). Bodies
 * parse with the strict schemas of the shared wire contract; examples.ts and versions.ts decide.
 */
import {
    ExampleBulkCreateSchema,
    ExampleBulkUpdateSchema,
    ExampleCreateSchema,
    ExampleUpdateOneSchema,
    PutDatasetSplitsSchema,
    PutDatasetTagSchema,
    type ExampleCreate,
} from "../../provider/api/schemas/examples";
import { EmulatorError, invalidField, requireUuid } from "../core/errors";
import { page, parse, uuidParams, type RequestContext, type Router } from "../core/http";
import type { ExampleRecord, Examples, NewExample } from "./examples";
import type { DatasetVersions } from "./versions";

export interface ExampleRoutes {
    examples: Examples;
    versions: DatasetVersions;
    /** Throws 404 when the workspace has no such dataset. */
    requireDataset(tenantId: string, datasetId: string): void;
    /** The workspace a dataset is in (a share token's reads carry no key). */
    tenantOf(datasetId: string): string;
    /** A dataset as a read answers it. */
    datasetView(datasetId: string): unknown;
    /** A traced run's inputs and outputs (`use_source_run_io`), undefined when the workspace has no such run. */
    sourceRun(tenantId: string, runId: string): { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | undefined;
}

const datasetId = (c: RequestContext) => requireUuid(c.params.dataset_id, "dataset_id");

/** The examples a metadata filter (`metadata`, a JSON object) keeps: those whose metadata holds each of its keys with that value. */
function metadataFilter(c: RequestContext): (e: ExampleRecord) => boolean {
    const given = c.query.get("metadata");
    if (!given) return () => true;
    const refused = () => invalidField(["query", "metadata"], "metadata must be a JSON object", "value_error");
    let wanted: unknown;
    try {
        wanted = JSON.parse(given);
    } catch {
        throw refused();
    }
    if (!wanted || typeof wanted !== "object" || Array.isArray(wanted)) throw refused();
    return (e) => Object.entries(wanted).every(([k, v]) => JSON.stringify(e.metadata?.[k]) === JSON.stringify(v));
}

/** The examples a read selects: by `dataset`, `id`s, `splits`, `metadata`, as of a version. */
function selected(r: ExampleRoutes, c: RequestContext): ExampleRecord[] {
    const dataset = c.query.get("dataset") ? requireUuid(c.query.get("dataset") as string, "dataset") : undefined;
    if (dataset) r.requireDataset(c.tenantId, dataset);
    const asOf = r.versions.resolve(dataset, c.query.get("as_of"));
    const q = { datasetId: dataset, ids: uuidParams(c, "id"), asOf, splits: c.query.getAll("splits") };
    return r.examples.list(c.tenantId, q).filter(metadataFilter(c));
}

/**
 * A new example as the model takes it: inputs not given are none (`{}`, **decided**: the description lets a create
 * leave them out, and an example always has some); with `use_source_run_io`, its source run's inputs and outputs
 * (a run the workspace does not have: 404).
 */
function newExample(r: ExampleRoutes, tenantId: string, e: ExampleCreate, at: Array<string | number>): NewExample {
    const made = { id: e.id, inputs: e.inputs ?? {}, outputs: e.outputs ?? null, metadata: e.metadata ?? null, split: e.split, source_run_id: e.source_run_id };
    if (!e.use_source_run_io) return made;
    if (!e.source_run_id) throw invalidField([...at, "source_run_id"], "use_source_run_io needs source_run_id", "value_error");
    const run = r.sourceRun(tenantId, e.source_run_id);
    if (!run) throw new EmulatorError(404, { detail: `Run ${e.source_run_id} not found` });
    return { ...made, inputs: run.inputs ?? {}, outputs: run.outputs ?? null };
}

/** Bulk create: each dataset's examples one version; every dataset named must be the workspace's. */
function createMany(r: ExampleRoutes, c: RequestContext, given: ExampleCreate[], single = false): ExampleRecord[] {
    const byDataset = new Map<string, NewExample[]>();
    for (const [i, e] of given.entries()) {
        const at = single ? ["body"] : ["body", i];
        const rows = byDataset.get(e.dataset_id) ?? [];
        rows.push(newExample(r, c.tenantId, e, at));
        byDataset.set(e.dataset_id, rows);
    }
    for (const d of byDataset.keys()) r.requireDataset(c.tenantId, d);
    return [...byDataset].flatMap(([d, rows]) => r.examples.add(c.tenantId, d, rows));
}

export function registerExampleRoutes(router: Router, r: ExampleRoutes): void {
    const exampleId = (c: RequestContext) => requireUuid(c.params.example_id, "example_id");
    router
        .onApi("GET", "/examples", (c) => ({ status: 200, body: page(c, selected(r, c), { defaultLimit: 100 }) }))
        .onApi("GET", "/examples/count", (c) => ({ status: 200, body: selected(r, c).length }))
        .onApi("GET", "/examples/{example_id}", (c) => {
            const asOf = r.versions.resolve(undefined, c.query.get("as_of"));
            return { status: 200, body: r.examples.get(c.tenantId, exampleId(c), asOf) };
        })
        .onApi("POST", "/examples", (c) => ({ status: 200, body: createMany(r, c, [parse(ExampleCreateSchema, c.body, "body")], true)[0] }))
        .onApi("POST", "/examples/bulk", (c) => ({ status: 200, body: createMany(r, c, parse(ExampleBulkCreateSchema, c.body, "body")) }))
        .onApi("PATCH", "/examples/bulk", (c) => {
            const changes = parse(ExampleBulkUpdateSchema, c.body, "body");
            r.examples.update(c.tenantId, changes);
            return { status: 200, body: { count: changes.length, example_ids: changes.map((x) => x.id) } };
        })
        .onApi("PATCH", "/examples/{example_id}", (c) => {
            r.examples.update(c.tenantId, [{ ...parse(ExampleUpdateOneSchema, c.body, "body"), id: exampleId(c) }]);
            return { status: 200, body: {} };
        })
        .onApi("DELETE", "/examples/{example_id}", (c) => {
            r.examples.delete(c.tenantId, [exampleId(c)]);
            return { status: 200, body: {} };
        })
        .onApi("DELETE", "/examples", (c) => {
            const ids = uuidParams(c, "example_ids");
            if (!ids.length) throw invalidField(["query", "example_ids"], "Field required", "missing");
            r.examples.delete(c.tenantId, ids);
            return { status: 200, body: {} };
        });
    registerVersionRoutes(router, r);
}

/** A dataset's versions, tags, splits and share, and what a share token opens. */
function registerVersionRoutes(router: Router, r: ExampleRoutes): void {
    const dataset = (c: RequestContext) => {
        const id = datasetId(c);
        r.requireDataset(c.tenantId, id);
        return id;
    };
    router
        .onApi("GET", "/datasets/{dataset_id}/versions", (c) => ({ status: 200, body: page(c, r.versions.list(dataset(c)), { defaultLimit: 100 }) }))
        .onApi("GET", "/datasets/{dataset_id}/version", (c) => {
            const id = dataset(c);
            return { status: 200, body: r.versions.version(id, r.versions.resolve(id, c.query.get("tag") ?? c.query.get("as_of"))) };
        })
        .onApi("PUT", "/datasets/{dataset_id}/tags", (c) => {
            const id = dataset(c);
            const body = parse(PutDatasetTagSchema, c.body, "body");
            return { status: 200, body: r.versions.tag(id, body.tag, r.versions.resolve(id, body.as_of)) };
        })
        .onApi("GET", "/datasets/{dataset_id}/splits", (c) => {
            const id = dataset(c);
            return { status: 200, body: r.examples.splits(c.tenantId, id, r.versions.resolve(id, c.query.get("as_of"))) };
        })
        .onApi("PUT", "/datasets/{dataset_id}/splits", (c) => {
            dataset(c);
            const body = parse(PutDatasetSplitsSchema, c.body, "body");
            r.examples.moveSplit(c.tenantId, body.examples, body.split_name, body.remove ?? false);
            return { status: 200, body: body.examples };
        })
        .onApi("GET", "/datasets/{dataset_id}/share", (c) => {
            const id = dataset(c);
            const token = r.versions.shareOf(id);
            return { status: 200, body: token ? { dataset_id: id, share_token: token } : null };
        })
        .onApi("PUT", "/datasets/{dataset_id}/share", (c) => {
            const id = dataset(c);
            return { status: 200, body: { dataset_id: id, share_token: r.versions.share(id) } };
        })
        .onApi("DELETE", "/datasets/{dataset_id}/share", (c) => {
            r.versions.unshare(dataset(c));
            return { status: 200, body: {} };
        });
    registerSharedRoutes(router, r);
}

/** What a share token opens, read without a key: the dataset, its examples as they are now, and their count. */
function registerSharedRoutes(router: Router, r: ExampleRoutes): void {
    const sharedId = (c: RequestContext) => r.versions.sharedDataset(requireUuid(c.params.share_token, "share_token"));
    const shared = (c: RequestContext) => {
        const id = sharedId(c);
        return r.examples.list(r.tenantOf(id), { datasetId: id, ids: uuidParams(c, "id") });
    };
    for (const prefix of ["/api/v1", ""]) {
        router
            .on("GET", `${prefix}/public/{share_token}/examples`, (c) => ({ status: 200, body: page(c, shared(c), { defaultLimit: 100 }) }), { public: true })
            .on("GET", `${prefix}/public/{share_token}/datasets`, (c) => ({ status: 200, body: r.datasetView(sharedId(c)) }), { public: true })
            .on("GET", `${prefix}/public/{share_token}/examples/count`, (c) => ({ status: 200, body: shared(c).length }), { public: true });
    }
}
