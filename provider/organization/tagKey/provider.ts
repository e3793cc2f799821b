/**
 * The TagKey's dynamic provider (its fields: declare.ts). A create beside a key of the same text is refused with its
 * id unless LANGSMITH_ADOPT_IDS names it (a key a resource's `tags` argument made is such a key: adopting it makes
 * this stack delete it with its values on destroy); a lost answer is looked up by the text (api/tags.ts). An update
 * is one PATCH. `read` with only an id is `pulumi import` (`<keyId>` or `<workspaceId>/<keyId>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TagsClient } from "../../api/tags";
import type { TagKey } from "../../api/schemas/tags";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { inItsWorkspace } from "../../kit/workspace";
import { tagTextFailure } from "../tagValue/provider";
import { SCHEMA_VERSION, tagKey, type TagKeyInputs, type TagKeyOutputs } from "./declare";

export const TAG_KEY_DIFF = diffTableOf(tagKey.inputs);

export function checkTagKey(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("TagKey", tagKey.inputs, news));
    const why = tagTextFailure(news.key, "key");
    if (why) c.fail("key", why);
    return c.done(inputs);
}

export function createTagKeyProvider(o: { tags?: () => TagsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const tags = o.tags ?? (() => service.tags());
    const provider: ProviderOf<typeof tagKey> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkTagKey(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(TAG_KEY_DIFF, olds, news);
        },
        async create(inputs) {
            const tc = tags();
            const held = await tc.findKey(inputs.key);
            const k = await createUniquelyNamed({
                resource: "TagKey",
                noun: "tag key",
                holder: held && { ...held, name: held.key },
                createdAt: (h) => h.created_at,
                adopt: async (h) => ({ ...(await tc.updateKey(h.id, body(inputs))), name: h.key }),
                create: async () => {
                    const made = await tc.createKey(prune({ key: inputs.key, description: inputs.description }));
                    return { ...made, name: made.key };
                },
                alsoMadeBy: "a resource's `tags` argument makes the keys it names",
            });
            return { id: k.id, outs: outputs(inputs, k) };
        },
        async read(id) {
            const k = await tags().tryGetKey(id);
            if (!k) return {};
            const inputs = prune({ key: k.key, description: k.description || undefined }) as TagKeyInputs;
            return { id, props: outputs(inputs, k), inputs };
        },
        async update(id, _olds, news) {
            return { outs: outputs(news, await tags().updateKey(id, body(news))) };
        },
        async delete(id) {
            await tags().deleteKey(id);
        },
    };
    return provider;
}

/** The PATCH: the text, and the description (`""` clears it). */
const body = (i: TagKeyInputs) => ({ key: i.key, description: i.description ?? "" });

function outputs(i: TagKeyInputs, k: TagKey): TagKeyOutputs {
    return { ...i, createdAt: k.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const tagKeyProvider = inItsWorkspace(createTagKeyProvider());
