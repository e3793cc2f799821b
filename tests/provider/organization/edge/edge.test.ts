/**
 * SsoSettings, OrganizationSettings, HubHandle and the look-ups getSsoSettings and getOrganization
 * (provider/organization/...) against the emulator over HTTP, through the registered providers: bad input refused at
 * preview on its property with the fix (nothing sent); create, refresh with drift made elsewhere, update in place,
 * import, delete; a removed optional field really put back on the service; SSO settings made elsewhere refused naming
 * them, adopted when LANGSMITH_ADOPT_IDS names them; a hub handle set once (a change refused at preview, another
 * workspace's handle refused at create, the delete leaving it); what destroy does, warned at preview.
 */
import assert from "node:assert/strict";
import { startRun } from "../../../../provider/kit/adoption";
import { FUNCTIONS, RESOURCES } from "../../../../provider/registry";
import { Service } from "../../../../provider/kit/service";
import { checkHubHandle } from "../../../../provider/organization/hubHandle/provider";
import { checkOrganizationSettings, createOrganizationSettingsProvider } from "../../../../provider/organization/organizationSettings/provider";
import { checkSsoSettings, createSsoSettingsProvider } from "../../../../provider/organization/ssoSettings/provider";
import { withEnv } from "../../../helpers/async";
import { TEST_TENANT, raw } from "../../../helpers/emulator";
import { newWorkspace, roleId } from "../../../helpers/org";
import { orgEmulator, writes } from "../../../helpers/orgProviders";
import { IDP_METADATA } from "../../../helpers/saml";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const sso = RESOURCES.ssoSettings.provider as Provider;
/**
 * The providers without the registry's adoption guard, where a test plays two runs in one process: the guard's notes
 * last as long as the process (one `pulumi up`), so an earlier test's settings would count as this stack's.
 */
const ssoAlone = createSsoSettingsProvider() as Provider;
const settings = createOrganizationSettingsProvider() as Provider;
const handle = RESOURCES.hubHandle.provider as Provider;
const SSO = "/api/v1/orgs/current/sso-settings";
const INFO = "/api/v1/orgs/current/info";

