/**
 * Resource tags on the resources the service can tag (docs/tags.md, docs/service.md R13), declared once for all of
 * them: the `tags` argument (`tagsField`, `{ team: "support" }`) and the one wrapper (`tagged`) that gives it its
 * meaning, the same way for every such resource, so no resource's own code deals with it:
 *
 * - check: each key and value non-empty and at most 255 characters, at preview, before any call.
 * - diff: a change of the tags alone is an update in place, and the resource's own diff never sees them (a
 *   deployment makes no new revision for a tag).
 * - create, update: after the resource's own, the program's tags are put on the object: each key and value is
 *   made or reused (a key another stack made is that key), and the object is tagged; a key's value that changed
 *   moves the object to the new value; a key removed from the program takes its value off the object. The argument
 *   owns the taggings of the values it names, never a key: another value of one of its keys on the object (a
 *   `Tagging`'s, one put on in the UI) is another's and left alone. Keys and values are never deleted (another
 *   stack, or a `Tagging`, may use them). What the service holds is read first, so a tagging made elsewhere, or an
 *   interrupted run's, is no duplicate.
 * - read: the values the state records are read back from the object (one taken off elsewhere is drift; another
 *   value of the key is not this resource's); an import reads every tag on it, one value of each key.
 * - delete: after the resource's own delete, the object's managed tags are taken off.
 *
 * A tag put on before an update fails is kept: a half-made create records the object with the tags applied so
 * far (ResourceInitError), so the next `up` finishes it.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TagsClient } from "../api/tags";
import type { ServiceConfig } from "../config";
import { TAG_TEXT_MAX, type TaggableType } from "../api/schemas/tags";
import { claim } from "./adoption";
import { isImport, map, string } from "./declare";
import { sameValue } from "./diff";
import { ResourceInitError, messageOf } from "./initError";
import { Service } from "./service";
import { known } from "./unknown";
import { inWorkspace } from "./workspace";

/** The argument, declared once for every resource the service can tag. */
export const tagsField = map(
    'Resource tags on the object (`{ team: "support" }`: key to value), the service\'s attribute-based access control keys on them (`AccessPolicy`). Each key and value is made in the workspace when it has none and reused otherwise; removing a tag takes it off the object and never deletes the key or value (another stack may use them). Changed in place. docs/tags.md.',
    string("The tag's value."),
    { onChange: "update", wire: false },
);

type Tags = Record<string, string>;
type Props = Record<string, any>;

export interface TaggedOptions {
    /** The service's kind of the object (the description's `ResourceType`). */
    resourceType: TaggableType;
    /** The argument's name (`tags`; a prompt's is `resourceTags`, its `tags` being the hub's labels). */
    field?: string;
    /** The id the service tags, from the resource's id and outputs (a prompt's repository id); default the id. */
    objectId?: (id: string, outs: Props) => string;
}

/** A tagging, as adoption.ts `claim` names it: the `tags` argument's or a `Tagging`'s. */
export const taggingFact = (taggingId: string): string => `tagging:${taggingId}`;

/** The failures of a `tags` argument: each key and value non-empty and at most 255 characters. */
export function tagFailures(tags: unknown, field = "tags"): pulumi.dynamic.CheckFailure[] {
    if (!tags || typeof tags !== "object" || !known(tags)) return [];
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const bad = (s: string) => s.length === 0 || s.length > TAG_TEXT_MAX;
    for (const [k, v] of Object.entries(tags as Record<string, unknown>)) {
        if (bad(k)) failures.push({ property: field, reason: `${field}: a key must have 1 to ${TAG_TEXT_MAX} characters (got ${JSON.stringify(k)})` });
        if (typeof v === "string" && known(v) && bad(v))
            failures.push({ property: `${field}.${k}`, reason: `${field}.${k} must have 1 to ${TAG_TEXT_MAX} characters (got ${JSON.stringify(v)})` });
    }
    return failures;
}

