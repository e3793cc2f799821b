/**
 * Role (provider/role) against the emulator's organization area over HTTP: the permissions checked at preview
 * (nothing sent), diff (a set: order is no change), create, read (refresh and import), update, delete (refused
 * in the service's words while held), a taken name refused or adopted, a lost answer not duplicating.
 */
import assert from "node:assert/strict";
import type { TableDiffResult } from "../../../../provider/kit/diff";
import { checkRole, createRoleProvider } from "../../../../provider/organization/role/provider";
import { withEnv } from "../../../helpers/async";
import { TEST_TENANT, admin, raw, rejection, uniqueName } from "../../../helpers/emulator";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

const READER = ["projects:read", "runs:read", "datasets:read"];

describe("Role", function () {
    this.timeout(20_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const provider = () => createRoleProvider();
    const customRoles = async () =>
        (await raw(em(), "GET", "/api/v1/orgs/current/roles", { tenantId: null })).body.filter((r: { organization_id: string | null }) => r.organization_id);
    const checked = (news: Record<string, unknown>) => {
        const r = checkRole(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as { name: string; permissions: string[] } & Record<string, unknown>;
    };

    it("check: an unknown permission names the nearest one, an organization permission is refused, none at all too; nothing sent", async () => {
        em().admin.requests.length = 0;
        const r = checkRole({ name: "reader", permissions: ["projects:reed", "organization:manage", "runs:read"] });
        assert.deepEqual(
            r.failures?.map((f) => [f.property, f.reason]),
            [
                [
                    "permissions[1]",
                    '"organization:manage" is an organization permission: custom roles hold workspace permissions only (an organization role is given to a member by the organization, not by a Role)',
                ],
            ],
        );
        // A name the provider does not know may be a newer one the service knows: a warning, and the service decides.
        assert.deepEqual(r.warnings, [
            'permissions[0]: "projects:reed" is no workspace permission this provider knows: did you mean "projects:read"? (docs/role.md lists them). Sent as it is: the service decides, and names it if it refuses it.',
        ]);
        assert.deepEqual(
            checkRole({ name: "r", permissions: [] }).failures?.map((f) => f.reason),
            ["permissions must name at least one workspace permission"],
        );
        assert.deepEqual(
            checkRole({ permissions: ["runs:read"] }).failures?.map((f) => f.reason),
            ["name is required"],
        );
        assert.deepEqual(
            checkRole({ name: "Editor", permissions: ["runs:read"] }).failures?.map((f) => f.property),
            ["name"],
            "a built-in role's name fails at preview, not at up",
        );
        assert.deepEqual(writes(em()), []);
    });

    it("permissions: the docs' newer names pass without a word; one only a newer service knows is warned of and taken; one nobody knows fails at up, named", async () => {
        const secrets = checkRole({ name: "secret-writers", permissions: ["workspaces:manage-secrets", "workspaces:read"] });
        assert.deepEqual([secrets.failures, secrets.warnings], [[], []]);
        const made = await provider().create(checked({ name: uniqueName("secrets"), permissions: ["workspaces:manage-secrets"] }));
        assert.deepEqual(made.outs.permissions, ["workspaces:manage-secrets"]);

        await admin(em(), "PUT", "/org/permissions", { extra: ["agents:run"] });
        const newer = checkRole({ name: "agents", permissions: ["agents:run"] });
        assert.deepEqual([newer.failures, newer.warnings.length], [[], 1]);
        const taken = await provider().create(newer.inputs as never);
        assert.deepEqual(taken.outs.permissions, ["agents:run"], "the service knows it: the role is made");

        const err = String(await rejection(() => provider().create(checked({ name: uniqueName("typo"), permissions: ["projects:reed"] }))));
        assert.equal(err, "Error: Role: permissions: the service refused them: Unknown permission(s): projects:reed. (nothing was changed)");
    });

    it("diff: the permissions are a set (another order is no change); a rename, a description, a permission more update in place", async () => {
        const olds = { ...checked({ name: "reader", permissions: READER }), roleName: "CUSTOM_X", accessScope: "workspace", schemaVersion: 1 };
        const d = (news: Record<string, unknown>): Promise<TableDiffResult> =>
            provider().diff!("id", olds, checked({ name: "reader", permissions: READER, ...news }));
        assert.equal((await d({ permissions: [...READER].reverse() })).changes, false);
        const changed = await d({ name: "readers", description: "d", permissions: [...READER, "feedback:read"] });
        assert.deepEqual([changed.replaces, changed.updates], [[], ["name", "description", "permissions"]]);
    });

    it("create, read (refresh and import), update, delete; the service's words when it refuses to delete a held role", async () => {
        const p = provider();
        const name = uniqueName("reader");
        const inputs = checked({ name, description: "reads", permissions: READER });
        const made = await p.create(inputs);
        assert.deepEqual([made.outs.roleName.startsWith("CUSTOM_"), made.outs.accessScope], [true, "workspace"]);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, inputs, "nothing changed reads back as the inputs");
        assert.deepEqual((await p.read!(made.id)).inputs, { ...inputs, permissions: [...READER].sort() }, "import");

        const news = checked({ name: `${name}-2`, permissions: ["runs:read"] });
        await p.update!(made.id, made.outs, news);
        const [r] = await customRoles();
        assert.deepEqual([r.display_name, r.description, r.permissions], [`${name}-2`, "", ["runs:read"]]);

        const invite = await raw(em(), "POST", "/api/v1/orgs/current/members", {
            tenantId: null,
            body: { email: "held@example.com", workspace_ids: [TEST_TENANT], workspace_role_id: made.id },
        });
        assert.equal(invite.status, 200, invite.text);
        assert.match(
            String(await rejection(() => p.delete!(made.id, made.outs))),
            /refuses to delete it while it is held \(Role .* is still held by: invitation of held@example.com\.\)/,
        );
        await raw(em(), "DELETE", `/api/v1/orgs/current/members/${invite.body.id}/pending`, { tenantId: null });
        await p.delete!(made.id, made.outs);
        assert.deepEqual([await customRoles(), await p.read!(made.id)], [[], {}]);
        await p.delete!(made.id, made.outs); // already gone: done
    });

    it("create: a taken name is refused with the role's id; LANGSMITH_ADOPT_IDS takes it in (set to the program's); a built-in's name is refused", async () => {
        const name = uniqueName("taken");
        const theirs = await raw(em(), "POST", "/api/v1/orgs/current/roles", {
            tenantId: null,
            body: { display_name: name, description: "", permissions: ["runs:read"] },
        });
        const inputs = checked({ name, description: "ours", permissions: READER });
        assert.match(
            String(await rejection(() => provider().create(inputs))),
            new RegExp(`already holds custom role ${theirs.body.id}[\\s\\S]*LANGSMITH_ADOPT_IDS=${theirs.body.id}`),
        );
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: theirs.body.id }, () => provider().create(inputs));
        const [r] = await customRoles();
        assert.deepEqual([adopted.id, r.description, r.permissions.sort()], [theirs.body.id, "ours", [...READER].sort()]);
        assert.match(
            String(await rejection(() => provider().create({ name: "Viewer", description: "", permissions: READER }))),
            /name of the built-in role WORKSPACE_VIEWER/,
        );
    });

    it("a lost answer to the create is looked up by the name, not sent again", async () => {
        em().addFault({ method: "POST", path: "^/api/v1/orgs/current/roles$", kind: "status", status: 502, when: "after" });
        const made = await provider().create(checked({ name: uniqueName("lost"), permissions: READER }));
        assert.deepEqual(
            (await customRoles()).map((r: { id: string }) => r.id),
            [made.id],
        );
    });

    it("accessPolicyIds: an attach sends the role's whole wanted set, so a service that replaces the set (not adds to it) keeps the ones held", async () => {
        // A service reading the attach as the role's whole set (docs/service.md R13.8's open reading).
        const held = new Map<string, string[]>();
        const sent: string[][] = [];
        const replacing = {
            attached: async (roleId: string) => (held.get(roleId) ?? []).map((id) => ({ id })),
            attach: async (roleId: string, ids: string[]) => void (sent.push(ids), held.set(roleId, [...ids])),
            detach: async (roleId: string, id: string) =>
                void held.set(
                    roleId,
                    (held.get(roleId) ?? []).filter((x) => x !== id),
                ),
        } as unknown as import("../../../../provider/api/accessPolicies").AccessPoliciesClient;
        const p = createRoleProvider({ policies: () => replacing });
        const [a, b, c] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"];
        const made = await p.create!(checked({ name: uniqueName("Scoped"), permissions: READER, accessPolicyIds: [a] }));
        await p.update!(made.id, made.outs, checked({ name: made.outs.name, permissions: READER, accessPolicyIds: [a, b] }));
        assert.deepEqual(held.get(made.id)?.sort(), [a, b], "adding b kept a");
        await p.update!(made.id, { ...made.outs, accessPolicyIds: [a, b] }, checked({ name: made.outs.name, permissions: READER, accessPolicyIds: [b, c] }));
        assert.deepEqual(held.get(made.id)?.sort(), [b, c]);
        assert.deepEqual(sent, [[a], [a, b], [b, c]]);
        await p.update!(made.id, { ...made.outs, accessPolicyIds: [b, c] }, checked({ name: made.outs.name, permissions: READER, accessPolicyIds: [c] }));
        assert.deepEqual([held.get(made.id), sent.length], [[c], 3], "a removal alone is a detach: nothing attached");
        await p.delete!(made.id, { ...made.outs, accessPolicyIds: [c] });
    });
});
