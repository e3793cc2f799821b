/**
 * The server that holds to the descriptions alone (describedOnly.ts): undescribed operations refused as the
 * service's framework refuses them, answers cut to the declared fields at every depth, the tests' own paths
 * passed through.
 */
import assert from "node:assert/strict";
import { request } from "undici";
import { type Emulator, startTestEmulator, TEST_API_KEY, TEST_TENANT } from "../helpers/emulator";
import { Descriptions } from "./description";
import { type DescribedOnlyServer, pruneAnswer, startDescribedOnly } from "./describedOnly";

const descriptions = new Descriptions();

describe("described-only server", () => {
    it("prune: undeclared fields go at every depth; declared ones, free-form maps and nulls stay", () => {
        const add = descriptions.find("POST", "/api/v1/workspaces/current/members")!;
        const identity = { id: "i", organization_id: "o", created_at: "t", user_id: "u", ls_user_id: "l", read_only: false, email: "a@b.c" };
        const { email: _e, ...described } = identity;
        assert.deepEqual(pruneAnswer(descriptions, add, 200, identity), described);
        const list = descriptions.find("GET", "/api/v1/orgs/current/members")!;
        const pruned = pruneAnswer(descriptions, list, 200, { organization_id: "o", members: [{ ...identity, surprise: 1 }], pending: [], extra: true }) as any;
        assert.deepEqual(Object.keys(pruned).sort(), ["members", "organization_id", "pending"]);
        assert.equal(pruned.members[0].email, "a@b.c");
        assert.equal(pruned.members[0].surprise, undefined);
        const session = descriptions.find("GET", "/api/v1/sessions/{session_id}")!;
        const s = pruneAnswer(descriptions, session, 200, { id: "s", tenant_id: "t", extra: { metadata: { k: { deep: 1 } } }, description: null }) as any;
        assert.deepEqual(s.extra, { metadata: { k: { deep: 1 } } });
        assert.equal(s.description, null);
    });

    describe("in front of an emulator", () => {
        let emulator: Emulator;
        let proxy: DescribedOnlyServer;
        before(async () => {
            emulator = await startTestEmulator();
            proxy = await startDescribedOnly(emulator.url, descriptions);
        });
        after(async () => {
            await proxy.close();
            await emulator.close();
        });
        const call = (method: string, path: string, body?: unknown) =>
            request(`${proxy.url}${path}`, {
                method: method as "GET",
                headers: { "x-api-key": TEST_API_KEY, "x-tenant-id": TEST_TENANT, "content-type": "application/json" },
                body: body === undefined ? undefined : JSON.stringify(body),
            });

        it("newer operations: 404 where the path is unknown, 405 where it has other methods; described ones answer", async () => {
            const put = await call("PUT", "/api/v1/workspaces/current/secrets/K", { value: "v" });
            assert.equal(put.statusCode, 404);
            assert.deepEqual(await put.body.json(), { detail: "Not Found" });
            const patch = await call("PATCH", "/api/v1/orgs/current/service-keys/6f1c2f36-1c1b-4a51-8d3a-0e3f7b1f3a10", { role_id: null });
            assert.equal(patch.statusCode, 405);
            await patch.body.dump();
            const upsert = await call("POST", "/api/v1/workspaces/current/secrets", [{ key: "K", value: "v" }]);
            assert.equal(upsert.statusCode, 200);
            await upsert.body.dump();
            const admin = await request(`${proxy.url}/__admin/org/secrets/${TEST_TENANT}/K`);
            assert.deepEqual(await admin.body.json(), { value: "v" });
        });
    });
});
