/**
 * The Deployment provider's `patchRequest` (pure: no emulator, no network): what an update sends, in the
 * service's wire names: only what changed, secrets in full when they changed, resource_spec merged into
 * what the service holds, a revision forced when asked, and never the fields fixed at creation.
 */
import assert from "node:assert/strict";
import type { Deployment } from "../../../../provider/api/schemas/controlPlane";
import { patchRequest, type DeploymentInputs } from "../../../../provider/controlPlane/deployment/index";
import { DEPLOYMENT_ID, INTEGRATION, REVISION_ID, checked, docker, github } from "../../../helpers/deploymentInputs";

describe("Deployment provider (pure)", () => {
    describe("patchRequest", () => {
        function current(over: { source_config?: Record<string, unknown>; source?: string } = {}): Deployment {
            return {
                id: DEPLOYMENT_ID,
                name: "my-agent",
                source: over.source ?? "github",
                source_config: {
                    integration_id: INTEGRATION,
                    repo_url: "https://github.com/acme/agent",
                    deployment_type: "dev",
                    build_on_push: false,
                    custom_url: null,
                    resource_spec: null,
                    ...over.source_config,
                },
                source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json", image_uri: null, repo_commit_sha: "abc" },
                latest_revision_id: REVISION_ID,
            } as Deployment;
        }
        const inputs = (news: Record<string, unknown>) => checked(news) as unknown as DeploymentInputs;

        it("patch: the same secrets in another order send nothing (no revision)", () => {
            const two = [
                { name: "A", value: "1" },
                { name: "B", value: "2" },
            ];
            const body = patchRequest(inputs(github({ secrets: two })), inputs(github({ secrets: [...two].reverse() })), current(), false);
            assert.equal(body, undefined);
        });

        it("patch: nothing changed gives no request", () => {
            assert.equal(patchRequest(inputs(github()), inputs(github()), current(), false), undefined);
        });

        it("patch: only the changed source_config field is sent (buildOnPush)", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceConfig: { buildOnPush: true } })), current(), false);
            assert.deepEqual(body, { source_config: { build_on_push: true } });
        });

        it("patch: turning buildOnPush off sends false, not null", () => {
            const body = patchRequest(inputs(github({ sourceConfig: { buildOnPush: true } })), inputs(github()), current(), false);
            assert.deepEqual(body, { source_config: { build_on_push: false } });
        });

        it("patch: a customUrl change (docker) sends custom_url only", () => {
            const body = patchRequest(
                inputs(docker()),
                inputs(docker({ sourceConfig: { customUrl: "https://agent.example.com" } })),
                current({ source: "external_docker" }),
                false,
            );
            assert.deepEqual(body, { source_config: { custom_url: "https://agent.example.com" } });
        });

        it("patch: a repoRef change sends source_revision_config with real wire names", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceRevisionConfig: { repoRef: "release" } })), current(), false);
            assert.deepEqual(body, { source_revision_config: { repo_ref: "release", langgraph_config_path: "langgraph.json" } });
            assert.equal("graph_config_path" in body!.source_revision_config!, false);
            assert.equal("source_config" in body!, false);
            assert.equal("secrets" in body!, false);
        });

        it("patch: a graphConfigPath change is sent as langgraph_config_path", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceRevisionConfig: { graphConfigPath: "a/langgraph.json" } })), current(), false);
            assert.deepEqual(body?.source_revision_config, { repo_ref: "main", langgraph_config_path: "a/langgraph.json" });
        });

        it("patch: an imageUri change (docker) sends image_uri only", () => {
            const body = patchRequest(
                inputs(docker()),
                inputs(docker({ sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:2" } })),
                current({ source: "external_docker" }),
                false,
            );
            assert.deepEqual(body, { source_revision_config: { image_uri: "registry.example.com/acme/agent:2" } });
        });

        it("patch: source_revision_config is not sent when only source_config changed", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceConfig: { buildOnPush: true } })), current(), false);
            assert.equal(body?.source_revision_config, undefined);
        });

        it("patch: forceRevision sends source_revision_config although nothing changed", () => {
            const body = patchRequest(inputs(github()), inputs(github()), current(), true);
            assert.deepEqual(body, { source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" } });
        });

        it("patch: forceRevision for docker sends the image", () => {
            const body = patchRequest(inputs(docker()), inputs(docker()), current({ source: "external_docker" }), true);
            assert.deepEqual(body, { source_revision_config: { image_uri: "registry.example.com/acme/agent:1.0.0" } });
        });

        it("patch: resource_spec is read-merged-written: keys set elsewhere kept, keys dropped by the program set to null", () => {
            const olds = inputs(docker({ sourceConfig: { resourceSpec: { min_scale: 1, max_scale: 5 } } }));
            const news = inputs(docker({ sourceConfig: { resourceSpec: { min_scale: 2 } } }));
            const cur = current({ source: "external_docker", source_config: { resource_spec: { min_scale: 1, max_scale: 5, cpu: 4 } } });
            const body = patchRequest(olds, news, cur, false);
            assert.deepEqual(body, { source_config: { resource_spec: { min_scale: 2, max_scale: null, cpu: 4 } } });
        });

        it("patch: resource_spec first set merges into what the service holds", () => {
            const cur = current({ source_config: { resource_spec: { cpu: 2 } } });
            const body = patchRequest(inputs(github()), inputs(github({ sourceConfig: { resourceSpec: { max_scale: 3 } } })), cur, false);
            assert.deepEqual(body, { source_config: { resource_spec: { cpu: 2, max_scale: 3 } } });
        });

        it("patch: resource_spec removed from the program nulls the keys it managed and keeps the others", () => {
            const cur = current({ source_config: { resource_spec: { cpu: 2, max_scale: 3 } } });
            const body = patchRequest(inputs(github({ sourceConfig: { resourceSpec: { max_scale: 3 } } })), inputs(github()), cur, false);
            assert.deepEqual(body, { source_config: { resource_spec: { cpu: 2, max_scale: null } } });
        });

        it("patch: resource_spec is not sent when the program's spec did not change, whatever the service holds", () => {
            const spec = { sourceConfig: { resourceSpec: { max_scale: 3 } } };
            const cur = current({ source_config: { resource_spec: { cpu: 2, max_scale: 9 } } });
            assert.equal(patchRequest(inputs(github(spec)), inputs(github(spec)), cur, false), undefined);
        });

        it("patch: changed secrets are sent in full", () => {
            const olds = inputs(github({ secrets: [{ name: "A", value: "1" }] }));
            const news = inputs(
                github({
                    secrets: [
                        { name: "A", value: "2" },
                        { name: "B", value: "3" },
                    ],
                }),
            );
            assert.deepEqual(patchRequest(olds, news, current(), false), {
                secrets: [
                    { name: "A", value: "2" },
                    { name: "B", value: "3" },
                ],
            });
        });

        it("patch: unchanged secrets are not sent", () => {
            const s = { secrets: [{ name: "A", value: "1" }] };
            const body = patchRequest(inputs(github(s)), inputs(github({ ...s, sourceRevisionConfig: { repoRef: "dev" } })), current(), false);
            assert.equal(body?.secrets, undefined);
        });

        it("patch: an emptied secrets list is not sent (an empty list would mean unchanged)", () => {
            const body = patchRequest(inputs(github({ secrets: [{ name: "A", value: "1" }] })), inputs(github()), current(), false);
            assert.equal(body, undefined);
        });

        it("patch: several changes go in one request", () => {
            const body = patchRequest(
                inputs(github()),
                inputs(github({ sourceConfig: { buildOnPush: true }, sourceRevisionConfig: { repoRef: "dev" }, secrets: [{ name: "A", value: "1" }] })),
                current(),
                false,
            );
            assert.deepEqual(body, {
                source_config: { build_on_push: true },
                source_revision_config: { repo_ref: "dev", langgraph_config_path: "langgraph.json" },
                secrets: [{ name: "A", value: "1" }],
            });
        });

        it("patch: fields fixed at creation are never sent", () => {
            const body = patchRequest(
                inputs(github()),
                inputs(github({ sourceConfig: { repoUrl: "https://github.com/acme/other", deploymentType: "prod" } })),
                current(),
                false,
            );
            assert.equal(body, undefined);
        });
    });
});
