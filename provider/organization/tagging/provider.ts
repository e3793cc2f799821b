/**
 * The Tagging's dynamic provider (its fields: declare.ts). The service has no read of one tagging: it is found by its
 * value on its object (`GET tags/resource`). A create where the value is already on the object is refused with the
 * tagging's id unless LANGSMITH_ADOPT_IDS names it (a resource's `tags` argument may have put it there); a lost answer
 * is looked up the same way (api/tags.ts). `pulumi import` takes `<resourceType>/<resourceId>/<tagValueId>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TagsClient } from "../../api/tags";
import type { Tagging } from "../../api/schemas/tags";
import { claimedThisRun } from "../../kit/adoption";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { taggingFact } from "../../kit/tags";
import { warn } from "../../kit/warn";
import { inItsWorkspace } from "../../kit/workspace";
import { uuidFailure } from "../tagValue/provider";
import { SCHEMA_VERSION, tagging, type TaggingInputs, type TaggingOutputs } from "./declare";

export const TAGGING_DIFF = diffTableOf(tagging.inputs);

export function checkTagging(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("Tagging", tagging.inputs, news);
    uuidFailure(c, news.tagValueId, "tagValueId", "a tag value's id");
    uuidFailure(c, news.resourceId, "resourceId", "the object's id");
    return c.done(inputs);
}

/** What an import id names: `<resourceType>/<resourceId>/<tagValueId>`. */
function importedIdentity(id: string): Pick<TaggingInputs, "resourceType" | "resourceId" | "tagValueId"> {
    const parts = id.split("/");
    if (parts.length !== 3)
        throw new Error(
            `Tagging: import id ${JSON.stringify(id)} must be <resourceType>/<resourceId>/<tagValueId> (optionally after <workspaceId>/): the service reads a tagging by its value on its object`,
        );
    const [resourceType, resourceId, tagValueId] = parts;
    return { resourceType: resourceType as TaggingInputs["resourceType"], resourceId, tagValueId };
}

export function createTaggingProvider(o: { tags?: () => TagsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const tags = o.tags ?? (() => service.tags());
    const find = (i: Pick<TaggingInputs, "resourceType" | "resourceId" | "tagValueId">) => tags().findTagging(i.resourceType, i.resourceId, i.tagValueId);
    const provider: ProviderOf<typeof tagging> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkTagging(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(TAGGING_DIFF, olds, news);
        },
        async create(inputs) {
            const held = await find(inputs);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            const t =
                held ?? (await tags().createTagging({ tag_value_id: inputs.tagValueId, resource_type: inputs.resourceType, resource_id: inputs.resourceId }));
            return { id: t.id, outs: outputs(inputs, t) };
        },
        async read(id, props) {
            const identity = isImport(props) ? importedIdentity(id) : props!;
            const t = await find(identity);
            if (!t || (!isImport(props) && t.id !== id)) return {};
            const inputs = { tagValueId: t.tag_value_id, resourceType: identity.resourceType, resourceId: t.resource_id } as TaggingInputs;
            return { id: t.id, props: outputs(inputs, t), inputs };
        },
        async update(_id, olds) {
            // Every input replaces: nothing reaches here but the workspace's own bookkeeping.
            return { outs: olds };
        },
        async delete(id) {
            if (claimedThisRun(taggingFact(id))) {
                await warn(`Tagging ${id}: left on its object: the tags argument of a resource of this run names it now.`);
                return;
            }
            await tags().deleteTagging(id);
        },
    };
    return provider;
}

function refusal(i: TaggingInputs, held: Tagging): string {
    return alreadyExistsMessage({
        what: `Tagging: ${i.resourceType} ${i.resourceId} already carries tag value ${i.tagValueId} (tagging ${held.id}, made ${held.created_at})`,
        existing: "the service keeps one tagging per value and object",
        id: held.id,
        ifTheirs: "leave this Tagging out (a resource's `tags` argument or another stack put the value there)",
        why: "the service keeps no mark of which stack made a tagging.",
    });
}

function outputs(i: TaggingInputs, t: Tagging): TaggingOutputs {
    return { ...i, createdAt: t.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const taggingProvider = inItsWorkspace(createTaggingProvider());
