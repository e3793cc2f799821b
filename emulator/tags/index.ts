/**
 * The resource-tags area (docs/service.md R13): `/api/v1/workspaces/current/tag-keys[/{id}[/tag-values[/{id}]]]`,
 * `/taggings[/{id}]`, `/tags` and `/tags/resource`, per workspace (`X-Tenant-Id`). Bodies parse with the strict
 * request schemas of the shared wire contract (provider/api/schemas/tags.ts); the model decides (model.ts). The
 * tracing area's project list filters by these taggings (`GET /sessions?tag_value_id=`: `taggedWith`). The
 * organization's access policies over tags, and their attachment to roles, are policies.ts.
 */
import { z } from "zod";
import {
    TAGGABLE_TYPES,
    TaggingCreateRequestSchema,
    TagKeyCreateRequestSchema,
    TagKeyUpdateRequestSchema,
    TagValueCreateRequestSchema,
    TagValueUpdateRequestSchema,
} from "../../provider/api/schemas/tags";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { requireUuid } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { TagsModel, view, type TaggingRecord, type ValueRecord } from "./model";
import { AccessPolicies } from "./policies";

export interface TagsArea extends Area {
    readonly model: TagsModel;
    readonly policies: AccessPolicies;
}

const BASE = "/api/v1/workspaces/current";
const ok = (body: unknown = {}) => ({ status: 200, body });
const ResourceQuerySchema = z.object({ resource_type: z.enum(TAGGABLE_TYPES), resource_id: z.string().uuid() });
/** The plural the description's `TaggingsByResourceType` files each kind under (`project` -> `projects`, `queue` -> `queues`). */
const plural = (type: string) => `${type}s`;

type Namer = (tenantId: string, type: string, id: string) => string | undefined;

/**
 * `name(tenantId, type, id)`: what the answers call a tagged object (its name where the emulator knows it, else its
 * id); `roleExists(id)`: whether the organization holds a role (access policies attach to roles: policies.ts).
 */
export function tagsArea(o: { clock: Clock; stateDir?: string; name?: Namer; roleExists?: (id: string) => boolean }): TagsArea {
    const model = new TagsModel(o.clock, o.stateDir);
    const policies = new AccessPolicies(o.clock, o.roleExists ?? (() => true), o.stateDir);
    const keyId = (c: RequestContext) => requireUuid(c.params.key_id, "tag_key_id");
    const valueId = (c: RequestContext) => requireUuid(c.params.value_id, "tag_value_id");
    return {
        name: "tags",
        model,
        policies,
        tenantless: [/^\/api\/v1\/platform\/orgs\/current\/(access-policies|roles)(\/|$)/],
        notEmulated: [/^\/api\/v1\/workspaces\/current\/tags\/resources\/?$/],
        register(router: Router) {
            router
                .on("GET", `${BASE}/tag-keys`, (c) => ok(model.keys(c.tenantId).map(view)))
                .on("POST", `${BASE}/tag-keys`, (c) => ok(view(model.createKey(c.tenantId, parse(TagKeyCreateRequestSchema, c.body, "body")))))
                .on("GET", `${BASE}/tag-keys/{key_id}`, (c) => ok(view(model.key(c.tenantId, keyId(c)))))
                .on("PATCH", `${BASE}/tag-keys/{key_id}`, (c) =>
                    ok(view(model.updateKey(c.tenantId, keyId(c), parse(TagKeyUpdateRequestSchema, c.body, "body")))),
                )
                .on("DELETE", `${BASE}/tag-keys/{key_id}`, (c) => (model.deleteKey(c.tenantId, keyId(c)), ok()))
                .on("GET", `${BASE}/tag-keys/{key_id}/tag-values`, (c) => ok(model.values(c.tenantId, keyId(c)).map(view)))
                .on("POST", `${BASE}/tag-keys/{key_id}/tag-values`, (c) =>
                    ok(view(model.createValue(c.tenantId, keyId(c), parse(TagValueCreateRequestSchema, c.body, "body")))),
                )
                .on("GET", `${BASE}/tag-keys/{key_id}/tag-values/{value_id}`, (c) => ok(view(model.value(c.tenantId, keyId(c), valueId(c)))))
                .on("PATCH", `${BASE}/tag-keys/{key_id}/tag-values/{value_id}`, (c) =>
                    ok(view(model.updateValue(c.tenantId, keyId(c), valueId(c), parse(TagValueUpdateRequestSchema, c.body, "body")))),
                )
                .on("DELETE", `${BASE}/tag-keys/{key_id}/tag-values/{value_id}`, (c) => (model.deleteValue(c.tenantId, keyId(c), valueId(c)), ok()))
                .on("POST", `${BASE}/taggings`, (c) => ok(view(model.createTagging(c.tenantId, parse(TaggingCreateRequestSchema, c.body, "body")))))
                .on("DELETE", `${BASE}/taggings/{tagging_id}`, (c) => (model.deleteTagging(c.tenantId, requireUuid(c.params.tagging_id, "tagging_id")), ok()))
                .on("GET", `${BASE}/taggings`, (c) => ok(taggingsByValue(model, c, o.name)))
                .on("GET", `${BASE}/tags`, (c) => ok(model.keys(c.tenantId).map((k) => ({ ...view(k), values: model.values(c.tenantId, k.id).map(view) }))))
                .on("GET", `${BASE}/tags/resource`, (c) => ok(tagsOnResource(model, c)));
            policies.register(router);
        },
        reset: () => {
            model.reset();
            policies.reset();
        },
    };
}

/** GET tags/resource: the keys with the values on one object, each value with its taggings there (`TagKeyWithValuesAndTaggings`). */
function tagsOnResource(model: TagsModel, c: RequestContext) {
    const q = parse(ResourceQuerySchema, Object.fromEntries(c.query), "query");
    const on = (t: TaggingRecord) => t.resource_type === q.resource_type && t.resource_id === q.resource_id;
    const withTaggings = (v: ValueRecord) => ({
        ...view(v),
        taggings: model
            .taggings(c.tenantId)
            .filter((t) => t.tag_value_id === v.id && on(t))
            .map(view),
    });
    const keys = model.keys(c.tenantId).map((k) => ({
        ...view(k),
        values: model
            .values(c.tenantId, k.id)
            .map(withTaggings)
            .filter((v) => v.taggings.length),
    }));
    return keys.filter((k) => k.values.length);
}

/** GET taggings: each value (or the one `tag_value_id` names) with the objects it is on, by kind (`TaggingsResponse`). */
function taggingsByValue(model: TagsModel, c: RequestContext, name?: Namer) {
    const only = c.query.get("tag_value_id");
    if (only) requireUuid(only, "tag_value_id");
    return model.keys(c.tenantId).flatMap((k) =>
        model
            .values(c.tenantId, k.id)
            .filter((v) => !only || v.id === only)
            .map((v) => {
                const resources: Record<string, unknown[]> = Object.fromEntries(TAGGABLE_TYPES.map((t) => [plural(t), []]));
                for (const t of model.taggings(c.tenantId).filter((x) => x.tag_value_id === v.id))
                    resources[plural(t.resource_type)].push({
                        tagging_id: t.id,
                        resource_id: t.resource_id,
                        resource_name: name?.(c.tenantId, t.resource_type, t.resource_id) ?? t.resource_id,
                    });
                return { tag_key: k.key, tag_key_id: k.id, tag_value: v.value, tag_value_id: v.id, resources: { alerts: [], ...resources } };
            }),
    );
}
