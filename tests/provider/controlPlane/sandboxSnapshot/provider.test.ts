/**
 * SandboxSnapshot (provider/controlPlane/sandboxSnapshot) against the emulator's sandboxes over HTTP, through the
 * provider's real wiring: bad input at preview on its property (nothing sent); a snapshot built from an image awaited
 * until ready; a box started from it, and a snapshot captured from that box; deleting a snapshot a box uses refused
 * naming the box, nothing lost; a failed build kept in the stack, then replaced; a create a killed run made refused
 * naming it, taken with LANGSMITH_ADOPT_IDS; drift (deleted elsewhere); import by id.
 */
import assert from "node:assert/strict";
import { checkSandboxSnapshot, createSandboxSnapshotProvider } from "../../../../provider/controlPlane/sandboxSnapshot/provider";
import { ResourceInitError } from "../../../../provider/kit/initError";
import { withEnv } from "../../../helpers/async";
import { raw, rejection, uniqueName } from "../../../helpers/emulator";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

const GiB = 1024 ** 3;
const BASE = "/api/v2/sandboxes";

describe("SandboxSnapshot", function () {
    this.timeout(30_000);
    const fixture = orgEmulator();
    const em = () => fixture.get();
    const checked = (news: Record<string, unknown>) => {
        const r = checkSandboxSnapshot(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as any;
    };
    const image = (over: Record<string, unknown> = {}) => ({ name: uniqueName("snap"), dockerImage: "python:3.12-slim", fsCapacityBytes: 4 * GiB, ...over });

    it("check: neither or both sources, a missing or non-positive capacity, a field of the other source fail on their properties; nothing sent", async () => {
        em().admin.requests.length = 0;
        assert.deepEqual(
            checkSandboxSnapshot({ name: "s" }).failures?.map((f) => f.property),
            ["dockerImage"],
        );
        assert.deepEqual(
            checkSandboxSnapshot({ name: "s", dockerImage: "i", sourceBox: "b", fsCapacityBytes: 1 }).failures?.map((f) => f.property),
            ["sourceBox"],
        );
        assert.deepEqual(
            checkSandboxSnapshot({ name: "s", dockerImage: "i" }).failures?.map((f) => f.property),
            ["fsCapacityBytes"],
        );
        assert.match(checkSandboxSnapshot({ name: "s", dockerImage: "i", fsCapacityBytes: -1 }).failures![0].reason, /positive whole number/);
        assert.deepEqual(
            checkSandboxSnapshot({ name: "s", sourceBox: "b", registryId: "r" }).failures?.map((f) => f.property),
            ["registryId"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("built from an image and awaited until ready; a box started from it; its delete refused naming the box, nothing lost; once the box is gone, deleted", async () => {
        const p = createSandboxSnapshotProvider();
        const a = image();
        const made = await p.create(checked(a));
        assert.deepEqual([made.outs.status, made.outs.sourceSandboxId], ["ready", null]);
        assert.match(made.outs.imageDigest, /^sha256:/);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, a);
        assert.deepEqual((await p.read!(made.id, {})).inputs, a, "import by id");
        const box = await raw(em(), "POST", `${BASE}/boxes`, { body: { name: uniqueName("box"), snapshot_id: made.id } });
        assert.equal(box.status, 201, box.text);
        const refused = await rejection(() => p.delete!(made.id, made.outs));
        assert.equal(
            refused.message,
            `SandboxSnapshot ${made.id}: sandboxes still use it: ${box.body.name}. Delete them or start them from another snapshot first; nothing was deleted.`,
        );
        // The service refuses it too, naming the box (a delete racing a box's start).
        const wire = await raw(em(), "DELETE", `${BASE}/snapshots/${made.id}`);
        assert.deepEqual([wire.status, wire.body.detail.message], [409, `Snapshot ${made.id} is used by sandboxes: ${box.body.name}; delete them first`]);
        assert.equal((await p.read!(made.id, made.outs)).props?.status, "ready", "nothing lost");
        await raw(em(), "DELETE", `${BASE}/boxes/${box.body.name}`);
        await p.delete!(made.id, made.outs);
        assert.deepEqual(await p.read!(made.id, made.outs), {}, "gone");
    });

    it("captured from a running box: awaited until ready, its source the box", async () => {
        em().setTiming({ speed: "immediate" });
        const base = await createSandboxSnapshotProvider().create(checked(image()));
        const box = await raw(em(), "POST", `${BASE}/boxes`, { body: { name: uniqueName("box"), snapshot_id: base.id } });
        const p = createSandboxSnapshotProvider();
        const a = { name: uniqueName("warm"), sourceBox: box.body.name, includeMemory: true };
        const made = await p.create(checked(a));
        assert.deepEqual([made.outs.status, made.outs.sourceSandboxId], ["ready", box.body.id]);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, a);
    });

    it("a failed build fails the up with the service's words and keeps it; the next up replaces it; a timeout names the status", async () => {
        const a = image({ dockerImage: "registry.example.com/missing:1" });
        em().sandboxes.model.failImages.add(a.dockerImage);
        const e = await rejection(() => createSandboxSnapshotProvider().create(checked(a)));
        assert.ok(e instanceof ResourceInitError, e.message);
        assert.match(
            e.message,
            /^sandbox snapshot \S+ \(\S+\) ended failed: pulling registry.example.com\/missing:1: manifest unknown\. It is kept in the stack/,
        );
        assert.deepEqual((await createSandboxSnapshotProvider().diff!(e.id, e.properties as any, checked(a))).replaces, ["status"]);
        const slow = await rejection(() => createSandboxSnapshotProvider().create(checked(image({ timeouts: { create: 0.2 } }))));
        assert.match(slow.message, /^timed out after 0.2s waiting for sandbox snapshot \S+ \(\S+\) to be ready; last status building\./);
    });

    it("a create a killed run made is refused naming it; LANGSMITH_ADOPT_IDS takes it; deleted elsewhere, it leaves the stack", async () => {
        em().setTiming({ speed: "immediate" });
        const a = image();
        const left = await raw(em(), "POST", `${BASE}/snapshots`, {
            body: { name: a.name, docker_image: a.dockerImage, fs_capacity_bytes: a.fsCapacityBytes },
        });
        assert.equal(left.status, 201, left.text);
        const refused = await rejection(() => createSandboxSnapshotProvider().create(checked(a)));
        assert.match(refused.message, new RegExp(`already holds snapshot ${left.body.id}.*LANGSMITH_ADOPT_IDS=${left.body.id}`, "s"));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: left.body.id }, () => createSandboxSnapshotProvider().create(checked(a)));
        assert.equal(taken.id, left.body.id);
        await raw(em(), "DELETE", `${BASE}/snapshots/${taken.id}`);
        assert.deepEqual(await createSandboxSnapshotProvider().read!(taken.id, taken.outs), {});
    });
});
