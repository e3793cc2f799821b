/**
 * The wire contract of access policies (attribute-based access control, docs/service.md R13.8): an organization's
 * policies at `/api/v1/platform/orgs/current/access-policies[/{id}]` (real-service-notes: outside the description), an
 * effect (allow or deny) over condition groups, each a permission on a kind of object whose resource tags meet its
 * conditions; and their attachment to roles (`.../roles/{role_id}/access-policies`). Requests are strict; answers
 * tolerant of fields this provider does not read.
 */
import { z } from "zod";
import { TAGGABLE_TYPES } from "./tags";

export const POLICY_EFFECTS = ["allow", "deny"] as const;
/** How a condition compares an object's tag (decided: docs/service.md R13.8). */
export const CONDITION_OPERATORS = ["equals", "not_equals"] as const;
/** What a condition reads of an object: its resource tags. */
export const TAG_ATTRIBUTE = "resource_tag_key";

const ConditionSchema = z
    .object({
        attribute_name: z.literal(TAG_ATTRIBUTE),
        attribute_key: z.string().min(1),
        operator: z.enum(CONDITION_OPERATORS),
        attribute_value: z.string().min(1),
    })
    .strict();

const ConditionGroupSchema = z
    .object({
        permission: z.string().min(1),
        resource_type: z.enum(TAGGABLE_TYPES),
        conditions: z.array(ConditionSchema).min(1),
    })
    .strict();
export type ConditionGroup = z.infer<typeof ConditionGroupSchema>;

/**
 * POST access-policies: a policy needs at least one condition group, each at least one condition; `role_ids` (the
 * description's "if present, attach to the specified roles") attaches it as it is made (this provider attaches
 * through the roles' path instead).
 */
export const AccessPolicyCreateRequestSchema = z
    .object({
        name: z.string().min(1),
        description: z.string().nullish(),
        effect: z.enum(POLICY_EFFECTS),
        condition_groups: z.array(ConditionGroupSchema).min(1),
        role_ids: z.array(z.string()).optional(),
    })
    .strict();
export type AccessPolicyCreateRequest = z.infer<typeof AccessPolicyCreateRequestSchema>;

/** PATCH access-policies/{id}: absent fields stay (no `role_ids`: attachments change through the roles' path). */
export const AccessPolicyUpdateRequestSchema = AccessPolicyCreateRequestSchema.omit({ role_ids: true }).partial().strict();
export type AccessPolicyUpdateRequest = z.infer<typeof AccessPolicyUpdateRequestSchema>;

/** POST roles/{role_id}/access-policies: the policies to attach (decided: docs/service.md R13.8; none or absent attaches none). */
export const AttachPoliciesRequestSchema = z.object({ access_policy_ids: z.array(z.string()).optional() }).strict();

export const AccessPolicySchema = z
    .object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullish(),
        effect: z.string(),
        condition_groups: z.array(
            z.object({
                permission: z.string(),
                resource_type: z.string(),
                conditions: z.array(z.object({ attribute_name: z.string(), attribute_key: z.string(), operator: z.string(), attribute_value: z.string() })),
            }),
        ),
        role_ids: z.array(z.string()).default([]),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type AccessPolicy = z.infer<typeof AccessPolicySchema>;
