/**
 * The SsoSettings, declared once (kit/declare.ts): the organization's SAML single sign-on (docs/service.md R20.1),
 * which the service holds once per organization: where the identity provider's metadata is (a URL or the XML
 * itself), the workspaces and role a person signing in for the first time gets, the claims read from the assertion,
 * and groups. provider.ts holds what a table cannot say.
 */
import { boolean, list, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const ssoSettings = resource({
    name: "SsoSettings",
    description:
        "The SAML single sign-on of the LangSmith organization (one per organization): the identity provider's metadata (`metadataUrl` or `metadataXml`, one of them), the workspaces and role given to people on their first sign-in, the attribute mapping and SSO groups. Deleting it removes SAML sign-in: members sign in with their other login methods (email and password, Google, GitHub) again, and an organization that allows SSO only keeps none (warned at preview).",
    inputs: {
        metadataUrl: string(
            "The https URL the service reads the identity provider's SAML metadata from. One of `metadataUrl` and `metadataXml`. Changed in place.",
            { onChange: "update" },
        ),
        metadataXml: string(
            "The identity provider's SAML metadata itself (an `EntityDescriptor` XML document); XML that does not parse is refused at preview, saying where. One of `metadataUrl` and `metadataXml`. Changed in place.",
            { onChange: "update" },
        ),
        defaultWorkspaceIds: list("The workspaces a person signing in for the first time joins (at least one). Changed in place.", string("A workspace id."), {
            required: true,
            onChange: "update",
            compareAs: (v: unknown) => (Array.isArray(v) ? [...v].sort() : v),
        }),
        defaultWorkspaceRoleId: string(
            "Their role in those workspaces: a role's id (a `Role`'s `id`) or a built-in one by name, `WORKSPACE_ADMIN`, `WORKSPACE_USER` (Editor) or `WORKSPACE_VIEWER`, as `WorkspaceMember` takes it. Changed in place.",
            { required: true, onChange: "update" },
        ),
        attributeMapping: map(
            "Claims written from the SAML assertion: the claim's name to the assertion attribute it is read from (`email` to `http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress`, say). Absent or empty: the service's default mapping. Changed in place.",
            string("The SAML assertion attribute's name."),
            { onChange: "update" },
        ),
        ssoGroupsEnabled: boolean("Whether the assertion's groups are read (SSO groups). Default false. Changed in place.", {
            default: false,
            onChange: "update",
        }),
        ssoGroupsClaimField: string("The assertion attribute that holds the groups. Default `groups`. Changed in place.", {
            default: "groups",
            onChange: "update",
        }),
        ssoGroupsRequired: boolean("Whether a person in none of the mapped groups is refused sign-in. Default false. Changed in place.", {
            default: false,
            onChange: "update",
        }),
        ssoGroupsRoleSyncEnabled: boolean("Whether a member's roles follow their groups at each sign-in. Default true. Changed in place.", {
            default: true,
            onChange: "update",
        }),
    },
    outputs: {
        organizationId: string("The organization whose sign-in this is.", { stable: true }),
        providerId: string("The SAML provider's id at the identity service (what the identity provider's configuration names).", { stable: true }),
        resolvedRoleId: string("The id of the role `defaultWorkspaceRoleId` names.", { hidden: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type SsoSettingsInputs = Inputs<typeof ssoSettings>;
export type SsoSettingsOutputs = Outputs<typeof ssoSettings>;
