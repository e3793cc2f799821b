/**
 * The DatasetExamples' dynamic provider (its fields: declare.ts). Its id is the dataset's (one per dataset). The rows
 * (rows.ts) are checked at preview, before any call: a file not there or that does not parse (the line), a row
 * without inputs, two rows of one identity. The diff compares the rows' hashes with the state's, so an unchanged
 * file is no change and sends nothing. A create or an update reads the dataset's examples and makes them the rows
 * (sync.ts): never blind, so an `up` killed half-way is finished by the next one with no example twice. A create
 * meeting examples no row names, with `exclusive`, refuses to delete them unless LANGSMITH_ADOPT_IDS names the
 * dataset. `read` with only an id is `pulumi import` (the examples, as a list, with their ids). A delete deletes the examples this
 * resource made (its state's identities), and leaves them when a create of this run took them over (`--replace`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ExamplesClient } from "../../api/examples";
import { ConflictError, NotFoundError } from "../../api/errors";
import type { Example } from "../../api/schemas/examples";
import { UUID_RE } from "../../api/values";
import { claim, claimedThisRun } from "../../kit/adoption";
import { Checker } from "../../kit/check";
import { type ProviderOf, isImport } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { ADOPT_IDS_VARIABLE, adoptionAsked } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { containsUnknown, known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, datasetExamples, type DatasetExamplesInputs, type DatasetExamplesOutputs } from "./declare";
import { type Row, RowsProblem, hashOf, rowFromExample, rowsOfFile, rowsOfList } from "./rows";
import { applyPlan, heldHashes, identities, ownedExamples, planSync } from "./sync";

const { file: _file, examples: _examples, ...compared } = datasetExamples.inputs;
/** The fields the diff table compares; the rows are compared by their hashes. */
const DIFF = diffTableOf(compared);

/** The rows the inputs declare (a RowsProblem when they cannot be read). */
export const rowsOf = (i: Pick<DatasetExamplesInputs, "file" | "examples">): Row[] => (i.file ? rowsOfFile(i.file) : rowsOfList(i.examples ?? []));

export function checkDatasetExamples(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("DatasetExamples", datasetExamples.inputs, news));
    c.matches(c.str(news.datasetId, "datasetId", true), UUID_RE, "datasetId", "datasetId must be a dataset's id (a UUID): a Dataset's `id`");
    const fromFile = news.file !== undefined && news.file !== null && news.file !== "";
    const fromList = Array.isArray(news.examples);
    if (fromFile === fromList) c.fail(fromFile ? "examples" : "file", "give exactly one of `file` (a JSONL or CSV file of examples) and `examples` (a list)");
    else if (known(news.file) && !containsUnknown(news.examples)) {
        try {
            rowsOf(news as DatasetExamplesInputs);
        } catch (e) {
            if (!(e instanceof RowsProblem)) throw e;
            c.fail(e.property, e.message);
        }
    }
    return c.done(inputs);
}

export function createDatasetExamplesProvider(o: { examples?: () => ExamplesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.examples ?? (() => service.examples());
    const provider: ProviderOf<typeof datasetExamples> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkDatasetExamples(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { replaces, updates } = diffByTable(DIFF, olds, news);
            const content = !known(news.file) || containsUnknown(news.examples) || !sameHashes(rowsOf(news).map(hashOf), olds.exampleHashes);
            if (content) updates.push(news.file ? "file" : "examples");
            return { changes: replaces.length + updates.length > 0, replaces, updates };
        },
        async create(inputs) {
            return { id: inputs.datasetId, outs: await sync(client(), inputs, { owned: new Set(), creating: true }) };
        },
        async read(id, props) {
            const datasetId = (props?.datasetId as string | undefined) ?? id;
            const remote = await client()
                .list(datasetId)
                .catch((e) => (e instanceof NotFoundError ? undefined : Promise.reject(e)));
            if (!remote) return {};
            if (isImport(props)) return imported(datasetId, remote, (await client().version(datasetId))?.as_of ?? "");
            const recorded = props as DatasetExamplesOutputs;
            const hashes = heldHashes(remote, { exclusive: recorded.exclusive !== false, owned: identities(recorded.exampleHashes ?? []) });
            return { id, props: { ...recorded, exampleHashes: hashes, exampleCount: hashes.length } };
        },
        async update(_id, olds, news) {
            const outs = await sync(client(), news, { owned: identities(olds.exampleHashes ?? []), creating: false, asOf: olds.asOf });
            return { outs };
        },
        async delete(id, props) {
            const datasetId = (props.datasetId as string | undefined) ?? id;
            if (claimedThisRun(claimKey(datasetId))) return;
            const ex = client();
            const remote = await ex.list(datasetId).catch((e) => (e instanceof NotFoundError ? [] : Promise.reject(e)));
            const mine = ownedExamples(remote, identities(props.exampleHashes ?? []));
            if (mine.length)
                await ex.deleteMany(
                    datasetId,
                    mine.map((e) => e.id),
                );
        },
    };
    return provider;
}

