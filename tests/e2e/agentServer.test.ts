/**
 * AgentServerCheck on the real Pulumi engine (examples/github-deployment): a Deployment and a check on its
 * customUrl and latestRevisionId in one program, against the emulator's control plane and agent server.
 * `up` is green and the drift check after it too; a repoRef change makes a new revision and re-runs the
 * check; with the emulator's fault switch on, `up` fails saying what `interrupt` did instead. The same
 * example also adopts a deployment made outside Pulumi (`adoptId`) onto a tag ref.
 *
 * Its nine engine commands (issue 50: more than eight, each says why): the check's stack runs `up`, the drift check,
 * the repoRef change's `preview --diff` and `up`, the failing `up` and `destroy`, one life; the adoption needs a stack
 * whose first `up` meets a deployment already there (`up`, its drift check, `destroy`), so it cannot be that one.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: Deployment + AgentServerCheck through the real pulumi CLI", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;

    before(async () => {
        // Revisions deploy at once (the check runs on each new one; the waits are deployment.test.ts's), and the agent
        // server's graph answers a word every 20 ms: still long enough for the check's interrupt to meet its first run.
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, agentServer: { stepMs: 20 } });
        project = createProject("github-deployment");
    });
    after(async () => {
        await em?.close();
        project?.remove();
    });

    it("up checks the new revision; a repoRef change re-runs it; a server ignoring interrupt fails the up", async () => {
        const stack = `e2e-check-${randomUUID().slice(0, 8)}`;
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:workspaceId": randomUUID(),
                "github-deployment:integrationId": randomUUID(),
                "github-deployment:repoUrl": "https://github.com/langchain-ai/langgraph-example",
            },
            { "langsmith:apiKey": API_KEY },
        );
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

        await cli("up", "--yes", "--skip-preview");
        const out1 = await project.outputs(stack);
        assert.equal(out1.checkFirstRun, "interrupted");
        assert.equal(out1.checkSecondRun, "success");
        await cli("preview", "--refresh", "--expect-no-changes");

        await cli("config", "set", "github-deployment:repoRef", "release-2");
        const pv = await cli("preview", "--diff");
        assert.match(pv.stdout, /~ 2 to update/);
        await cli("up", "--yes", "--skip-preview");
        const out2 = await project.outputs(stack);
        assert.notEqual(out2.revisionId, out1.revisionId);
        const exported = await project.exportStack(stack);
        const checks = exported.deployment.resources.filter((r: any) => r.type.endsWith("langsmith:AgentServerCheck"));
        assert.equal(checks.length, 1);
        assert.equal(checks[0].outputs.revisionId, out2.revisionId, "the check ran on the new revision");

        em.agentServer.model.settings.ignoreInterrupt = true;
        await cli("config", "set", "github-deployment:repoRef", "release-3");
        const failed = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { allowFailure: true });
        assert.notEqual(failed.code, 0);
        assert.match(failed.stdout + failed.stderr, /interrupt was not honoured: .*the first run ended success, not interrupted/);
        assert.ok(!project.transcript.join("\n").includes(API_KEY), "the API key in a command's output");
        em.agentServer.model.settings.ignoreInterrupt = false;
        await cli("destroy", "--yes", "--skip-preview");
    });

    it("adoptId: a deployment made outside Pulumi is taken over onto a tag ref, buildOnPush off, and nothing else is created", async () => {
        const stack = `e2e-adopt-${randomUUID().slice(0, 8)}`;
        const workspace = randomUUID();
        const integration = randomUUID();
        const repoUrl = "https://github.com/acme/support-agent";
        // Made through the service, as the UI or another tool would, building on every push from main.
        const existing = em.controlPlane.createDeployment(workspace, {
            name: stack,
            source: "github",
            source_config: { integration_id: integration, repo_url: repoUrl, deployment_type: "dev", build_on_push: true },
            source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
            secrets: [],
        });
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:workspaceId": workspace,
                "github-deployment:name": stack,
                "github-deployment:integrationId": integration,
                "github-deployment:repoUrl": repoUrl,
                "github-deployment:repoRef": "refs/tags/v1.0.0",
                "github-deployment:adoptId": existing.id,
                "github-deployment:check": "false",
            },
            { "langsmith:apiKey": API_KEY },
        );
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

        await cli("up", "--yes", "--skip-preview");
        const out = await project.outputs(stack);
        assert.equal(out.deploymentId, existing.id);
        const live = em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);
        assert.deepEqual(
            live.map((d) => d.id),
            [existing.id],
            "a second deployment was created",
        );
        assert.equal(live[0].source_config.build_on_push, false);
        const revision = em.controlPlane.getRevision(workspace, existing.id, out.revisionId);
        assert.equal(revision.source_revision_config.repo_ref, "refs/tags/v1.0.0");
        assert.equal(revision.status, "DEPLOYED");
        await cli("preview", "--refresh", "--expect-no-changes");

        await cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual(
            em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace),
            [],
        );
    });
});
