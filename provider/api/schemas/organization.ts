/**
 * The wire contract of organization and workspace administration (docs/service.md R7): workspaces, roles,
 * members and invitations, service keys and workspace secrets. Request bodies are strict (the emulator refuses
 * an unknown field with 422, so a client that sends a field the service does not keep, such as a workspace
 * `description`, fails its tests); answers are tolerant of fields this provider does not read.
 */
import { z } from "zod";
import { filledString } from "./common";

const nullableString = z.string().nullish();
/** A uuid of any version (the service takes caller-chosen ids such as `1111...`), as its framework checks one. */
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");

/** What a workspace's display name may hold (the service's description: letters, digits, `-_ '@()` and spaces). */
export const WORKSPACE_NAME = /^[a-zA-Z0-9\-_ '@()]+$/;
const workspaceName = z.string().regex(WORKSPACE_NAME, "String should match pattern '^[a-zA-Z0-9\\-_ '@()]+$'");

/** POST /api/v1/workspaces body. `id` and `tenant_handle` are fixed once the workspace exists. */
export const WorkspaceCreateRequestSchema = z
    .object({
        display_name: workspaceName,
        id: uuid.nullish(),
        tenant_handle: nullableString,
    })
    .strict();
export type WorkspaceCreateRequest = z.infer<typeof WorkspaceCreateRequestSchema>;

/** PATCH /api/v1/workspaces/{id} body: the name is all that changes. */
export const WorkspaceUpdateRequestSchema = z.object({ display_name: workspaceName }).strict();
export type WorkspaceUpdateRequest = z.infer<typeof WorkspaceUpdateRequestSchema>;

/** A workspace as the service answers it (the list adds the caller's role in it). */
export const WorkspaceSchema = z
    .object({
        id: z.string(),
        organization_id: nullableString,
        display_name: z.string(),
        tenant_handle: nullableString,
        created_at: z.string(),
        is_personal: z.boolean(),
        is_deleted: z.boolean(),
        data_plane_url: nullableString,
        role_id: nullableString,
        role_name: nullableString,
        permissions: z.array(z.string()).nullish(),
    })
    .passthrough();
export type Workspace = z.infer<typeof WorkspaceSchema>;

/** Where a role or a permission applies. */
export const ACCESS_SCOPES = ["organization", "workspace"] as const;
export type AccessScope = (typeof ACCESS_SCOPES)[number];

const crud = (resource: string, actions = ["create", "read", "update", "delete"]) => actions.map((a) => `${resource}:${a}`);

/**
 * The workspace permissions this provider knows (docs/service.md R7): every workspace permission of the service's
 * own description (`authz_internal.Permission`, May 2026: tests/contract checks that each is here) and the newer
 * names the documentation and the operations reference give. A custom role's permissions are checked against it
 * at preview: a name it lacks is a warning (the service may know more), and the service's answer decides.
 */
export const WORKSPACE_PERMISSIONS: readonly string[] = [
    ...crud("annotation-queues"),
    ...crud("charts"),
    ...crud("datasets", ["create", "read", "update", "delete", "download", "share"]),
    "datasets:tag_on_create",
    ...crud("deployments"),
    ...crud("feedback"),
    ...crud("feedback-configs"),
    "experiments:run",
    ...crud("issues"),
    ...crud("projects"),
    "projects:tag_on_create",
    "projects:increase-trace-tier",
    "projects:decrease-trace-tier",
    ...crud("prompts", ["create", "read", "update", "delete", "share", "tag"]),
    "prompts:tag_on_create",
    ...crud("rules"),
    ...crud("runs", ["create", "read", "share", "delete", "read-stats"]),
    ...crud("sandboxes", ["create", "read", "update", "delete", "exec"]),
    "workspaces:read",
    "workspaces:manage",
    "workspaces:manage-members",
    "workspaces:manage-secrets",
    "workspaces:manage-keys",
    "workspaces:manage-model-configs",
    ...crud("alerts"),
    "bulk-exports:read",
    "bulk-exports:manage",
    ...crud("mcp-servers", ["create", "read", "update", "delete", "invoke"]),
    "gateway:invoke",
    "fleet:read-admin-config",
    "fleet:write-admin-config",
];

/** Organization permissions: never in a custom role. */
export const ORGANIZATION_PERMISSIONS: readonly string[] = ["organization:manage", "organization:read", "organization:pats:create"];

/** The built-in workspace roles by `name` (Admin, Editor, Viewer): their ids differ between installations, looked up in the role list. */
export const BUILT_IN_WORKSPACE_ROLES = ["WORKSPACE_ADMIN", "WORKSPACE_USER", "WORKSPACE_VIEWER"] as const;
/** The built-in organization roles by `name`, likewise. */
export const BUILT_IN_ORGANIZATION_ROLES = ["ORGANIZATION_ADMIN", "ORGANIZATION_OPERATOR", "ORGANIZATION_USER", "ORGANIZATION_VIEWER"] as const;
/**
 * Each built-in role's `display_name`, the word the UI shows (docs/service.md R7 "Roles and permissions"):
 * a user who knows the Editor role has to be told that its name is `WORKSPACE_USER`.
 */
export const BUILT_IN_ROLE_TITLES: Record<(typeof BUILT_IN_WORKSPACE_ROLES | typeof BUILT_IN_ORGANIZATION_ROLES)[number], string> = {
    ORGANIZATION_ADMIN: "Organization Admin",
    ORGANIZATION_OPERATOR: "Organization Operator",
    ORGANIZATION_USER: "Organization User",
    ORGANIZATION_VIEWER: "Organization Viewer",
    WORKSPACE_ADMIN: "Admin",
    WORKSPACE_USER: "Editor",
    WORKSPACE_VIEWER: "Viewer",
};

/** POST and PATCH /api/v1/orgs/current/roles body: a custom workspace role. */
export const RoleRequestSchema = z
    .object({
        display_name: filledString,
        description: z.string(),
        permissions: z.array(z.string()),
    })
    .strict();
export type RoleRequest = z.infer<typeof RoleRequestSchema>;

/** A role, built-in (`organization_id` null) or custom. */
export const RoleSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        display_name: z.string(),
        description: nullableString,
        organization_id: nullableString,
        permissions: z.array(z.string()),
        access_scope: z.enum(ACCESS_SCOPES),
    })
    .passthrough();