/** The provider `p` of a resource that declares the tags argument (`tagsField`); the module comment says what each method adds. */
export function tagged(p: pulumi.dynamic.ResourceProvider, o: TaggedOptions): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const f = o.field ?? "tags";
    const objectId = o.objectId ?? ((id: string) => id);
    const without = (x: Props | undefined): Props => {
        const { [f]: _, ...rest } = x ?? {};
        return rest;
    };
    /** Runs `run` with the tags client of the object's workspace. */
    const inTheWorkspace = <T>(ws: unknown, run: (tc: TagsClient) => Promise<T>) => inWorkspace(ws, () => run(service.tags()));
    const apply = (ws: unknown, id: string, outs: Props, olds: Tags | undefined, news: Tags | undefined) =>
        inTheWorkspace(ws, (tc) => reconcileTags(tc, o.resourceType, objectId(id, outs), olds ?? {}, news ?? {}));
    return {
        async configure(req) {
            service = new Service(req.config);
            await p.configure?.(req);
        },
        async check(olds, news) {
            const r = await p.check!(olds, news);
            return { ...r, failures: [...(r.failures ?? []), ...tagFailures(news?.[f], f)] };
        },
        async diff(id, olds, news) {
            const r = await p.diff!(id, without(olds), without(news));
            if (sameValue(olds[f] ?? {}, news[f] ?? {})) return r;
            return { ...r, changes: true, updates: [...((r as { updates?: string[] }).updates ?? []), f] } as pulumi.dynamic.DiffResult;
        },
        async create(inputs) {
            const r = await p.create(inputs);
            const tags = inputs[f] as Tags | undefined;
            if (!tags || !Object.keys(tags).length) return r;
            await apply(inputs.workspaceId, r.id, r.outs, {}, tags).catch((e: unknown) => {
                const message = `${o.resourceType} ${r.id} was made, but putting its tags on failed: ${messageOf(e)} (the next \`pulumi up\` puts them on)`;
                throw new ResourceInitError(message, r.id, { ...r.outs, [f]: {}, __provider: inputs.__provider });
            });
            return r;
        },
        async read(id, props) {
            const r = await p.read!(id, props);
            if (!r.id || !r.props) return r;
            const managed = isImport(props) ? (tracingApiNamed(service.config()) ? undefined : []) : Object.keys((props?.[f] as Tags | undefined) ?? {});
            if (managed && !managed.length) return r;
            const now = await inTheWorkspace(r.props.workspaceId, (tc) => tagsOn(tc, o.resourceType, objectId(r.id!, r.props!)));
            const tags = readBack(now, managed, props?.[f] as Tags | undefined);
            const withTags = (x: Props | undefined) => x && (Object.keys(tags).length || managed ? { ...x, [f]: tags } : x);
            return { ...r, props: withTags(r.props), inputs: withTags(r.inputs) };
        },
        async update(id, olds, news) {
            // The resource's own update always runs: it sends only what changed (nothing for a change of tags alone) and
            // finishes what an interrupted create left (the engine updates a resource recorded with an error).
            const r = await p.update!(id, without(olds), without(news));
            // The program's tags, or none (an undefined value would not serialize: "Unexpected struct type").
            const outs = news[f] === undefined ? without(r.outs) : { ...r.outs, [f]: news[f] };
            await apply(news.workspaceId, id, outs, olds[f], news[f]);
            return { ...r, outs };
        },
        async delete(id, props) {
            await p.delete!(id, props);
            const tags = props[f] as Tags | undefined;
            if (tags && Object.keys(tags).length) await apply(props.workspaceId, id, props, tags, {});
        },
    };
}

/**
 * Whether the tracing API (where tags are) is the one the provider is meant to reach: set, or left to its default
 * beside a control plane left to its default too (the cloud). An import of a deployment by a provider given only a
 * control plane (self-hosted, the emulator) reads no tags, rather than asking the cloud's API for them: a program
 * that declares tags then puts them on at its first `up` (those already on stay).
 */
function tracingApiNamed(cfg: ServiceConfig): boolean {
    return cfg.sources?.endpoint.setting !== "default" || cfg.sources?.controlPlaneUrl.setting === "default";
}

/** One tag on an object: its key, its value and the tagging that puts it there. */
interface TagOn {
    key: string;
    value: string;
    taggingId: string;
}

async function tagsOn(tc: TagsClient, type: string, objectId: string): Promise<TagOn[]> {
    return (await tc.tagsOf(type, objectId)).flatMap((k) =>
        k.values.flatMap((v) => v.taggings.filter((t) => t.resource_id === objectId).map((t) => ({ key: k.key, value: v.value, taggingId: t.id }))),
    );
}

/**
 * The tags as read: the state's values still on the object (a value of one of its keys that the state does not record
 * is another's: a `Tagging`'s); for an import (`managed` undefined), every key on it, with its first value.
 */
function readBack(now: TagOn[], managed: string[] | undefined, stored: Tags | undefined): Tags {
    const out: Tags = {};
    for (const t of now) {
        if (managed ? stored?.[t.key] === t.value : !(t.key in out)) out[t.key] = t.value;
    }
    return out;
}

/**
 * Brings the object's tags from `olds` to `news`, from what the service holds now: a value of `olds` that `news` no
 * longer names is taken off; a tag of `news` not on yet is put on (its key and value made or reused). Any other
 * tagging is left alone: another key, or another value of a key of `news` (a `Tagging`'s, one put on in the UI: an
 * object carries several values of a key, docs/service.md R13.3).
 */
export async function reconcileTags(tc: TagsClient, type: TaggableType, objectId: string, olds: Tags, news: Tags): Promise<void> {
    // No tag in the state or the program: nothing to ask the service (a program without tags never calls the tags API).
    if (!Object.keys(olds).length && !Object.keys(news).length) return;
    const now = await tagsOn(tc, type, objectId);
    for (const t of now) if (olds[t.key] === t.value && news[t.key] !== t.value) await tc.deleteTagging(t.taggingId);
    for (const [key, value] of Object.entries(news)) {
        const held = now.find((t) => t.key === key && t.value === value);
        if (held) {
            // A `Tagging`'s until now, maybe, whose delete in this run must leave it to this resource (adoption.ts `claim`).
            claim(taggingFact(held.taggingId));
            continue;
        }
        const k = await tc.ensureKey(key);
        const v = await tc.ensureValue(k.id, value);
        await tc.createTagging({ tag_value_id: v.id, resource_type: type, resource_id: objectId });
    }
}
