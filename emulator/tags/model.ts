/**
 * Resource tags of each workspace (docs/service.md R13): tag keys (unique text in a workspace), their values (unique
 * text under a key), and taggings (a value on an object named by its kind and id, once per value and object). A
 * deleted key takes its values and their taggings with it; a deleted value its taggings. Kept in `--state-dir`
 * (`tags.json`). Whether the tagged object exists is not checked (decided: the service's description says nothing
 * of it, and the emulator's areas do not share every kind of object).
 */
import { randomUUID } from "node:crypto";
import type {
    TaggingCreateRequest,
    TagKeyCreateRequest,
    TagKeyUpdateRequest,
    TagValueCreateRequest,
    TagValueUpdateRequest,
} from "../../provider/api/schemas/tags";
import type { Clock } from "../core/clock";
import { conflict, EmulatorError } from "../core/errors";
import { Store } from "../core/store";

interface Owned {
    id: string;
    tenant_id: string;
    created_at: string;
}
export interface KeyRecord extends Owned {
    key: string;
    description: string | null;
    updated_at: string;
}
export interface ValueRecord extends Owned {
    tag_key_id: string;
    value: string;
    description: string | null;
    updated_at: string;
}
export interface TaggingRecord extends Owned {
    tag_value_id: string;
    resource_type: string;
    resource_id: string;
}
interface State {
    keys: KeyRecord[];
    values: ValueRecord[];
    taggings: TaggingRecord[];
}

const notFound = (what: string, id: string) => new EmulatorError(404, { detail: `${what} ${id} not found` });
/** A record without the tenant it belongs to: what the service answers. */
export const view = <T extends Owned>({ tenant_id: _, ...r }: T) => r;

