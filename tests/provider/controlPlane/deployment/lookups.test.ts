/**
 * The look-up functions (getDeployment, getDeploymentRevisions) against the emulator over HTTP: what the
 * control plane answers now, revisions latest first, filtered by status, paged up to a limit; bad
 * arguments named; and the same functions through the native plugin's Invoke (what Python calls), with
 * the provider configured as the engine configures it.
 */
import assert from "node:assert/strict";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { getDeployment, getDeploymentRevisions } from "../../../../provider/controlPlane/deployment/lookups";
import { resourceProviderService } from "../../../../provider/plugin/server";
import { TEST_API_KEY, TEST_TENANT, clientForSource, dockerBody, rejection, startTestEmulator, type Emulator } from "../../../helpers/emulator";

describe("functions: getDeployment, getDeploymentRevisions", function () {
    this.timeout(20_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
    });
    after(async () => {
        await em?.close();
    });

    /** A deployment with `n` revisions (images 1..n). */
    async function deploymentWith(n: number) {
        const cp = clientForSource(em, "external_docker");
        const { deployment } = await cp.createDeployment(dockerBody(undefined, { source_revision_config: { image_uri: "registry.example.com/a:1" } }));
        for (let i = 2; i <= n; i++) await cp.patchDeployment(deployment.id, { source_revision_config: { image_uri: `registry.example.com/a:${i}` } });
        return { cp, id: deployment.id };
    }

    it("getDeployment: the deployment as the service says now, its latest revision's configuration", async () => {
        const { cp, id } = await deploymentWith(2);
        const d = await getDeployment(cp, { id });
        const live = em.controlPlane.getDeployment(TEST_TENANT, id);
        assert.deepEqual(
            [d.id, d.name, d.source, d.status, d.latestRevisionId, d.activeRevisionId, d.sourceRevisionConfig],
            [id, live.name, "external_docker", "READY", live.latest_revision_id, live.active_revision_id, { imageUri: "registry.example.com/a:2" }],
        );
        assert.match(String(await rejection(() => getDeployment(cp, { id: "not-a-uuid" }))), /getDeployment: id: id must be a deployment id/);
        assert.match(
            String(await rejection(() => getDeployment(cp, { id: "deadbeef-0000-4000-8000-000000000000" }))),
            /404 Not Found: Deployment ID deadbeef-0000-4000-8000-000000000000 not found/,
        );
    });

    it("getDeploymentRevisions: latest first, every page walked, filtered by status (any case), cut at limit", async () => {
        const { cp, id } = await deploymentWith(105);
        const all = await getDeploymentRevisions(cp, { deploymentId: id });
        assert.equal(all.revisions.length, 105, "more than one page (100)");
        assert.deepEqual(
            all.revisions.slice(0, 2).map((r) => r.sourceRevisionConfig.imageUri),
            ["registry.example.com/a:105", "registry.example.com/a:104"],
        );
        assert.ok(all.revisions.every((r) => r.id && r.createdAt && r.status));
        // Immediate speed: every revision is DEPLOYED, none failed.
        const deployed = await getDeploymentRevisions(cp, { deploymentId: id, statuses: ["deployed"] });
        assert.equal(deployed.revisions.length, 105);
        assert.deepEqual((await getDeploymentRevisions(cp, { deploymentId: id, statuses: ["BUILD_FAILED", "DEPLOY_FAILED"] })).revisions, []);
        const three = await getDeploymentRevisions(cp, { deploymentId: id, limit: 3 });
        assert.deepEqual(
            three.revisions.map((r) => r.id),
            all.revisions.slice(0, 3).map((r) => r.id),
        );
        assert.match(String(await rejection(() => getDeploymentRevisions(cp, { deploymentId: id, limit: 0 }))), /limit must be a whole number >= 1/);
    });

    it("through the plugin's Invoke (what the Python SDK calls): the same answers; an unknown function is named", async () => {
        const { id } = await deploymentWith(2);
        const service = resourceProviderService({ providers: {}, schema: "{}", version: "0.1.0" }) as Record<string, any>;
        // Configured as the engine configures the plugin: the functions use what Configure says.
        const configureReq = new proto.ConfigureRequest();
        configureReq.setArgs(Struct.fromJavaScript({ apiKey: TEST_API_KEY, workspaceId: TEST_TENANT, selfHostedUrl: em.url }));
        await new Promise((done) => service.configure({ request: configureReq }, done));
        const invoke = (tok: string, args: object) =>
            new Promise<{ err: any; resp: any }>((done) => {
                const req = new proto.InvokeRequest();
                req.setTok(tok);
                req.setArgs(Struct.fromJavaScript(args as never));
                service.invoke({ request: req }, (err: unknown, resp: unknown) => done({ err, resp }));
            });
        const one = await invoke("langsmith:index:getDeployment", { id });
        assert.equal(one.err, null, String(one.err));
        assert.equal(one.resp.getReturn().toJavaScript().sourceRevisionConfig.imageUri, "registry.example.com/a:2");
        const revs = await invoke("langsmith:index:getDeploymentRevisions", { deploymentId: id, limit: 1 });
        assert.equal(revs.resp.getReturn().toJavaScript().revisions.length, 1);
        const unknown = await invoke("langsmith:index:getNothing", {});
        assert.match(String(unknown.err?.details ?? unknown.err), /no function langsmith:index:getNothing/);
    });
});