export type Role = z.infer<typeof RoleSchema>;

/** One entry of GET /api/v1/orgs/permissions. */
export const PermissionSchema = z.object({ name: z.string(), description: nullableString, access_scope: z.enum(ACCESS_SCOPES) }).passthrough();

/**
 * POST /api/v1/orgs/current/members body (and each item of `/batch`, and of the workspace's `/batch`): an
 * invitation by email. `read_only` (deprecated), `password` and `full_name` are the description's, taken and unused.
 */
export const OrgInviteRequestSchema = z
    .object({
        email: z.string(),
        role_id: uuid.nullish(),
        workspace_ids: z.array(uuid).nullish(),
        workspace_role_id: uuid.nullish(),
        read_only: z.boolean().nullish(),
        password: nullableString,
        full_name: nullableString,
    })
    .strict();
export type OrgInviteRequest = z.infer<typeof OrgInviteRequestSchema>;

/** POST /api/v1/workspaces/current/members body: an active organization member, named by one of three ids. */
export const WorkspaceMemberRequestSchema = z
    .object({
        user_id: uuid.nullish(),
        org_identity_id: uuid.nullish(),
        ls_user_id: uuid.nullish(),
        read_only: z.boolean().nullish(),
        role_id: uuid.nullish(),
    })
    .strict();
export type WorkspaceMemberRequest = z.infer<typeof WorkspaceMemberRequestSchema>;

/** PATCH of a workspace's member: the new role (`read_only`, deprecated, taken and unused). Also of a pending one's role. */
export const MemberRoleRequestSchema = z.object({ role_id: uuid, read_only: z.boolean().nullish() }).strict();

/** PATCH of an organization's member: the new organization role, if any (`full_name` and `password` are a person's own, taken and unused). */
export const OrgMemberPatchRequestSchema = z.object({ role_id: uuid.nullish(), full_name: nullableString, password: nullableString }).strict();

/**
 * An active member: `id` is the identity id the PATCH and DELETE paths take. The description lets `email` be
 * null, and lists `is_disabled` members: no member, for this provider.
 */
