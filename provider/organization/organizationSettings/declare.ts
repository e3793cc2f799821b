/**
 * The OrganizationSettings, declared once (kit/declare.ts): the organization's own switches that
 * `PATCH /api/v1/orgs/current/info` sets (docs/service.md R20.2), once per organization. Only the fields the program
 * sets are managed: the others stay as they are on the service. provider.ts holds what a table cannot say.
 */
import { boolean, list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const DEFAULTS = "Removing it from the program puts the service's default back";
const days = (what: string) =>
    number(`The most days a new ${what} may be valid, a whole number of 1 or more. Absent: not managed. ${DEFAULTS} (no limit). Changed in place.`, {
        integer: true,
        onChange: "update",
    });
const flag = (what: string, byDefault: boolean) =>
    boolean(`${what} Absent: not managed. ${DEFAULTS} (${byDefault}). Changed in place.`, { onChange: "update" });

export const organizationSettings = resource({
    name: "OrganizationSettings",
    description:
        "The LangSmith organization's own settings (one per organization): sharing, invitations, just-in-time provisioning, token expiry limits, the IP allowlist, the LLM auth proxy. Only the fields the program sets are managed; removing one puts the service's default back; deleting the resource puts the service's defaults back for every field it managed (warned at preview). The organization's retention is `OrganizationRetention`'s, its name is left to the UI.",
    inputs: {
        publicSharingDisabled: flag("Whether public sharing of traces, datasets and prompts is disabled.", false),
        patCreationDisabled: flag("Whether members may not create personal access tokens.", false),
        jitProvisioningEnabled: flag("Whether people signing in through SSO for the first time join the organization at once.", true),
        workspaceAdminCanInviteToOrg: flag("Whether a workspace admin may invite people into the organization.", false),
        invitesEnabled: flag("Whether invitations may be sent.", true),
        maxApiKeyExpiryDays: days("API key"),
        maxPatExpiryDays: days("personal access token"),
        maxServiceKeyExpiryDays: days("service key"),
        securityContact: string(`The email the service writes to about security matters. Absent: not managed. ${DEFAULTS} (none). Changed in place.`, {
            onChange: "update",
        }),
        scimGroupNameSeparator: string(
            `The one character that separates a workspace from a role in SCIM group names. Absent: not managed. ${DEFAULTS} (\`:\`). Changed in place.`,
            { onChange: "update" },
        ),
        ipAllowlist: list(
            `The address ranges (CIDR: \`203.0.113.0/24\`, \`2001:db8::/32\`) the organization may be reached from; empty: any. Absent: not managed. ${DEFAULTS} (empty). Changed in place.`,
            string("An address range in CIDR notation."),
            { onChange: "update" },
        ),
        restrictBrowserSecrets: flag("Whether secrets stay out of the browser (the playground calls models through the service).", false),
        llmAuthProxyEnabled: flag("Whether the LLM auth proxy is on.", false),
        llmAuthProxyJwtAudience: string(`The audience of the JWTs the LLM auth proxy signs. Absent: not managed. ${DEFAULTS} (none). Changed in place.`, {
            onChange: "update",
        }),
        llmAuthProxyAllowedUrls: list(
            `The https URLs the LLM auth proxy may call. Absent: not managed. ${DEFAULTS} (none). Changed in place.`,
            string("An https URL."),
            { onChange: "update" },
        ),
        engineEnabled: flag("Whether the engine (LangSmith's automatic trace analysis) is on.", false),
    },
    outputs: {
        organizationId: string("The organization whose settings these are.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type OrganizationSettingsInputs = Inputs<typeof organizationSettings>;
export type OrganizationSettingsOutputs = Outputs<typeof organizationSettings>;