const failures = (r: { failures?: Array<{ property: string; reason: string }> }) => Object.fromEntries((r.failures ?? []).map((f) => [f.property, f.reason]));
const checked = async (p: Provider, news: Record<string, unknown>, olds: Record<string, unknown> = {}) => {
    const r = await p.check(olds, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
};

describe("SsoSettings, OrganizationSettings, HubHandle, getSsoSettings, getOrganization", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const sent = () => writes(em()).map((r) => `${r.method} ${r.path}`);
    // A run of its own: an earlier file of this process (registered.test.ts's SSO case) read an SsoSettings' olds.
    before(startRun);
    const ssoArgs = (extra: Record<string, unknown> = {}) => ({
        metadataXml: IDP_METADATA,
        defaultWorkspaceIds: [TEST_TENANT],
        defaultWorkspaceRoleId: "WORKSPACE_VIEWER",
        ...extra,
    });

    // First in this file's run: the registry's adoption guard notes, per run, what the run's checks read in the state.
    it("SsoSettings: `pulumi up --replace` meets its own settings: refused naming deleteBeforeReplace; told LANGSMITH_ADOPT_IDS, taken over and kept from the old resource's delete", async () => {
        const m = await sso.create(await checked(sso, ssoArgs()));
        // As the engine's step generator does a targeted replacement: a check without olds, no diff, the create.
        const news = await checked(sso, ssoArgs());
        await assert.rejects(sso.create(news), /set the resource option deleteBeforeReplace/);
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: m.id }, () => sso.create(news));
        assert.equal(taken.id, m.id);
        await sso.delete(m.id, m.outs);
        assert.equal((await raw(em(), "GET", SSO, { tenantId: null })).body[0]?.id, m.id, "the replaced resource's delete left them to the new one");
    });

    it("SsoSettings check: XML that does not parse (where), a URL not https, both or neither, no workspace, a role that is none: refused by property; nothing sent; destroy warned", async () => {
        em().admin.requests.length = 0;
        const broken = failures(checkSsoSettings({}, ssoArgs({ metadataXml: IDP_METADATA.replace("&amp;", "&") })));
        assert.match(broken.metadataXml, /an & that starts no known entity \(write &amp;\) \(line 4, column \d+\)/);
        assert.match(
            failures(checkSsoSettings({}, ssoArgs({ metadataXml: undefined, metadataUrl: "http://idp.example.com/m" }))).metadataUrl,
            /must be an https URL/,
        );
        assert.match(failures(checkSsoSettings({}, ssoArgs({ metadataUrl: "https://idp.example.com/m" }))).metadataUrl, /exactly one of metadataUrl/);
        assert.match(failures(checkSsoSettings({}, ssoArgs({ defaultWorkspaceIds: [] }))).defaultWorkspaceIds, /at least one workspace/);
        assert.match(
            failures(checkSsoSettings({}, ssoArgs({ defaultWorkspaceRoleId: "VIEWER" }))).defaultWorkspaceRoleId,
            /the UI's Viewer role is WORKSPACE_VIEWER/,
        );
        assert.match(checkSsoSettings({}, ssoArgs()).warnings.join(), /removes SAML sign-in/);
        assert.deepEqual(checkSsoSettings({ metadataXml: IDP_METADATA }, ssoArgs()).warnings, [], "only at the create");
        assert.deepEqual(sent(), []);
    });

    it("SsoSettings: made, read, changed in place (a removed attribute mapping cleared on the service), drift seen, imported, deleted", async () => {
        const inputs = await checked(sso, ssoArgs({ attributeMapping: { email: "mail" }, ssoGroupsEnabled: true }));
        const made = await sso.create(inputs);
        const stored = (await raw(em(), "GET", SSO, { tenantId: null })).body[0];
        assert.equal(stored.id, made.id);
        assert.equal(stored.default_workspace_role_id, await roleId(em(), "WORKSPACE_VIEWER"));
        assert.deepEqual(stored.attribute_mapping, { keys: { email: { name: "mail" } } });
        assert.equal(made.outs.providerId, stored.provider_id);
        const read = await sso.read(made.id, made.outs);
        assert.equal(read.inputs?.defaultWorkspaceRoleId, "WORKSPACE_VIEWER", "the role as the program names it");
        const next = await checked(sso, ssoArgs({ metadataXml: undefined, metadataUrl: "https://idp.example.com/m" }), made.outs);
        assert.deepEqual((await sso.diff(made.id, made.outs, next)).replaces, []);
        const updated = await sso.update(made.id, made.outs, next);
        const after = (await raw(em(), "GET", SSO, { tenantId: null })).body[0];
        assert.deepEqual(
            [after.metadata_url, after.metadata_xml, after.attribute_mapping, after.sso_groups_enabled],
            ["https://idp.example.com/m", null, { keys: {} }, false],
        );
        await raw(em(), "PATCH", `${SSO}/${made.id}`, { tenantId: null, body: { sso_groups_required: true } });
        assert.equal((await sso.read(made.id, updated.outs)).inputs?.ssoGroupsRequired, true, "drift seen");
        const imported = await sso.read(made.id, {});
        assert.equal(imported.inputs?.defaultWorkspaceRoleId, "WORKSPACE_VIEWER", "a built-in role imported by its name");
        await sso.delete(made.id, updated.outs);
        assert.deepEqual((await raw(em(), "GET", SSO, { tenantId: null })).body, []);
        assert.deepEqual(await sso.read(made.id, updated.outs), {}, "gone");
    });

    it("SsoSettings: settings made elsewhere refused naming them, adopted (changed to the program's) when LANGSMITH_ADOPT_IDS names them", async () => {
        const viewer = await roleId(em(), "WORKSPACE_VIEWER");
        const theirs = await raw(em(), "POST", SSO, {
            tenantId: null,
            body: { default_workspace_role_id: viewer, default_workspace_ids: [TEST_TENANT], metadata_url: "https://old.example.com/m" },
        });
        const inputs = await checked(sso, ssoArgs());
        await assert.rejects(ssoAlone.create(inputs), (e: Error) => e.message.includes(theirs.body.id) && /already has SSO settings/.test(e.message));
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: theirs.body.id }, () => ssoAlone.create(inputs));
        assert.equal(adopted.id, theirs.body.id);
        assert.equal((await raw(em(), "GET", SSO, { tenantId: null })).body[0].metadata_xml, IDP_METADATA);
    });

    it("OrganizationSettings check: limits under a day, ranges not CIDR, URLs not https, a contact that is no email, a separator of two: refused by property; the take-over and a removed field warned", async () => {
        em().admin.requests.length = 0;
        const f = failures(
            checkOrganizationSettings(
                {},
                {
                    maxPatExpiryDays: 0,
                    ipAllowlist: ["203.0.113.0/24", "203.0.113.7"],
                    llmAuthProxyAllowedUrls: ["http://proxy.example.com"],
                    securityContact: "security",
                    scimGroupNameSeparator: "::",
                },
            ),
        );
        assert.deepEqual(Object.keys(f).sort(), [
            "ipAllowlist[1]",
            "llmAuthProxyAllowedUrls[0]",
            "maxPatExpiryDays",
            "scimGroupNameSeparator",
            "securityContact",
        ]);
        assert.match(f["ipAllowlist[1]"], /write 203\.0\.113\.7\/32/);
        assert.match(
            checkOrganizationSettings({}, { publicSharingDisabled: true }).warnings.join(),
            /puts the service's defaults back for the settings it manages \(publicSharingDisabled false\)/,
        );
        assert.match(
            checkOrganizationSettings({ publicSharingDisabled: true, maxPatExpiryDays: 30 }, { publicSharingDisabled: true }).warnings.join(),
            /No longer in the program: `pulumi up` puts the service's default back \(maxPatExpiryDays none\)/,
        );
        assert.deepEqual(sent(), []);
    });

    it("OrganizationSettings: only what the program sets is sent and read back; a removed field put back to the default; drift seen; import takes what is not default; delete puts the defaults back", async () => {
        await raw(em(), "PATCH", INFO, { tenantId: null, body: { invites_enabled: false } });
        const inputs = await checked(settings, { publicSharingDisabled: true, maxPatExpiryDays: 30, ipAllowlist: ["203.0.113.0/24"] });
        const made = await settings.create(inputs);
        const info = async () => (await raw(em(), "GET", INFO, { tenantId: null })).body;
        assert.deepEqual([(await info()).public_sharing_disabled, (await info()).max_pat_expiry_days, (await info()).invites_enabled], [true, 30, false]);
        assert.deepEqual(Object.keys((await settings.read(made.id, made.outs)).inputs ?? {}).sort(), [
            "ipAllowlist",
            "maxPatExpiryDays",
            "publicSharingDisabled",
        ]);
        const next = await checked(settings, { publicSharingDisabled: true, ipAllowlist: ["203.0.113.0/24"] }, made.outs);
        assert.deepEqual((await settings.diff(made.id, made.outs, next)).changes, true);
        const updated = await settings.update(made.id, made.outs, next);
        assert.equal((await info()).max_pat_expiry_days, null, "the removed field back to the service's default");
        await raw(em(), "PATCH", INFO, { tenantId: null, body: { public_sharing_disabled: false } });
        assert.equal((await settings.read(made.id, updated.outs)).inputs?.publicSharingDisabled, false, "drift seen");
        const imported = await settings.read("current", {});
        assert.deepEqual(imported.inputs, { invitesEnabled: false, ipAllowlist: ["203.0.113.0/24"] });
        await settings.delete(made.id, updated.outs);
        assert.deepEqual([(await info()).ip_allowlist, (await info()).public_sharing_disabled, (await info()).invites_enabled], [[], false, false]);
    });

    it("HubHandle check: a handle the hub does not take, a change of handle (refused with the reason); nothing sent; destroy warned", async () => {
        em().admin.requests.length = 0;
        assert.match(failures(checkHubHandle({}, { handle: "Acme" }, TEST_TENANT)).handle, /write "acme"/);
        const change = failures(checkHubHandle({ handle: "acme", tenantId: TEST_TENANT }, { handle: "acme-2" }, TEST_TENANT)).handle;
        assert.match(change, /"acme" -> "acme-2": the service sets a workspace's hub handle once and cannot rename it/);
        assert.match(checkHubHandle({}, { handle: "acme" }, TEST_TENANT).warnings.join(), /leaves it on the workspace/);
        assert.deepEqual(sent(), []);
    });

    it("HubHandle: set, read, imported; the same handle taken as it is; another workspace's handle refused naming it; delete leaves it", async () => {
        const made = await handle.create(await checked(handle, { handle: "acme" }));
        assert.equal(made.id, TEST_TENANT);
        assert.equal((await raw(em(), "GET", "/api/v1/settings")).body.tenant_handle, "acme");
        assert.deepEqual((await handle.read(made.id, made.outs)).inputs, { handle: "acme" });
        assert.deepEqual((await handle.read(TEST_TENANT, {})).inputs, { handle: "acme", workspaceId: TEST_TENANT });
        em().admin.requests.length = 0;
        await handle.create(await checked(handle, { handle: "acme" }));
        assert.deepEqual(sent(), [], "the same handle: nothing sent");
        const ws = await newWorkspace(em());
        await raw(em(), "POST", "/api/v1/settings/handle", { tenantId: ws, body: { tenant_handle: "theirs" } });
        await assert.rejects(
            handle.create(await checked(handle, { handle: "mine", workspaceId: ws })),
            /already has the hub handle "theirs", which the service cannot rename/,
        );
        await handle.delete(made.id, made.outs);
        assert.equal((await raw(em(), "GET", "/api/v1/settings")).body.tenant_handle, "acme");
    });

    it("getSsoSettings fails saying there are none, then answers them; getOrganization answers the settings and the plan's limits", async () => {
        const service = new Service();
        await assert.rejects(FUNCTIONS.getSsoSettings.run(service), /the organization has no SSO settings/);
        await sso.create(await checked(sso, ssoArgs({ attributeMapping: { email: "mail" } })));
        const s = await FUNCTIONS.getSsoSettings.run(service);
        assert.deepEqual([s.defaultWorkspaceIds, s.attributeMapping, s.ssoGroupsClaimField], [[TEST_TENANT], { email: "mail" }, "groups"]);
        await raw(em(), "PATCH", INFO, { tenantId: null, body: { max_service_key_expiry_days: 90 } });
        const o = await FUNCTIONS.getOrganization.run(service);
        assert.equal(o.settings.maxServiceKeyExpiryDays, 90);
        assert.equal(o.settings.jitProvisioningEnabled, true);
        assert.equal(o.limits.canUseSamlSso, true);
        assert.equal(o.ssoLoginSlug, "emulated-organization");
        assert.equal(typeof o.limits.maxWorkspaces, "number");
    });
});
