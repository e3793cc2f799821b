/**
 * Deleting a deployment on the emulated control plane, over real HTTP through the real client and raw:
 * 204, then AWAITING_DELETE until the deletion time has passed (by the emulator's clock or real time), then
 * 404; a PATCH meanwhile is refused, delete_tracing_project is accepted, an unknown deployment is a 404.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { admin, clientForSource, dockerBody, raw, sleep, type Emulator } from "../helpers/emulator";
import { MISSING_ID, useControlPlaneEmulator } from "../helpers/controlPlaneEmulator";

describe("emulator: control plane", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;
    useControlPlaneEmulator((w) => ({ em, cp } = w));

    describe("delete", () => {
        it("delete: 204, then AWAITING_DELETE until deleteMs has passed (clock advance), then 404", async () => {
            em.setTiming({ speed: "timed", deleteMs: 60_000 });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const res = await raw(em, "DELETE", `/v2/deployments/${d.id}`);
            assert.equal(res.status, 204);
            assert.equal(res.text, "");
            const during = await cp.getDeployment(d.id);
            assert.equal(during.status, "AWAITING_DELETE");
            assert.equal((await cp.listDeployments()).resources.length, 1, "still listed while being deleted");
            // A second DELETE while it is going is harmless.
            assert.equal((await raw(em, "DELETE", `/v2/deployments/${d.id}`)).status, 204);
            await admin(em, "POST", "/clock/advance", { ms: 60_000 });
            const gone = await raw(em, "GET", `/v2/deployments/${d.id}`);
            assert.equal(gone.status, 404);
            assert.deepEqual(gone.body, { detail: `Deployment ID ${d.id} not found.` });
            assert.deepEqual((await cp.listDeployments()).resources, []);
            assert.equal(await cp.deleteDeployment(d.id), false, "DELETE of a gone deployment is a 404");
        });

        it("delete: with a small deleteMs the deployment answers 404 after real time passes", async () => {
            // A second: room for the read after the DELETE on a loaded machine.
            em.setTiming({ speed: "timed", deleteMs: 1_000 });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            assert.equal(await cp.deleteDeployment(d.id), true);
            assert.equal((await cp.getDeployment(d.id)).status, "AWAITING_DELETE");
            await sleep(1_100);
            assert.equal(await cp.tryGetDeployment(d.id), undefined);
        });

        it("delete: a PATCH while the deployment is being deleted is refused", async () => {
            em.setTiming({ speed: "timed", deleteMs: 60_000 });
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            await cp.deleteDeployment(d.id);
            const res = await raw(em, "PATCH", `/v2/deployments/${d.id}`, { body: { source_config: { custom_url: "https://x.example.com" } } });
            assert.equal(res.status, 400);
        });

        it("delete: delete_tracing_project is accepted", async () => {
            const { deployment: d } = await clientForSource(em, "external_docker").createDeployment(dockerBody());
            const res = await raw(em, "DELETE", `/v2/deployments/${d.id}?delete_tracing_project=true`);
            assert.equal(res.status, 204);
        });

        it("delete: an unknown deployment gives 404", async () => {
            const res = await raw(em, "DELETE", `/v2/deployments/${MISSING_ID}`);
            assert.equal(res.status, 404);
            assert.deepEqual(res.body, { detail: `Deployment ID ${MISSING_ID} not found.` });
        });
    });
});
