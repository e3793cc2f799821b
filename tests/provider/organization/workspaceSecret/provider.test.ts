/**
 * WorkspaceSecret (provider/workspaceSecret) against the emulator's organization area over HTTP: check at
 * preview (nothing sent), diff (the value in place, the key and workspace replace, the provider's own
 * workspace written out no change), create, refresh (the value kept from the state), update (one PUT),
 * delete, import by key and by `<workspaceId>/<key>`, a taken key refused or adopted, a lost answer, and the
 * value in no error.
 */
import assert from "node:assert/strict";
import type { TableDiffResult } from "../../../../provider/kit/diff";
import { checkWorkspaceSecret, createWorkspaceSecretProvider } from "../../../../provider/organization/workspaceSecret/provider";
import { withEnv } from "../../../helpers/async";
import { TEST_TENANT, admin, raw, rejection, uniqueName } from "../../../helpers/emulator";
import { newWorkspace } from "../../../helpers/org";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

const VALUE = "sk-very-secret-0123456789";

describe("WorkspaceSecret", function () {
    this.timeout(20_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const provider = () => createWorkspaceSecretProvider();
    const stored = async (key: string, ws = TEST_TENANT) => (await admin(em(), "GET", `/org/secrets/${ws}/${key}`)).value;
    const keys = async (ws = TEST_TENANT) =>
        (await raw(em(), "GET", "/api/v1/workspaces/current/secrets", { tenantId: ws })).body.map((s: { key: string }) => s.key);
    const checked = (news: Record<string, unknown>) => {
        const r = checkWorkspaceSecret(news, TEST_TENANT);
        assert.deepEqual(r.failures, []);
        return r.inputs as { key: string; value: string } & Record<string, unknown>;
    };

    it("check: a key with spaces, a workspaceId that is no uuid, a missing value, no workspace at all fail on their properties; nothing sent, the value in no message", async () => {
        em().admin.requests.length = 0;
        const r = await provider().check!({}, { key: " OPENAI_API_KEY", value: VALUE, workspaceId: "default" });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["key", "workspaceId"],
        );
        assert.doesNotMatch(JSON.stringify(r.failures), new RegExp(VALUE));
        assert.deepEqual(
            checkWorkspaceSecret({ key: "K" }, TEST_TENANT).failures?.map((f) => f.reason),
            ["value is required"],
        );
        assert.match(checkWorkspaceSecret({ key: "K", value: VALUE }, undefined).failures![0].reason, /lives in a workspace: set workspaceId/);
        assert.deepEqual(writes(em()), []);
    });

    it("diff: a new value updates in place; another key or workspace replaces; the provider's workspace written out is no change", async () => {
        const made = await provider().create(checked({ key: uniqueName("K"), value: VALUE }));
        const d = async (news: Record<string, unknown>): Promise<TableDiffResult> =>
            provider().diff!(made.id, made.outs, checked({ key: made.outs.key, value: VALUE, ...news }));
        assert.deepEqual(await d({}), { changes: false, replaces: [], updates: [] });
        assert.equal((await d({ workspaceId: TEST_TENANT })).changes, false);
        assert.deepEqual((await d({ value: "other" })).updates, ["value"]);
        assert.deepEqual((await d({ key: "OTHER" })).replaces, ["key"]);
        assert.deepEqual((await d({ workspaceId: "99999999-8888-4777-8666-555555555555" })).replaces, ["workspaceId"]);
    });

    it("create, refresh (the value kept from the state), update (one POST upsert, the description's), delete; in another workspace too", async () => {
        const p = provider();
        const key = uniqueName("OPENAI_API_KEY");
        const made = await p.create(checked({ key, value: VALUE }));
        assert.deepEqual([made.id, made.outs.tenantId, await stored(key)], [key, TEST_TENANT, VALUE]);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, { key, value: VALUE }, "nothing changed reads back as the inputs");

        em().admin.requests.length = 0;
        const updated = await p.update!(made.id, made.outs, checked({ key, value: "rotated" }));
        assert.deepEqual([await stored(key), writes(em()).map((r) => `${r.method} ${r.path}`)], ["rotated", ["POST /api/v1/workspaces/current/secrets"]]);
        await p.delete!(made.id, updated.outs);
        assert.deepEqual([await keys(), await p.read!(made.id, updated.outs)], [[], {}]);
        await p.delete!(made.id, updated.outs); // already gone: done

        const ws = await newWorkspace(em());
        const there = await p.create(checked({ key, value: VALUE, workspaceId: ws }));
        assert.deepEqual([there.outs.tenantId, await keys(ws), await keys()], [ws, [key], []]);
        await p.delete!(there.id, there.outs);
        assert.deepEqual(await keys(ws), []);
    });

    it("import by key or <workspaceId>/<key>: the value unknown, set by the first up (one upsert)", async () => {
        const ws = await newWorkspace(em());
        await raw(em(), "PUT", "/api/v1/workspaces/current/secrets/IMPORTED", { tenantId: ws, body: { value: "theirs" } });
        await raw(em(), "PUT", "/api/v1/workspaces/current/secrets/MINE", { body: { value: "theirs" } });
        const p = provider();
        const mine = await p.read!("MINE");
        assert.deepEqual([mine.id, mine.inputs, mine.props?.tenantId], ["MINE", { key: "MINE" }, TEST_TENANT]);
        const imported = await p.read!(`${ws}/IMPORTED`);
        assert.deepEqual([imported.inputs, imported.props?.tenantId], [{ key: "IMPORTED", workspaceId: ws }, ws]);
        const news = checked({ key: "IMPORTED", value: VALUE, workspaceId: ws });
        const d: TableDiffResult = await p.diff!(imported.id!, imported.props!, news);
        assert.deepEqual([d.replaces, d.updates], [[], ["value"]]);
        await p.update!(imported.id!, imported.props!, news);
        assert.equal(await stored("IMPORTED", ws), VALUE);
        assert.deepEqual(await p.read!("NONE"), {});
    });

    it("create: a key the workspace holds is refused (its value untouched); LANGSMITH_ADOPT_IDS=<workspaceId>/<key> takes it in and sets the value, the key alone does not", async () => {
        const key = uniqueName("TAKEN");
        await raw(em(), "PUT", `/api/v1/workspaces/current/secrets/${key}`, { body: { value: "theirs" } });
        const err = String(await rejection(() => provider().create(checked({ key, value: VALUE }))));
        assert.match(err, new RegExp(`already holds a secret named "${key}"[\\s\\S]*LANGSMITH_ADOPT_IDS=${TEST_TENANT}/${key} pulumi up`));
        assert.doesNotMatch(err, new RegExp(VALUE));
        assert.equal(await stored(key), "theirs");
        await rejection(() => withEnv({ LANGSMITH_ADOPT_IDS: key }, () => provider().create(checked({ key, value: VALUE }))));
        assert.equal(await stored(key), "theirs", "a key alone names no workspace: not taken");
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: `${TEST_TENANT}/${key}` }, () => provider().create(checked({ key, value: VALUE })));
        assert.deepEqual([adopted.id, await stored(key)], [key, VALUE]);
    });

    it("a lost answer is sent again harmlessly (an upsert: one secret); the value is in no error, even one the service echoes", async () => {
        const key = uniqueName("LOST");
        em().addFault({ method: "POST", path: "^/api/v1/workspaces/current/secrets$", kind: "status", status: 502, when: "after" });
        await provider().create(checked({ key, value: VALUE }));
        assert.deepEqual([await keys(), await stored(key)], [[key], VALUE]);

        em().addFault({ method: "POST", path: "^/api/v1/workspaces/current/secrets$", kind: "status", status: 400, body: { detail: `refused ${VALUE}` } });
        const err = await rejection(() =>
            provider().update!(key, { key, value: "old", tenantId: TEST_TENANT, schemaVersion: 1 }, checked({ key, value: VALUE })),
        );
        assert.match(String(err), /refused/);
        assert.doesNotMatch(`${String(err)} ${JSON.stringify(err)}`, new RegExp(VALUE));
    });

    it("a new value keeps the hosts a person set for the secret (configs): the upsert never restores the default hosts", async () => {
        const key = uniqueName("HOSTED");
        const made = await provider().create(checked({ key, value: VALUE }));
        const hosts = [{ host_pattern: "api.openai.com", header_name: "Authorization", header_value_template: "Bearer {value}" }];
        await raw(em(), "PUT", `/api/v1/workspaces/current/secrets/${key}`, { body: { configs: hosts } });
        await provider().update!(made.id, made.outs, checked({ key, value: "rotated" }));
        const listed = (await raw(em(), "GET", "/api/v1/workspaces/current/secrets?include_configs=true", {})).body.find((x: { key: string }) => x.key === key);
        assert.deepEqual([await stored(key), listed.configs], ["rotated", hosts]);
    });
});
