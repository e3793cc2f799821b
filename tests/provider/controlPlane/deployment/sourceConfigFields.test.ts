/**
 * The source-config fields added by declaring them once (provider/controlPlane/deployment/declare.ts): `listenerId` and
 * `listenerConfig.k8sNamespace` (hybrid deployments: `external_docker`, fixed at creation) and
 * `installCommand` / `buildCommand` (JS graphs built from `github`, updated in place). Check, diff and the
 * wire in both directions come from the declaration; the emulator, in the real dialect, takes what is sent.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../../provider/api/client";
import { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { checkDeployment, createDeploymentProvider, diffDeployment, readState } from "../../../../provider/controlPlane/deployment/index";
import { TEST_API_KEY, TEST_TENANT, raw, rejection, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";

const INTEGRATION = "00000000-0000-4000-8000-00000000beef";
const LISTENER = "00000000-0000-4000-8000-0000000115e7";

const github = (name: string, sourceConfig: Record<string, unknown> = {}) => ({
    name,
    source: "github",
    sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent", ...sourceConfig },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
    __provider: "p",
});
const docker = (name: string, sourceConfig: Record<string, unknown> = {}) => ({
    name,
    source: "external_docker",
    sourceConfig,
    sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:1.0.0" },
    __provider: "p",
});

function checked(args: Record<string, unknown>): Record<string, any> {
    const r = checkDeployment(args);
    assert.deepEqual(r.failures, []);
    return r.inputs as Record<string, any>;
}

describe("Deployment: listenerId, listenerConfig, installCommand, buildCommand", function () {
    this.timeout(10_000);

    it("check: listener fields are refused for github, build commands for external_docker, each on its property", () => {
        const gh = checkDeployment(github("a", { listenerId: LISTENER, listenerConfig: { k8sNamespace: "agents" } }), "cloud");
        assert.deepEqual(
            gh.failures?.map((f) => f.property),
            ["sourceConfig.listenerId", "sourceConfig.listenerConfig"],
        );
        assert.match(gh.failures![0].reason, /listenerId applies only to source external_docker/);
        const img = checkDeployment(docker("a", { installCommand: "yarn install" }), "self-hosted");
        assert.deepEqual(img.failures, [{ property: "sourceConfig.installCommand", reason: "installCommand applies only to source github" }]);
        const typo = checkDeployment(docker("a", { listenerConfig: { k8sNamespaec: "agents" } }), "self-hosted");
        assert.match(typo.failures![0].reason, /did you mean "k8sNamespace"/);
    });

    it("diff: a listener change replaces; a build command change updates in place", () => {
        const dOld = readState({ ...checked(docker("a", { listenerId: LISTENER, listenerConfig: { k8sNamespace: "agents" } })), revisionStatus: "DEPLOYED" });
        const moved = diffDeployment(dOld, checked(docker("a", { listenerId: LISTENER, listenerConfig: { k8sNamespace: "other" } })));
        assert.deepEqual(moved.replaces, ["sourceConfig.listenerConfig"]);
        const gOld = readState({ ...checked(github("a", { buildCommand: "yarn build" })), revisionStatus: "DEPLOYED" });
        const rebuilt = diffDeployment(gOld, checked(github("a", { buildCommand: "yarn build:prod" })));
        assert.deepEqual([rebuilt.replaces, rebuilt.updates], [[], ["sourceConfig.buildCommand"]]);
    });

    describe("against the emulator", () => {
        let em: Emulator;
        before(async () => {
            em = await startTestEmulator({ timing: { speed: "immediate" }, apiKeys: [TEST_API_KEY] });
        });
        after(async () => {
            await em?.close();
        });
        const providerAt = (baseUrl: string) => {
            const cp = new ControlPlaneClient(new HttpClient({ baseUrl, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, retryBaseMs: 5, retryMaxMs: 20 }));
            return createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: () => cp });
        };
        const stored = (name: string) => em.controlPlane.allDeployments().find((d) => d.name === name)!;

        it("create and update: the fields reach the service under their wire names, and a refresh reads them back", async () => {
            const p = providerAt(em.url);
            const name = uniqueName("cmds");
            const made = await p.create(checked(github(name, { installCommand: "yarn install --frozen-lockfile", buildCommand: "yarn build" })));
            assert.equal(stored(name).source_config.install_command, "yarn install --frozen-lockfile");
            assert.equal(stored(name).source_config.build_command, "yarn build");
            const after = await p.update!(
                made.id,
                { ...made.outs, __provider: "p" },
                checked(github(name, { installCommand: "yarn install --frozen-lockfile", buildCommand: "yarn build:prod" })),
            );
            assert.equal(stored(name).source_config.build_command, "yarn build:prod");
            assert.equal(after.outs.latestRevisionId, made.outs.latestRevisionId, "a source_config PATCH makes no revision");
            const read = await p.read!(made.id, { ...after.outs, __provider: "p" });
            assert.equal(read.inputs.sourceConfig.buildCommand, "yarn build:prod");
        });

        it("create (self-hosted): listenerId and listenerConfig are sent, stored and read back; an unknown listener or namespace is refused (400)", async () => {
            const p = providerAt(`${em.url}/api-host`);
            const name = uniqueName("hybrid");
            const unknown = String(
                await rejection(() => p.create(checked(docker(name, { listenerId: LISTENER, listenerConfig: { k8sNamespace: "agents" } })))),
            );
            assert.match(unknown, new RegExp(`400 Bad Request: Listener ID ${LISTENER} not found`));
            const body = { compute_type: "k8s", compute_id: uniqueName("cluster"), compute_config: { k8s_namespaces: ["agents"] } };
            const listener = (await raw(em, "POST", "/api-host/v2/listeners", { body })).body.id;
            const elsewhere = String(
                await rejection(() => p.create(checked(docker(name, { listenerId: listener, listenerConfig: { k8sNamespace: "other" } })))),
            );
            assert.match(elsewhere, /Namespace other is not one of listener .*\(agents\)/);
            const made = await p.create(checked(docker(name, { listenerId: listener, listenerConfig: { k8sNamespace: "agents" } })));
            assert.equal(stored(name).source_config.listener_id, listener);
            assert.deepEqual(stored(name).source_config.listener_config, { k8s_namespace: "agents" });
            const read = await p.read!(made.id, { ...made.outs, __provider: "p" });
            assert.deepEqual(read.inputs.sourceConfig.listenerConfig, { k8sNamespace: "agents" });
            assert.equal(read.inputs.sourceConfig.listenerId, listener);
        });
    });
});
