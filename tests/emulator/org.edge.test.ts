/**
 * The organization's edge on the emulated service (docs/service.md R20), over real HTTP: SAML SSO settings (one per
 * organization, metadata by an https URL or XML that parses, refused saying where it does not), the organization's
 * own settings (a PATCH of some, a null putting a default back, expiry limits and allowlist ranges judged, the
 * platform's view), a workspace's hub handle (set once, the same again harmless, another refused), who may do each (an
 * organization admin; a workspace-scoped key 403), and all of it kept in `--state-dir`. The official clients do not
 * read these objects: the contract check judges the exchanges.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_TENANT, raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { newWorkspace, roleId } from "../helpers/org";
import { IDP_METADATA } from "../helpers/saml";

const SSO = "/api/v1/orgs/current/sso-settings";
const INFO = "/api/v1/orgs/current/info";

const org = (em: Emulator, method: string, path: string, body?: unknown, apiKey?: string) => raw(em, method, path, { tenantId: null, body, apiKey });

/** A workspace-scoped service key of workspace `ws` with the built-in role `role`. */
async function workspaceKey(em: Emulator, ws: string, role = "WORKSPACE_ADMIN"): Promise<string> {
    const res = await org(em, "POST", "/api/v1/orgs/current/service-keys", { description: "ws", workspaces: [ws], role_id: await roleId(em, role) });
    assert.equal(res.status, 200, res.text);
    return res.body.key;
}

