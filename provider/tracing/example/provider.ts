/**
 * The Example's dynamic provider (its fields: declare.ts). Its id is the example's. A create gives the example the id
 * the check derives from the resource (`requestedExampleId`): one a killed `pulumi up` made is found there and taken
 * over, never made twice; a lost answer is looked up by it. An id the service refuses as taken (a deleted example's:
 * the service keeps them for its versions, docs/service.md R14.1) gives way to a new one. An update is one PATCH of
 * the whole example (`overwrite`:
 * what the program left out is cleared); a read takes the split from the service's `metadata.dataset_split`. The
 * rows' rules (inputs an object, no `dataset_split` metadata key) are DatasetExamples' (rows.ts), checked at preview.
 * `read` with only an id is `pulumi import`.
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { ConflictError } from "../../api/errors";
import { uuid5 } from "../../api/schemas/agentServer";
import type { ExamplesClient } from "../../api/examples";
import type { Example } from "../../api/schemas/examples";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { tookOver } from "../../kit/adoption";
import { withoutIdentity } from "../../kit/autoname";
import { diffByTable, diffTableOf, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { Service } from "../../kit/service";
import { UNKNOWN, containsUnknown, known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { RowsProblem, rowFromExample, rowOf } from "../datasetExamples/rows";
import { SCHEMA_VERSION, example, type ExampleInputs, type ExampleOutputs } from "./declare";

const DIFF = diffTableOf(example.inputs);

/** The namespace of the example ids this provider derives (a uuid of its own). */
const EXAMPLE_IDS = "3c9e1b7a-5d2f-4a86-b0e4-9f1d2c3b4a5e";

/**
 * The id a create gives the example: the state's while the dataset and workspace stay; else derived from them and the
 * resource's identity (its URN: kit/autoname.ts), the same at a killed `pulumi up` and the next; without an identity
 * (a check called directly), a new one. Unknown while the dataset is.
 */
function requestedId(olds: Record<string, unknown>, news: Record<string, unknown>, identity: string | undefined): unknown {
    const kept = typeof olds.requestedExampleId === "string" && sameValue(olds.datasetId, news.datasetId) && sameValue(olds.workspaceId, news.workspaceId);
    if (kept) return olds.requestedExampleId;
    if (!known(news.datasetId) || !known(news.workspaceId)) return UNKNOWN;
    return identity === undefined ? randomUUID() : uuid5(EXAMPLE_IDS, JSON.stringify([news.workspaceId ?? "", news.datasetId, identity]));
}

export function checkExample(args: Record<string, unknown>, olds: Record<string, unknown> = {}) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = emptiesAsAbsent(c.declaration("Example", example.inputs, news));
    inputs.requestedExampleId = requestedId(olds, news, identity);
    c.matches(c.str(news.datasetId, "datasetId", true), UUID_RE, "datasetId", "datasetId must be a dataset's id (a UUID): a Dataset's `id`");
    const row = { inputs: news.inputs, outputs: news.outputs, metadata: news.metadata, split: news.split };
    if (!containsUnknown(row)) {
        try {
            rowOf(JSON.parse(JSON.stringify(row)), "the example", "inputs");
        } catch (e) {
            if (!(e instanceof RowsProblem)) throw e;
            c.fail(/dataset_split/.test(e.message) ? "metadata" : "inputs", e.message);
        }
    }
    return c.done(inputs);
}

/** The example as the service takes it whole. */
const wire = (i: ExampleInputs) => ({ inputs: i.inputs, outputs: i.outputs ?? null, metadata: i.metadata ?? null, split: i.split ?? ["base"] });

/** The inputs as the service says them (refresh, import). */
function inputsOf(e: Example, workspaceId?: string): ExampleInputs {
    const r = rowFromExample(e, false);
    const split = r.split.length === 1 && r.split[0] === "base" ? undefined : r.split;
    const read = { datasetId: e.dataset_id, inputs: r.inputs, outputs: r.outputs, metadata: r.metadata, split, workspaceId };
    return JSON.parse(JSON.stringify(read));
}

export function createExampleProvider(o: { examples?: () => ExamplesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.examples ?? (() => service.examples());
    const outputs = (i: ExampleInputs, e: Example): ExampleOutputs => ({ ...i, createdAt: e.created_at ?? "", schemaVersion: SCHEMA_VERSION });
    const provider: ProviderOf<typeof example> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(olds, news) {
            return service.check(() => checkExample(news, olds), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(DIFF, olds, news);
        },
        async create(inputs) {
            const ex = client();
            const id = inputs.requestedExampleId;
            const held = id ? await ex.tryGetOne(id) : undefined;
            if (held && held.dataset_id === inputs.datasetId) {
                // Made by a killed `up` of this resource, or the one `pulumi up --replace` replaces: taken, set to the program's.
                tookOver();
                await ex.updateOne(held.id, { dataset_id: inputs.datasetId, ...wire(inputs), overwrite: true });
                return { id: held.id, outs: outputs(inputs, held) };
            }
            const made = await ex
                .createOne({ dataset_id: inputs.datasetId, ...wire(inputs), id })
                .catch((e) => (e instanceof ConflictError ? ex.createOne({ dataset_id: inputs.datasetId, ...wire(inputs) }) : Promise.reject(e)));
            return { id: made.id, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const found = await client().tryGetOne(id);
            if (!found) return {};
            const inputs = { ...inputsOf(found, props?.workspaceId), ...(props?.requestedExampleId ? { requestedExampleId: props.requestedExampleId } : {}) };
            return { id, props: outputs(inputs, found), inputs };
        },
        async update(id, olds, news) {
            await client().updateOne(id, { dataset_id: news.datasetId, ...wire(news), overwrite: true });
            return { outs: { ...news, requestedExampleId: olds.requestedExampleId, createdAt: olds.createdAt, schemaVersion: SCHEMA_VERSION } };
        },
        async delete(id) {
            await client().deleteOne(id);
        },
    };
    return provider;
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const exampleProvider = inItsWorkspace(createExampleProvider());
