/**
 * Look-ups of the organization's edge (docs/service.md R20): `getSsoSettings` (its SAML SSO settings; fails saying so
 * when it has none) and `getOrganization` (its own settings, its plan and the plan's limits). One implementation behind
 * both front doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service; both need
 * a key that may read the organization (`organization:read`).
 */
import type { OrgSettingsClient } from "../api/orgSettings";
import { boolean, list, lookup, map, number, object, string, type FunctionResult } from "../kit/declare";

export const getSsoSettingsFunction = lookup({
    name: "getSsoSettings",
    description: "The organization's SAML SSO settings (an `SsoSettings`'s, or made in the UI); fails saying so when the organization has none.",
    args: {},
    result: {
        id: string("The settings' id (an `SsoSettings`' `id`, what `pulumi import` takes).", { required: true }),
        providerId: string("The SAML provider's id at the identity service.", { required: true }),
        metadataUrl: string("Where the identity provider's metadata is read from, if given by URL."),
        metadataXml: string("The identity provider's metadata, if given as XML."),
        defaultWorkspaceIds: list("The workspaces people join on their first sign-in.", string("A workspace id."), { required: true }),
        defaultWorkspaceRoleId: string("Their role there (a role id).", { required: true }),
        attributeMapping: map("Claims read from the assertion: the claim to the assertion attribute.", string("An attribute's name.")),
        ssoGroupsEnabled: boolean("Whether SSO groups are read.", { required: true }),
        ssoGroupsClaimField: string("The attribute that holds the groups.", { required: true }),
        ssoGroupsRequired: boolean("Whether a person in no mapped group is refused.", { required: true }),
        ssoGroupsRoleSyncEnabled: boolean("Whether roles follow groups at each sign-in.", { required: true }),
    },
});

const settingsType = object("OrganizationSettingsInfo", "The organization's own settings, as `OrganizationSettings` names them.", {
    publicSharingDisabled: boolean("Whether public sharing is disabled.", { required: true }),
    patCreationDisabled: boolean("Whether members may not create personal access tokens.", { required: true }),
    jitProvisioningEnabled: boolean("Whether SSO sign-ins join the organization at once.", { required: true }),
    workspaceAdminCanInviteToOrg: boolean("Whether a workspace admin may invite into the organization.", { required: true }),
    invitesEnabled: boolean("Whether invitations may be sent.", { required: true }),
    maxApiKeyExpiryDays: number("The most days a new API key may be valid; absent: no limit.", { integer: true }),
    maxPatExpiryDays: number("The same for personal access tokens.", { integer: true }),
    maxServiceKeyExpiryDays: number("The same for service keys.", { integer: true }),
    securityContact: string("The security contact's email, if any."),
    scimGroupNameSeparator: string("The SCIM group name separator.", { required: true }),
    ipAllowlist: list("The address ranges the organization may be reached from; empty: any.", string("A CIDR range."), { required: true }),
    restrictBrowserSecrets: boolean("Whether secrets stay out of the browser."),
    llmAuthProxyEnabled: boolean("Whether the LLM auth proxy is on."),
    llmAuthProxyJwtAudience: string("The LLM auth proxy's JWT audience, if any."),
    llmAuthProxyAllowedUrls: list("The URLs the LLM auth proxy may call.", string("A URL.")),
    engineEnabled: boolean("Whether the engine is on."),
});

const limitsType = object("OrganizationLimits", "What the organization's plan allows.", {
    maxWorkspaces: number("How many workspaces it may have.", { integer: true }),
    maxIdentities: number("How many members (seats) it may have.", { integer: true }),
    maxDeployments: number("How many agent deployments it may have.", { integer: true }),
    maxPromptWebhooks: number("How many prompt webhooks it may have.", { integer: true }),
    canUseSamlSso: boolean("Whether it may use SAML SSO (`SsoSettings`)."),
    canUseRbac: boolean("Whether it may use custom roles (`Role`)."),
    canUseAbac: boolean("Whether it may use access policies (`AccessPolicy`)."),
    canUseBulkExport: boolean("Whether it may export traces in bulk (`BulkExport`)."),
});

