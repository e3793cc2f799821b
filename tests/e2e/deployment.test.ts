/**
 * The Deployment resource on the real Pulumi engine: a packed, installed copy of the package, driven by
 * the Automation API (local file backend) against the emulator over real HTTP.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../../emulator/controlPlane/model";
import { startEmulator, type Emulator } from "../../emulator/server";
import { createProject, type OpResult, type PulumiProject } from "../../scripts/lib/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const AGENT_SECRET = `sk-agent-${randomUUID()}`;
/** Phases ten times shorter than the emulator's defaults (a github revision takes about half a second). */
const PHASES = scaledTiming(1 / 10).phaseMs;

function only(results: OpResult[], op: string): OpResult {
    const r = results.find((x) => x.op === op);
    assert.ok(r, `no ${op} result`);
    return r;
}
function ok(r: OpResult): OpResult {
    assert.ok(r.ok, `${r.op} failed: ${r.error}\n${r.stdout ?? ""}`);
    return r;
}

describe("e2e: Deployment on the real Pulumi engine", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "timed", phaseMs: PHASES, deleteMs: 300 } });
        project = createProject("quickstart");
    });
    after(async () => {
        await em?.close();
        project?.remove();
    });

    /** Config of one stack: its own workspace (tenant) and deployment name. */
    function stackConfig(name: string, extra: Record<string, string> = {}) {
        const workspace = randomUUID();
        return {
            workspace,
            opts: (more: Record<string, string> = {}) => ({
                stack: name,
                config: { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": workspace, "quickstart:name": name, ...extra, ...more },
                secretConfig: { "langsmith:apiKey": API_KEY, "quickstart:agentSecret": AGENT_SECRET },
            }),
        };
    }
    const liveIn = (workspace: string) => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);

    it("up, update, drift, replace, destroy: the whole life of one deployment", async () => {
        const s = stackConfig(`e2e-life-${randomUUID().slice(0, 8)}`);

        // up: created and awaited until DEPLOYED; a refreshing preview right after finds nothing to change.
        const { results: r1 } = await project.run(s.opts(), [{ op: "up" }, { op: "preview", refresh: true, expectNoChanges: true }]);
        const up1 = ok(only(r1, "up"));
        ok(only(r1, "preview"));
        assert.equal(up1.outputs!.revisionStatus, "DEPLOYED");
        const [created] = liveIn(s.workspace);
        assert.equal(created.id, up1.outputs!.deploymentId);
        const history = em.controlPlane.revisionHistory(String(up1.outputs!.revisionId));
        assert.equal(history.at(-1)!.status, "DEPLOYED");

        // preview of a repoRef change: an update, not a replace; up makes a new revision.
        const { results: r2 } = await project.run(s.opts({ "quickstart:repoRef": "release-2" }), [{ op: "preview" }, { op: "up" }]);
        const pv = ok(only(r2, "preview"));
        assert.equal(pv.changeSummary!.update, 1, JSON.stringify(pv.changeSummary));
        assert.equal(pv.changeSummary!.replace, undefined);
        const up2 = ok(only(r2, "up"));
        assert.notEqual(up2.outputs!.revisionId, up1.outputs!.revisionId);
        assert.equal(up2.outputs!.revisionStatus, "DEPLOYED");
        assert.equal(up2.outputs!.deploymentId, up1.outputs!.deploymentId);
        const revs = em.controlPlane.listRevisions(s.workspace, created.id, { limit: 100, offset: 0 }).resources;
        assert.equal(revs.length, 2);
        assert.equal(revs[0].source_revision_config.repo_ref, "release-2");

        // Drift: build_on_push flipped outside Pulumi. A refreshing preview that expects no changes fails
        // and names the field.
        em.controlPlane.editDeployment(created.id, { source_config: { build_on_push: true } });
        const { results: r3 } = await project.run(s.opts({ "quickstart:repoRef": "release-2" }), [
            { op: "preview", refresh: true, expectNoChanges: true, allowFailure: true },
        ]);
        const drift = only(r3, "preview");
        assert.equal(drift.ok, false, "preview --refresh --expect-no-changes should fail on drift");
        assert.match(`${drift.error}\n${drift.stdout}`, /buildOnPush/);

        // A source change: preview shows a replace; up replaces (delete first: names are unique).
        const docker = s.opts({ "quickstart:source": "external_docker", "quickstart:imageUri": "registry.example.com/agent:1" });
        const { results: r4 } = await project.run(docker, [{ op: "preview" }, { op: "up" }]);
        assert.equal(ok(only(r4, "preview")).changeSummary!.replace, 1, JSON.stringify(only(r4, "preview").changeSummary));
        const up4 = ok(only(r4, "up"));
        assert.notEqual(up4.outputs!.deploymentId, up1.outputs!.deploymentId);
        const after = liveIn(s.workspace);
        assert.equal(after.length, 1, "exactly one deployment after the replacement");
        assert.equal(after[0].source, "external_docker");

        // The stored state: no API key or secret value in plain text anywhere; __provider is small.
        const exp = ok(only((await project.run(docker, [{ op: "export" }])).results, "export"));
        const stateText = JSON.stringify(exp.deployment) + project.stateFiles().map((f) => f.text).join("\n");
        assert.ok(!stateText.includes(API_KEY), "the API key is in the state in plain text");
        assert.ok(!stateText.includes(AGENT_SECRET), "a secret value is in the state in plain text");
        const res = exp.deployment.deployment.resources.find((r: any) => r.type === "pulumi-nodejs:dynamic/langsmith:Deployment");
        const providerBytes = Buffer.byteLength(res.outputs.__provider);
        console.log(`      __provider: ${providerBytes} bytes per resource`);
        assert.ok(providerBytes < 4096, `__provider is ${providerBytes} bytes`);
        assert.ok(!/apiKey|LANGSMITH_API_KEY/.test(res.outputs.__provider), "the serialized provider mentions credentials");

        // destroy: gone from the service.
        ok(only((await project.run(docker, [{ op: "destroy" }])).results, "destroy"));
        assert.equal(liveIn(s.workspace).length, 0);
    });

    it("up: a failing build fails with the status, keeps the resource, and the next up retries by updating", async () => {
        const s = stackConfig(`e2e-fail-${randomUUID().slice(0, 8)}`, { "quickstart:repoRef": "broken-branch" });
        em.addFailureRule({ phase: "build", repoRef: "broken-branch" });
        const { results } = await project.run(s.opts(), [{ op: "up", allowFailure: true }, { op: "export" }]);
        const up = only(results, "up");
        assert.equal(up.ok, false);
        assert.match(up.error!, /BUILD_FAILED/);
        const [dep] = liveIn(s.workspace);
        assert.ok(dep, "the deployment exists in the service");
        assert.match(up.error!, new RegExp(dep.latest_revision_id));
        const inState = ok(only(results, "export")).deployment.deployment.resources.find(
            (r: any) => r.type === "pulumi-nodejs:dynamic/langsmith:Deployment",
        );
        assert.ok(inState, "the resource is recorded in the state");
        assert.equal(inState.id, dep.id);
        assert.equal(inState.outputs.revisionStatus, "BUILD_FAILED");

        // The cause is fixed (the rule goes away); the same program, unchanged, now deploys.
        em.controlPlane.failureRules = [];
        const up2 = ok(only((await project.run(s.opts(), [{ op: "up" }])).results, "up"));
        assert.equal(up2.outputs!.deploymentId, dep.id, "updated in place, not created again");
        assert.equal(up2.outputs!.revisionStatus, "DEPLOYED");
        assert.equal(liveIn(s.workspace).length, 1);
        ok(only((await project.run(s.opts(), [{ op: "destroy" }])).results, "destroy"));
        assert.equal(liveIn(s.workspace).length, 0);
    });

    it("preview: bad input fails with property-level messages before any API call", async () => {
        const s = stackConfig(`e2e-bad-${randomUUID().slice(0, 8)}`, { "quickstart:name": "Not_A_Valid_Name" });
        em.admin.requests = [];
        const { results } = await project.run(s.opts({ "quickstart:name": "Not_A_Valid_Name", "quickstart:repoRef": "refs/tags/v1", "quickstart:buildOnPush": "true" }), [
            { op: "preview", allowFailure: true },
        ]);
        const pv = only(results, "preview");
        assert.equal(pv.ok, false);
        const text = `${pv.error}\n${pv.stdout}`;
        assert.match(text, /name .*Not_A_Valid_Name.* lowercase letters, digits and hyphens/);
        assert.match(text, /buildOnPush must be false when repoRef is a tag/);
        assert.equal(em.admin.requests.filter((r) => r.tenantId === s.workspace).length, 0, "no API call was made");
    });

    it("up: the control plane behind a self-hosted prefix, and a missing API key named clearly", async () => {
        const name = `e2e-self-${randomUUID().slice(0, 8)}`;
        const workspace = randomUUID();
        const base = {
            stack: name,
            config: { "langsmith:selfHostedUrl": em.url, "langsmith:workspaceId": workspace, "quickstart:name": name },
        };
        const noKey = only((await project.run(base, [{ op: "preview", allowFailure: true }])).results, "preview");
        assert.equal(noKey.ok, false);
        assert.match(`${noKey.error}`, /langsmith:apiKey.*LANGSMITH_API_KEY/s);

        const withKey = { ...base, secretConfig: { "langsmith:apiKey": API_KEY } };
        const { results } = await project.run(withKey, [{ op: "up" }, { op: "destroy" }]);
        assert.equal(ok(only(results, "up")).outputs!.revisionStatus, "DEPLOYED");
        ok(only(results, "destroy"));
        assert.ok(em.admin.requests.some((r) => r.tenantId === workspace), "requests reached the emulator");
        assert.equal(liveIn(workspace).length, 0);
    });

    it("logs: no run printed the API key or a secret value (engine output, errors, results)", () => {
        assert.ok(project.transcript.length > 0);
        const all = project.transcript.join("\n");
        assert.ok(!all.includes(API_KEY), "the API key appears in a run's output");
        assert.ok(!all.includes(AGENT_SECRET), "a secret value appears in a run's output");
    });
});
