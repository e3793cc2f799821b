/**
 * Resource tags of a workspace (docs/service.md R13): tag keys, their values, and the taggings that put a value on an
 * object (a project, a dataset, a deployment, a prompt...), under `/api/v1/workspaces/current` (`X-Tenant-Id` names
 * the workspace). Every create is sent once: a lost answer is looked up (a key by its text, a value by its text
 * under its key, a tagging by its value on its object) instead of being sent again blindly. `ensureKey` and
 * `ensureValue` make or reuse (what a resource's `tags` argument does: kit/tags.ts).
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    TagKeyOnResourceSchema,
    TagKeySchema,
    TagKeyWithValuesSchema,
    TaggingSchema,
    TagValueSchema,
    type TagKey,
    type TagKeyCreateRequest,
    type TagKeyOnResource,
    type TagKeyUpdateRequest,
    type TagKeyWithValues,
    type Tagging,
    type TaggingCreateRequest,
    type TagValue,
    type TagValueCreateRequest,
    type TagValueUpdateRequest,
} from "./schemas/tags";

const BASE = "/api/v1/workspaces/current";
const DELETED = [200, 202, 204];
const Nothing = z.unknown();
const isConflict = (e: unknown) => e instanceof ConflictError;
const at = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join("/");

export class TagsClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): TagsClient {
        return new TagsClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    withDeadline(deadline: number): TagsClient {
        return new TagsClient(this.http, deadline);
    }

    private get<T>(p: string, schema: z.ZodType<T>, query?: Record<string, string>): Promise<T> {
        return this.http.request("GET", p, { schema, query, deadline: this.deadline }).then((r) => r.data);
    }

    private send<T>(method: string, p: string, body: unknown, schema: z.ZodType<T>, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    private async remove(p: string): Promise<void> {
        await this.http.request("DELETE", p, { expect: DELETED, schema: Nothing, deadline: this.deadline }).catch(undefinedOn404);
    }

    /** Sends a create once; after a lost answer (or a 409 of a second attempt) takes what `find` finds. */
    private async once<T>(send: () => Promise<T>, find: () => Promise<T | undefined>): Promise<T> {
        return (await createOnce(send, find, { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict })).value;
    }

    // ---- keys ----

    listKeys(): Promise<TagKey[]> {
        return this.get(at("tag-keys"), z.array(TagKeySchema));
    }

    tryGetKey(id: string): Promise<TagKey | undefined> {
        return this.get(at("tag-keys", id), TagKeySchema).catch(undefinedOn404);
    }

    /** The key whose text is `key`, if the workspace holds one. */
    async findKey(key: string): Promise<TagKey | undefined> {
        return (await this.listKeys()).find((k) => k.key === key);
    }

    createKey(body: TagKeyCreateRequest): Promise<TagKey> {
        return this.once(
            () => this.send("POST", at("tag-keys"), body, TagKeySchema),
            () => this.findKey(body.key),
        );
    }

    updateKey(id: string, body: TagKeyUpdateRequest): Promise<TagKey> {
        return this.send("PATCH", at("tag-keys", id), body, TagKeySchema, { idempotent: true });
    }

    /** Deletes a key with its values and their taggings; one already gone is done. */
    deleteKey(id: string): Promise<void> {
        return this.remove(at("tag-keys", id));
    }

    // ---- values ----

    listValues(keyId: string): Promise<TagValue[]> {
        return this.get(at("tag-keys", keyId, "tag-values"), z.array(TagValueSchema));
    }

    tryGetValue(keyId: string, id: string): Promise<TagValue | undefined> {
        return this.get(at("tag-keys", keyId, "tag-values", id), TagValueSchema).catch(undefinedOn404);
    }

    createValue(keyId: string, body: TagValueCreateRequest): Promise<TagValue> {
        return this.once(
            () => this.send("POST", at("tag-keys", keyId, "tag-values"), body, TagValueSchema),
            async () => (await this.listValues(keyId)).find((v) => v.value === body.value),
        );
    }

    updateValue(keyId: string, id: string, body: TagValueUpdateRequest): Promise<TagValue> {
        return this.send("PATCH", at("tag-keys", keyId, "tag-values", id), body, TagValueSchema, { idempotent: true });
    }

    /** Deletes a value with its taggings; one already gone is done. */
    deleteValue(keyId: string, id: string): Promise<void> {
        return this.remove(at("tag-keys", keyId, "tag-values", id));
    }

    // ---- keys with values, made or reused ----

    /** Every key of the workspace with its values. */
    listTags(): Promise<TagKeyWithValues[]> {
        return this.get(at("tags"), z.array(TagKeyWithValuesSchema));
    }

    /** The key `key`, made when the workspace has none (another stack's, or one made beside us, is reused). */
    async ensureKey(key: string): Promise<TagKey> {
        return (
            (await this.findKey(key)) ?? this.createKey({ key }).catch(async (e) => (isConflict(e) ? await this.findKey(key) : undefined) ?? Promise.reject(e))
        );
    }

    /** The value `value` of key `keyId`, made when the key has none. */
    async ensureValue(keyId: string, value: string): Promise<TagValue> {
        const find = async () => (await this.listValues(keyId)).find((v) => v.value === value);
        return (await find()) ?? this.createValue(keyId, { value }).catch(async (e) => (isConflict(e) ? await find() : undefined) ?? Promise.reject(e));
    }

    // ---- taggings ----

    /** The keys and values on object `id` of kind `type`, each value with its taggings there. */
    tagsOf(type: string, id: string): Promise<TagKeyOnResource[]> {
        return this.get(at("tags", "resource"), z.array(TagKeyOnResourceSchema), { resource_type: type, resource_id: id });
    }

    /** The tagging of value `valueId` on object `id` of kind `type`, if there is one. */
    async findTagging(type: string, id: string, valueId: string): Promise<Tagging | undefined> {
        const values = (await this.tagsOf(type, id)).flatMap((k) => k.values);
        return values.find((v) => v.id === valueId)?.taggings.find((t) => t.resource_id === id && t.tag_value_id === valueId);
    }

    /** Puts a value on an object; a value already there is that tagging (the service keeps one per value and object). */
    createTagging(body: TaggingCreateRequest): Promise<Tagging> {
        const find = () => this.findTagging(body.resource_type, body.resource_id, body.tag_value_id);
        return this.once(() => this.send("POST", at("taggings"), body, TaggingSchema), find);
    }

    /** Takes a value off an object; a tagging already gone is done. */
    deleteTagging(id: string): Promise<void> {
        return this.remove(at("taggings", id));
    }
}
