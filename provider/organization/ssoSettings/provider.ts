/**
 * The SsoSettings' dynamic provider (its fields: declare.ts). The organization holds one set of SSO settings
 * (docs/service.md R20.1). Refused at preview, by field and before any call: both or neither of `metadataUrl` and
 * `metadataXml`, a URL that is not https, XML that is not an identity provider's metadata (saying the line and column
 * where it fails: kit/samlMetadata.ts, the emulator's reader too), no default workspace, a role that is no workspace
 * role. A create meeting settings made elsewhere is refused naming them unless LANGSMITH_ADOPT_IDS names them (then
 * changed to the program's); a lost answer is looked up (api/orgSettings.ts). An update is one PATCH of the whole
 * settings. A delete removes SAML sign-in (said at the create's preview). `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { OrgSettingsClient } from "../../api/orgSettings";
import type { Role } from "../../api/schemas/organization";
import type { SsoProvider, SsoSettingsCreate } from "../../api/schemas/orgSettings";
import type { ServiceConfig } from "../../config";
import { withoutIdentity } from "../../kit/autoname";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { problemText, samlMetadataProblem } from "../../kit/samlMetadata";
import { onlyOnePerScope, organizationScope } from "../../kit/scope";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { builtInName, roleProblem, rolesAtPreview } from "../workspaceMember/provider";
import { SCHEMA_VERSION, ssoSettings, type SsoSettingsInputs, type SsoSettingsOutputs } from "./declare";

export const SSO_SETTINGS_DIFF = diffTableOf(ssoSettings.inputs);

/** Why the metadata is refused (`metadataUrl`, `metadataXml`), before any call. */
function metadataProblems(c: Checker, news: Record<string, unknown>): void {
    const { metadataUrl: url, metadataXml: xml } = news;
    if (!known(url) || !known(xml)) return;
    if (!url === !xml) {
        c.fail("metadataUrl", "set exactly one of metadataUrl (where the identity provider publishes its SAML metadata) and metadataXml (the metadata itself)");
        return;
    }
    if (typeof url === "string") {
        let u: URL | undefined;
        try {
            u = new URL(url);
        } catch {}
        if (u?.protocol !== "https:")
            c.fail("metadataUrl", `metadataUrl ${JSON.stringify(url)} must be an https URL (the service reads the metadata over TLS)`);
    }
    const p = typeof xml === "string" ? samlMetadataProblem(xml) : undefined;
    if (p) c.fail("metadataXml", `metadataXml is not an identity provider's SAML metadata: ${problemText(p)}`);
}

export function checkSsoSettings(olds: Record<string, unknown> | undefined, args: Record<string, unknown>, cfg?: ServiceConfig, roles?: Role[]) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("SsoSettings", ssoSettings.inputs, news);
    onlyOnePerScope(c, {
        resource: "SsoSettings",
        identity,
        parts: organizationScope(cfg),
        property: "",
        what: "the organization's SSO settings (the same API key's)",
        exists: "an organization has one",
    });
    metadataProblems(c, news);
    if (Array.isArray(news.defaultWorkspaceIds) && news.defaultWorkspaceIds.length === 0)
        c.fail("defaultWorkspaceIds", "defaultWorkspaceIds must name at least one workspace: the one people join on their first sign-in");
    const role = news.defaultWorkspaceRoleId;
    const why = typeof role === "string" && known(role) && role !== "" ? roleProblem(role, roles) : undefined;
    if (why) c.fail("defaultWorkspaceRoleId", why.replace(/^roleId/, "defaultWorkspaceRoleId"));
    if (isImport(olds))
        c.warn(
            "",
            "Deleting these SSO settings (`pulumi destroy`, or removing this resource) removes SAML sign-in: members sign in with their other login methods again, and people who only ever signed in through SSO cannot until it is set again.",
        );
    return c.done(inputs);
}

/** The role `roleId` names (an id, or a built-in workspace role by name). */
function resolveRole(roles: Role[], roleId: string): Role {
    const r = roles.find((x) => x.id === roleId || (!x.organization_id && x.name === roleId && x.access_scope === "workspace"));
    const why = roleProblem(roleId, roles) ?? (r ? undefined : `roleId ${JSON.stringify(roleId)}: the service lists no such role`);
    if (why || !r) throw new Error(`SsoSettings: ${(why ?? "").replace(/^roleId/, "defaultWorkspaceRoleId")}`);
    return r;
}

