/**
 * The Dataset's dynamic provider (its fields: declare.ts). A create carries an id made here (a lost answer is
 * looked up by it); a name the workspace already holds is refused with the dataset's id unless
 * LANGSMITH_ADOPT_IDS names it. An update is one PATCH of what changed; the schemas are checked at preview to be
 * JSON Schema, so the service is never sent one it would refuse. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Dataset, DatasetCreateRequest, DatasetUpdateRequest } from "../../api/schemas/datasets";
import type { TracingClient } from "../../api/tracing";
import { Checker } from "../../kit/check";
import { emptiesAsAbsent } from "../../kit/fields";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { createUniquelyNamed } from "../../kit/interrupted";
import { known } from "../../kit/unknown";
import { Service } from "../../kit/service";
import { fromWire, toWire } from "../../kit/wire";
import { SCHEMA_VERSION, dataset, type DatasetInputs, type DatasetOutputs } from "./declare";
import { inItsWorkspace } from "../../kit/workspace";

export const DATASET_DIFF = diffTableOf(dataset.inputs);

/** The types a JSON Schema's `type` may name. */
const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** Why `v` is not a JSON Schema (the keywords this provider checks: `type`, `properties`, `required`, `items`), or undefined. */
function notJsonSchema(v: Record<string, unknown>): string | undefined {
    const types = Array.isArray(v.type) ? v.type : v.type === undefined ? [] : [v.type];
    const wrong = types.find((t) => typeof t !== "string" || !JSON_TYPES.includes(t));
    if (wrong !== undefined) return `type ${JSON.stringify(wrong)} is not one of ${JSON_TYPES.join(", ")}`;
    const props = v.properties;
    if (
        props !== undefined &&
        (typeof props !== "object" || props === null || Array.isArray(props) || Object.values(props).some((p) => typeof p !== "object" || p === null))
    ) {
        return "properties must map each name to a schema (an object)";
    }
    if (v.required !== undefined && !(Array.isArray(v.required) && v.required.every((r) => typeof r === "string")))
        return "required must be a list of property names";
    if (v.items !== undefined && (typeof v.items !== "object" || v.items === null)) return "items must be a schema (an object)";
    return undefined;
}

export function checkDataset(news: Record<string, unknown>) {
    const c = new Checker();
    // The service answers an empty description, schema or metadata as none (`inputsOf`): given empty, it is none.
    const inputs = emptiesAsAbsent(c.declaration("Dataset", dataset.inputs, news));
    // Optional to the program (kit/autoname.ts fills it before this check), required here.
    c.str(news.name, "name", true);
    for (const key of ["inputsSchema", "outputsSchema"] as const) {
        const v = news[key];
        if (v && known(v) && typeof v === "object" && !Array.isArray(v)) {
            const why = notJsonSchema(v as Record<string, unknown>);
            if (why) c.fail(key, `${key} is not a JSON Schema: ${why}`);
        }
    }
    return c.done(inputs);
}

export function createDatasetProvider(o: { datasets?: () => TracingClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const datasets = o.datasets ?? (() => service.projects());
    const provider: ProviderOf<typeof dataset> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkDataset(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(DATASET_DIFF, olds, news);
            // Names are unique in a workspace: a replacement that keeps the name deletes first.
            return { changes, replaces, updates, deleteBeforeReplace: sameValue(olds.name, news.name) };
        },
        async create(inputs) {
            const tc = datasets();
            const d = await createUniquelyNamed({
                resource: "Dataset",
                noun: "dataset",
                holder: await tc.findDatasetByName(inputs.name),
                createdAt: (h) => h.created_at,
                adopt: (h) => tc.updateDataset(h.id, changesTo(inputsOf(h), inputs)),
                create: async () => (await tc.createDataset(createBody(inputs))).dataset,
            });
            return { id: d.id, outs: outputs(inputs, d) };
        },
        async read(id) {
            const d = await datasets().tryGetDataset(id);
            if (!d) return {};
            const inputs = inputsOf(d);
            return { id, props: outputs(inputs, d), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const d = Object.keys(patch).length ? await datasets().updateDataset(id, patch) : await datasets().getDataset(id);
            return { outs: outputs(news, d) };
        },
        async delete(id) {
            await datasets().deleteDataset(id);
        },
    };
    return provider;
}

/** The create body: the declaration's mapping, the metadata under `extra.metadata` as the official clients send it. */
function createBody(i: DatasetInputs): DatasetCreateRequest {
    const { metadata: _, ...wire } = toWire(dataset.inputs, i);
    return { ...(wire as DatasetCreateRequest), ...(i.metadata ? { extra: { metadata: i.metadata } } : {}) };
}

/** The PATCH of the updatable fields that changed (a removed description, schema or metadata is sent empty). */
function changesTo(olds: Partial<DatasetInputs>, news: DatasetInputs): DatasetUpdateRequest {
    const changed = (k: keyof DatasetInputs) => !sameValue(olds[k], news[k]);
    return prune({
        name: changed("name") ? news.name : undefined,
        description: changed("description") ? (news.description ?? "") : undefined,
        inputs_schema_definition: changed("inputsSchema") ? (news.inputsSchema ?? {}) : undefined,
        outputs_schema_definition: changed("outputsSchema") ? (news.outputsSchema ?? {}) : undefined,
        metadata: changed("metadata") ? (news.metadata ?? {}) : undefined,
    });
}

/** The inputs as the service says them (refresh, import): the declaration's mapping, empty values as absent. */
function inputsOf(d: Dataset): DatasetInputs {
    const read = fromWire(dataset.inputs, d);
    const given = Object.entries(read).filter(([, v]) => v !== "" && !(typeof v === "object" && v !== null && Object.keys(v).length === 0));
    return { dataType: "kv", ...Object.fromEntries(given) } as DatasetInputs;
}

function outputs(i: DatasetInputs, d: Dataset): DatasetOutputs {
    return {
        ...i,
        tenantId: d.tenant_id,
        createdAt: d.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const datasetProvider = inItsWorkspace(createDatasetProvider());
