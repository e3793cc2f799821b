/**
 * One of the two test files of the run tests/scripts/interruptedRun.test.ts stops (not a `*.test.ts`: never run by
 * `npm test` itself): what an e2e test makes, then a wait for the signal. An emulator (its exchanges logged), a Pulumi
 * YAML program copied into a temporary directory with its stack (tests/helpers/project.ts), and a `pulumi up` of a
 * Deployment whose revision never builds (the emulator's clock is manual), still running when the signal comes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../../emulator/core/server";
import { sleep } from "../../helpers/async";
import { createYamlProject } from "../../helpers/project";

const PROGRAM = `name: stopped
runtime: yaml
resources:
  agent:
    type: langsmith:Deployment
    properties:
      name: stopped-agent
      source: github
      sourceConfig: { integrationId: 6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44, repoUrl: "https://github.com/acme/agent", deploymentType: dev }
      sourceRevisionConfig: { repoRef: main, graphConfigPath: langgraph.json }
`;

describe("a run to stop: a stack", function () {
    this.timeout(0);
    it("a stack whose pulumi up waits on a revision, then the wait for the signal", async () => {
        const em = await startEmulator({ apiKeys: ["lsv2_sk_stopped"], timing: { speed: "manual" } });
        const programDir = mkdtempSync(join(tmpdir(), "stopped-program-"));
        writeFileSync(join(programDir, "Pulumi.yaml"), PROGRAM);
        const project = createYamlProject(programDir);
        await project.initStack(
            "stopped",
            { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": "0b1c2d3e-0000-4000-8000-000000000001" },
            { "langsmith:apiKey": "lsv2_sk_stopped" },
        );
        void project.pulumi(["up", "--yes", "--skip-preview", "--stack", "stopped"], { allowFailure: true });
        while (em.controlPlane.allDeployments().length === 0) await sleep(200);
        console.log(`READY stack ${project.dir}`);
        await new Promise(() => {});
    });
});
