/**
 * The Deployment provider's read (what `pulumi refresh` does) against the emulator over real HTTP: inputs
 * that diff as no change against the program when nothing changed, changes made outside Pulumi shown as
 * drift, {} for a deployment gone or being deleted, a version-0 state; and the settings a program removes
 * (customUrl, buildOnPush, resourceSpec keys, a secret) leave no diff that never goes away.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { uniqueName, type Emulator } from "../../../helpers/emulator";
import { PROVIDER, SECRET, dockerArgs, githubArgs, inputsOf, recorded } from "../../../helpers/deploymentInputs";
import { FAST_PHASES, MISSING_ID, useDeploymentProvider, type Provider } from "../../../helpers/deploymentProvider";

describe("Deployment provider against the emulator", function () {
    this.timeout(10_000);
    let em: Emulator;
    let cp: ControlPlaneClient;
    let provider: Provider;
    let dockerProvider: Provider;
    const { create } = useDeploymentProvider((w) => ({ em, cp, provider, dockerProvider } = w));

    describe("read", () => {
        it("read: nothing changed maps back to inputs equal to the checked inputs", async () => {
            const name = uniqueName("read-same");
            const { inputs, id, outs } = await create(
                githubArgs(name, { secrets: [{ name: "A", value: SECRET }], sourceConfig: { resourceSpec: { min_scale: 1 } } }),
            );
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.id, id);
            assert.deepEqual(r.props, outs);
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: nothing changed (external_docker with customUrl) maps back to the checked inputs", async () => {
            const name = uniqueName("read-same-img");
            const { inputs, id, outs } = await create(dockerArgs(name, { sourceConfig: { customUrl: "https://agent.example.com" } }));
            const r = await dockerProvider.read!(id, recorded(outs));
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: nothing changed gives back the outputs and the checked inputs", async () => {
            const name = uniqueName("read-same-keys");
            const { inputs, id, outs } = await create(
                githubArgs(name, { secrets: [{ name: "A", value: SECRET }], sourceConfig: { resourceSpec: { min_scale: 1 } } }),
            );
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.id, id);
            assert.deepEqual(r.props, outs);
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: nothing changed (external_docker with customUrl and timeouts) gives back the checked inputs", async () => {
            const name = uniqueName("read-same-img-keys");
            const { inputs, id, outs } = await create(
                dockerArgs(name, { sourceConfig: { customUrl: "https://agent.example.com" }, timeouts: { create: 60 }, waitForDeployed: true }),
            );
            const r = await dockerProvider.read!(id, recorded(outs));
            assert.deepEqual(r.props, outs);
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: the inputs it returns diff as no change against the program (refresh then preview shows nothing)", async () => {
            const name = uniqueName("read-diff");
            const { inputs, id, outs } = await create(githubArgs(name, { secrets: [{ name: "A", value: SECRET }] }));
            const r = await provider.read!(id, recorded(outs));
            const d = await provider.diff!(id, { ...r.props, __provider: PROVIDER }, inputs);
            assert.equal(d.changes, false);
            // Secret values cannot be read back: known names keep their recorded values.
            assert.deepEqual(r.inputs!.secrets, [{ name: "A", value: SECRET }]);
        });

        it("read: shows buildOnPush flipped outside Pulumi", async () => {
            const name = uniqueName("read-drift");
            const { inputs, id, outs } = await create(githubArgs(name));
            em.controlPlane.editDeployment(id, { source_config: { build_on_push: true } });
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.inputs!.sourceConfig.buildOnPush, true);
            assert.equal(r.props!.sourceConfig.buildOnPush, true);
            // The next up brings it back.
            const d = await provider.diff!(id, { ...r.props, __provider: PROVIDER }, inputs);
            assert.equal(d.changes, true);
            assert.deepEqual(d.replaces, []);
        });

        it("read: shows a new repoRef pushed by a PATCH made outside", async () => {
            const name = uniqueName("read-ref");
            const { id, outs } = await create(githubArgs(name));
            await cp.patchDeployment(id, { source_revision_config: { repo_ref: "hotfix" } });
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.inputs!.sourceRevisionConfig.repoRef, "hotfix");
            assert.equal(r.inputs!.sourceRevisionConfig.graphConfigPath, "langgraph.json");
            assert.notEqual(r.props!.latestRevisionId, outs.latestRevisionId);
            assert.equal(r.props!.revisionStatus, "DEPLOYED");
        });

        it("read: shows a resourceSpec key the program manages changed outside, not the keys it does not", async () => {
            const name = uniqueName("read-spec");
            const { id, outs } = await create(dockerArgs(name, { sourceConfig: { resourceSpec: { min_scale: 1 } } }));
            em.controlPlane.editDeployment(id, { source_config: { resource_spec: { min_scale: 2, cpu: 8 } } });
            const r = await dockerProvider.read!(id, recorded(outs));
            assert.deepEqual(r.inputs!.sourceConfig.resourceSpec, { min_scale: 2 });
        });

        it("read: a renamed deployment shows the new name (a replace on the next up)", async () => {
            const name = uniqueName("read-rename");
            const { inputs, id, outs } = await create(githubArgs(name));
            em.controlPlane.editDeployment(id, { name: `${name}-x` });
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.inputs!.name, `${name}-x`);
            const d = await provider.diff!(id, { ...r.props, __provider: PROVIDER }, inputs);
            assert.deepEqual(d.replaces, ["name"]);
        });

        it("read: returns {} when the deployment is gone", async () => {
            const name = uniqueName("read-gone");
            const { id, outs } = await create(githubArgs(name));
            await cp.deleteDeployment(id);
            assert.deepEqual(await provider.read!(id, recorded(outs)), {});
        });

        it("read: returns {} while the deployment is being deleted", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const name = uniqueName("read-deleting");
            const { id, outs } = await create(githubArgs(name));
            await cp.deleteDeployment(id);
            assert.equal((await cp.getDeployment(id)).status, "AWAITING_DELETE");
            assert.deepEqual(await provider.read!(id, recorded(outs)), {});
        });

        it("read: returns {} for an id that never existed", async () => {
            assert.deepEqual(await provider.read!(MISSING_ID, {}), {});
        });

        it("read: works from a version-0 state (no computed outputs recorded)", async () => {
            const name = uniqueName("read-v0");
            const { inputs, id } = await create(githubArgs(name));
            const r = await provider.read!(id, { ...inputs });
            assert.equal(r.id, id);
            assert.equal((r.props as Record<string, any>).revisionStatus, "DEPLOYED");
            assert.equal((r.props as Record<string, any>).schemaVersion, 1);
            assert.equal(r.inputs!.sourceRevisionConfig.repoRef, "main");
        });
    });

    describe("no diff that never goes away", () => {
        /** Up with `before`, up with `after`, refresh: the next preview must be clean. */
        async function settlesClean(before: Record<string, unknown>, after: Record<string, unknown>) {
            const { id, outs } = await create(before);
            const p = before.source === "external_docker" ? dockerProvider : provider;
            const news = inputsOf(after);
            const updated = (await p.update!(id, recorded(outs), news)).outs;
            const refreshed = (await p.read!(id, recorded(updated))).props!;
            return p.diff!(id, recorded(refreshed), news);
        }
        const secrets = [
            { name: "OPENAI_API_KEY", value: SECRET },
            { name: "SEARCH_KEY", value: "search-key-value" },
        ];
        const cases: Array<[string, (n: string) => [Record<string, unknown>, Record<string, unknown>]]> = [
            ["customUrl removed (external_docker)", (n) => [dockerArgs(n, { sourceConfig: { customUrl: "https://agent.example.com" } }), dockerArgs(n)]],
            ["buildOnPush true removed (github)", (n) => [githubArgs(n, { sourceConfig: { buildOnPush: true } }), githubArgs(n)]],
            [
                "a resourceSpec key removed",
                (n) => [
                    githubArgs(n, { sourceConfig: { resourceSpec: { min_scale: 1, max_scale: 3 } } }),
                    githubArgs(n, { sourceConfig: { resourceSpec: { min_scale: 1 } } }),
                ],
            ],
            ["resourceSpec removed", (n) => [githubArgs(n, { sourceConfig: { resourceSpec: { min_scale: 2 } } }), githubArgs(n)]],
            ["one of two secrets removed", (n) => [githubArgs(n, { secrets }), githubArgs(n, { secrets: [secrets[0]] })]],
        ];
        for (const [what, make] of cases) {
            it(`diff: ${what}: up, refresh, and the next preview is clean`, async () => {
                const d = await settlesClean(...make(uniqueName("unmanaged")));
                assert.equal(d.changes, false, JSON.stringify(d));
            });
        }
    });
});
