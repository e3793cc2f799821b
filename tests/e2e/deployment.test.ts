/**
 * The Deployment resource through the real `pulumi` CLI, the commands a user's CI runs (those of the CI workflow
 * users copy, examples/ci, run as written): a packed, installed copy of the package in a copy of
 * examples/quickstart, a local file backend, the emulator over real HTTP.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";
import { runStep, step } from "../helpers/workflow";

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

    /**
     * A new stack with its own workspace (tenant) and deployment name; `location` says where the control plane is.
     * `keyInEnvironment`: the API key is not in the stack's config but in LANGSMITH_API_KEY, as the CI workflow
     * (examples/ci) hands it to every command; `cli` and `attempt` (which allows failure) pass it.
     */
    async function newStack(
        prefix: string,
        config: Record<string, string> = {},
        location: Record<string, string> = { "langsmith:controlPlaneUrl": em.url },
        o: { keyInEnvironment?: boolean } = {},
    ) {
        const stack = `${prefix}-${randomUUID().slice(0, 8)}`;
        const workspace = randomUUID();
        const key: Record<string, string> = o.keyInEnvironment ? {} : { "langsmith:apiKey": API_KEY };
        await project.initStack(
            stack,
            { ...location, "langsmith:workspaceId": workspace, "quickstart:name": stack, ...config },
            { ...key, "quickstart:agentSecret": AGENT_SECRET },
        );
        const env = o.keyInEnvironment ? { LANGSMITH_API_KEY: API_KEY } : {};
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack], { env });
        const attempt = (...args: string[]) => project.pulumi([...args, "--stack", stack], { env, allowFailure: true });
        const set = (k: string, v: string) => project.setConfig(stack, { [k]: v });
        return { stack, workspace, cli, attempt, set };
    }
    const liveIn = (workspace: string) => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);
    const resourceOf = (exported: any) => exported.deployment.resources.find((r: any) => r.type === DEPLOYMENT_TYPE);

    // One stack lives the whole life of one deployment, each step on what the step before left, so that the up and
    // the destroy are paid once (issue 50: three stacks did this, each with its own up and destroy). Its commands:
    // the first `up` and the drift check after it (what CI runs); per change, the `preview --diff` that shows what
    // it will be (an update, a replace, the rollback's argument) and the `up` that makes it; a drift check where
    // the step says what it must find (the rollback set is no drift; an edit made outside Pulumi is); the refused
    // preview of the last secret dropped, the `destroy --target` that message asks for and the `up` after it; the
    // `destroy`. `stack output`, `stack export` and `config` commands run no program.
    //
    // Its first up and its drift checks are the CI workflow users copy (examples/ci/pulumi-langsmith.yml): those lines
    // run as written, by bash, with the variables the workflow sets (the API key in LANGSMITH_API_KEY, not in the
    // stack's config). tests/e2e/ciWorkflow.test.ts ran them on a stack of its own until issue 50; the workflow's
    // pull-request preview runs, as written, in tests/e2e/prompts.test.ts.
    it("the life of one deployment: up and the drift check as the CI workflow runs them, an update in place, a rollback and its end, drift (the workflow's check fails with 7), a replace, the last secret dropped, destroy", async () => {
        const s = await newStack("e2e-life", {}, undefined, { keyInEnvironment: true });
        const workflow = async (name: string) => {
            const r = await runStep(project, step(name), { STACK: s.stack, LANGSMITH_API_KEY: API_KEY });
            assert.ok(!r.output.includes(API_KEY), "the API key in the job log");
            return r;
        };

        // up on main: created and awaited until DEPLOYED; the scheduled drift check right after passes (exit 0).
        const up = await workflow("up \\(main\\)");
        assert.equal(up.code, 0, up.output);
        const clean = await workflow("drift check \\(schedule\\)");
        assert.equal(clean.code, 0, clean.output);
        const out1 = await project.outputs(s.stack);
        assert.equal(out1.revisionStatus, "DEPLOYED");
        const [created] = liveIn(s.workspace);
        assert.equal(created.id, out1.deploymentId);
        const r1 = out1.revisionId;

        // A repoRef change: preview shows an update (not a replace); up makes a new revision in place.
        await s.set("quickstart:repoRef", "release-2");
        const pv = await s.cli("preview", "--diff");
        assert.match(pv.stdout, /~ repoRef\s*: "main" => "release-2"/);
        assert.match(pv.stdout, /~ 1 to update/);
        assert.doesNotMatch(pv.stdout, /replace/);
        await s.cli("up", "--yes", "--skip-preview");
        const out2 = await project.outputs(s.stack);
        const r2 = out2.revisionId;
        assert.notEqual(r2, r1);
        assert.equal(out2.deploymentId, out1.deploymentId);
        const revs = em.controlPlane.listRevisions(s.workspace, created.id, { limit: 100, offset: 0 }).resources;
        assert.equal(revs.length, 2);
        assert.equal(revs[0].source_revision_config.repo_ref, "release-2");
        // getDeploymentRevisions (latest first) and getDeployment (what serves), read after the update.
        assert.deepEqual(
            out2.revisions.map((x: string) => x.split(" ")[0]),
            [r2, r1],
        );
        assert.equal(out2.revisions[0], `${r2} DEPLOYED`);
        assert.equal(out2.servingRevisionId, r2);

        // Roll back to the first revision: preview shows the argument, up redeploys it (no PATCH) and waits.
        await s.set("quickstart:rollbackToRevisionId", r1);
        const rb = await s.cli("preview", "--diff");
        assert.match(rb.stdout, new RegExp(`rollbackToRevisionId\\s*: "${r1}"`));
        assert.match(rb.stdout, /~ 1 to update/);
        assert.doesNotMatch(rb.stdout, /replace/);
        em.admin.requests = [];
        await s.cli("up", "--yes", "--skip-preview");
        const sent = em.admin.requests.filter((r) => r.tenantId === s.workspace && r.method !== "GET").map((r) => `${r.method} ${r.path}`);
        assert.deepEqual(sent, [`POST /v2/deployments/${created.id}/revisions/${r1}/redeploy`], "one redeploy, no PATCH");
        const out3 = await project.outputs(s.stack);
        const r3 = out3.revisionId;
        assert.ok(![r1, r2].includes(r3), "the redeploy is a new revision");
        assert.equal(out3.revisionStatus, "DEPLOYED");
        assert.equal(out3.servingRevisionId, r3);
        assert.deepEqual(
            out3.revisions.map((x: string) => x.split(" ")[0]),
            [r3, r2, r1],
        );
        const rolled = em.controlPlane.listRevisions(s.workspace, created.id, { limit: 100, offset: 0 }).resources;
        assert.equal(rolled[0].source_revision_config.repo_ref, "main", "the rolled-back revision runs the first revision's config");
        // The program still says release-2: while the rollback is set, that is not drift.
        await s.cli("preview", "--refresh", "--expect-no-changes");

        // Ending the rollback builds the program's sourceRevisionConfig again.
        await s.cli("config", "rm", "quickstart:rollbackToRevisionId");
        await s.cli("up", "--yes", "--skip-preview");
        const out4 = await project.outputs(s.stack);
        assert.ok(![r1, r2, r3].includes(out4.revisionId));
        assert.equal(
            em.controlPlane.listRevisions(s.workspace, created.id, { limit: 100, offset: 0 }).resources[0].source_revision_config.repo_ref,
            "release-2",
        );
        await s.cli("preview", "--refresh", "--expect-no-changes");

        // Drift: build_on_push flipped outside Pulumi. The workflow's drift check fails naming the field, with the code
        // the CLI gives for changes where none were expected, as the workflow's comment says (Pulumi 3.259: 7).
        em.controlPlane.editDeployment(created.id, { source_config: { build_on_push: true } });
        const drift = await workflow("drift check \\(schedule\\)");
        assert.equal(drift.code, 7, `the drift check's exit code over a change made outside Pulumi\n${drift.output}`);
        assert.match(drift.output, /buildOnPush/);
        await s.cli("up", "--yes", "--skip-preview", "--refresh"); // a refreshing up brings it back in line
        assert.equal(liveIn(s.workspace)[0].source_config.build_on_push, false);

        // A deploymentType change (fixed at creation): preview shows a replace; up replaces (delete first: names are unique).
        await s.set("quickstart:deploymentType", "prod");
        assert.match((await s.cli("preview", "--diff")).stdout, /\+-1 to replace/);
        await s.cli("up", "--yes", "--skip-preview");
        const out5 = await project.outputs(s.stack);
        assert.notEqual(out5.deploymentId, out1.deploymentId);
        const after = liveIn(s.workspace);
        assert.equal(after.length, 1, "exactly one deployment after the replacement");
        assert.equal(after[0].source_config.deployment_type, "prod");

        // The stored state: no API key or secret value in plain text anywhere; the stored provider is a require.
        const exported = await project.exportStack(s.stack);
        const stateText =
            JSON.stringify(exported) +
            project
                .stateFiles()
                .map((f) => f.text)
                .join("\n");
        assert.ok(!stateText.includes(API_KEY), "the API key is in the state in plain text");
        assert.ok(!stateText.includes(AGENT_SECRET), "a secret value is in the state in plain text");
        const res = resourceOf(exported);
        const providerBytes = Buffer.byteLength(res.outputs.__provider);
        const stateBytes = Buffer.byteLength(JSON.stringify(res));
        console.log(`      __provider: ${providerBytes} bytes; the whole resource in the state: ${stateBytes} bytes`);
        assert.match(res.outputs.__provider, /require\("pulumi-langsmith\/providers\/deployment"\)/);
        assert.ok(providerBytes <= 1024, `__provider is ${providerBytes} bytes`);
        assert.ok(stateBytes <= 5 * 1024, `the resource takes ${stateBytes} bytes of state`);

        // Removing the last secret is refused at preview, saying why; destroy --target then up makes the new deployment on purpose.
        const [replaced] = after;
        await s.set("quickstart:withSecret", "false");
        const refused = await s.attempt("preview");
        assert.notEqual(refused.code, 0);
        assert.match(
            refused.stdout + refused.stderr,
            /cannot drop every secret in place: .*Keep at least one secret; or, if a new deployment is what you want, delete this one first: `pulumi destroy --target/s,
        );
        assert.deepEqual(
            liveIn(s.workspace).map((d) => d.id),
            [replaced.id],
            "nothing was replaced",
        );
        // What the message says to do, as written.
        await s.cli("destroy", "--yes", "--skip-preview", "--target", res.urn, "--target-dependents");
        await s.cli("up", "--yes", "--skip-preview");
        const [second] = liveIn(s.workspace);
        assert.notEqual(second.id, replaced.id);
        assert.deepEqual(second.secrets, []);
        await s.cli("preview", "--refresh", "--expect-no-changes");

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

    // A self-hosted installation's life on one stack (one up and one destroy; a stack of its own for each ran both
    // twice until issue 50): the up under /api-host, the drift check, a key change's preview and up, the refused
    // preview of the last reference dropped, destroy; and the preview refused on another stack (no up there).
    it("a self-hosted installation (/api-host) deploys a container image with secretReferences: sent and answered, a key change is a new revision, dropping them all is refused at preview; github there is refused at preview", async () => {
        const refs = (key: string) => JSON.stringify([{ name: "DB_PASSWORD", secretName: "agent-db", secretKey: key }]);
        const s = await newStack(
            "e2e-secref",
            {
                "quickstart:source": "external_docker",
                "quickstart:imageUri": "registry.example.com/acme/agent:1",
                "quickstart:secretReferences": refs("password"),
            },
            { "langsmith:selfHostedUrl": em.url },
        );
        em.admin.requests = [];
        await s.cli("up", "--yes", "--skip-preview");
        const mine = em.admin.requests.filter((r) => r.tenantId === s.workspace);
        assert.ok(mine.length > 0 && mine.every((r) => r.prefix === "/api-host"), "every request went under /api-host");
        const [dep] = liveIn(s.workspace);
        assert.equal(dep.source, "external_docker");
        assert.deepEqual(dep.secret_references, [{ name: "DB_PASSWORD", secret_name: "agent-db", secret_key: "password" }]);
        await s.cli("preview", "--refresh", "--expect-no-changes");

        await s.set("quickstart:secretReferences", refs("password-v2"));
        const pv = await s.cli("preview", "--diff");
        assert.match(pv.stdout, /secretKey\s*: "password" => "password-v2"/);
        assert.match(pv.stdout, /~ 1 to update/);
        await s.cli("up", "--yes", "--skip-preview");
        const [after] = liveIn(s.workspace);
        assert.equal(after.id, dep.id);
        assert.notEqual(after.latest_revision_id, dep.latest_revision_id, "a new revision");
        assert.equal(after.secret_references?.[0].secret_key, "password-v2");

        await s.set("quickstart:secretReferences", "[]");
        const refused = await project.pulumi(["preview", "--stack", s.stack], { allowFailure: true });
        assert.notEqual(refused.code, 0);
        assert.match(refused.stdout + refused.stderr, /cannot drop every secret reference in place/);
        assert.equal(liveIn(s.workspace)[0].secret_references?.length, 1, "nothing changed");
        await s.cli("destroy", "--yes", "--skip-preview");
        assert.equal(liveIn(s.workspace).length, 0);

        const gh = await newStack("e2e-self-gh", {}, { "langsmith:selfHostedUrl": em.url });
        const github = await project.pulumi(["preview", "--stack", gh.stack], { allowFailure: true });
        assert.notEqual(github.code, 0);
        assert.match(github.stdout + github.stderr, /source github deploys from GitHub, which only the LangSmith cloud does/);
    });

    it("preview: a missing API key is named clearly, with both places to set it", async () => {
        const stack = `e2e-nokey-${randomUUID().slice(0, 8)}`;
        await project.initStack(stack, { "langsmith:controlPlaneUrl": em.url, "quickstart:name": stack });
        const pv = await project.pulumi(["preview", "--stack", stack], { allowFailure: true });
        assert.notEqual(pv.code, 0);
        assert.match(pv.stdout + pv.stderr, /langsmith:apiKey.*LANGSMITH_API_KEY/s);
    });

    it("preview: a wrong API key fails the preview (one read of the service), naming where the key came from and the way out; nothing made", async () => {
        const s = await newStack("e2e-badkey");
        const wrong = `lsv2_sk_${"0".repeat(32)}`;
        await project.setConfig(s.stack, {}, { "langsmith:apiKey": wrong });
        const before = em.admin.requests.filter((r) => r.tenantId === s.workspace);
        const pv = await project.pulumi(["preview", "--stack", s.stack], { allowFailure: true });
        assert.notEqual(pv.code, 0);
        assert.match(
            pv.stdout + pv.stderr,
            /401 Unauthorized: .*with the API key of stack config langsmith:apiKey.*Set the right key there .* and run `pulumi up` again/,
        );
        assert.ok(!(pv.stdout + pv.stderr).includes(wrong), "the key was printed");
        const sent = em.admin.requests.filter((r) => r.tenantId === s.workspace).slice(before.length);
        assert.deepEqual(
            sent.map((r) => r.method),
            ["GET"],
            "more than the one read",
        );
        assert.deepEqual(liveIn(s.workspace), []);
    });

    it("logs: no command printed the API key or a secret value", () => {
        assert.ok(project.transcript.length > 0);
        const all = project.transcript.join("\n");
        assert.ok(!all.includes(API_KEY), "the API key appears in a command's output");
        assert.ok(!all.includes(AGENT_SECRET), "a secret value appears in a command's output");
    });
});
