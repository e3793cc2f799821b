/**
 * AgentServerCheck on the real Pulumi engine (examples/github-deployment): a Deployment and a check on its
 * customUrl and latestRevisionId in one program, against the emulator's control plane and agent server.
 * `up` is green and the drift check after it too; a repoRef change makes a new revision and re-runs the
 * check; with the emulator's fault switch on, `up` fails saying what `interrupt` did instead.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../../emulator/controlPlane/model";
import { startEmulator, type Emulator } from "../../emulator/server";
import { createProject, type PulumiProject } from "../../scripts/lib/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: Deployment + AgentServerCheck through the real pulumi CLI", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "timed", phaseMs: scaledTiming(1 / 10).phaseMs, deleteMs: 300 } });
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

        await cli("up", "--yes");
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
        await cli("destroy", "--yes");
    });
});