describe("emulator: SSO settings, organization settings, hub handles", () => {
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());
    beforeEach(() => em.reset());

    it("SSO: one per organization (a second create 409 naming it), changed in place, deleted; metadata judged", async () => {
        const viewer = await roleId(em, "WORKSPACE_VIEWER");
        const body = { default_workspace_role_id: viewer, default_workspace_ids: [TEST_TENANT], metadata_xml: IDP_METADATA };
        const made = await org(em, "POST", SSO, body);
        assert.equal(made.status, 201, made.text);
        assert.equal(made.body.sso_groups_claim_field, "groups");
        assert.equal(made.body.metadata_url, null);
        const second = await org(em, "POST", SSO, body);
        assert.equal(second.status, 409);
        assert.match(second.body.detail, new RegExp(`already has SSO settings \\(${made.body.id}\\)`));
        const changed = await org(em, "PATCH", `${SSO}/${made.body.id}`, { metadata_url: "https://idp.example.com/metadata", sso_groups_enabled: true });
        assert.equal(changed.status, 200, changed.text);
        assert.deepEqual(
            [changed.body.metadata_url, changed.body.metadata_xml, changed.body.sso_groups_enabled],
            ["https://idp.example.com/metadata", null, true],
        );
        assert.equal((await org(em, "GET", INFO)).body.sso_login_slug, "emulated-organization");
        assert.equal((await org(em, "DELETE", `${SSO}/${made.body.id}`)).body.id, made.body.id);
        assert.deepEqual((await org(em, "GET", SSO)).body, []);
        assert.equal((await org(em, "DELETE", `${SSO}/${made.body.id}`)).status, 404);
    });

    it("SSO: XML that does not parse, a non-https URL, both or neither, an organization role: 400 saying why", async () => {
        const base = { default_workspace_role_id: await roleId(em, "WORKSPACE_USER"), default_workspace_ids: [TEST_TENANT] };
        const refused = async (extra: Record<string, unknown>, words: RegExp) => {
            const r = await org(em, "POST", SSO, { ...base, ...extra });
            assert.equal(r.status, 400, r.text);
            assert.match(r.body.detail, words);
        };
        await refused({ metadata_xml: IDP_METADATA.replace("</md:IDPSSODescriptor>", "") }, /closes <md:IDPSSODescriptor> \(line 6, column 1\)/);
        await refused({ metadata_xml: "<html><body/></html>" }, /root element is <html>/);
        await refused({ metadata_url: "http://idp.example.com/metadata" }, /metadata_url must be an https URL/);
        await refused({ metadata_url: "https://idp.example.com/m", metadata_xml: IDP_METADATA }, /Exactly one of metadata_url and metadata_xml/);
        await refused(
            { metadata_url: "https://idp.example.com/m", default_workspace_role_id: await roleId(em, "ORGANIZATION_ADMIN") },
            /workspace role is needed/,
        );
        assert.deepEqual((await org(em, "GET", SSO)).body, []);
    });

    it("organization settings: a PATCH sets some, a null puts a nullable one's default back, bad limits and ranges 400; the platform's view", async () => {
        const before = (await org(em, "GET", INFO)).body;
        assert.deepEqual(
            [before.public_sharing_disabled, before.jit_provisioning_enabled, before.max_pat_expiry_days, before.ip_allowlist],
            [false, true, null, []],
        );
        const set = await org(em, "PATCH", INFO, { public_sharing_disabled: true, max_pat_expiry_days: 90, ip_allowlist: ["203.0.113.0/24", "2001:db8::/32"] });
        assert.equal(set.status, 200, set.text);
        assert.deepEqual([set.body.public_sharing_disabled, set.body.max_pat_expiry_days, set.body.ip_allowlist_enabled], [true, 90, true]);
        const back = await org(em, "PATCH", INFO, { max_pat_expiry_days: null, public_sharing_disabled: null });
        assert.deepEqual([back.body.max_pat_expiry_days, back.body.public_sharing_disabled], [null, true], "null: a nullable one's default; a switch's kept");
        for (const [b, words] of [
            [{ max_api_key_expiry_days: 0 }, /max_api_key_expiry_days must be 1 or more/],
            [{ ip_allowlist: ["203.0.113.7"] }, /has no prefix length: write 203\.0\.113\.7\/32/],
            [{ llm_auth_proxy_allowed_urls: ["http://x"] }, /not an https URL/],
        ] as const) {
            const r = await org(em, "PATCH", INFO, b);
            assert.equal(r.status, 400, r.text);
            assert.match(r.body.detail, words);
        }
        assert.equal((await org(em, "PATCH", INFO, { scim_group_name_separator: "::" })).status, 422);
        const platform = await org(em, "GET", "/v1/platform/orgs/current/info");
        assert.equal(platform.status, 200, platform.text);
        assert.equal(platform.body.public_sharing_disabled, true);
        assert.equal("max_pat_expiry_days" in platform.body, false, "the Go service omits what is null");
    });

    it("a workspace-scoped key gets 403 on SSO and organization settings; its workspace's handle needs workspaces:manage", async () => {
        const ws = await newWorkspace(em);
        const key = await workspaceKey(em, ws);
        for (const [m, p, b] of [
            ["GET", SSO],
            ["POST", SSO, {}],
            ["GET", INFO],
            ["PATCH", INFO, { invites_enabled: false }],
            ["GET", "/v1/platform/orgs/current/info"],
        ] as const)
            assert.equal((await org(em, m, p, b, key)).status, 403, `${m} ${p}`);
        const viewer = await workspaceKey(em, ws, "WORKSPACE_VIEWER");
        assert.equal((await raw(em, "POST", "/api/v1/settings/handle", { apiKey: viewer, tenantId: ws, body: { tenant_handle: "viewers" } })).status, 403);
        assert.equal((await raw(em, "POST", "/api/v1/settings/handle", { apiKey: key, tenantId: ws, body: { tenant_handle: "admins" } })).status, 200);
    });

    it("hub handle: set once (the same again answered as it is), another 400, one taken 409, a bad one 400; read by GET /settings", async () => {
        const set = (handle: string, tenantId = TEST_TENANT) => raw(em, "POST", "/api/v1/settings/handle", { tenantId, body: { tenant_handle: handle } });
        assert.equal((await raw(em, "GET", "/api/v1/settings")).body.tenant_handle, null);
        const first = await set("acme");
        assert.equal(first.status, 200, first.text);
        assert.equal(first.body.tenant_handle, "acme");
        assert.equal((await set("acme")).status, 200);
        const again = await set("acme-2");
        assert.equal(again.status, 400);
        assert.match(again.body.detail, /Tenant handle is already set \(acme\) and cannot be changed/);
        const taken = await set("acme", await newWorkspace(em));
        assert.equal(taken.status, 409);
        assert.equal((await set("Acme!", await newWorkspace(em))).status, 400);
        assert.equal((await raw(em, "GET", "/api/v1/settings")).body.tenant_handle, "acme");
    });

    it("--state-dir: a restarted emulator keeps the SSO settings, the organization's settings and the handle", async () => {
        const dir = mkdtempSync(join(tmpdir(), "org-edge-"));
        try {
            const disk = await startTestEmulator({ stateDir: dir });
            const viewer = await roleId(disk, "WORKSPACE_VIEWER");
            const made = await org(disk, "POST", SSO, {
                default_workspace_role_id: viewer,
                default_workspace_ids: [TEST_TENANT],
                metadata_url: "https://idp.example.com/m",
            });
            await org(disk, "PATCH", INFO, { invites_enabled: false });
            await raw(disk, "POST", "/api/v1/settings/handle", { body: { tenant_handle: "kept" } });
            await disk.close();
            const again = await startTestEmulator({ stateDir: dir });
            try {
                assert.equal((await org(again, "GET", SSO)).body[0].id, made.body.id);
                assert.equal((await org(again, "GET", INFO)).body.invites_enabled, false);
                assert.equal((await raw(again, "GET", "/api/v1/settings")).body.tenant_handle, "kept");
            } finally {
                await again.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
