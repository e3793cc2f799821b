/**
 * The control plane's listeners on the emulated service (docs/service.md R12), over real HTTP: a computeId once
 * per workspace (409), the compute fixed (a PATCH naming it is a 422), workspaces isolated, a deployment's
 * unknown listener refused (400), kept in `--state-dir`. No official client reads listeners: the contract check
 * judges the exchanges (the paths are newer than the description: tests/contract/newer.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OTHER_TENANT, dockerBody, raw, startTestEmulator, type Emulator } from "../helpers/emulator";

const body = (computeId: string) => ({ compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: ["agents"] } });

describe("emulator: listeners", () => {
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());
    beforeEach(() => em.reset());

    it("a computeId once per workspace (409), compute fixed (422 on a PATCH naming it), workspaces isolated, 404 once deleted", async () => {
        const made = await raw(em, "POST", "/v2/listeners", { body: body("c1") });
        assert.equal(made.status, 201);
        assert.equal((await raw(em, "POST", "/v2/listeners", { body: body("c1") })).status, 409);
        assert.equal((await raw(em, "POST", "/v2/listeners", { body: body("c1"), tenantId: OTHER_TENANT })).status, 201, "another workspace");
        assert.equal((await raw(em, "POST", "/v2/listeners", { body: { ...body("c2"), compute_type: "ecs" } })).status, 422);
        const fixed = await raw(em, "PATCH", `/v2/listeners/${made.body.id}`, { body: { compute_id: "c3", compute_config: { k8s_namespaces: ["x"] } } });
        assert.equal(fixed.status, 422);
        assert.equal((await raw(em, "GET", `/v2/listeners/${made.body.id}`, { tenantId: OTHER_TENANT })).status, 404);
        assert.equal((await raw(em, "GET", "/v2/listeners")).body.resources.length, 1);
        assert.equal((await raw(em, "DELETE", `/v2/listeners/${made.body.id}`)).status, 204);
        assert.equal((await raw(em, "DELETE", `/v2/listeners/${made.body.id}`)).status, 404);
    });

    it("a deployment naming a listener the workspace does not have is refused (400); listeners are kept in --state-dir", async () => {
        const refused = await raw(em, "POST", "/api-host/v2/deployments", {
            body: dockerBody("on-nothing", { source_config: { listener_id: "00000000-0000-4000-8000-000000000000" } } as never),
        });
        assert.equal(refused.status, 400);
        assert.match(refused.body.detail, /Listener ID 00000000-0000-4000-8000-000000000000 not found/);
        const dir = mkdtempSync(join(tmpdir(), "listeners-"));
        const disk = await startTestEmulator({ stateDir: dir });
        try {
            await raw(disk, "POST", "/v2/listeners", { body: body("kept") });
        } finally {
            await disk.close();
        }
        const again = await startTestEmulator({ stateDir: dir });
        try {
            assert.deepEqual(
                (await raw(again, "GET", "/v2/listeners")).body.resources.map((l: { compute_id: string }) => l.compute_id),
                ["kept"],
            );
        } finally {
            await again.close();
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
