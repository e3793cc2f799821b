/**
 * WorkspaceMember (provider/workspaceMember) against the emulator's organization area over HTTP: the email
 * and role checked at preview (nothing sent), an active organization member added at once, anybody else
 * invited (pending): kept across refresh and never invited again, accepted -> active, cancelled on delete; a
 * role changed in place (active) or by a new invitation (pending: a replace, deleting first); import by email
 * or `<workspaceId>/<email>`; adoption; a lost answer not duplicating.
 */
import assert from "node:assert/strict";
import type { TableDiffResult } from "../../../../provider/kit/diff";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { checkWorkspaceMember, createWorkspaceMemberProvider } from "../../../../provider/organization/workspaceMember/provider";
import { withEnv } from "../../../helpers/async";
import { TEST_TENANT, admin, raw, rejection, uniqueName } from "../../../helpers/emulator";
import { newWorkspace, roleId } from "../../../helpers/org";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

type Outs = Record<string, any>;

describe("WorkspaceMember", function () {
    this.timeout(20_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const provider = () => createWorkspaceMemberProvider();
    const email = () => `${uniqueName("person")}@example.com`;
    const get = async (path: string, tenantId: string | null = TEST_TENANT) => (await raw(em(), "GET", path, { tenantId })).body;
    const workspaceMembers = async (ws = TEST_TENANT) => (await get("/api/v1/workspaces/current/members", ws)).members;
    const orgPending = async () => (await get("/api/v1/orgs/current/members", null)).pending;
    /** Somebody who is already an active member of the organization (in no workspace of these tests). */
    const orgMember = async () => {
        const e = email();
        const inv = await raw(em(), "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email: e } });
        assert.equal(inv.status, 200, inv.text);
        await admin(em(), "POST", "/org/invitations/accept", { email: e });
        return e;
    };
    const checked = async (news: Record<string, unknown>) => {
        const r = await provider().check!({}, news);
        assert.deepEqual(r.failures, []);
        return r.inputs as { email: string; roleId: string } & Record<string, unknown>;
    };
    const diff = (olds: Outs, news: Record<string, unknown>): Promise<TableDiffResult> => provider().diff!("id", olds, news);

    it("check: a malformed email, a misspelled built-in role, an unknown role id, an organization role fail on their properties; nothing sent", async () => {
        em().admin.requests.length = 0;
        const fails = async (news: Record<string, unknown>) => (await provider().check!({}, news)).failures?.map((f) => [f.property, f.reason]);
        assert.deepEqual(await fails({ email: "alice@", roleId: "WORKSPACE_VEIWER" }), [
            ["email", 'email "alice@" is not an email address the service takes: "" is not a domain name'],
            [
                "roleId",
                'roleId "WORKSPACE_VEIWER" is neither a role id (a uuid) nor a built-in workspace role (WORKSPACE_ADMIN (Admin), WORKSPACE_USER (Editor), WORKSPACE_VIEWER (Viewer)): did you mean WORKSPACE_VIEWER?',
            ],
        ]);
        // The UI's name of a built-in role, in any case: the error names the role it is (issue 39 item 10).
        assert.deepEqual(await fails({ email: "a@example.com", roleId: "editor" }), [
            [
                "roleId",
                'roleId "editor" is neither a role id (a uuid) nor a built-in workspace role (WORKSPACE_ADMIN (Admin), WORKSPACE_USER (Editor), WORKSPACE_VIEWER (Viewer)): the UI\'s Editor role is WORKSPACE_USER',
            ],
        ]);
        assert.match(String((await fails({ email: "a b@example.com", roleId: "WORKSPACE_USER" }))?.[0][1]), /no spaces/);
        const unknownId = "00000000-0000-4000-8000-000000000000";
        assert.deepEqual(await fails({ email: "a@example.com", roleId: unknownId }), [
            ["roleId", `roleId ${unknownId} is no role of the organization (its roles: GET /api/v1/orgs/current/roles)`],
        ]);
        const orgAdmin = await roleId(em(), "ORGANIZATION_ADMIN");
        assert.match(
            String((await fails({ email: "a@example.com", roleId: orgAdmin }))?.[0][1]),
            /is the organization role ORGANIZATION_ADMIN: a member of a workspace holds a workspace role/,
        );
        assert.deepEqual(writes(em()), []);
        assert.deepEqual(checkWorkspaceMember({ email: "A@Example.com ", roleId: "WORKSPACE_USER" }, TEST_TENANT).failures, []);
        em().admin.requests.length = 0;
        assert.deepEqual(await fails({ email: "a@example.com", roleId: UNKNOWN }), [], "a role id not known yet (a Role made in the same up) passes");
        assert.deepEqual(em().admin.requests, [], "and is not looked up");
    });

    it("an active organization member joins at once; the role changes in place; delete removes them from the workspace only", async () => {
        const p = provider();
        const e = await orgMember();
        const made = await p.create(await checked({ email: e.toUpperCase(), roleId: "WORKSPACE_USER" }));
        assert.deepEqual([made.id, made.outs.status, typeof made.outs.userId], [e, "active", "string"]);
        const [m] = await workspaceMembers();
        assert.deepEqual([m.email, m.id, m.role_id], [e, made.outs.identityId, await roleId(em(), "WORKSPACE_USER")]);
        assert.deepEqual(
            (await p.read!(made.id, made.outs)).inputs,
            { email: e.toUpperCase(), roleId: "WORKSPACE_USER" },
            "nothing changed reads back as the inputs",
        );
        assert.equal(
            (await diff(made.outs, await checked({ email: ` ${e}`, roleId: "WORKSPACE_USER" }))).changes,
            false,
            "an email compares trimmed, ignoring case",
        );

        const news = await checked({ email: e, roleId: "WORKSPACE_VIEWER" });
        assert.deepEqual([(await diff(made.outs, news)).updates, (await diff(made.outs, news)).replaces], [["roleId"], []]);
        const updated = await p.update!(made.id, made.outs, news);
        assert.deepEqual([(await workspaceMembers())[0].role_id, updated.outs.status], [await roleId(em(), "WORKSPACE_VIEWER"), "active"]);
        await raw(em(), "PATCH", `/api/v1/workspaces/current/members/${m.id}`, { body: { role_id: await roleId(em(), "WORKSPACE_ADMIN") } });
        assert.equal((await p.read!(made.id, updated.outs)).inputs?.roleId, "WORKSPACE_ADMIN", "a role changed in the UI shows");

        await p.delete!(made.id, updated.outs);
        assert.deepEqual([await workspaceMembers(), await p.read!(made.id, updated.outs)], [[], {}]);
        assert.ok(
            (await get("/api/v1/orgs/current/members", null)).members.some((x: { email: string }) => x.email === e),
            "still in the organization",
        );
        await p.delete!(made.id, updated.outs); // already gone: done
    });

    it("anybody else is invited into the workspace: pending, kept across refresh and never invited again; a new role changes in place; accepted -> active; delete removes", async () => {
        const p = provider();
        const e = email();
        const custom = await raw(em(), "POST", "/api/v1/orgs/current/roles", {
            tenantId: null,
            body: { display_name: uniqueName("r"), description: "", permissions: ["runs:read"] },
        });
        const made = await p.create(await checked({ email: e, roleId: custom.body.id }));
        assert.deepEqual([made.outs.status, made.outs.userId], ["pending", null]);
        const [inv] = await orgPending();
        assert.deepEqual([inv.email, inv.id, inv.workspace_ids, inv.workspace_role_id], [e, made.outs.identityId, [TEST_TENANT], custom.body.id]);

        em().admin.requests.length = 0;
        for (let i = 0; i < 2; i++) {
            const r = await p.read!(made.id, made.outs);
            assert.deepEqual([r.props?.status, r.inputs], ["pending", { email: e, roleId: custom.body.id }]);
        }
        assert.deepEqual(writes(em()), [], "refresh sends nothing");

        const viewer = await checked({ email: e, roleId: "WORKSPACE_VIEWER" });
        const d = await diff(made.outs, viewer);
        assert.deepEqual([d.replaces, d.updates, d.deleteBeforeReplace], [[], ["roleId"], undefined], "a pending invitation's role changes in place");
        em().admin.requests.length = 0;
        const moved = await p.update!(made.id, made.outs, viewer);
        const [still] = await orgPending();
        assert.deepEqual(
            [still.id, still.workspace_role_id],
            [made.outs.identityId, await roleId(em(), "WORKSPACE_VIEWER")],
            "the same invitation: no second email",
        );
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path}`),
            [`PATCH /api/v1/workspaces/current/members/${made.outs.identityId}/pending`],
        );

        // An installation older than that change: the invitation is cancelled and sent again, with a warning.
        em().addFault({ method: "PATCH", path: "/pending$", kind: "status", status: 404, body: { detail: "Not Found" } });
        const again = await p.update!(made.id, moved.outs, await checked({ email: e, roleId: custom.body.id }));
        const [resent] = await orgPending();
        assert.deepEqual([again.outs.status, resent.workspace_role_id, resent.id === made.outs.identityId], ["pending", custom.body.id, false]);

        await admin(em(), "POST", "/org/invitations/accept", { email: e });
        const accepted = await p.read!(made.id, made.outs);
        assert.deepEqual(
            [accepted.props?.status, accepted.props?.identityId, typeof accepted.props?.userId],
            ["active", (await workspaceMembers())[0].id, "string"],
        );
        const now = await diff(accepted.props!, await checked({ email: e, roleId: "WORKSPACE_VIEWER" }));
        assert.deepEqual([now.replaces, now.updates], [[], ["roleId"]], "an active member's role changes in place");
        await p.delete!(made.id, made.outs); // the state still says pending: the member is removed all the same
        assert.deepEqual(await workspaceMembers(), []);
    });

    it("a workspace's own Admin key (scoped to it) invites into it, where the organization-level invitation is refused to it", async () => {
        const ws = await newWorkspace(em());
        const key = (await raw(em(), "POST", "/api/v1/orgs/current/service-keys", { tenantId: null, body: { description: "ws admin", workspaces: [ws] } })).body
            .key;
        const e = email();
        const orgLevel = await raw(em(), "POST", "/api/v1/orgs/current/members", { apiKey: key, tenantId: ws, body: { email: e, workspace_ids: [ws] } });
        assert.equal(orgLevel.status, 403);
        const made = await withEnv({ LANGSMITH_API_KEY: key, LANGSMITH_WORKSPACE_ID: ws }, async () =>
            provider().create(await checked({ email: e, roleId: "WORKSPACE_USER" })),
        );
        assert.deepEqual([made.outs.status, made.outs.tenantId], ["pending", ws]);
        const pending = await get("/api/v1/workspaces/current/members/pending", ws);
        assert.deepEqual(
            pending.map((x: { email: string; role_name: string }) => [x.email, x.role_name]),
            [[e, "WORKSPACE_USER"]],
        );
    });

    it("delete cancels a pending invitation; a stale pending state updated after acceptance changes the role in place", async () => {
        const p = provider();
        const e = email();
        const made = await p.create(await checked({ email: e, roleId: "WORKSPACE_USER" }));
        await p.delete!(made.id, made.outs);
        assert.deepEqual(await orgPending(), [], "the invitation is cancelled");

        const again = await p.create(await checked({ email: e, roleId: "WORKSPACE_USER" }));
        await admin(em(), "POST", "/org/invitations/accept", { email: e });
        const up = await p.update!(again.id, again.outs, await checked({ email: e, roleId: "WORKSPACE_VIEWER" }));
        assert.deepEqual([up.outs.status, (await workspaceMembers())[0].role_id], ["active", await roleId(em(), "WORKSPACE_VIEWER")]);
    });

    it("import by <email> or <workspaceId>/<email>: active or pending, the role by its built-in name", async () => {
        const ws = await newWorkspace(em());
        const e = email();
        await raw(em(), "POST", "/api/v1/orgs/current/members", {
            tenantId: null,
            body: { email: e, workspace_ids: [ws, TEST_TENANT], workspace_role_id: await roleId(em(), "WORKSPACE_VIEWER") },
        });
        const here = await provider().read!(e);
        assert.deepEqual(
            [here.id, here.inputs, here.props?.status, here.props?.tenantId],
            [e, { email: e, roleId: "WORKSPACE_VIEWER" }, "pending", TEST_TENANT],
        );
        const there = await provider().read!(`${ws}/${e}`);
        assert.deepEqual([there.inputs, there.props?.tenantId], [{ email: e, roleId: "WORKSPACE_VIEWER", workspaceId: ws }, ws]);
        assert.deepEqual(await provider().read!("nobody@example.com"), {});
    });

    it("create beside a member already there is refused; LANGSMITH_ADOPT_IDS=<workspaceId>/<email> takes them in with the program's role", async () => {
        const e = await orgMember();
        await raw(em(), "POST", "/api/v1/workspaces/current/members", {
            body: {
                org_identity_id: (await get("/api/v1/orgs/current/members", null)).members.find((m: { email: string }) => m.email === e).id,
                role_id: await roleId(em(), "WORKSPACE_ADMIN"),
            },
        });
        const inputs = await checked({ email: e, roleId: "WORKSPACE_VIEWER" });
        assert.match(
            String(await rejection(() => provider().create(inputs))),
            new RegExp(`${e} is already a member of workspace ${TEST_TENANT}[\\s\\S]*LANGSMITH_ADOPT_IDS=${TEST_TENANT}/${e}`),
        );
        await rejection(() => withEnv({ LANGSMITH_ADOPT_IDS: e }, () => provider().create(inputs)));
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: `${TEST_TENANT}/${e}` }, () => provider().create(inputs));
        assert.deepEqual([adopted.outs.status, (await workspaceMembers())[0].role_id], ["active", await roleId(em(), "WORKSPACE_VIEWER")]);
    });

    it("an invitation to other workspaces only is refused in words; a lost answer to the invitation or to the add is looked up, not sent again", async () => {
        const ws = await newWorkspace(em());
        const e = email();
        await raw(em(), "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email: e, workspace_ids: [ws] } });
        assert.match(
            String(await rejection(async () => provider().create(await checked({ email: e, roleId: "WORKSPACE_USER" })))),
            /pending invitation to the organization \(to workspaces .*\) that does not name workspace/,
        );

        const f = email();
        em().addFault({ method: "POST", path: "^/api/v1/workspaces/current/members/batch$", kind: "status", status: 502, when: "after" });
        const made = await provider().create(await checked({ email: f, roleId: "WORKSPACE_USER" }));
        const mine = (await orgPending()).filter((x: { email: string }) => x.email === f);
        assert.deepEqual([mine.length, mine[0].id, made.outs.status], [1, made.outs.identityId, "pending"]);

        const g = await orgMember();
        em().addFault({ method: "POST", path: "^/api/v1/workspaces/current/members$", kind: "status", status: 502, when: "after" });
        const added = await provider().create(await checked({ email: g, roleId: "WORKSPACE_USER" }));
        const there = (await workspaceMembers()).filter((x: { email: string }) => x.email === g);
        assert.deepEqual([there.length, there[0].id, added.outs.status], [1, added.outs.identityId, "active"]);
    });
});
