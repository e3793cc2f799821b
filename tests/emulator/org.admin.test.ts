/**
 * Organization and workspace administration on the emulated service (docs/service.md R7), over real HTTP:
 * workspaces (strict bodies, refused deletion while they hold objects, named), built-in and custom roles and
 * their permissions, members and invitations (pending until accepted; removal cancels), workspace secrets
 * (upserted, listed by key only, deleted).
 */
import assert from "node:assert/strict";
import { TEST_TENANT, admin, githubBody, raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { newWorkspace, roleId } from "../helpers/org";

const ROLES = "/api/v1/orgs/current/roles";
const SECRETS = "/api/v1/workspaces/current/secrets";

describe("emulator: organization administration", () => {
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());
    beforeEach(() => em.reset());

    describe("workspaces", () => {
        it("create, rename, list: the key's own workspace is listed as Default Workspace; an unknown field is a 422", async () => {
            const made = await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, body: { display_name: "Team A", tenant_handle: "team-a" } });
            assert.equal(made.status, 200);
            assert.equal(made.body.tenant_handle, "team-a");
            assert.equal(made.body.is_deleted, false);
            // An operation on the workspace: X-Tenant-Id must name it (docs/service.md R7 rule 4).
            const unnamed = await raw(em, "PATCH", `/api/v1/workspaces/${made.body.id}`, { tenantId: null, body: { display_name: "Team B" } });
            assert.equal(unnamed.status, 403);
            assert.match(unnamed.body.detail, new RegExp(`operation on that workspace: send X-Tenant-Id: ${made.body.id} \\(the request named none\\)`));
            const other = await raw(em, "PATCH", `/api/v1/workspaces/${made.body.id}`, { tenantId: TEST_TENANT, body: { display_name: "Team B" } });
            assert.equal(other.status, 403);
            const renamed = await raw(em, "PATCH", `/api/v1/workspaces/${made.body.id}`, { tenantId: made.body.id, body: { display_name: "Team B" } });
            assert.equal(renamed.body.display_name, "Team B");
            assert.equal(renamed.body.role_id, undefined, "a rename answers the workspace (Tenant), not the caller's role in it");
            const names = (await raw(em, "GET", "/api/v1/workspaces", { tenantId: null })).body.map((w: { display_name: string }) => w.display_name);
            assert.deepEqual(names.sort(), ["Default Workspace", "Team B"]);
            const extra = await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, body: { display_name: "x", description: "d" } });
            assert.equal(extra.status, 422);
            assert.equal(extra.body.detail[0].type, "extra_forbidden");
            const handle = await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, body: { display_name: "y", tenant_handle: "team-a" } });
            assert.equal(handle.status, 409);
        });

        it("delete: refused (409) while it holds a deployment, a tracing project and a dataset, naming them; then deleted, 404 to its requests", async () => {
            const ws = await newWorkspace(em);
            const d = await raw(em, "POST", "/v2/deployments", { tenantId: ws, body: githubBody("held-dep") });
            await raw(em, "POST", "/sessions", { tenantId: ws, body: { name: "held-project" } });
            const ds = await raw(em, "POST", "/api/v1/datasets", { tenantId: ws, body: { name: "held-dataset" } });
            assert.equal((await raw(em, "DELETE", `/api/v1/workspaces/${ws}`, { tenantId: null })).status, 403, "a delete without X-Tenant-Id naming it");
            const refused = await raw(em, "DELETE", `/api/v1/workspaces/${ws}`, { tenantId: ws });
            assert.equal(refused.status, 409);
            assert.match(refused.body.detail, /deployments \[held-dep\].*tracing projects \[held-project\].*datasets \[held-dataset\]/);
            em.controlPlane.setTiming({ speed: "immediate" });
            await raw(em, "DELETE", `/v2/deployments/${d.body.id}`, { tenantId: ws });
            const project = (await raw(em, "GET", "/sessions?name=held-project", { tenantId: ws })).body[0];
            await raw(em, "DELETE", `/sessions/${project.id}`, { tenantId: ws });
            await raw(em, "DELETE", `/api/v1/datasets/${ds.body.id}`, { tenantId: ws });
            assert.equal((await raw(em, "DELETE", `/api/v1/workspaces/${ws}`, { tenantId: ws })).status, 200);
            const listed = await raw(em, "GET", "/api/v1/workspaces?include_deleted=true", { tenantId: null });
            assert.equal(listed.body.find((w: { id: string }) => w.id === ws).is_deleted, true);
            assert.equal(
                (await raw(em, "GET", "/api/v1/workspaces", { tenantId: null })).body.find((w: { id: string }) => w.id === ws),
                undefined,
            );
            const after = await raw(em, "GET", "/sessions", { tenantId: ws });
            assert.equal(after.status, 404);
            assert.deepEqual(after.body, { detail: `Workspace ${ws} not found.` });
        });
    });

    describe("roles", () => {
        it("built-in roles by name, a custom role with known workspace permissions; unknown or organization permissions 400", async () => {
            const roles = (await raw(em, "GET", ROLES, { tenantId: null })).body as Array<{ name: string; display_name: string; access_scope: string }>;
            for (const [name, display, scope] of [
                ["ORGANIZATION_ADMIN", "Organization Admin", "organization"],
                ["WORKSPACE_ADMIN", "Admin", "workspace"],
                ["WORKSPACE_USER", "Editor", "workspace"],
                ["WORKSPACE_VIEWER", "Viewer", "workspace"],
            ])
                assert.ok(
                    roles.some((r) => r.name === name && r.display_name === display && r.access_scope === scope),
                    name,
                );
            const made = await raw(em, "POST", ROLES, {
                tenantId: null,
                body: { display_name: "Exporter", description: "d", permissions: ["bulk-exports:manage", "projects:read"] },
            });
            assert.equal(made.status, 200);
            assert.equal(made.body.access_scope, "workspace");
            const unknown = await raw(em, "POST", ROLES, { tenantId: null, body: { display_name: "X", description: "d", permissions: ["projects:fly"] } });
            assert.deepEqual([unknown.status, unknown.body], [400, { detail: "Unknown permission(s): projects:fly." }]);
            const org = await raw(em, "POST", ROLES, { tenantId: null, body: { display_name: "Y", description: "d", permissions: ["organization:manage"] } });
            assert.equal(org.status, 400);
            const builtIn = await raw(em, "PATCH", `${ROLES}/${await roleId(em, "WORKSPACE_ADMIN")}`, {
                tenantId: null,
                body: { display_name: "Z", description: "d", permissions: ["projects:read"] },
            });
            assert.deepEqual([builtIn.status, builtIn.body], [400, { detail: "Built-in roles cannot be changed." }]);
            const catalogue = (await raw(em, "GET", "/api/v1/orgs/permissions", { tenantId: null })).body as Array<{ name: string }>;
            assert.ok(catalogue.some((p) => p.name === "workspaces:manage-members"));
        });

        it("a custom role held by a service key cannot be deleted (409, named); once released it can", async () => {
            const role = (await raw(em, "POST", ROLES, { tenantId: null, body: { display_name: "Reader", description: "d", permissions: ["projects:read"] } }))
                .body;
            const key = (await raw(em, "POST", "/api/v1/orgs/current/service-keys", { tenantId: null, body: { description: "k", role_id: role.id } })).body;
            const held = await raw(em, "DELETE", `${ROLES}/${role.id}`, { tenantId: null });
            assert.equal(held.status, 409);
            assert.match(held.body.detail, new RegExp(`service key ${key.id}`));
            await raw(em, "DELETE", `/api/v1/orgs/current/service-keys/${key.id}`, { tenantId: null });
            assert.equal((await raw(em, "DELETE", `${ROLES}/${role.id}`, { tenantId: null })).status, 200);
        });
    });

    describe("members and invitations", () => {
        it("an invitation naming a workspace is a pending member there until accepted; then active with its role, which can change", async () => {
            const ws = await newWorkspace(em);
            const editor = await roleId(em, "WORKSPACE_USER");
            const inv = await raw(em, "POST", "/api/v1/orgs/current/members", {
                tenantId: null,
                body: { email: "Ada@Example.com", workspace_ids: [ws], workspace_role_id: editor },
            });
            assert.equal(inv.status, 200);
            const pending = await raw(em, "GET", "/api/v1/workspaces/current/members/pending?emails=ada@example.com", { tenantId: ws });
            assert.deepEqual(
                pending.body.map((p: { email: string; role_id: string }) => [p.email, p.role_id]),
                [["ada@example.com", editor]],
            );
            assert.equal((await raw(em, "GET", "/api/v1/workspaces/current/members/active", { tenantId: ws })).body.length, 0);
            assert.equal((await raw(em, "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email: "ada@example.com" } })).status, 409);
            await admin(em, "POST", "/org/invitations/accept", { email: "ada@example.com" });
            const active = (await raw(em, "GET", "/api/v1/workspaces/current/members", { tenantId: ws })).body.members;
            assert.deepEqual([active.length, active[0].email, active[0].role_name], [1, "ada@example.com", "WORKSPACE_USER"]);
            const viewer = await roleId(em, "WORKSPACE_VIEWER");
            const patched = await raw(em, "PATCH", `/api/v1/workspaces/current/members/${active[0].id}`, { tenantId: ws, body: { role_id: viewer } });
            assert.deepEqual(patched.body, {}, "the service answers a role change with no member");
            const reread = (await raw(em, "GET", "/api/v1/workspaces/current/members/active?emails=ada@example.com", { tenantId: ws })).body;
            assert.equal(reread[0].role_id, viewer);
            assert.equal((await raw(em, "GET", "/api/v1/workspaces/current/members/pending", { tenantId: ws })).body.length, 0);
        });

        it("removing a workspace's pending member cancels the invitation; an active org member joins another workspace by id", async () => {
            const [a, b] = [await newWorkspace(em), await newWorkspace(em)];
            const inv = (await raw(em, "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email: "bo@example.com", workspace_ids: [a] } })).body;
            assert.equal((await raw(em, "DELETE", `/api/v1/workspaces/current/members/${inv.id}/pending`, { tenantId: a })).status, 200);
            assert.equal((await raw(em, "GET", "/api/v1/orgs/current/members/pending", { tenantId: null })).body.length, 0);
            await raw(em, "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email: "bo@example.com", workspace_ids: [a] } });
            const member = await admin(em, "POST", "/org/invitations/accept", { email: "bo@example.com" });
            const joined = await raw(em, "POST", "/api/v1/workspaces/current/members", {
                tenantId: b,
                body: { user_id: member.user_id, role_id: await roleId(em, "WORKSPACE_VIEWER") },
            });
            assert.equal(joined.status, 200);
            assert.equal(joined.body.tenant_id, b);
            assert.equal((await raw(em, "DELETE", `/api/v1/workspaces/current/members/${joined.body.id}`, { tenantId: b })).status, 200);
            assert.equal((await raw(em, "GET", "/api/v1/workspaces/current/members/active", { tenantId: b })).body.length, 0);
        });

        it("bad input: a malformed email is a 422 value_error at body.email; an unknown role a 400", async () => {
            for (const email of ["not-an-email", "a@b", "two@@example.com", " @example.com"]) {
                const res = await raw(em, "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email } });
                assert.equal(res.status, 422, email);
                assert.deepEqual(res.body.detail[0].loc, ["body", "email"]);
                assert.match(res.body.detail[0].msg, /^value is not a valid email address: /);
            }
            const role = await raw(em, "POST", "/api/v1/orgs/current/members", {
                tenantId: null,
                body: { email: "c@example.com", role_id: "00000000-0000-4000-8000-000000000009" },
            });
            assert.deepEqual([role.status, role.body], [400, { detail: "Role 00000000-0000-4000-8000-000000000009 not found." }]);
        });
    });

    describe("workspace secrets", () => {
        it("upsert, update in place, list by key only, delete by null or DELETE; isolated per workspace", async () => {
            const post = (body: unknown, tenantId = TEST_TENANT) => raw(em, "POST", SECRETS, { tenantId, body });
            assert.equal(
                (
                    await post([
                        { key: "OPENAI_API_KEY", value: "first-value" },
                        { key: "OTHER", value: "v2" },
                    ])
                ).status,
                200,
            );
            await post([{ key: "OPENAI_API_KEY", value: "second-value" }]);
            const list = await raw(em, "GET", SECRETS);
            assert.deepEqual(list.body, [{ key: "OPENAI_API_KEY" }, { key: "OTHER" }]);
            assert.ok(!list.text.includes("value"));
            assert.deepEqual(await admin(em, "GET", `/org/secrets/${TEST_TENANT}/OPENAI_API_KEY`), { value: "second-value" });
            assert.deepEqual((await raw(em, "GET", SECRETS, { tenantId: await newWorkspace(em) })).body, []);
            await post([{ key: "OTHER", value: null }]);
            const put = await raw(em, "PUT", `${SECRETS}/NEW`, { body: {} });
            assert.deepEqual([put.status, put.body], [400, { detail: "value is required to create a secret." }]);
            assert.equal((await raw(em, "PUT", `${SECRETS}/NEW`, { body: { value: "n" } })).status, 200);
            assert.equal((await raw(em, "DELETE", `${SECRETS}/OPENAI_API_KEY`)).status, 204);
            assert.equal((await raw(em, "DELETE", `${SECRETS}/MISSING`)).status, 204);
            assert.deepEqual((await raw(em, "GET", SECRETS)).body, [{ key: "NEW" }]);
        });
    });
});
