/**
 * Service keys made through the emulated service (docs/service.md R7 rules 1-6), over real HTTP: shown once,
 * they authenticate the next requests of every area (control plane, tracing, datasets, bulk export,
 * administration) with their scope and roles, and answer 401 once deleted or expired; the keys the emulator did
 * not make keep working as the organization admin's. A restarted emulator on the same `--state-dir` still knows
 * them, and keeps no key and no secret value in plain text.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, githubBody, raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { newWorkspace, roleId } from "../helpers/org";

const KEYS = "/api/v1/orgs/current/service-keys";

async function newKey(em: Emulator, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
    const res = await raw(em, "POST", KEYS, { tenantId: null, body: { description: "ci", ...body } });
    assert.equal(res.status, 200, res.text);
    return res.body;
}

/** One request to each area with `apiKey` in `tenantId`: their statuses. */
async function everyArea(em: Emulator, apiKey: string, tenantId: string | null): Promise<number[]> {
    const calls: Array<[string, string]> = [
        ["GET", "/v2/deployments"],
        ["GET", "/sessions"],
        ["GET", "/api/v1/datasets"],
        ["GET", "/api/v1/bulk-exports/destinations"],
        ["GET", "/api/v1/workspaces/current/secrets"],
        ["GET", "/api/v1/workspaces"],
    ];
    return Promise.all(calls.map(async ([m, p]) => (await raw(em, m, p, { apiKey, tenantId })).status));
}

