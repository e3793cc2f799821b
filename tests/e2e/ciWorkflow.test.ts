/**
 * The CI workflow users copy (examples/ci/pulumi-langsmith.yml), run as written: each of its `pulumi`
 * lines is executed by bash with the variables the workflow sets (STACK, LANGSMITH_API_KEY, the backend),
 * in a copy of examples/quickstart against the emulator. Pull request: the preview passes; main: up; the
 * scheduled drift check passes without drift and fails (non-zero exit, the field named) with drift
 * injected outside Pulumi.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";
import { runStep, step } from "../helpers/workflow";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: the CI workflow of examples/ci, its pulumi lines as written", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "timed", phaseMs: scaledTiming(1 / 10).phaseMs, deleteMs: 300 } });
        project = createProject("quickstart");
    });
    after(async () => {
        await em?.close();
        project?.remove();
    });

    const run = (line: string, stack: string) => runStep(project, line, { STACK: stack, LANGSMITH_API_KEY: API_KEY });

    it("pull request preview, up on main, and the scheduled drift check with and without drift", async () => {
        const stack = `ci-${randomUUID().slice(0, 8)}`;
        // The API key comes from the environment (LANGSMITH_API_KEY), as in the workflow; the rest is stack config.
        await project.initStack(stack, { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID(), "quickstart:name": stack });

        const pr = await run(step("preview \\(pull request\\)"), stack);
        assert.equal(pr.code, 0, pr.output);
        assert.match(pr.output, /langsmith:Deployment/);
        assert.match(pr.output, /\+ 2 to create/);
        const up = await run(step("up \\(main\\)"), stack);
        assert.equal(up.code, 0, up.output);

        const clean = await run(step("drift check \\(schedule\\)"), stack);
        assert.equal(clean.code, 0, clean.output);

        const [deployment] = em.controlPlane.allDeployments().filter((d) => d.name === stack);
        em.controlPlane.editDeployment(deployment.id, { source_config: { build_on_push: true } });
        const drift = await run(step("drift check \\(schedule\\)"), stack);
        // The CLI's code for changes where none were expected, as the workflow's comment says (Pulumi 3.259: 7).
        assert.equal(drift.code, 7, `the drift check's exit code over a change made outside Pulumi\n${drift.output}`);
        assert.match(drift.output, /buildOnPush/);
        assert.ok(!(pr.output + up.output + clean.output + drift.output).includes(API_KEY), "the API key in the job log");

        const destroy = await run('pulumi destroy --non-interactive --yes --stack "$STACK"', stack);
        assert.equal(destroy.code, 0, destroy.output);
    });
});
