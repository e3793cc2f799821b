/**
 * Service accounts and their tokens, workspace API keys and SCIM tokens made through the emulated service
 * (docs/service.md R21), over real HTTP: each token is answered once and authenticates as the real one does
 * (a service account's personal access token with the account's workspaces and roles; an API key in its
 * workspace; a SCIM token as the SCIM API's bearer), and answers 401 once deleted or expired by the emulator's
 * clock. Organization operations need an Organization Admin: a workspace-scoped key gets 403.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { newWorkspace, roleId } from "../helpers/org";

const SA = "/api/v1/service-accounts";
const PATS = "/api/v1/orgs/current/personal-access-tokens";
const API_KEYS = "/api/v1/api-key";
const SCIM = "/v1/platform/orgs/current/scim/tokens";
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe("emulator: service accounts and tokens", () => {
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());
    beforeEach(() => em.reset());

    async function serviceAccountToken(ws: string, role: string, body: Record<string, unknown> = {}) {
        const sa = await raw(em, "POST", SA, { tenantId: null, body: { name: "ci-bot", workspaces: [{ workspace_id: ws, role_id: await roleId(em, role) }] } });
        assert.equal(sa.status, 200, sa.text);
        assert.ok(sa.body.organization_identity_id);
        const pat = await raw(em, "POST", PATS, { tenantId: null, headers: { "X-Service-Account-Id": sa.body.id }, body: { description: "ci", ...body } });
        assert.equal(pat.status, 200, pat.text);
        assert.match(pat.body.key, /^lsv2_pt_/);
        return { sa: sa.body, pat: pat.body };
    }

    it("a service account's token acts as the account: its workspace and role, 403 elsewhere and on the organization; 401 once the account is deleted", async () => {
        const ws = await newWorkspace(em);
        const { sa, pat } = await serviceAccountToken(ws, "WORKSPACE_VIEWER");
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: pat.key, tenantId: ws })).status, 200);
        const write = await raw(em, "POST", "/sessions", { apiKey: pat.key, tenantId: ws, body: { name: "p" } });
        assert.equal(write.status, 403, "a Viewer may not create a project");
        assert.match(write.body.detail, /WORKSPACE_VIEWER lacks the permission projects:create/);
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: pat.key, tenantId: await newWorkspace(em) })).status, 403);
        const org = await raw(em, "POST", SA, { apiKey: pat.key, tenantId: null, body: { name: "x" } });
        assert.equal(org.status, 403, org.text);
        const list = await raw(em, "GET", PATS, { tenantId: null });
        assert.equal(list.body.length, 1);
        assert.ok(!list.text.includes(pat.key), "the list never shows a token");
        assert.ok(!JSON.stringify(await raw(em, "GET", SA, { tenantId: null })).includes(pat.key));
        assert.equal((await raw(em, "DELETE", `${SA}/${sa.id}`, { tenantId: null })).status, 200);
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: pat.key, tenantId: ws })).status, 401);
        assert.deepEqual((await raw(em, "GET", PATS, { tenantId: null })).body, [], "its tokens went with it");
    });

    it("a token's expiry is the emulator clock's: 401 once it has passed; an expiry in the past or beyond the organization's maximum is refused", async () => {
        const ws = await newWorkspace(em);
        const { pat } = await serviceAccountToken(ws, "WORKSPACE_ADMIN", { expires_at: inDays(1) });
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: pat.key, tenantId: ws })).status, 200);
        await admin(em, "POST", "/clock/advance", { ms: 86_400_000 + 1000 });
        const expired = await raw(em, "GET", "/sessions", { apiKey: pat.key, tenantId: ws });
        assert.equal(expired.status, 401);
        assert.match(expired.body.detail, /expired/);
        const past = await raw(em, "POST", PATS, { tenantId: null, body: { description: "x", expires_at: "2020-01-01T00:00:00Z" } });
        assert.equal(past.status, 400);
        await raw(em, "PATCH", "/api/v1/orgs/current/info", { tenantId: null, body: { max_pat_expiry_days: 30, max_api_key_expiry_days: 7 } });
        const far = await raw(em, "POST", PATS, { tenantId: null, body: { description: "x", expires_at: inDays(400) } });
        assert.equal(far.status, 400);
        assert.match(far.body.detail, /max_pat_expiry_days \(30 days\)/);
        const key = await raw(em, "POST", API_KEYS, { tenantId: ws, body: { description: "x", expires_at: inDays(9) } });
        assert.match(key.body.detail, /max_api_key_expiry_days \(7 days\)/);
    });

    it("a workspace API key works in its workspace with its role, 403 in another; 401 once deleted; a workspace-scoped key may not make service accounts or SCIM tokens", async () => {
        const ws = await newWorkspace(em);
        const made = await raw(em, "POST", API_KEYS, { tenantId: ws, body: { description: "tracing", role_id: await roleId(em, "WORKSPACE_USER") } });
        assert.equal(made.status, 200, made.text);
        const key = made.body.key as string;
        const project = await raw(em, "POST", "/sessions", { apiKey: key, tenantId: null, body: { name: "p" } });
        assert.equal(project.status, 403, "an Editor may not create projects (the built-in role's permissions)");
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: key, tenantId: null })).status, 200, "no X-Tenant-Id: its workspace");
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: key, tenantId: await newWorkspace(em) })).status, 403);
        for (const [path, body] of [
            [SA, { name: "x" }],
            [SCIM, { description: "x" }],
        ] as const)
            assert.equal((await raw(em, "POST", path, { apiKey: key, tenantId: null, body })).status, 403, path);
        assert.equal((await raw(em, "GET", API_KEYS, { tenantId: ws })).body.length, 1);
        assert.deepEqual((await raw(em, "GET", API_KEYS, { tenantId: await newWorkspace(em) })).body, [], "another workspace's list");
        assert.equal((await raw(em, "DELETE", `${API_KEYS}/${made.body.id}`, { tenantId: ws })).status, 200);
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: key, tenantId: ws })).status, 401);
    });

    it("a SCIM token is the SCIM API's bearer: shown once (201), its description changes in place, 401 once deleted", async () => {
        const made = await raw(em, "POST", SCIM, { tenantId: null, body: { description: "okta" } });
        assert.equal(made.status, 201, made.text);
        const bearer = { authorization: `Bearer ${made.body.token}` };
        const config = await raw(em, "GET", "/scim/v2/ServiceProviderConfig", { apiKey: null, tenantId: null, headers: bearer });
        assert.equal(config.status, 200, config.text);
        assert.equal((await raw(em, "GET", "/scim/v2/Users", { apiKey: null, tenantId: null, headers: bearer })).status, 200);
        assert.equal((await raw(em, "GET", "/scim/v2/Users", { apiKey: null, tenantId: null, headers: { authorization: "Bearer nope" } })).status, 401);
        const renamed = await raw(em, "PATCH", `${SCIM}/${made.body.id}`, { tenantId: null, body: { description: "entra" } });
        assert.equal(renamed.body.description, "entra");
        assert.equal(renamed.body.token, undefined);
        assert.ok(!(await raw(em, "GET", SCIM, { tenantId: null })).text.includes(made.body.token));
        assert.equal((await raw(em, "DELETE", `${SCIM}/${made.body.id}`, { tenantId: null })).status, 204);
        assert.equal((await raw(em, "GET", "/scim/v2/Users", { apiKey: null, tenantId: null, headers: bearer })).status, 401);
    });

    it("--state-dir: a service account's token and a SCIM token made before a restart still work, a deleted one still answers 401, and no token is on disk", async () => {
        const dir = mkdtempSync(join(tmpdir(), "tokens-state-"));
        try {
            let e = await startTestEmulator({ stateDir: dir });
            const ws = await newWorkspace(e);
            const sa = (await raw(e, "POST", SA, { tenantId: null, body: { name: "bot", workspaces: [{ workspace_id: ws }] } })).body;
            const kept = (await raw(e, "POST", PATS, { tenantId: null, headers: { "X-Service-Account-Id": sa.id }, body: { description: "kept" } })).body;
            const gone = (await raw(e, "POST", PATS, { tenantId: null, body: { description: "gone" } })).body;
            const scim = (await raw(e, "POST", SCIM, { tenantId: null, body: { description: "okta" } })).body;
            await raw(e, "DELETE", `${PATS}/${gone.id}`, { tenantId: null });
            await e.close();
            e = await startTestEmulator({ stateDir: dir });
            try {
                assert.equal((await raw(e, "GET", "/sessions", { apiKey: kept.key, tenantId: ws })).status, 200);
                assert.equal((await raw(e, "GET", "/sessions", { apiKey: gone.key, tenantId: ws })).status, 401);
                const bearer = { authorization: `Bearer ${scim.token}` };
                assert.equal((await raw(e, "GET", "/scim/v2/ServiceProviderConfig", { apiKey: null, tenantId: null, headers: bearer })).status, 200);
            } finally {
                await e.close();
            }
            const onDisk = readdirSync(dir)
                .map((f) => readFileSync(join(dir, f), "utf8"))
                .join("\n");
            for (const t of [kept.key, gone.key, scim.token]) assert.ok(!onDisk.includes(t), "only a token's hash is kept");
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
