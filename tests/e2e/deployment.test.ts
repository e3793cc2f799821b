/**
 * The Deployment resource through the real `pulumi` CLI, the commands a user's CI runs: a packed, installed
 * copy of the package in a copy of examples/quickstart, a local file backend, the emulator over real HTTP.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/server";
import { createProject, type PulumiProject } from "../../scripts/lib/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const AGENT_SECRET = `sk-agent-${randomUUID()}`;
/** Phases ten times shorter than the emulator's defaults (a github revision takes about half a second). */
const PHASES = scaledTiming(1 / 10).phaseMs;
const DEPLOYMENT_TYPE = "pulumi-nodejs:dynamic/langsmith:Deployment";

describe("e2e: Deployment through the real pulumi CLI", function () {
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

    /** A new stack with its own workspace (tenant) and deployment name; `location` says where the control plane is. */
    async function newStack(prefix: string, config: Record<string, string> = {}, location: Record<string, string> = { "langsmith:controlPlaneUrl": em.url }) {
        const stack = `${prefix}-${randomUUID().slice(0, 8)}`;
        const workspace = randomUUID();
        await project.initStack(
            stack,
            { ...location, "langsmith:workspaceId": workspace, "quickstart:name": stack, ...config },
            { "langsmith:apiKey": API_KEY, "quickstart:agentSecret": AGENT_SECRET },
        );
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
        const set = (k: string, v: string) => project.pulumi(["config", "set", "--stack", stack, k, v]);
        return { stack, workspace, cli, set };
    }
    const liveIn = (workspace: string) => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);
    const resourceOf = (exported: any) => exported.deployment.resources.find((r: any) => r.type === DEPLOYMENT_TYPE);

    it("up, update, drift, replace, destroy: the whole life of one deployment", async () => {
        const s = await newStack("e2e-life");

        // up: created and awaited until DEPLOYED; the CI drift check right after passes (exit 0).
        await s.cli("up", "--yes");
        await s.cli("preview", "--refresh", "--expect-no-changes");
        const out1 = await project.outputs(s.stack);
        assert.equal(out1.revisionStatus, "DEPLOYED");
        const [created] = liveIn(s.workspace);
        assert.equal(created.id, out1.deploymentId);

        // A repoRef change: preview shows an update (not a replace); up makes a new revision in place.
        await s.set("quickstart:repoRef", "release-2");
        const pv = await s.cli("preview", "--diff");
        assert.match(pv.stdout, /~ repoRef\s*: "main" => "release-2"/);
        assert.match(pv.stdout, /~ 1 to update/);
        assert.doesNotMatch(pv.stdout, /replace/);
        await s.cli("up", "--yes", "--skip-preview");
        const out2 = await project.outputs(s.stack);
        assert.notEqual(out2.revisionId, out1.revisionId);
        assert.equal(out2.deploymentId, out1.deploymentId);
        const revs = em.controlPlane.listRevisions(s.workspace, created.id, { limit: 100, offset: 0 }).resources;
        assert.equal(revs.length, 2);
        assert.equal(revs[0].source_revision_config.repo_ref, "release-2");

        // Drift: build_on_push flipped outside Pulumi. The CI drift check fails (exit code) naming the field.
        em.controlPlane.editDeployment(created.id, { source_config: { build_on_push: true } });
        const drift = await project.pulumi(["preview", "--refresh", "--expect-no-changes", "--diff", "--stack", s.stack], { allowFailure: true });
        assert.notEqual(drift.code, 0, "preview --refresh --expect-no-changes exits non-zero on drift");
        assert.match(drift.stdout + drift.stderr, /buildOnPush/);
        await s.cli("up", "--yes", "--skip-preview", "--refresh"); // a refreshing up brings it back in line
        assert.equal(liveIn(s.workspace)[0].source_config.build_on_push, false);

        // A deploymentType change (fixed at creation): preview shows a replace; up replaces (delete first: names are unique).
        await s.set("quickstart:deploymentType", "prod");
        assert.match((await s.cli("preview", "--diff")).stdout, /\+-1 to replace/);
        await s.cli("up", "--yes", "--skip-preview");
        const out3 = await project.outputs(s.stack);
        assert.notEqual(out3.deploymentId, out1.deploymentId);
        const after = liveIn(s.workspace);
        assert.equal(after.length, 1, "exactly one deployment after the replacement");
        assert.equal(after[0].source_config.deployment_type, "prod");

        // The stored state: no API key or secret value in plain text anywhere; the stored provider is a require.
        const exported = await project.exportStack(s.stack);
        const stateText = JSON.stringify(exported) + project.stateFiles().map((f) => f.text).join("\n");
        assert.ok(!stateText.includes(API_KEY), "the API key is in the state in plain text");
        assert.ok(!stateText.includes(AGENT_SECRET), "a secret value is in the state in plain text");
        const res = resourceOf(exported);
        const providerBytes = Buffer.byteLength(res.outputs.__provider);
        const stateBytes = Buffer.byteLength(JSON.stringify(res));
        console.log(`      __provider: ${providerBytes} bytes; the whole resource in the state: ${stateBytes} bytes`);
        assert.match(res.outputs.__provider, /require\("pulumi-langsmith\/providers\/deployment"\)/);
        assert.ok(providerBytes <= 1024, `__provider is ${providerBytes} bytes`);
        assert.ok(stateBytes <= 5 * 1024, `the resource takes ${stateBytes} bytes of state`);

        // destroy: gone from the service.
        await s.cli("destroy", "--yes", "--skip-preview");
        assert.equal(liveIn(s.workspace).length, 0);
    });

    it("up: a failing build fails with the status, the deployment stays in the state, and the next up retries in place", async () => {
        const s = await newStack("e2e-fail", { "quickstart:repoRef": "broken-branch" });
        em.addFailureRule({ phase: "build", repoRef: "broken-branch" });
        const up = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", s.stack], { allowFailure: true });
        assert.notEqual(up.code, 0);
        assert.match(up.stdout + up.stderr, /BUILD_FAILED/);
        const [dep] = liveIn(s.workspace);
        assert.ok(dep, "the deployment exists in the service");
        assert.ok((up.stdout + up.stderr).includes(dep.latest_revision_id), "the message names the revision");
        const exported = await project.exportStack(s.stack);
        const inState = resourceOf(exported);
        assert.ok(inState, "the resource is recorded in the state");
        assert.equal(inState.id, dep.id);
        assert.equal(inState.outputs.revisionStatus, "BUILD_FAILED");
        assert.ok(!JSON.stringify(exported).includes(AGENT_SECRET), "the secret recorded with the failure is encrypted");

        // The cause is fixed (the rule goes away); the same program, unchanged, now deploys in place.
        em.controlPlane.failureRules = [];
        await s.cli("up", "--yes", "--skip-preview");
        const out = await project.outputs(s.stack);
        assert.equal(out.deploymentId, dep.id, "updated in place, not created again");
        assert.equal(out.revisionStatus, "DEPLOYED");
        assert.equal(liveIn(s.workspace).length, 1);
        await s.cli("destroy", "--yes", "--skip-preview");
        assert.equal(liveIn(s.workspace).length, 0);
    });

    it("preview: bad input fails with property-level messages before any API call", async () => {
        const s = await newStack("e2e-bad", { "quickstart:repoRef": "refs/tags/v1", "quickstart:buildOnPush": "true" });
        await s.set("quickstart:name", "Not_A_Valid_Name");
        em.admin.requests = [];
        const pv = await project.pulumi(["preview", "--stack", s.stack], { allowFailure: true });
        assert.notEqual(pv.code, 0);
        const text = pv.stdout + pv.stderr;
        assert.match(text, /name .*Not_A_Valid_Name.* lowercase letters, digits and hyphens/);
        assert.match(text, /buildOnPush must be false when repoRef is a tag/);
        assert.equal(em.admin.requests.filter((r) => r.tenantId === s.workspace).length, 0, "no API call was made");
    });

    it("preview: removing the last secret is refused, saying why; destroy --target then up makes the new deployment on purpose", async () => {
        const s = await newStack("e2e-nosecret");
        await s.cli("up", "--yes", "--skip-preview");
        const [first] = liveIn(s.workspace);
        await s.set("quickstart:withSecret", "false");
        const pv = await project.pulumi(["preview", "--stack", s.stack], { allowFailure: true });
        assert.notEqual(pv.code, 0);
        assert.match(pv.stdout + pv.stderr, /cannot drop every secret in place: .*Keep at least one secret; or, if a new deployment is what you want, delete this one first: `pulumi destroy --target/s);
        assert.deepEqual(liveIn(s.workspace).map((d) => d.id), [first.id], "nothing was replaced");
        // What the message says to do, as written.
        const urn = resourceOf(await project.exportStack(s.stack)).urn;
        await s.cli("destroy", "--yes", "--skip-preview", "--target", urn, "--target-dependents");
        await s.cli("up", "--yes", "--skip-preview");
        const [second] = liveIn(s.workspace);
        assert.notEqual(second.id, first.id);
        assert.deepEqual(second.secrets, []);
        await s.cli("preview", "--refresh", "--expect-no-changes");
        await s.cli("destroy", "--yes", "--skip-preview");
    });

    it("up: a self-hosted installation (/api-host) deploys a container image; github there is refused at preview", async () => {
        const s = await newStack(
            "e2e-self",
            { "quickstart:source": "external_docker", "quickstart:imageUri": "registry.example.com/acme/agent:1" },
            { "langsmith:selfHostedUrl": em.url },
        );
        em.admin.requests = [];
        await s.cli("up", "--yes", "--skip-preview");
        const mine = em.admin.requests.filter((r) => r.tenantId === s.workspace);
        assert.ok(mine.length > 0 && mine.every((r) => r.prefix === "/api-host"), "every request went under /api-host");
        assert.equal(liveIn(s.workspace)[0].source, "external_docker");
        await s.cli("destroy", "--yes", "--skip-preview");
        assert.equal(liveIn(s.workspace).length, 0);

        const gh = await newStack("e2e-self-gh", {}, { "langsmith:selfHostedUrl": em.url });
        const pv = await project.pulumi(["preview", "--stack", gh.stack], { allowFailure: true });
        assert.notEqual(pv.code, 0);
        assert.match(pv.stdout + pv.stderr, /source github deploys from GitHub, which only the LangSmith cloud does/);
    });

    it("preview: a missing API key is named clearly, with both places to set it", async () => {
        const stack = `e2e-nokey-${randomUUID().slice(0, 8)}`;
        await project.initStack(stack, { "langsmith:controlPlaneUrl": em.url, "quickstart:name": stack });
        const pv = await project.pulumi(["preview", "--stack", stack], { allowFailure: true });
        assert.notEqual(pv.code, 0);
        assert.match(pv.stdout + pv.stderr, /langsmith:apiKey.*LANGSMITH_API_KEY/s);
    });

    it("logs: no command printed the API key or a secret value", () => {
        assert.ok(project.transcript.length > 0);
        const all = project.transcript.join("\n");
        assert.ok(!all.includes(API_KEY), "the API key appears in a command's output");
        assert.ok(!all.includes(AGENT_SECRET), "a secret value appears in a command's output");
    });
});
