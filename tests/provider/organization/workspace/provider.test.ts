/**
 * Workspace (provider/workspace) against the emulator's organization API over HTTP: check, diff, create (a lost
 * answer made once), read (refresh and import), a rename in place, delete refused by the service while the
 * workspace holds a tracing project (its words naming it) and done once it is empty, a display name the
 * organization already has refused or taken in with LANGSMITH_ADOPT_IDS, and a workspace-scoped key refused
 * with the service's words.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../../provider/api/client";
import { OrganizationClient } from "../../../../provider/api/organization";
import { checkWorkspace, createWorkspaceProvider } from "../../../../provider/organization/workspace/provider";
import { rejection, withEnv } from "../../../helpers/async";
import { TEST_API_KEY, raw, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";

describe("Workspace", function () {
    this.timeout(20_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(async () => em?.close());
    afterEach(() => raw(em, "DELETE", "/__admin/faults", { apiKey: null, tenantId: null }));

    const client = (apiKey = TEST_API_KEY) =>
        new OrganizationClient(new HttpClient({ baseUrl: em.url, apiKey, apiKeyHeader: "X-API-Key", retryBaseMs: 5, retryMaxMs: 20 }));
    const provider = (apiKey?: string) => createWorkspaceProvider({ organization: () => client(apiKey) });
    const named = async (displayName: string) => (await client().listWorkspaces()).filter((w) => w.display_name === displayName);

    it("check: an empty name or handle and a misspelled key fail on their properties", () => {
        const r = checkWorkspace({ displayName: " ", tenantHandle: "", description: "x" });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["description", "displayName", "tenantHandle"],
        );
        assert.match(r.failures![0].reason, /unknown argument "description" of Workspace/);
        assert.deepEqual(checkWorkspace({ displayName: "team" }).failures, []);
        assert.deepEqual(checkWorkspace({ displayName: "Support (EU) - O'Brien's @team" }).failures, []);
        // The service's description holds display names to a pattern: a slash or a dot fails at preview.
        assert.match(checkWorkspace({ displayName: "support/eu" }).failures![0].reason, /may hold only letters, digits, spaces and - _ ' @ \( \)/);
    });

    it("diff: a rename updates in place; another handle replaces, deleting first while the name stays (the new one would be refused beside it)", async () => {
        const olds = { displayName: "a", tenantHandle: "a" } as never;
        const renamed = await provider().diff!("id", olds, { displayName: "b", tenantHandle: "a" } as never);
        assert.deepEqual([renamed.replaces, (renamed as { updates?: string[] }).updates], [[], ["displayName"]]);
        const rehandled = await provider().diff!("id", olds, { displayName: "a", tenantHandle: "b" } as never);
        assert.deepEqual([rehandled.replaces, rehandled.deleteBeforeReplace], [["tenantHandle"], true]);
        const both = await provider().diff!("id", olds, { displayName: "b", tenantHandle: "b" } as never);
        assert.deepEqual([both.replaces, both.deleteBeforeReplace], [["tenantHandle"], false], "a new name: made beside the old one first");
    });

    it("another handle under the same name: the replacement, in the order diff asks, leaves one workspace of that name", async () => {
        const p = provider();
        const displayName = uniqueName("rehandled");
        const old = await p.create({ displayName, tenantHandle: `${displayName}-a` });
        const news = { displayName, tenantHandle: `${displayName}-b` };
        const { deleteBeforeReplace } = await p.diff!(old.id, old.outs, news as never);
        // As the engine replaces: delete then create, or create then delete.
        if (deleteBeforeReplace) await p.delete!(old.id, old.outs);
        const made = await p.create(news);
        if (!deleteBeforeReplace) await p.delete!(old.id, old.outs);
        assert.deepEqual(
            (await named(displayName)).map((w) => [w.id, w.tenant_handle]),
            [[made.id, news.tenantHandle]],
        );
    });

    it("create, read, rename, import; delete refused while it holds a tracing project, naming it, then done; read of a deleted one is gone", async () => {
        const p = provider();
        const displayName = uniqueName("team");
        const made = await p.create({ displayName, tenantHandle: displayName });
        assert.deepEqual([made.outs.displayName, made.outs.tenantHandle, made.outs.schemaVersion], [displayName, displayName, 1]);
        assert.equal((await named(displayName))[0].id, made.id);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, { displayName, tenantHandle: displayName });
        const updated = await p.update!(made.id, made.outs, { displayName: `${displayName}-2`, tenantHandle: displayName });
        assert.equal(updated.outs.displayName, `${displayName}-2`);
        const imported = await p.read!(made.id);
        assert.deepEqual(imported.inputs, { displayName: `${displayName}-2`, tenantHandle: displayName }, "import reads every input back");
        const pluginImport = await p.read!(made.id, {});
        assert.deepEqual(pluginImport.inputs, imported.inputs, "the native plugin's import (empty properties) reads the handle too");

        const project = await raw(em, "POST", "/api/v1/sessions", { tenantId: made.id, body: { name: "kept-traces" } });
        assert.equal(project.status, 200, project.text);
        const refused = await rejection(() => p.delete!(made.id, updated.outs));
        assert.match(refused.message, /^409 Conflict: .*still holds objects: .*kept-traces/);
        await raw(em, "DELETE", `/api/v1/sessions/${project.body.id}`, { tenantId: made.id });
        await p.delete!(made.id, updated.outs);
        assert.deepEqual(await p.read!(made.id, updated.outs), {}, "a deleted workspace leaves the stack on refresh");
        await p.delete!(made.id, updated.outs);
    });

    it("a lost answer makes the workspace once: looked up by the id sent, not created again", async () => {
        await raw(em, "POST", "/__admin/faults", {
            apiKey: null,
            tenantId: null,
            body: { method: "POST", path: "^/api/v1/workspaces$", kind: "status", status: 502, when: "after" },
        });
        const displayName = uniqueName("lost");
        const made = await provider().create({ displayName });
        const held = await named(displayName);
        assert.deepEqual(
            held.map((w) => w.id),
            [made.id],
        );
    });

    it("a display name the organization has (a killed `up` made it) is refused with its id; LANGSMITH_ADOPT_IDS takes it in", async () => {
        const displayName = uniqueName("taken");
        const existing = await client().createWorkspace({ display_name: displayName });
        const refused = await rejection(() => provider().create({ displayName }));
        assert.match(refused.message, new RegExp(`already holds workspace ${existing.id}`));
        assert.match(refused.message, new RegExp(`LANGSMITH_ADOPT_IDS=${existing.id} pulumi up`));
        assert.equal((await named(displayName)).length, 1, "nothing created");
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: existing.id }, () => provider().create({ displayName }));
        assert.equal(adopted.id, existing.id);
        assert.equal((await named(displayName)).length, 1);
    });

    it("a rename to the name of another live workspace is refused before it is sent: names stay unique", async () => {
        const p = provider();
        const taken = uniqueName("taken");
        await client().createWorkspace({ display_name: taken });
        const made = await p.create({ displayName: uniqueName("mine") });
        const refused = await rejection(() => p.update!(made.id, made.outs, { displayName: taken }));
        assert.match(refused.message, new RegExp(`cannot be renamed "${taken}": workspace \\S+ of the organization has that name`));
        assert.equal((await named(taken)).length, 1, "nothing renamed");
        assert.equal((await named(made.outs.displayName)).length, 1);
        await p.delete!(made.id, made.outs);
    });

    it("a workspace-scoped key is refused by the service, in its words: an organization-scoped key is needed", async () => {
        const ws = await client().createWorkspace({ display_name: uniqueName("scoped") });
        const made = await raw(em, "POST", "/api/v1/orgs/current/service-keys", { tenantId: null, body: { description: "ci", workspaces: [ws.id] } });
        assert.equal(made.status, 200, made.text);
        const refused = await rejection(() => provider(made.body.key).create({ displayName: uniqueName("nope") }));
        assert.match(refused.message, /^403 Forbidden: This operation needs an organization-scoped API key/);
        assert.ok(!refused.message.includes(made.body.key), "the key is not in the error");
    });
});
