/**
 * OrganizationMember (provider/organization/organizationMember) against the emulator's organization area over
 * HTTP: the email and both roles checked at preview (an organization role given as the workspace role and back
 * fail on their properties; nothing sent); a create invites (pending, in the named workspaces with their role),
 * a lost answer looked up, never a second invitation; accepted -> active at refresh, no change; changes in place
 * (organization role, workspaces joined and left, workspace role), a pending invitation's workspace role in place
 * and anything else by a new invitation (with a warning); drift from a change made elsewhere; import by email (no
 * workspace read); a workspace joined elsewhere (a WorkspaceMember's) neither read by a refresh nor changed or left;
 * somebody already there refused, adopted with LANGSMITH_ADOPT_IDS; delete ends the membership or cancels.
 */
import assert from "node:assert/strict";
import type { TableDiffResult } from "../../../../provider/kit/diff";
import { checkOrganizationMember, createOrganizationMemberProvider } from "../../../../provider/organization/organizationMember/provider";
import { withEnv } from "../../../helpers/async";
import { TEST_TENANT, admin, raw, rejection, uniqueName } from "../../../helpers/emulator";
import { newWorkspace, roleId } from "../../../helpers/org";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

describe("OrganizationMember", function () {
    this.timeout(20_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const provider = () => createOrganizationMemberProvider();
    const email = () => `${uniqueName("person")}@example.com`;
    const org = async () => (await raw(em(), "GET", "/api/v1/orgs/current/members", { tenantId: null })).body;
    const inWorkspace = async (e: string, ws = TEST_TENANT) =>
        (await raw(em(), "GET", `/api/v1/workspaces/current/members/active?emails=${e}`, { tenantId: ws })).body[0];
    const checked = (news: Record<string, unknown>) => {
        const r = checkOrganizationMember(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as any;
    };

    it("check: a malformed email, a workspace role as roleId and an organization role as workspaceRoleId, a workspace id twice fail on their properties; nothing sent", async () => {
        em().admin.requests.length = 0;
        const r = await provider().check!(
            {},
            { email: "bob@", roleId: "WORKSPACE_ADMIN", workspaceRoleId: "ORGANIZATION_ADMIN", workspaceIds: [TEST_TENANT, TEST_TENANT] },
        );
        assert.deepEqual(
            r.failures?.map((f) => [f.property, f.reason]),
            [
                ["email", 'email "bob@" is not an email address the service takes: "" is not a domain name'],
                ["roleId", "roleId: WORKSPACE_ADMIN is a workspace role; roleId takes an organization role (set WORKSPACE_ADMIN as workspaceRoleId)"],
                [
                    "workspaceRoleId",
                    "workspaceRoleId: ORGANIZATION_ADMIN is an organization role; workspaceRoleId takes a workspace role (set ORGANIZATION_ADMIN as roleId)",
                ],
                ["workspaceIds[1]", `workspaceIds names ${TEST_TENANT} twice`],
            ],
        );
        assert.match(
            JSON.stringify(checkOrganizationMember({ email: "a@example.com", workspaceIds: ["default"] }).failures),
            /workspaceIds\[0\] must be a workspace id/,
        );
        const custom = await roleId(em(), "ORGANIZATION_VIEWER");
        assert.match(
            String(
                checkOrganizationMember({ email: "a@example.com", workspaceRoleId: custom }, (await raw(em(), "GET", "/api/v1/orgs/current/roles")).body)
                    .failures?.[0]?.reason,
            ),
            /workspaceRoleId: .* is Organization Viewer, an organization role/,
        );
        assert.deepEqual(writes(em()), []);
    });

    it("create invites (pending, defaults Organization User and Viewer); refresh keeps it; accepted -> active, no change; delete ends the membership", async () => {
        const p = provider();
        const e = email();
        const made = await p.create(checked({ email: e.toUpperCase(), workspaceIds: [TEST_TENANT] }));
        assert.deepEqual([made.id, made.outs.status], [e, "pending"]);
        const pending = (await org()).pending.find((x: { email: string }) => x.email === e);
        assert.deepEqual(
            [pending.org_role_id, pending.workspace_ids, pending.workspace_role_id],
            [await roleId(em(), "ORGANIZATION_USER"), [TEST_TENANT], await roleId(em(), "WORKSPACE_VIEWER")],
        );
        const again = await p.read!(made.id, made.outs);
        assert.deepEqual([again.props?.status, again.inputs], ["pending", checked({ email: e.toUpperCase(), workspaceIds: [TEST_TENANT] })]);
        await admin(em(), "POST", "/org/invitations/accept", { email: e });
        const accepted = await p.read!(made.id, made.outs);
        assert.equal(accepted.props?.status, "active");
        const d: TableDiffResult = await p.diff!(made.id, accepted.props, checked({ email: e.toUpperCase(), workspaceIds: [TEST_TENANT] }));
        assert.equal(d.changes, false);
        await p.delete!(made.id, accepted.props!);
        assert.deepEqual([(await org()).members.filter((m: { email: string }) => m.email === e), await p.read!(made.id, made.outs)], [[], {}]);
    });

    it("an active member: organization role, workspaces joined and left, the workspace role changed in place; a change made elsewhere shows; import by email", async () => {
        const p = provider();
        const e = email();
        const ws = await newWorkspace(em());
        const made = await p.create(checked({ email: e, workspaceIds: [TEST_TENANT] }));
        await admin(em(), "POST", "/org/invitations/accept", { email: e });
        const active = (await p.read!(made.id, made.outs)).props!;
        const news = checked({ email: e, roleId: "ORGANIZATION_ADMIN", workspaceIds: [ws], workspaceRoleId: "WORKSPACE_USER" });
        const updated = await p.update!(made.id, active, news);
        assert.equal(updated.outs.status, "active");
        const m = (await org()).members.find((x: { email: string }) => x.email === e);
        assert.deepEqual([m.role_id, m.tenant_ids], [await roleId(em(), "ORGANIZATION_ADMIN"), [ws]]);
        assert.equal((await inWorkspace(e, ws)).role_id, await roleId(em(), "WORKSPACE_USER"));
        assert.equal(await inWorkspace(e), undefined, "left the workspace no longer named");

        const there = await inWorkspace(e, ws);
        await raw(em(), "PATCH", `/api/v1/workspaces/current/members/${there.id}`, { tenantId: ws, body: { role_id: await roleId(em(), "WORKSPACE_ADMIN") } });
        const drifted = await p.read!(made.id, updated.outs);
        assert.equal((drifted.inputs as { workspaceRoleId: string }).workspaceRoleId, "WORKSPACE_ADMIN");
        const d: TableDiffResult = await p.diff!(made.id, drifted.props, news);
        assert.deepEqual(d.updates, ["workspaceRoleId"]);
        // An import joined no workspace: it reads none (the person stays in ws; the program names it to own it).
        const imported = await p.read!(e);
        assert.deepEqual(imported.inputs, { email: e, roleId: "ORGANIZATION_ADMIN", workspaceIds: [], workspaceRoleId: "WORKSPACE_VIEWER" });
    });

    it("a workspace the person joined elsewhere (a WorkspaceMember's) is not the resource's: a refresh does not read it, an update neither changes its role nor takes the person out", async () => {
        const p = provider();
        const e = email();
        const ws = await newWorkspace(em());
        const made = await p.create(checked({ email: e, workspaceIds: [TEST_TENANT] }));
        await admin(em(), "POST", "/org/invitations/accept", { email: e });
        const identity = (await org()).members.find((x: { email: string }) => x.email === e).id;
        const added = await raw(em(), "POST", "/api/v1/workspaces/current/members", {
            tenantId: ws,
            body: { org_identity_id: identity, role_id: await roleId(em(), "WORKSPACE_USER") },
        });
        assert.equal(added.status, 200, added.text);
        const news = checked({ email: e, workspaceIds: [TEST_TENANT] });
        const refreshed = await p.read!(made.id, made.outs);
        assert.deepEqual(refreshed.inputs, news);
        assert.equal((await p.diff!(made.id, refreshed.props, news)).changes, false);
        const admins = await p.update!(made.id, refreshed.props, checked({ email: e, workspaceIds: [TEST_TENANT], workspaceRoleId: "WORKSPACE_ADMIN" }));
        assert.equal((await inWorkspace(e)).role_id, await roleId(em(), "WORKSPACE_ADMIN"));
        await p.update!(made.id, admins.outs, checked({ email: e, workspaceIds: [] }));
        assert.equal(await inWorkspace(e), undefined, "left the workspace the program no longer names");
        assert.equal((await inWorkspace(e, ws)).role_id, await roleId(em(), "WORKSPACE_USER"), "the other workspace's membership is another's");
    });

    it("a pending invitation: its workspace role changed in place (no second invitation); another organization role sends it again, with a warning", async () => {
        const p = provider();
        const e = email();
        const made = await p.create(checked({ email: e, workspaceIds: [TEST_TENANT] }));
        await p.update!(made.id, made.outs, checked({ email: e, workspaceIds: [TEST_TENANT], workspaceRoleId: "WORKSPACE_ADMIN" }));
        const same = (await org()).pending.find((x: { email: string }) => x.email === e);
        assert.deepEqual([same.id, same.workspace_role_id], [made.outs.identityId, await roleId(em(), "WORKSPACE_ADMIN")]);
        const again = await p.update!(
            made.id,
            made.outs,
            checked({ email: e, roleId: "ORGANIZATION_VIEWER", workspaceIds: [TEST_TENANT], workspaceRoleId: "WORKSPACE_ADMIN" }),
        );
        const renewed = (await org()).pending.filter((x: { email: string }) => x.email === e);
        assert.equal(renewed.length, 1);
        assert.notEqual(renewed[0].id, made.outs.identityId);
        assert.equal(renewed[0].org_role_id, await roleId(em(), "ORGANIZATION_VIEWER"));
        await p.delete!(made.id, again.outs);
        assert.deepEqual(
            (await org()).pending.filter((x: { email: string }) => x.email === e),
            [],
            "the invitation cancelled",
        );
    });

    it("somebody already in the organization is refused (nothing sent), adopted with LANGSMITH_ADOPT_IDS=<email>; a lost invitation answer is looked up, not sent twice", async () => {
        const e = email();
        await raw(em(), "POST", "/api/v1/orgs/current/members", { tenantId: null, body: { email: e } });
        em().admin.requests.length = 0;
        const err = String(await rejection(() => provider().create(checked({ email: e, roleId: "ORGANIZATION_VIEWER" }))));
        assert.match(err, new RegExp(`${e} is already invited to the organization[\\s\\S]*LANGSMITH_ADOPT_IDS=${e}`));
        assert.deepEqual(writes(em()), []);
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: e }, () => provider().create(checked({ email: e, roleId: "ORGANIZATION_VIEWER" })));
        assert.equal((await org()).pending.find((x: { email: string }) => x.email === e).org_role_id, await roleId(em(), "ORGANIZATION_VIEWER"));
        assert.equal(adopted.outs.status, "pending");

        const lost = email();
        em().addFault({ method: "POST", path: "^/api/v1/orgs/current/members$", kind: "status", status: 502, when: "after" });
        const made = await provider().create(checked({ email: lost }));
        assert.deepEqual(
            (await org()).pending.filter((x: { email: string }) => x.email === lost).map((x: { id: string }) => x.id),
            [made.outs.identityId],
        );
    });
});
