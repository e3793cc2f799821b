/**
 * The Example's dynamic provider (its fields: declare.ts). Its id is the example's. A create carries an id made here
 * (a lost answer is looked up by it, never sent twice); an update is one PATCH of the whole example (`overwrite`:
 * what the program left out is cleared); a read takes the split from the service's `metadata.dataset_split`. The
 * rows' rules (inputs an object, no `dataset_split` metadata key) are DatasetExamples' (rows.ts), checked at preview.
 * `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ExamplesClient } from "../../api/examples";
import type { Example } from "../../api/schemas/examples";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { Service } from "../../kit/service";
import { containsUnknown } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { RowsProblem, rowFromExample, rowOf } from "../datasetExamples/rows";
import { SCHEMA_VERSION, example, type ExampleInputs, type ExampleOutputs } from "./declare";

const DIFF = diffTableOf(example.inputs);

export function checkExample(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("Example", example.inputs, news));
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
        async check(_olds, news) {
            return service.check(() => checkExample(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(DIFF, olds, news);
        },
        async create(inputs) {
            const made = await client().createOne({ dataset_id: inputs.datasetId, ...wire(inputs) });
            return { id: made.id, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const found = await client().tryGetOne(id);
            if (!found) return {};
            const inputs = inputsOf(found, props?.workspaceId);
            return { id, props: outputs(inputs, found), inputs };
        },
        async update(id, olds, news) {
            await client().updateOne(id, { dataset_id: news.datasetId, ...wire(news), overwrite: true });
            return { outs: { ...news, createdAt: olds.createdAt, schemaVersion: SCHEMA_VERSION } };
        },
        async delete(id) {
            await client().deleteOne(id);
        },
    };
    return provider;
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const exampleProvider = inItsWorkspace(createExampleProvider());
