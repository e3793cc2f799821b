/**
 * Listener (provider/controlPlane/listener) against the emulator's control plane over HTTP: bad input at preview
 * on its property (nothing sent); create, refresh, drift from a change made elsewhere, namespaces changed in
 * place, import by id, delete; a `Deployment` on it (its `listenerId` a real listener's); deleting a listener
 * still used, or dropping a namespace a deployment runs in, refused in the service's words naming the
 * deployments; a computeId already registered refused, adopted with LANGSMITH_ADOPT_IDS; a lost create answer
 * looked up by the computeId, never sent twice.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../../provider/api/client";
import { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { checkListener, createListenerProvider } from "../../../../provider/controlPlane/listener/provider";
import type { TableDiffResult } from "../../../../provider/kit/diff";
import { withEnv } from "../../../helpers/async";
import { TEST_API_KEY, TEST_TENANT, dockerBody, raw, rejection, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";
import { writes } from "../../../helpers/orgProviders";

describe("Listener", function () {
    this.timeout(20_000);
    let em: Emulator;
    before(async () => void (em = await startTestEmulator({ timing: { speed: "immediate" } })));
    after(() => em.close());
    afterEach(() => em.reset());
    const cp = () =>
        new ControlPlaneClient(
            new HttpClient({ baseUrl: `${em.url}/api-host`, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, retryBaseMs: 5, retryMaxMs: 20, settleMs: 200 }),
        );
    const provider = () => createListenerProvider({ client: cp });
    const checked = (news: Record<string, unknown>) => {
        const r = checkListener(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as any;
    };
    const listeners = async () => (await raw(em, "GET", "/v2/listeners")).body.resources;

    it("check: an unknown compute type, no namespace, a namespace that is no DNS label or given twice fail on their properties; nothing sent", async () => {
        em.admin.requests.length = 0;
        const r = checkListener({ computeType: "ecs", computeId: "c", k8sNamespaces: [] });
        assert.deepEqual(r.failures?.map((f) => f.property)?.sort(), ["computeType", "k8sNamespaces"]);
        const names = checkListener({ computeId: "c", k8sNamespaces: ["Agents", "ok", "ok"] });
        assert.deepEqual(
            names.failures?.map((f) => [f.property, f.reason.slice(0, 30)]),
            [
                ["k8sNamespaces[0]", '"Agents" is no Kubernetes name'],
                ["k8sNamespaces[2]", "k8sNamespaces names ok twice"],
            ],
        );
        assert.equal(checked({ computeId: "c", k8sNamespaces: ["a"] }).computeType, "k8s");
        assert.deepEqual(writes(em), []);
    });

    it("create, refresh, drift from a change elsewhere, namespaces changed in place, import by id, delete", async () => {
        const p = provider();
        const args = { computeId: uniqueName("cluster"), k8sNamespaces: ["agents"] };
        const made = await p.create(checked(args));
        assert.deepEqual(
            (await listeners()).map((l: { id: string }) => l.id),
            [made.id],
        );
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, { computeType: "k8s", ...args });
        await raw(em, "PATCH", `/v2/listeners/${made.id}`, { body: { compute_config: { k8s_namespaces: ["agents", "extra"] } } });
        const drifted = await p.read!(made.id, made.outs);
        const d: TableDiffResult = await p.diff!(made.id, drifted.props, checked(args));
        assert.deepEqual([d.replaces, d.updates], [[], ["k8sNamespaces"]]);
        assert.deepEqual(((await p.diff!(made.id, drifted.props, checked({ ...args, computeId: "other" }))) as TableDiffResult).replaces, ["computeId"]);
        const updated = await p.update!(made.id, drifted.props, checked({ ...args, k8sNamespaces: ["agents", "batch"] }));
        assert.deepEqual((await listeners())[0].compute_config.k8s_namespaces, ["agents", "batch"]);
        assert.deepEqual((await p.read!(made.id, {})).inputs, { computeType: "k8s", computeId: args.computeId, k8sNamespaces: ["agents", "batch"] });
        await p.delete!(made.id, updated.outs);
        assert.deepEqual([await listeners(), await p.read!(made.id, updated.outs)], [[], {}]);
        await p.delete!(made.id, updated.outs); // already gone: done
    });

    it("a deployment on it: deleting the listener, or dropping the deployment's namespace, is refused naming the deployment; once it is gone, deleted", async () => {
        const p = provider();
        const made = await p.create(checked({ computeId: uniqueName("cluster"), k8sNamespaces: ["agents", "batch"] }));
        const name = uniqueName("hybrid");
        const dep = await raw(em, "POST", "/api-host/v2/deployments", {
            body: dockerBody(name, { source_config: { listener_id: made.id, listener_config: { k8s_namespace: "agents" } } } as never),
        });
        assert.equal(dep.status, 201, dep.text);
        const used = String(await rejection(() => p.delete!(made.id, made.outs)));
        assert.match(
            used,
            new RegExp(
                `Listener ${made.id}: the service refuses while deployments use it: Listener ${made.id} is still used by deployments: ${name}; delete them first\\.`,
            ),
        );
        const dropped = String(await rejection(() => p.update!(made.id, made.outs, checked({ computeId: made.outs.computeId, k8sNamespaces: ["batch"] }))));
        assert.match(dropped, new RegExp(`namespaces still used by deployments: ${name} \\(agents\\)`));
        await raw(em, "DELETE", `/api-host/v2/deployments/${dep.body.id}`);
        await p.delete!(made.id, made.outs);
        assert.deepEqual(await listeners(), []);
    });

    it("a computeId already registered is refused naming the listener; LANGSMITH_ADOPT_IDS=<id> takes it in; a lost answer is looked up, never sent twice", async () => {
        const computeId = uniqueName("cluster");
        const theirs = (
            await raw(em, "POST", "/v2/listeners", { body: { compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: ["a"] } } })
        ).body;
        const err = String(await rejection(() => provider().create(checked({ computeId, k8sNamespaces: ["b"] }))));
        assert.match(err, new RegExp(`already has listener ${theirs.id} for compute "${computeId}"[\\s\\S]*LANGSMITH_ADOPT_IDS=${theirs.id}`));
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: theirs.id }, () => provider().create(checked({ computeId, k8sNamespaces: ["b"] })));
        assert.deepEqual([adopted.id, (await listeners())[0].compute_config.k8s_namespaces], [theirs.id, ["b"]]);

        em.addFault({ method: "POST", path: "^/v2/listeners$", kind: "status", status: 502, when: "after" });
        em.admin.requests.length = 0;
        const lost = await provider().create(checked({ computeId: uniqueName("lost"), k8sNamespaces: ["a"] }));
        assert.deepEqual([(await listeners()).filter((l: { id: string }) => l.id === lost.id).length, writes(em).length], [1, 1]);
    });
});
