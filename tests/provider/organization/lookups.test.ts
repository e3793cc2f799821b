/**
 * The look-ups of issue 42 (getWorkspace, getWorkspaces, getRole, getServiceKey, getPrompt, getTracingProjects)
 * against the emulator over HTTP, run as both front doors run them (the registry's `run`: the plugin's Invoke and
 * dynamic/functions.ts): found by id and by name, a name matching nothing failing in words, bad arguments failing
 * before any call, a service key's secret never answered, projects filtered by name prefix and by resource tag.
 */
import assert from "node:assert/strict";
import { Service } from "../../../provider/kit/service";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const make = async (type: keyof typeof RESOURCES, args: Record<string, unknown>) => {
    const p = RESOURCES[type].provider as Provider;
    const r = await p.check({}, args);
    assert.deepEqual(r.failures ?? [], []);
    return p.create(r.inputs);
};
const run = (name: keyof typeof FUNCTIONS, args: Record<string, unknown>) =>
    (FUNCTIONS[name].run as (s: Service, a: unknown) => Promise<any>)(new Service(), args);
const failure = async (fn: () => Promise<unknown>) => String((await rejection(fn))?.message);

describe("look-ups: workspaces, roles, service keys, prompts, tracing projects", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();

    it("getWorkspace by id and by name, getWorkspaces by prefix; nothing found or both ways given fail in words, before any call", async () => {
        const a = await make("workspace", { displayName: uniqueName("Lookup A") });
        await make("workspace", { displayName: uniqueName("Lookup B") });
        await make("workspace", { displayName: uniqueName("Other") });
        const byId = await run("getWorkspace", { id: a.id });
        assert.deepEqual([byId.id, byId.displayName, byId.isPersonal], [a.id, a.outs.displayName, false]);
        assert.equal((await run("getWorkspace", { displayName: a.outs.displayName })).id, a.id);
        assert.match(await failure(() => run("getWorkspace", { displayName: "nope" })), /getWorkspace: the organization holds no workspace named "nope"/);
        em().admin.requests.length = 0;
        assert.match(
            await failure(() => run("getWorkspace", { id: a.id, displayName: "x" })),
            /give exactly one of id and displayName \(got id and displayName\)/,
        );
        assert.match(await failure(() => run("getWorkspace", {})), /got neither/);
        assert.deepEqual(
            em().admin.requests.filter((r) => !r.path.startsWith("/__admin")),
            [],
        );
        const listed = (await run("getWorkspaces", { namePrefix: "LOOKUP" })).workspaces.map((w: { displayName: string }) => w.displayName);
        assert.equal(listed.length, 2);
        assert.ok(
            listed.every((n: string) => n.startsWith("lookup-")),
            "a prefix in any case",
        );
        assert.ok((await run("getWorkspaces", {})).workspaces.length >= 3);
    });

    it("getRole: a custom role by id and by name, a built-in one by name or title; getServiceKey never answers the key", async () => {
        const role = await make("role", { name: uniqueName("Reader"), permissions: ["projects:read"] });
        const r = await run("getRole", { name: role.outs.name });
        assert.deepEqual([r.id, r.permissions, r.builtIn, r.accessScope], [role.id, ["projects:read"], false, "workspace"]);
        assert.equal((await run("getRole", { id: role.id })).name, role.outs.name);
        const admin = await run("getRole", { name: "WORKSPACE_ADMIN" });
        assert.deepEqual([admin.roleName, admin.builtIn], ["WORKSPACE_ADMIN", true]);
        assert.equal((await run("getRole", { name: admin.name })).id, admin.id);
        assert.match(await failure(() => run("getRole", { name: "nope" })), /no role named "nope"/);

        const description = uniqueName("ci key");
        const key = await make("serviceKey", { description, orgRoleId: "ORGANIZATION_VIEWER" });
        const k = await run("getServiceKey", { description });
        assert.equal(k.id, key.id);
        assert.equal(k.accessScope, "organization");
        assert.ok(!("key" in k), "the key itself is never answered");
        assert.ok(!JSON.stringify(k).includes(String(key.outs.key)), "nor anywhere in the answer");
        assert.ok(String(key.outs.key).startsWith(k.shortKey.replace(/\*+.*$/, "").slice(0, 8)));
        assert.equal((await run("getServiceKey", { id: key.id })).description, description);
    });

    it("getPrompt by handle; getTracingProjects by name prefix, by resource tag, and both", async () => {
        const handle = uniqueName("lk");
        const made = await make("prompt", { handle, description: "triage", tags: ["a"] });
        const p = await run("getPrompt", { handle });
        assert.deepEqual([p.id, p.handle, p.description, p.tags, p.isPublic], [made.outs.promptId, handle, "triage", ["a"], false]);
        assert.match(await failure(() => run("getPrompt", { handle: `${handle}-none` })), /holds no prompt/);

        const prefix = uniqueName("svc");
        const support = await make("tracingProject", { name: `${prefix}-support`, tags: { team: "support" } });
        await make("tracingProject", { name: `${prefix}-research`, tags: { team: "research" } });
        const elsewhere = await make("tracingProject", { name: `x-${prefix}-support`, tags: { team: "support" } });
        const names = async (args: Record<string, unknown>) => (await run("getTracingProjects", args)).projects.map((s: { name: string }) => s.name).sort();
        assert.deepEqual(await names({ namePrefix: prefix }), [`${prefix}-research`, `${prefix}-support`]);
        assert.deepEqual(await names({ tag: { key: "team", value: "support" } }), [`${prefix}-support`, `x-${prefix}-support`].sort());
        assert.deepEqual(await names({ namePrefix: prefix, tag: { key: "team", value: "support" } }), [`${prefix}-support`]);
        assert.deepEqual(await names({ tag: { key: "team", value: "nobody" } }), []);
        assert.deepEqual(await names({ tag: { key: "nokey", value: "x" } }), []);
        assert.equal((await run("getTracingProjects", { namePrefix: `${prefix}-s` })).projects[0].id, support.id);
        assert.ok(elsewhere.id);
        em().admin.requests.length = 0;
        assert.match(await failure(() => run("getTracingProjects", { tag: { key: "team", value: "" } })), /tag.value/);
        assert.deepEqual(writes(em()), []);
        // The service's own filter is what is read: the project list answers it.
        const value = (await raw(em(), "GET", "/api/v1/workspaces/current/tags")).body[0].values[0].id;
        assert.equal((await raw(em(), "GET", `/api/v1/sessions?tag_value_id=${value}`)).status, 200);
    });
});
