/**
 * The CI workflow users copy (examples/ci/pulumi-langsmith.yml), run as written: each of its `pulumi`
 * lines is executed by bash with the variables the workflow sets (STACK, LANGSMITH_API_KEY, the backend),
 * in a copy of examples/quickstart against the emulator. Pull request: the preview passes; main: up; the
 * scheduled drift check passes without drift and fails (non-zero exit, the field named) with drift
 * injected outside Pulumi.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";

const WORKFLOW = join(__dirname, "..", "..", "examples", "ci", "pulumi-langsmith.yml");
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

/** The `run:` line of the step with this name. */
function step(name: string): string {
    const text = readFileSync(WORKFLOW, "utf8");
    const m = new RegExp(`- name: ${name}\\n(?:\\s+if: .*\\n)?\\s+run: (.*)`).exec(text);
    if (!m) throw new Error(`no step "${name}" in ${WORKFLOW}`);
    return m[1];
}

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

    /** Runs one workflow line with bash, as the runner would. */
    const run = (line: string, stack: string) =>
        new Promise<{ code: number; output: string }>((resolve, reject) => {
            const child = spawn("bash", ["-c", line], { cwd: project.dir, env: { ...project.env, STACK: stack, LANGSMITH_API_KEY: API_KEY } });
            let output = "";
            child.stdout.on("data", (d) => (output += d));
            child.stderr.on("data", (d) => (output += d));
            child.on("error", reject);
            child.on("close", (code) => resolve({ code: code ?? 1, output }));
        });

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
        assert.notEqual(drift.code, 0, "the drift check passed over a change made outside Pulumi");
        assert.match(drift.output, /buildOnPush/);
        assert.ok(!(pr.output + up.output + clean.output + drift.output).includes(API_KEY), "the API key in the job log");

        const destroy = await run('pulumi destroy --non-interactive --yes --stack "$STACK"', stack);
        assert.equal(destroy.code, 0, destroy.output);
    });
});
