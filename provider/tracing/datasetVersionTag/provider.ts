/**
 * The DatasetVersionTag's dynamic provider (its fields: declare.ts). Its id is `<datasetId>:<tag>` (a `/` would be taken for a workspace's: kit/workspace.ts). `asOf` must name a
 * version of the dataset: checked at preview when the dataset and the time are known, and again before the `PUT`
 * (a time between versions would tag the version before it, which the program did not name). A create meeting the tag
 * already set (the UI, a client's `update_dataset_tag`, this resource before a destroy: the service cannot remove a
 * tag) moves it, and warns naming where it was. A read asks the service where the tag is. A delete removes nothing
 * (there is no call for it) and warns. `read` with only an id is `pulumi import` (`<datasetId>:<tag>`, in another workspace `<workspaceId>/<datasetId>:<tag>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ExamplesClient } from "../../api/examples";
import { NotFoundError } from "../../api/errors";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, datasetVersionTag, type DatasetVersionTagInputs, type DatasetVersionTagOutputs } from "./declare";

const DIFF = diffTableOf(datasetVersionTag.inputs);

export function checkDatasetVersionTag(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("DatasetVersionTag", datasetVersionTag.inputs, news);
    c.matches(c.str(news.datasetId, "datasetId", true), UUID_RE, "datasetId", "datasetId must be a dataset's id (a UUID): a Dataset's `id`");
    c.str(news.tag, "tag", true);
    c.timestamp(news.asOf, "asOf", true);
    return c.done(inputs);
}

/** Why `asOf` is not a version of the dataset (naming its latest ones), or undefined; a dataset the service lacks is the create's to say. */
export async function versionProblem(ex: ExamplesClient, datasetId: string, asOf: string): Promise<string | undefined> {
    const versions = await ex.versions(datasetId).catch((e) => (e instanceof NotFoundError ? undefined : Promise.reject(e)));
    if (!versions || versions.some((v) => Date.parse(v.as_of) === Date.parse(asOf))) return undefined;
    const latest = versions.slice(0, 3).map((v) => v.as_of);
    return `asOf ${asOf} is not a version of dataset ${datasetId}: ${latest.length ? `its latest are ${latest.join(", ")}` : "it has none yet"} (a DatasetExamples' asOf names the version its up made)`;
}

export function createDatasetVersionTagProvider(o: { examples?: () => ExamplesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.examples ?? (() => service.examples());
    /** Puts the tag on its version, once `asOf` is known to be one. */
    const put = async (i: DatasetVersionTagInputs) => {
        const why = await versionProblem(client(), i.datasetId, i.asOf);
        if (why) throw new Error(why);
        await client().tag(i.datasetId, i.tag, i.asOf);
        return { ...i, schemaVersion: SCHEMA_VERSION };
    };
    const provider: ProviderOf<typeof datasetVersionTag> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            const r = await service.check(() => checkDatasetVersionTag(news), "tracing");
            const { datasetId, asOf } = news as Record<string, string>;
            if (r.failures?.length || !known(datasetId) || !known(asOf)) return r;
            const why = await versionProblem(client(), datasetId, asOf);
            return why ? { ...r, failures: [{ property: "asOf", reason: why }] } : r;
        },
        async diff(_id, olds, news) {
            return diffByTable(DIFF, olds, news);
        },
        async create(inputs) {
            const was = await client().version(inputs.datasetId, { tag: inputs.tag });
            const outs = await put(inputs);
            if (was && Date.parse(was.as_of) !== Date.parse(inputs.asOf))
                await warn(`DatasetVersionTag: tag ${inputs.tag} of dataset ${inputs.datasetId} named version ${was.as_of} already; moved to ${inputs.asOf}`);
            return { id: `${inputs.datasetId}:${inputs.tag}`, outs };
        },
        async read(id, props) {
            const [datasetId, tag] = props?.datasetId ? [props.datasetId, props.tag] : splitId(id);
            const found = await client().version(datasetId, { tag });
            if (!found) return {};
            const inputs = { datasetId, tag, asOf: found.as_of, ...(props?.workspaceId ? { workspaceId: props.workspaceId } : {}) };
            return { id, props: { ...inputs, schemaVersion: SCHEMA_VERSION }, inputs };
        },
        async update(_id, _olds, news) {
            return { outs: await put(news) };
        },
        async delete(_id, props: DatasetVersionTagOutputs) {
            await warn(
                `DatasetVersionTag: the service has no call that removes a tag: ${props.tag} stays on version ${props.asOf} of dataset ${props.datasetId} until the dataset goes`,
            );
        },
    };
    return provider;
}

/** `<datasetId>:<tag>` (a tag may hold `:`: the dataset's id is the part before the first). */
function splitId(id: string): [string, string] {
    const at = id.indexOf(":");
    if (at < 0) throw new Error(`import id ${id}: write <datasetId>:<tag>`);
    return [id.slice(0, at), id.slice(at + 1)];
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const datasetVersionTagProvider = inItsWorkspace(createDatasetVersionTagProvider());
