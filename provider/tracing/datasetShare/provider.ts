/**
 * The DatasetShare's dynamic provider (its fields: declare.ts). Its id is the dataset's (one share per dataset). A
 * create meeting the dataset shared already (the UI, another stack) refuses to take that share over, since a destroy
 * would unshare it, unless LANGSMITH_ADOPT_IDS names the dataset. A read asks the service for the share: unshared
 * elsewhere, the resource is gone; shared again elsewhere (another token), the token shows as changed. A delete
 * unshares. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ExamplesClient } from "../../api/examples";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, datasetShare, type DatasetShareInputs } from "./declare";

const DIFF = diffTableOf(datasetShare.inputs);

export function checkDatasetShare(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("DatasetShare", datasetShare.inputs, news);
    c.matches(c.str(news.datasetId, "datasetId", true), UUID_RE, "datasetId", "datasetId must be a dataset's id (a UUID): a Dataset's `id`");
    return c.done(inputs);
}

export function createDatasetShareProvider(o: { examples?: () => ExamplesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.examples ?? (() => service.examples());
    const outputs = (i: DatasetShareInputs, token: string) => ({ ...i, shareToken: token, schemaVersion: SCHEMA_VERSION });
    const provider: ProviderOf<typeof datasetShare> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkDatasetShare(news), "tracing");
        },
        async diff(_id, olds, news) {
            // One share per dataset: a replacement keeping the dataset unshares first.
            return { ...diffByTable(DIFF, olds, news), deleteBeforeReplace: true };
        },
        async create(inputs) {
            const held = await client().share(inputs.datasetId);
            if (held && !adoptionAsked(inputs.datasetId)) {
                throw new Error(
                    alreadyExistsMessage({
                        what: `DatasetShare: dataset ${inputs.datasetId}`,
                        existing: "it is shared already (by the UI, a client, another stack)",
                        id: inputs.datasetId,
                        ifTheirs: "leave the share to whoever made it (a destroy of this resource would unshare it), or unshare it there first",
                        why: "a dataset has one share, and taking it over makes its unsharing this stack's.",
                    }),
                );
            }
            const share = held ?? (await client().shareDataset(inputs.datasetId));
            return { id: inputs.datasetId, outs: outputs(inputs, share.share_token) };
        },
        async read(id, props) {
            const datasetId = props?.datasetId ?? id;
            const share = await client().share(datasetId);
            if (!share) return {};
            const inputs = { datasetId, ...(props?.workspaceId ? { workspaceId: props.workspaceId } : {}) };
            return { id, props: outputs(inputs, share.share_token), inputs };
        },
        async update(_id, olds, news) {
            // Nothing but the workspace wrapper's fields changes in place: the share stays.
            return { outs: outputs(news, olds.shareToken) };
        },
        async delete(id, props) {
            await client().unshare(props.datasetId ?? id);
        },
    };
    return provider;
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const datasetShareProvider = inItsWorkspace(createDatasetShareProvider());