export const getOrganizationFunction = lookup({
    name: "getOrganization",
    description: "The organization the provider's API key belongs to: its name, plan, own settings and the plan's limits.",
    args: {},
    result: {
        id: string("The organization's id.", { required: true }),
        displayName: string("Its name."),
        tier: string("Its plan (`enterprise`, `plus`, ...), if the service says it."),
        isPersonal: boolean("Whether it is a personal organization.", { required: true }),
        reachedMaxWorkspaces: boolean("Whether it holds as many workspaces as its plan allows.", { required: true }),
        ssoLoginSlug: string("The slug of its SSO sign-in page, while it has SSO settings."),
        settings: { ...settingsType, required: true as const },
        limits: { ...limitsType, required: true as const },
    },
});

const orNone = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

export async function getSsoSettings(client: OrgSettingsClient): Promise<FunctionResult<typeof getSsoSettingsFunction>> {
    const s = await client.sso();
    if (!s) throw new Error("getSsoSettings: the organization has no SSO settings (an `SsoSettings` resource makes them)");
    const keys = Object.entries(s.attribute_mapping?.keys ?? {});
    return {
        id: s.id,
        providerId: s.provider_id,
        metadataUrl: orNone(s.metadata_url),
        metadataXml: orNone(s.metadata_xml),
        defaultWorkspaceIds: s.default_workspace_ids,
        defaultWorkspaceRoleId: s.default_workspace_role_id,
        attributeMapping: keys.length ? Object.fromEntries(keys.map(([k, v]) => [k, v.name])) : undefined,
        ssoGroupsEnabled: s.sso_groups_enabled ?? false,
        ssoGroupsClaimField: s.sso_groups_claim_field ?? "groups",
        ssoGroupsRequired: s.sso_groups_required ?? false,
        ssoGroupsRoleSyncEnabled: s.sso_groups_role_sync_enabled ?? true,
    };
}

export async function getOrganization(client: OrgSettingsClient): Promise<FunctionResult<typeof getOrganizationFunction>> {
    const o = await client.info();
    const c = o.config;
    return {
        id: o.id ?? "",
        displayName: orNone(o.display_name),
        tier: orNone(o.tier),
        isPersonal: o.is_personal,
        reachedMaxWorkspaces: o.reached_max_workspaces ?? false,
        ssoLoginSlug: orNone(o.sso_login_slug),
        settings: {
            publicSharingDisabled: o.public_sharing_disabled ?? false,
            patCreationDisabled: o.pat_creation_disabled ?? false,
            jitProvisioningEnabled: o.jit_provisioning_enabled ?? true,
            workspaceAdminCanInviteToOrg: o.workspace_admin_can_invite_to_org ?? false,
            invitesEnabled: o.invites_enabled ?? true,
            maxApiKeyExpiryDays: orNone(o.max_api_key_expiry_days),
            maxPatExpiryDays: orNone(o.max_pat_expiry_days),
            maxServiceKeyExpiryDays: orNone(o.max_service_key_expiry_days),
            securityContact: orNone(o.security_contact),
            scimGroupNameSeparator: o.scim_group_name_separator ?? ":",
            ipAllowlist: o.ip_allowlist ?? [],
            restrictBrowserSecrets: orNone(o.restrict_browser_secrets),
            llmAuthProxyEnabled: orNone(o.llm_auth_proxy_enabled),
            llmAuthProxyJwtAudience: orNone(o.llm_auth_proxy_jwt_audience),
            llmAuthProxyAllowedUrls: orNone(o.llm_auth_proxy_allowed_urls),
            engineEnabled: orNone(o.engine_enabled),
        },
        limits: {
            maxWorkspaces: c.max_workspaces,
            maxIdentities: c.max_identities,
            maxDeployments: c.max_langgraph_cloud_deployments,
            maxPromptWebhooks: orNone(c.max_prompt_webhooks),
            canUseSamlSso: c.can_use_saml_sso,
            canUseRbac: c.can_use_rbac,
            canUseAbac: c.can_use_abac,
            canUseBulkExport: c.can_use_bulk_export,
        },
    };
}
