/**
 * AccessPolicy and Role's accessPolicyIds (provider/organization/accessPolicy, role) against the emulator over HTTP,
 * through the registered providers: what preview refuses (a policy with no condition group, a group with no
 * condition, an effect or kind the service does not take, an organization permission; nothing sent); a policy made,
 * read, imported, changed in place and deleted; a role restricted by a tag (the policy attached at create, detached
 * and another attached at update, read back at refresh and import, a detach made elsewhere seen as drift); a policy
 * still held by a role refused deletion in words; a name already held refused with its id.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "../../../../provider/registry";
import { raw, rejection, uniqueName } from "../../../helpers/emulator";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const policy = RESOURCES.accessPolicy.provider as Provider;
const role = RESOURCES.role.provider as Provider;

async function checked(p: Provider, news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await p.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}
const supportOnly = (name = uniqueName("support-only"), effect = "allow") => ({
    name,
    effect,
    conditionGroups: [{ permission: "projects:read", resourceType: "project", conditions: [{ key: "team", value: "support" }] }],
});

describe("AccessPolicy and Role.accessPolicyIds", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const attached = async (roleId: string) =>
        ((await raw(em(), "GET", `/api/v1/platform/orgs/current/roles/${roleId}/access-policies`, { tenantId: null })).body as Array<{ id: string }>)
            .map((p) => p.id)
            .sort();

    it("check: no condition group, a group without conditions, an unknown effect or kind, an organization permission fail at preview by property; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const props = async (news: Record<string, unknown>) => ((await policy.check({}, news)).failures ?? []).map((f) => f.property).sort();
        assert.deepEqual(await props({ name: "p", effect: "allow", conditionGroups: [] }), ["conditionGroups"]);
        assert.match(
            String((await policy.check({}, { name: "p", effect: "allow", conditionGroups: [] })).failures?.[0].reason),
            /no condition applies to nothing/,
        );
        assert.deepEqual(
            await props({ name: "p", effect: "allow", conditionGroups: [{ permission: "projects:read", resourceType: "project", conditions: [] }] }),
            ["conditionGroups[0].conditions"],
        );
        assert.deepEqual(
            await props({
                name: "p",
                effect: "maybe",
                conditionGroups: [{ permission: "organization:manage", resourceType: "run", conditions: [{ key: "a", value: "b" }] }],
            }),
            ["conditionGroups[0].permission", "conditionGroups[0].resourceType", "effect"],
        );
        assert.deepEqual(await props({ name: "p", effect: "deny" }), ["conditionGroups"]);
        assert.deepEqual(writes(em()), []);
    });

    it("a policy made, imported, changed in place; a role restricted by it; attachments moved, read back, drift seen; deletion refused while held", async () => {
        const p = await policy.create(await checked(policy, supportOnly()));
        assert.deepEqual((await policy.read(p.id, {} as never)).inputs, {
            ...supportOnly(p.outs.name),
            conditionGroups: [{ ...supportOnly().conditionGroups[0], conditions: [{ key: "team", value: "support", operator: "equals" }] }],
        });
        const roleArgs = { name: uniqueName("Support reader"), permissions: ["projects:read"] };
        const r = await role.create(await checked(role, { ...roleArgs, accessPolicyIds: [p.id] }));
        assert.deepEqual(await attached(r.id), [p.id]);
        // Held: the policy's delete is refused in words.
        assert.match(
            String((await rejection(() => policy.delete(p.id, p.outs as never)))?.message),
            /refuses to delete it while a role holds it .*accessPolicyIds/,
        );
        // Changed in place: deny, another condition.
        const denyNews = await checked(policy, { ...supportOnly(p.outs.name, "deny"), description: "no support data" });
        const d = await policy.diff(p.id, p.outs, denyNews);
        assert.deepEqual([d.changes, d.replaces ?? []], [true, []]);
        await policy.update(p.id, p.outs, denyNews);
        assert.equal((await policy.read(p.id, p.outs as never)).inputs?.effect, "deny");
        // Another policy: the role moves to it (one detach, one attach).
        const q = await policy.create(await checked(policy, supportOnly()));
        const moved = await checked(role, { ...roleArgs, accessPolicyIds: [q.id] });
        assert.equal((await role.diff(r.id, r.outs, moved)).changes, true);
        const u = await role.update(r.id, r.outs, moved);
        assert.deepEqual(await attached(r.id), [q.id]);
        assert.deepEqual((await role.read(r.id, u.outs as never)).props?.accessPolicyIds, [q.id]);
        assert.deepEqual((await role.read(r.id, {} as never)).inputs?.accessPolicyIds, [q.id], "an import reads them");
        // Detached elsewhere: refresh sees it.
        await raw(em(), "DELETE", `/api/v1/platform/orgs/current/roles/${r.id}/access-policies/${q.id}`, { tenantId: null });
        const refreshed = await role.read(r.id, u.outs as never);
        assert.deepEqual(refreshed.props?.accessPolicyIds, []);
        assert.equal((await role.diff(r.id, refreshed.props as never, moved)).changes, true);
        await role.update(r.id, refreshed.props as never, moved);
        assert.deepEqual(await attached(r.id), [q.id]);
        // A role without accessPolicyIds reads none and sends nothing about them.
        em().admin.requests.length = 0;
        const plain = await role.create(await checked(role, { name: uniqueName("Plain"), permissions: ["projects:read"] }));
        assert.equal((await role.read(plain.id, plain.outs as never)).props?.accessPolicyIds, undefined);
        assert.ok(!em().admin.requests.some((x) => x.path.includes("access-policies")));
        // Deleting the role detaches, then the policies delete.
        await role.delete(r.id, { ...u.outs } as never);
        await policy.delete(q.id, q.outs as never);
        await policy.delete(p.id, p.outs as never);
        assert.deepEqual((await raw(em(), "GET", "/api/v1/platform/orgs/current/access-policies", { tenantId: null })).body, { access_policies: [] });
    });

    it("a name the organization holds is refused with the policy's id", async () => {
        const p = await policy.create(await checked(policy, supportOnly("dup")));
        assert.match(
            String((await rejection(() => policy.create({ ...supportOnly("dup") })))?.message),
            new RegExp(`already holds access policy ${p.id} named "dup"`),
        );
    });
});