export class TagsModel {
    private s: State;
    private readonly store: Store<State>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "tags.json");
        this.s = this.store.load() ?? { keys: [], values: [], taggings: [] };
    }

    reset(): void {
        this.s = { keys: [], values: [], taggings: [] };
        this.save();
    }

    private save(): void {
        this.store.save(this.s);
    }

    keys(tenantId: string): KeyRecord[] {
        return this.s.keys.filter((k) => k.tenant_id === tenantId);
    }

    key(tenantId: string, id: string): KeyRecord {
        const k = this.s.keys.find((x) => x.tenant_id === tenantId && x.id === id);
        if (!k) throw notFound("Tag key", id);
        return k;
    }

    createKey(tenantId: string, body: TagKeyCreateRequest): KeyRecord {
        if (this.keys(tenantId).some((k) => k.key === body.key)) throw conflict(`Tag key ${body.key} already exists`);
        const now = this.clock.iso();
        const k: KeyRecord = { id: randomUUID(), tenant_id: tenantId, key: body.key, description: body.description ?? null, created_at: now, updated_at: now };
        this.s.keys.push(k);
        this.save();
        return k;
    }

    updateKey(tenantId: string, id: string, body: TagKeyUpdateRequest): KeyRecord {
        const k = this.key(tenantId, id);
        if (body.key && body.key !== k.key && this.keys(tenantId).some((x) => x.key === body.key)) throw conflict(`Tag key ${body.key} already exists`);
        if (body.key) k.key = body.key;
        if (body.description !== undefined && body.description !== null) k.description = body.description;
        k.updated_at = this.clock.iso();
        this.save();
        return k;
    }

    deleteKey(tenantId: string, id: string): void {
        this.key(tenantId, id);
        const values = new Set(this.s.values.filter((v) => v.tag_key_id === id).map((v) => v.id));
        this.s.taggings = this.s.taggings.filter((t) => !values.has(t.tag_value_id));
        this.s.values = this.s.values.filter((v) => v.tag_key_id !== id);
        this.s.keys = this.s.keys.filter((k) => k.id !== id);
        this.save();
    }

    values(tenantId: string, keyId: string): ValueRecord[] {
        this.key(tenantId, keyId);
        return this.s.values.filter((v) => v.tag_key_id === keyId);
    }

    value(tenantId: string, keyId: string, id: string): ValueRecord {
        const v = this.values(tenantId, keyId).find((x) => x.id === id);
        if (!v) throw notFound("Tag value", id);
        return v;
    }

    createValue(tenantId: string, keyId: string, body: TagValueCreateRequest): ValueRecord {
        if (this.values(tenantId, keyId).some((v) => v.value === body.value)) throw conflict(`Tag value ${body.value} already exists for this key`);
        const now = this.clock.iso();
        const v: ValueRecord = {
            id: randomUUID(),
            tenant_id: tenantId,
            tag_key_id: keyId,
            value: body.value,
            description: body.description ?? null,
            created_at: now,
            updated_at: now,
        };
        this.s.values.push(v);
        this.save();
        return v;
    }

    updateValue(tenantId: string, keyId: string, id: string, body: TagValueUpdateRequest): ValueRecord {
        const v = this.value(tenantId, keyId, id);
        if (body.value && body.value !== v.value && this.values(tenantId, keyId).some((x) => x.value === body.value))
            throw conflict(`Tag value ${body.value} already exists for this key`);
        if (body.value) v.value = body.value;
        if (body.description !== undefined && body.description !== null) v.description = body.description;
        v.updated_at = this.clock.iso();
        this.save();
        return v;
    }

    deleteValue(tenantId: string, keyId: string, id: string): void {
        this.value(tenantId, keyId, id);
        this.s.taggings = this.s.taggings.filter((t) => t.tag_value_id !== id);
        this.s.values = this.s.values.filter((v) => v.id !== id);
        this.save();
    }

    /** A value of the workspace by its id alone (a tagging names only that). */
    anyValue(tenantId: string, id: string): ValueRecord | undefined {
        return this.s.values.find((v) => v.tenant_id === tenantId && v.id === id);
    }

    taggings(tenantId: string): TaggingRecord[] {
        return this.s.taggings.filter((t) => t.tenant_id === tenantId);
    }

    createTagging(tenantId: string, body: TaggingCreateRequest): TaggingRecord {
        if (!this.anyValue(tenantId, body.tag_value_id)) throw notFound("Tag value", body.tag_value_id);
        const same = (t: TaggingRecord) => t.tag_value_id === body.tag_value_id && t.resource_type === body.resource_type && t.resource_id === body.resource_id;
        if (this.taggings(tenantId).some(same)) throw conflict("This tag value is already on this resource");
        const t: TaggingRecord = { id: randomUUID(), tenant_id: tenantId, ...body, created_at: this.clock.iso() };
        this.s.taggings.push(t);
        this.save();
        return t;
    }

    /** `TagAtCreate` (core/area.ts) for objects of kind `type`: every value checked first, then one tagging each. */
    tagsFor(tenantId: string, type: TaggingCreateRequest["resource_type"], valueIds: readonly string[] | null | undefined): (resourceId: string) => void {
        const ids = [...new Set(valueIds ?? [])];
        for (const v of ids) if (!this.anyValue(tenantId, v)) throw notFound("Tag value", v);
        return (resourceId) => {
            for (const v of ids) this.createTagging(tenantId, { tag_value_id: v, resource_type: type, resource_id: resourceId });
        };
    }

    deleteTagging(tenantId: string, id: string): void {
        if (!this.taggings(tenantId).some((t) => t.id === id)) throw notFound("Tagging", id);
        this.s.taggings = this.s.taggings.filter((t) => t.id !== id);
        this.save();
    }

    /** The ids of the objects of kind `type` that carry every one of the values `valueIds` (the project list's `tag_value_id` filter). */
    taggedWith(tenantId: string, type: string, valueIds: string[]): Set<string> {
        const of = (v: string) =>
            new Set(
                this.taggings(tenantId)
                    .filter((t) => t.resource_type === type && t.tag_value_id === v)
                    .map((t) => t.resource_id),
            );
        const [first, ...rest] = valueIds.map(of);
        return new Set([...(first ?? [])].filter((id) => rest.every((s) => s.has(id))));
    }
}