export const MemberSchema = z
    .object({
        id: z.string(),
        user_id: nullableString,
        ls_user_id: nullableString,
        email: nullableString,
        is_disabled: z.boolean().nullish(),
        full_name: nullableString,
        role_id: nullableString,
        role_name: nullableString,
        tenant_id: nullableString,
        created_at: nullableString,
        /** An organization member's workspaces (the organization's lists only). */
        tenant_ids: z.array(z.string()).nullish(),
    })
    .passthrough();
export type Member = z.infer<typeof MemberSchema>;

/** What adding a member to a workspace answers: the identity there, without the person's email. */
export const IdentitySchema = z.object({ id: z.string(), user_id: nullableString, role_id: nullableString }).passthrough();
export type Identity = z.infer<typeof IdentitySchema>;

/** An invitation not yet accepted: a pending member. */
export const PendingMemberSchema = z
    .object({
        id: z.string(),
        email: z.string(),
        role_id: nullableString,
        role_name: nullableString,
        org_role_id: nullableString,
        org_role_name: nullableString,
        workspace_ids: z.array(z.string()).nullish(),
        workspace_role_id: nullableString,
        tenant_id: nullableString,
        organization_id: nullableString,
        created_at: nullableString,
    })
    .passthrough();
export type PendingMember = z.infer<typeof PendingMemberSchema>;

/**
 * POST /api/v1/orgs/current/service-keys body. No `workspaces`: an organization-scoped key. `description`
 * defaults to the service's words; `read_only` (deprecated) and `default_workspace_id` (for personal tokens) are
 * the description's, taken and unused.
 */
export const ServiceKeyCreateRequestSchema = z
    .object({
        description: z.string().trim().min(1).default("Default API key"),
        /** An ISO 8601 date-time; one not in the future is refused (400). */
        expires_at: nullableString,
        role_id: uuid.nullish(),
        org_role_id: uuid.nullish(),
        workspaces: z
            .array(uuid)
            .refine((ids) => ids.length > 0, "must name at least one workspace (leave it out for an organization-scoped key)")
            .nullish(),
        read_only: z.boolean().nullish(),
        default_workspace_id: uuid.nullish(),
    })
    .strict();
export type ServiceKeyCreateRequest = z.infer<typeof ServiceKeyCreateRequestSchema>;

/** PATCH /api/v1/orgs/current/service-keys/{id} body: only the roles change. */
export const ServiceKeyUpdateRequestSchema = z.object({ role_id: uuid.nullish(), org_role_id: uuid.nullish() }).strict();
export type ServiceKeyUpdateRequest = z.infer<typeof ServiceKeyUpdateRequestSchema>;

/** A service key as listed; the create's answer adds `key`, shown that once. */
export const ServiceKeySchema = z
    .object({
        id: z.string(),
        description: z.string(),
        short_key: z.string(),
        access_scope: z.enum(ACCESS_SCOPES),
        role_id: nullableString,
        org_role_id: nullableString,
        workspace_names: z.array(z.string()).nullish(),
        expires_at: nullableString,
        created_at: nullableString,
        created_by: nullableString,
        last_used_at: nullableString,
        key: z.string().optional(),
    })
    .passthrough();
export type ServiceKey = z.infer<typeof ServiceKeySchema>;

/** A host a workspace secret may be sent to. */
const SecretConfigSchema = z.object({ host_pattern: z.string().min(1), header_name: nullableString, header_value_template: nullableString }).strict();

/** POST /api/v1/workspaces/current/secrets body: upserts; a null value deletes that key. */
export const SecretsUpsertRequestSchema = z.array(z.object({ key: filledString, value: z.string().nullable() }).strict());
export type SecretsUpsertRequest = z.infer<typeof SecretsUpsertRequestSchema>;

/** PUT /api/v1/workspaces/current/secrets/{key} body: `value` required to create, omitted to keep. */
export const SecretPutRequestSchema = z.object({ value: z.string().nullish(), configs: z.array(SecretConfigSchema).nullish() }).strict();
export type SecretPutRequest = z.infer<typeof SecretPutRequestSchema>;

/** A workspace secret as answered: its key (and hosts when asked), never its value. */
export const WorkspaceSecretSchema = z.object({ key: z.string(), configs: z.array(z.unknown()).nullish() }).passthrough();
