/**
 * The wire contract of the organization's edge settings (docs/service.md R20): its SAML SSO settings
 * (`/api/v1/orgs/current/sso-settings[/{id}]`: SSOSettingsCreate, SSOSettingsUpdate, SSOProvider), its own settings
 * (`/api/v1/orgs/current/info`: OrganizationUpdate, OrganizationInfo; `/v1/platform/orgs/current/info`) and a
 * workspace's prompt hub handle (`/api/v1/settings/handle`: SetTenantHandleRequest, Tenant). Request bodies are
 * strict (the emulator refuses an unknown field with 422); answers are tolerant of fields this provider does not read.
 */
import { z } from "zod";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");
const integer = z.number().refine((v) => Number.isInteger(v), "Input should be a valid integer");

/** SupabaseAttributeMapping: a claim's name to the assertion attribute (`name`) it is read from. */
export const AttributeMappingSchema = z
    .object({ keys: z.record(z.string(), z.object({ name: z.string(), array: z.boolean().optional() }).strict()).optional() })
    .strict();
export type AttributeMapping = z.infer<typeof AttributeMappingSchema>;

const groups = {
    sso_groups_enabled: z.boolean().optional(),
    sso_groups_claim_field: z.string().optional(),
    sso_groups_required: z.boolean().optional(),
    sso_groups_role_sync_enabled: z.boolean().optional(),
};

/** POST sso-settings: a role and workspaces required; metadata by URL or XML. */
export const SsoSettingsCreateSchema = z
    .object({
        default_workspace_role_id: uuid,
        default_workspace_ids: z.array(uuid),
        metadata_xml: z.string().nullish(),
        metadata_url: z.string().nullish(),
        attribute_mapping: AttributeMappingSchema.nullish(),
        ...groups,
    })
    .strict();
export type SsoSettingsCreate = z.infer<typeof SsoSettingsCreateSchema>;

/** PATCH sso-settings/{id}: every field optional, null as absent. */
export const SsoSettingsUpdateSchema = z
    .object({
        default_workspace_role_id: uuid.nullish(),
        default_workspace_ids: z.array(uuid).nullish(),
        metadata_url: z.string().nullish(),
        metadata_xml: z.string().nullish(),
        attribute_mapping: AttributeMappingSchema.nullish(),
        sso_groups_enabled: z.boolean().nullish(),
        sso_groups_claim_field: z.string().nullish(),
        sso_groups_required: z.boolean().nullish(),
        sso_groups_role_sync_enabled: z.boolean().nullish(),
    })
    .strict();
export type SsoSettingsUpdate = z.infer<typeof SsoSettingsUpdateSchema>;

/** SSOProvider, as answered. */
export const SsoProviderSchema = z
    .object({
        id: z.string(),
        organization_id: z.string(),
        provider_id: z.string(),
        default_workspace_role_id: z.string(),
        default_workspace_ids: z.array(z.string()),
        metadata_url: z.string().nullish(),
        metadata_xml: z.string().nullish(),
        sso_groups_enabled: z.boolean().optional(),
        sso_groups_claim_field: z.string().optional(),
        sso_groups_required: z.boolean().optional(),
        sso_groups_role_sync_enabled: z.boolean().optional(),
        attribute_mapping: z
            .object({ keys: z.record(z.string(), z.object({ name: z.string() }).passthrough()).nullish() })
            .passthrough()
            .nullish(),
        attribute_mapping_load_error: z.string().nullish(),
    })
    .passthrough();
export type SsoProvider = z.infer<typeof SsoProviderSchema>;

/** OrganizationUpdate (PATCH /api/v1/orgs/current/info): what one may set; null puts a nullable setting's default back. */
export const OrganizationUpdateSchema = z
    .object({
        display_name: z
            .string()
            .min(1)
            .regex(/^[a-zA-Z0-9\-_ ]+$/)
            .optional(),
        public_sharing_disabled: z.boolean().nullish(),
        pat_creation_disabled: z.boolean().nullish(),
        unshare_all: z.boolean().nullish(),
        jit_provisioning_enabled: z.boolean().nullish(),
        workspace_admin_can_invite_to_org: z.boolean().nullish(),
        invites_enabled: z.boolean().nullish(),
        max_api_key_expiry_days: integer.nullish(),
        // The description's `format: email`, as the service's validator reads it (any local part: `a+b$c|@x.com` too).
        security_contact: z
            .string()
            .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, "Invalid email address")
            .nullish(),
        max_pat_expiry_days: integer.nullish(),
        max_service_key_expiry_days: integer.nullish(),
        scim_group_name_separator: z.string().min(1).max(1).optional(),
        llm_auth_proxy_enabled: z.boolean().nullish(),
        llm_auth_proxy_jwt_audience: z.string().nullish(),
        ip_allowlist: z.array(z.string()).nullish(),
        restrict_browser_secrets: z.boolean().nullish(),
        llm_auth_proxy_allowed_urls: z.array(z.string()).nullish(),
        engine_enabled: z.boolean().nullish(),
    })
    .strict();