/** The whole settings on the wire (an update sends them whole: an empty mapping clears it, the other metadata null). */
function body(i: SsoSettingsInputs, roleId: string): SsoSettingsCreate {
    return {
        default_workspace_role_id: roleId,
        default_workspace_ids: i.defaultWorkspaceIds,
        metadata_url: i.metadataUrl ?? null,
        metadata_xml: i.metadataXml ?? null,
        attribute_mapping: { keys: Object.fromEntries(Object.entries(i.attributeMapping ?? {}).map(([k, name]) => [k, { name }])) },
        sso_groups_enabled: i.ssoGroupsEnabled,
        sso_groups_claim_field: i.ssoGroupsClaimField,
        sso_groups_required: i.ssoGroupsRequired,
        sso_groups_role_sync_enabled: i.ssoGroupsRoleSyncEnabled,
    };
}

/**
 * The inputs as the service says them (refresh, import); the role as the program names it while it is that role, else
 * (an import) a built-in one by its name, as programs name it (`roles`: the organization's).
 */
function inputsOf(s: SsoProvider, stored: Record<string, unknown> | undefined, roles: Role[]): SsoSettingsInputs {
    const keys = Object.entries(s.attribute_mapping?.keys ?? {});
    return prune({
        metadataUrl: s.metadata_url ?? undefined,
        metadataXml: s.metadata_xml ?? undefined,
        defaultWorkspaceIds: s.default_workspace_ids,
        defaultWorkspaceRoleId:
            stored?.resolvedRoleId === s.default_workspace_role_id
                ? (stored.defaultWorkspaceRoleId as string)
                : builtInName(roles, s.default_workspace_role_id),
        attributeMapping: keys.length ? Object.fromEntries(keys.map(([k, v]) => [k, v.name])) : undefined,
        ssoGroupsEnabled: s.sso_groups_enabled ?? false,
        ssoGroupsClaimField: s.sso_groups_claim_field ?? "groups",
        ssoGroupsRequired: s.sso_groups_required ?? false,
        ssoGroupsRoleSyncEnabled: s.sso_groups_role_sync_enabled ?? true,
    }) as SsoSettingsInputs;
}

function refusal(held: SsoProvider): string {
    return alreadyExistsMessage({
        what: `SsoSettings: the organization already has SSO settings (${held.id}, ${held.metadata_url ? `metadata from ${held.metadata_url}` : "metadata given as XML"})`,
        existing: "an organization has one set of SSO settings",
        id: held.id,
        ifTheirs: "remove this resource, or delete those settings first (members then lose SAML sign-in until this one is made)",
        why: "the service keeps no mark of which stack made them.",
    });
}

export function createSsoSettingsProvider(o: { organization?: () => OrganizationClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const org = o.organization ?? (() => service.organization());
    const sso = () => OrgSettingsClient.of(org());
    const provider: ProviderOf<typeof ssoSettings> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(olds, news) {
            const roles = await rolesAtPreview(org, news.defaultWorkspaceRoleId);
            return service.check((cfg) => checkSsoSettings(olds, news, cfg, roles), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(SSO_SETTINGS_DIFF, olds, news);
        },
        async create(inputs) {
            const role = resolveRole(await org().listRoles(), inputs.defaultWorkspaceRoleId);
            const held = await sso().sso();
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(held));
            const s = held ? await sso().updateSso(held.id, body(inputs, role.id)) : await sso().createSso(body(inputs, role.id));
            return { id: s.id, outs: outputs(inputs, s) };
        },
        async read(id, props) {
            const s = await sso().sso();
            if (!s || s.id !== id) return {};
            const stored = isImport(props) ? undefined : props;
            const inputs = inputsOf(s, stored, stored?.resolvedRoleId === s.default_workspace_role_id ? [] : await org().listRoles());
            return { id, props: outputs(inputs, s), inputs };
        },
        async update(id, _olds, news) {
            const role = resolveRole(await org().listRoles(), news.defaultWorkspaceRoleId);
            return { outs: outputs(news, await sso().updateSso(id, body(news, role.id))) };
        },
        async delete(id) {
            await sso().deleteSso(id);
        },
    };
    return provider;
}

function outputs(i: SsoSettingsInputs, s: SsoProvider): SsoSettingsOutputs {
    return { ...i, organizationId: s.organization_id, providerId: s.provider_id, resolvedRoleId: s.default_workspace_role_id, schemaVersion: SCHEMA_VERSION };
}

export const ssoSettingsProvider = createSsoSettingsProvider();
