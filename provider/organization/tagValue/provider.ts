/**
 * The TagValue's dynamic provider (its fields: declare.ts). A create beside a value of the same text under the key
 * is refused with its id unless LANGSMITH_ADOPT_IDS names it; a lost answer is looked up by the text (api/tags.ts).
 * An update is one PATCH. `read` with only an id is `pulumi import`: the value is found among the workspace's keys.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TagsClient } from "../../api/tags";
import { TAG_TEXT_MAX, type TagValue } from "../../api/schemas/tags";
import { Checker, UUID_RE } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, tagValue, type TagValueInputs, type TagValueOutputs } from "./declare";

export const TAG_VALUE_DIFF = diffTableOf(tagValue.inputs);

/** Why a key's or value's text is refused (longer than the service takes), or undefined. */
export function tagTextFailure(v: unknown, property: string): string | undefined {
    if (typeof v !== "string" || !known(v) || v.length <= TAG_TEXT_MAX) return undefined;
    return `${property} must have at most ${TAG_TEXT_MAX} characters (got ${v.length})`;
}

/** The failure of an id that is set, known and not a UUID. */
export function uuidFailure(c: Checker, v: unknown, property: string, what: string): void {
    if (typeof v === "string" && known(v) && v !== "" && !UUID_RE.test(v)) c.fail(property, `${property} must be ${what} (a UUID), got ${JSON.stringify(v)}`);
}

export function checkTagValue(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("TagValue", tagValue.inputs, news));
    uuidFailure(c, news.tagKeyId, "tagKeyId", "a tag key's id");
    const why = tagTextFailure(news.value, "value");
    if (why) c.fail("value", why);
    return c.done(inputs);
}

export function createTagValueProvider(o: { tags?: () => TagsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const tags = o.tags ?? (() => service.tags());
    const provider: ProviderOf<typeof tagValue> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkTagValue(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(TAG_VALUE_DIFF, olds, news);
        },
        async create(inputs) {
            const tc = tags();
            const held = (await tc.listValues(inputs.tagKeyId)).find((v) => v.value === inputs.value);
            const v = await createUniquelyNamed({
                resource: "TagValue",
                noun: "tag value",
                holder: held && { ...held, name: held.value },
                createdAt: (h) => h.created_at,
                adopt: async (h) => ({ ...(await tc.updateValue(inputs.tagKeyId, h.id, body(inputs))), name: h.value }),
                create: async () => {
                    const made = await tc.createValue(inputs.tagKeyId, prune({ value: inputs.value, description: inputs.description }));
                    return { ...made, name: made.value };
                },
                alsoMadeBy: "a resource's `tags` argument makes the values it names",
            });
            return { id: v.id, outs: outputs(inputs, v) };
        },
        async read(id, props) {
            const tc = tags();
            const v = props?.tagKeyId ? await tc.tryGetValue(props.tagKeyId, id) : (await tc.listTags()).flatMap((k) => k.values).find((x) => x.id === id);
            if (!v) return {};
            const inputs = prune({ tagKeyId: v.tag_key_id, value: v.value, description: v.description || undefined }) as TagValueInputs;
            return { id, props: outputs(inputs, v), inputs };
        },
        async update(id, _olds, news) {
            return { outs: outputs(news, await tags().updateValue(news.tagKeyId, id, body(news))) };
        },
        async delete(id, props) {
            await tags().deleteValue(props.tagKeyId, id);
        },
    };
    return provider;
}

/** The PATCH: the text, and the description (`""` clears it). */
const body = (i: TagValueInputs) => ({ value: i.value, description: i.description ?? "" });

function outputs(i: TagValueInputs, v: TagValue): TagValueOutputs {
    return { ...i, createdAt: v.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const tagValueProvider = inItsWorkspace(createTagValueProvider());