export type OrganizationUpdate = z.infer<typeof OrganizationUpdateSchema>;

/**
 * What an organization's settings are before anybody sets them (OrganizationInfo's defaults): what the emulator
 * answers, and what OrganizationSettings puts back (a null: no limit, none).
 */
export const ORG_SETTING_DEFAULTS = {
    public_sharing_disabled: false,
    pat_creation_disabled: false,
    jit_provisioning_enabled: true,
    workspace_admin_can_invite_to_org: false,
    invites_enabled: true,
    max_api_key_expiry_days: null,
    max_pat_expiry_days: null,
    max_service_key_expiry_days: null,
    security_contact: null,
    scim_group_name_separator: ":",
    llm_auth_proxy_enabled: null,
    llm_auth_proxy_jwt_audience: null,
    ip_allowlist: [] as string[],
    restrict_browser_secrets: null,
    llm_auth_proxy_allowed_urls: null,
    engine_enabled: null,
} as const satisfies Record<string, unknown>;

/** OrganizationConfig: the plan's limits (what `getOrganization` answers of them). */
export const OrganizationConfigSchema = z
    .object({
        plan_tier: z.string().nullish(),
        max_identities: z.number().optional(),
        max_workspaces: z.number().optional(),
        max_langgraph_cloud_deployments: z.number().optional(),
        max_prompt_webhooks: z.number().nullish(),
        can_use_rbac: z.boolean().optional(),
        can_use_abac: z.boolean().optional(),
        can_use_saml_sso: z.boolean().optional(),
        can_use_bulk_export: z.boolean().optional(),
        can_disable_public_sharing: z.boolean().optional(),
    })
    .passthrough();

/** OrganizationInfo, as answered. */
export const OrganizationInfoSchema = z
    .object({
        id: z.string().nullish(),
        display_name: z.string().nullish(),
        config: OrganizationConfigSchema,
        is_personal: z.boolean(),
        tier: z.string().nullish(),
        reached_max_workspaces: z.boolean().optional(),
        sso_only: z.boolean().optional(),
        sso_login_slug: z.string().nullish(),
        public_sharing_disabled: z.boolean().optional(),
        pat_creation_disabled: z.boolean().optional(),
        jit_provisioning_enabled: z.boolean().optional(),
        workspace_admin_can_invite_to_org: z.boolean().optional(),
        invites_enabled: z.boolean().optional(),
        max_api_key_expiry_days: z.number().nullish(),
        max_pat_expiry_days: z.number().nullish(),
        max_service_key_expiry_days: z.number().nullish(),
        security_contact: z.string().nullish(),
        scim_group_name_separator: z.string().optional(),
        llm_auth_proxy_enabled: z.boolean().nullish(),
        llm_auth_proxy_jwt_audience: z.string().nullish(),
        ip_allowlist: z.array(z.string()).nullish(),
        restrict_browser_secrets: z.boolean().nullish(),
        llm_auth_proxy_allowed_urls: z.array(z.string()).nullish(),
        engine_enabled: z.boolean().nullish(),
    })
    .passthrough();
export type OrganizationInfo = z.infer<typeof OrganizationInfoSchema>;

/** POST /api/v1/settings/handle. */
export const SetTenantHandleRequestSchema = z.object({ tenant_handle: z.string() }).strict();

/** Tenant (GET /api/v1/settings, POST .../handle): the workspace as the hub names it. */
export const TenantSchema = z.object({ id: z.string(), display_name: z.string(), created_at: z.string(), tenant_handle: z.string().nullish() }).passthrough();
export type Tenant = z.infer<typeof TenantSchema>;

/** A hub handle the service takes (decided: docs/service.md R20.3). */
export const HUB_HANDLE_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