describe("emulator: service keys made through the API", () => {
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());
    beforeEach(() => em.reset());

    it("create: the key is answered once (lsv2_sk_), the list never shows it, defaults are Admin + Organization User", async () => {
        const made = await newKey(em, {});
        assert.match(made.key, /^lsv2_sk_[0-9a-f]{32}_[0-9a-f]{10}$/);
        const list = await raw(em, "GET", KEYS, { tenantId: null });
        assert.equal(list.body.length, 1);
        assert.equal(list.body[0].id, made.id);
        assert.equal(list.body[0].access_scope, "organization");
        assert.equal(list.body[0].role_id, await roleId(em, "WORKSPACE_ADMIN"));
        assert.equal(list.body[0].org_role_id, await roleId(em, "ORGANIZATION_USER"));
        assert.ok(!list.text.includes(made.key) && !list.text.includes(made.key.slice(8, 40)));
        assert.equal(list.body[0].key, undefined);
        const state = JSON.stringify(await admin(em, "GET", "/org"));
        assert.ok(!state.includes(made.key), "only the key's hash is kept");
    });

    it("a workspace-scoped key works in its workspace in every area, defaults to it without X-Tenant-Id, and gets 403 elsewhere", async () => {
        const ws = await newWorkspace(em);
        const { key } = await newKey(em, { workspaces: [ws] });
        assert.deepEqual(await everyArea(em, key, ws), [200, 200, 200, 200, 200, 200]);
        const made = await raw(em, "POST", "/sessions", { apiKey: key, tenantId: null, body: { name: "p" } });
        assert.equal(made.status, 200);
        assert.equal(made.body.tenant_id, ws, "no X-Tenant-Id: the key's workspace");
        const other = await raw(em, "GET", "/v2/deployments", { apiKey: key, tenantId: await newWorkspace(em) });
        assert.equal(other.status, 403);
        assert.match(other.body.detail, /no access to workspace/);
        const listed = await raw(em, "GET", "/api/v1/workspaces", { apiKey: key, tenantId: null });
        assert.deepEqual(
            listed.body.map((w: { id: string }) => w.id),
            [ws],
        );
    });

    it("delete: the key answers 401 at once in every area; the admin's keys still work", async () => {
        const ws = await newWorkspace(em);
        const { id, key } = await newKey(em, { workspaces: [ws] });
        assert.equal((await raw(em, "POST", "/v2/deployments", { apiKey: key, tenantId: ws, body: githubBody() })).status, 201);
        assert.equal((await raw(em, "DELETE", `${KEYS}/${id}`, { tenantId: null })).status, 200);
        assert.deepEqual(await everyArea(em, key, ws), [401, 401, 401, 401, 401, 401]);
        assert.equal((await raw(em, "GET", "/v2/deployments", { tenantId: ws })).status, 200);
        assert.equal((await raw(em, "DELETE", `${KEYS}/${id}`, { tenantId: null })).status, 404);
    });

    it("expiry: a key works until its expires_at, then 401 API key has expired.; one in the past is refused (400)", async () => {
        const ws = await newWorkspace(em);
        const { key } = await newKey(em, { workspaces: [ws], expires_at: new Date(em.clock.now() + 60_000).toISOString() });
        assert.equal((await raw(em, "GET", "/sessions", { apiKey: key, tenantId: ws })).status, 200);
        await admin(em, "POST", "/clock/advance", { ms: 120_000 });
        const late = await raw(em, "GET", "/sessions", { apiKey: key, tenantId: ws });
        assert.equal(late.status, 401);
        assert.deepEqual(late.body, { detail: "API key has expired." });
        const past = await raw(em, "POST", KEYS, { tenantId: null, body: { description: "x", expires_at: "2020-01-01T00:00:00Z" } });
        assert.equal(past.status, 400);
        assert.deepEqual(past.body, { detail: "expires_at must be in the future." });
    });

    it("an organization-scoped key needs X-Tenant-Id on workspace paths (403), and its organization role decides what it may manage", async () => {
        const user = await newKey(em, {});
        const noTenant = await raw(em, "GET", "/sessions", { apiKey: user.key, tenantId: null });
        assert.equal(noTenant.status, 403);
        assert.match(noTenant.body.detail, /X-Tenant-Id header is required/);
        const refused = await raw(em, "POST", "/api/v1/workspaces", { apiKey: user.key, tenantId: null, body: { display_name: "w" } });
        assert.equal(refused.status, 403);
        assert.match(refused.body.detail, /organization role ORGANIZATION_USER lacks it/);
        const orgAdmin = await newKey(em, { org_role_id: await roleId(em, "ORGANIZATION_ADMIN") });
        const ws = await newWorkspace(em, orgAdmin.key);
        assert.deepEqual(await everyArea(em, orgAdmin.key, ws), [200, 200, 200, 200, 200, 200]);
    });

    it("workspaces: a workspace-scoped key makes none (an organization-scoped key is needed); renaming or deleting one is its own workspace's Admin's", async () => {
        const ws = await newWorkspace(em);
        const admin = await newKey(em, { workspaces: [ws] });
        const made = await raw(em, "POST", "/api/v1/workspaces", { apiKey: admin.key, tenantId: ws, body: { display_name: "w" } });
        assert.equal(made.status, 403);
        assert.match(made.body.detail, /needs an organization-scoped API key .* this key is scoped to workspaces/);
        const viewer = await newKey(em, { workspaces: [ws], role_id: await roleId(em, "WORKSPACE_VIEWER") });
        const refused = await raw(em, "PATCH", `/api/v1/workspaces/${ws}`, { apiKey: viewer.key, tenantId: ws, body: { display_name: "w" } });
        assert.deepEqual([refused.status, refused.body.detail], [403, "This API key's role WORKSPACE_VIEWER lacks the permission workspaces:manage."]);
        const elsewhere = await newWorkspace(em);
        const away = await raw(em, "PATCH", `/api/v1/workspaces/${elsewhere}`, { apiKey: admin.key, tenantId: elsewhere, body: { display_name: "w" } });
        assert.deepEqual([away.status, away.body.detail], [403, `This API key has no access to workspace ${elsewhere}.`]);
        const renamed = await raw(em, "PATCH", `/api/v1/workspaces/${ws}`, { apiKey: admin.key, tenantId: ws, body: { display_name: "renamed" } });
        assert.equal(renamed.status, 200);
        assert.equal((await raw(em, "DELETE", `/api/v1/workspaces/${ws}`, { apiKey: admin.key, tenantId: ws })).status, 200);
    });

    it("roles: a Viewer key reads but may not create (403 naming the permission); PATCH of its role lets it", async () => {
        const ws = await newWorkspace(em);
        const { id, key } = await newKey(em, { workspaces: [ws], role_id: await roleId(em, "WORKSPACE_VIEWER") });
        assert.equal((await raw(em, "GET", "/v2/deployments", { apiKey: key, tenantId: ws })).status, 200);
        const create = await raw(em, "POST", "/v2/deployments", { apiKey: key, tenantId: ws, body: githubBody() });
        assert.equal(create.status, 403);
        assert.deepEqual(create.body, { detail: "This API key's role WORKSPACE_VIEWER lacks the permission deployments:create." });
        assert.equal((await raw(em, "PATCH", `${KEYS}/${id}`, { tenantId: null, body: { role_id: await roleId(em, "WORKSPACE_USER") } })).status, 200);
        assert.equal((await raw(em, "POST", "/v2/deployments", { apiKey: key, tenantId: ws, body: githubBody() })).status, 201);
    });

    it("bad input: org_role_id with workspaces, an unknown workspace or role, a role of the wrong scope: 400 in words", async () => {
        const ws = await newWorkspace(em);
        const cases: Array<[Record<string, unknown>, RegExp]> = [
            [{ workspaces: [ws], org_role_id: await roleId(em, "ORGANIZATION_ADMIN") }, /org_role_id cannot be set for a workspace-scoped key/],
            [{ workspaces: ["00000000-0000-4000-8000-000000000000"] }, /Workspace 00000000-0000-4000-8000-000000000000 not found/],
            [{ role_id: "00000000-0000-4000-8000-000000000001" }, /Role 00000000-0000-4000-8000-000000000001 not found/],
            [{ role_id: await roleId(em, "ORGANIZATION_ADMIN") }, /is an organization role; a workspace role is needed/],
        ];
        for (const [body, words] of cases) {
            const res = await raw(em, "POST", KEYS, { tenantId: null, body: { description: "x", ...body } });
            assert.equal(res.status, 400, JSON.stringify(body));
            assert.match(res.body.detail, words);
        }
        assert.equal((await raw(em, "GET", KEYS, { tenantId: null })).body.length, 0, "nothing made");
    });

    it("a deployment's agent server answers a workspace-scoped key of its workspace, and 403 to one of another", async () => {
        em.controlPlane.setTiming({ speed: "immediate" });
        const [a, b] = [await newWorkspace(em), await newWorkspace(em)];
        const d = (await raw(em, "POST", "/v2/deployments", { tenantId: a, body: githubBody() })).body;
        await raw(em, "GET", `/v2/deployments/${d.id}`, { tenantId: a });
        const [ofA, ofB] = [await newKey(em, { workspaces: [a] }), await newKey(em, { workspaces: [b] })];
        assert.equal((await raw(em, "GET", `/__agents/${d.id}/ok`, { apiKey: ofA.key, tenantId: null })).status, 200);
        const refused = await raw(em, "GET", `/__agents/${d.id}/ok`, { apiKey: ofB.key, tenantId: null });
        assert.deepEqual([refused.status, refused.body], [403, { detail: `This API key has no access to workspace ${a}.` }]);
    });

    it("a lost answer (fault when: after): the key was made, its secret is gone, and it is listed by its description", async () => {
        await admin(em, "POST", "/faults", { method: "POST", path: "^/api/v1/orgs/current/service-keys$", kind: "status", status: 502, when: "after" });
        const lost = await raw(em, "POST", KEYS, { tenantId: null, body: { description: "ci-lost" } });
        assert.equal(lost.status, 502);
        assert.ok(!lost.text.includes("lsv2_sk_"));
        const listed = (await raw(em, "GET", KEYS, { tenantId: null })).body;
        assert.deepEqual(
            listed.map((k: { description: string }) => k.description),
            ["ci-lost"],
        );
    });

    it("--state-dir: a key made before a restart still works, a deleted one still answers 401, and no key or secret value is on disk", async () => {
        const dir = mkdtempSync(join(tmpdir(), "org-state-"));
        try {
            let e = await startTestEmulator({ stateDir: dir });
            const ws = await newWorkspace(e);
            const kept = await newKey(e, { workspaces: [ws] });
            const gone = await newKey(e, { workspaces: [ws] });
            await raw(e, "DELETE", `${KEYS}/${gone.id}`, { tenantId: null });
            await raw(e, "POST", "/api/v1/workspaces/current/secrets", { tenantId: ws, body: [{ key: "OPENAI_API_KEY", value: "sk-very-secret-value" }] });
            await e.close();
            e = await startTestEmulator({ stateDir: dir });
            assert.equal((await raw(e, "GET", "/sessions", { apiKey: kept.key, tenantId: ws })).status, 200);
            assert.equal((await raw(e, "GET", "/sessions", { apiKey: gone.key, tenantId: ws })).status, 401);
            assert.deepEqual(await admin(e, "GET", `/org/secrets/${ws}/OPENAI_API_KEY`), { value: "sk-very-secret-value" });
            await e.close();
            const disk = readdirSync(dir)
                .map((f) => readFileSync(join(dir, f), "utf8"))
                .join("\n");
            for (const secret of [kept.key, gone.key, "sk-very-secret-value"]) assert.ok(!disk.includes(secret));
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