const claimKey = (datasetId: string) => `datasetExamples:${datasetId}`;

function sameHashes(rows: string[], recorded: unknown): boolean {
    if (!Array.isArray(recorded) || recorded.length !== rows.length) return false;
    const sorted = [...rows].sort();
    return sorted.every((h, i) => h === recorded[i]);
}

/**
 * Makes the dataset's examples the rows: reads what it holds, plans, writes (sync.ts), then reads the version the
 * writes made. A create refuses to delete examples no row names unless asked (they are someone's data).
 */
async function sync(
    ex: ExamplesClient,
    inputs: DatasetExamplesInputs,
    o: { owned: Set<string>; creating: boolean; asOf?: string },
): Promise<DatasetExamplesOutputs> {
    const rows = rowsOf(inputs);
    const exclusive = inputs.exclusive !== false;
    const plan = planSync(rows, await ex.list(inputs.datasetId), { exclusive, owned: o.owned });
    if (o.creating && plan.strays && !adoptionAsked(inputs.datasetId)) {
        throw new Error(
            `dataset ${inputs.datasetId} holds ${plan.strays} example(s) no row of this DatasetExamples names, which \`exclusive\` would delete. ` +
                `Set \`exclusive: false\` to keep them, or run with ${ADOPT_IDS_VARIABLE}=${inputs.datasetId} to make the rows the whole dataset (deleting them).`,
        );
    }
    // A create that finds examples of its rows there takes them (`--replace`: the old resource's): its delete, later in this run, leaves them.
    if (o.creating && plan.create.length < rows.length) claim(claimKey(inputs.datasetId));
    const writes = plan.create.length + plan.update.length + plan.remove.length;
    await applyPlan(ex, inputs.datasetId, plan).catch((e) => {
        if (e instanceof ConflictError)
            e.message += `: a row's \`id\` is taken, by a deleted example (the service keeps them for its versions) or another dataset's: give the row a new id, or none`;
        throw e;
    });
    const asOf = writes || !o.asOf ? ((await ex.version(inputs.datasetId))?.as_of ?? "") : o.asOf;
    const hashes = rows.map(hashOf).sort();
    return { ...inputs, exclusive, exampleCount: rows.length, asOf, exampleHashes: hashes, schemaVersion: SCHEMA_VERSION };
}

/** What `pulumi import` reads: the examples as a list, each with its id (what names it exactly: docs/datasetExamples.md). */
function imported(datasetId: string, remote: Example[], asOf: string) {
    const rows = [...remote].reverse().map((e) => rowFromExample(e, true));
    const examples = rows.map((r) => JSON.parse(JSON.stringify({ ...r, split: r.split.length === 1 && r.split[0] === "base" ? undefined : r.split })));
    const inputs = { datasetId, examples, exclusive: true };
    const hashes = rows.map(hashOf).sort();
    return { id: datasetId, inputs, props: { ...inputs, exampleCount: rows.length, asOf, exampleHashes: hashes, schemaVersion: SCHEMA_VERSION } };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const datasetExamplesProvider = inItsWorkspace(createDatasetExamplesProvider());
