/**
 * Old state keeps working: a stack written by pulumi-langsmith 0.1.0 (tests/fixtures/state-0.1.0.json, with
 * its real serialized providers) is imported into a project that has the current package installed, and
 * the real CLI refreshes and destroys it. Refresh and destroy run the *stored* provider text, which loads
 * `pulumi-langsmith/impl` of whatever version is installed: a change to that entry point that broke old
 * stacks fails here.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HttpClient } from "../../provider/api/client";
import { ControlPlaneClient } from "../../provider/api/controlPlane";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";

const FIXTURE = join(__dirname, "../fixtures/state-0.1.0.json");
/** What the fixture was written against (see tests/fixtures/README.md). */
const RECORDED = {
    url: "http://127.0.0.1:37241",
    deploymentId: "2e6ac9cf-57d2-4448-a9d8-a36a51e966ab",
    apiKey: "lsv2_fixture_key_0000",
    workspace: "0b1c2d3e-0000-4000-8000-000000000001",
    passphrase: "pulumi-langsmith-local",
};
const DEPLOYMENT_TYPE = "pulumi-nodejs:dynamic/langsmith:Deployment";

describe("e2e: a stack written by 0.1.0, refreshed and destroyed by this version (real CLI)", function () {
    this.timeout(5 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    let dir: string;
    let env: NodeJS.ProcessEnv;
    /** Runs the CLI without blocking the event loop (the emulator answers from this process). */
    async function pulumi(...args: string[]): Promise<string> {
        try {
            return (await promisify(execFile)("pulumi", [...args, "--non-interactive"], { cwd: dir, env, maxBuffer: 64 << 20 })).stdout;
        } catch (e: any) {
            throw new Error(`pulumi ${args.join(" ")} failed (exit ${e.code}):\n${e.stdout}\n${e.stderr}`);
        }
    }

    before(async () => {
        em = await startEmulator({ apiKeys: [RECORDED.apiKey], timing: { speed: "immediate", deleteMs: 0 } });
        // The fixture's project (`quickstart`) with this version installed: a copy of examples/quickstart, whose install
        // the other e2e tests share (an install of its own, optional dependencies and all, until issue 50). Its
        // program never runs: refresh and destroy run the stored provider text.
        project = createProject("quickstart");
        dir = project.dir;
        // TMPDIR inside the project: what the CLI's plugins leave in a temporary directory goes with it.
        env = { ...process.env, PULUMI_BACKEND_URL: `file://${join(dir, ".state")}`, PULUMI_CONFIG_PASSPHRASE: RECORDED.passphrase, TMPDIR: join(dir, ".tmp") };
        mkdirSync(join(dir, ".tmp"), { recursive: true });
    });
    after(async () => {
        await em?.close();
        project?.remove();
    });

    it("refresh reads the deployment through the 0.1.0 provider text, finds no drift the second time, and destroy deletes it", async () => {
        // The deployment the old stack manages, alive in this emulator (the fixture's id is replaced by its id).
        const cp = new ControlPlaneClient(new HttpClient({ baseUrl: em.url, apiKey: RECORDED.apiKey, tenantId: RECORDED.workspace }));
        const { deployment } = await cp.createDeployment({
            name: "fixture-agent",
            source: "github",
            source_config: {
                integration_id: "2d3c9a7e-5b1f-4c8e-9a6d-0f1e2d3c4b5a",
                repo_url: "https://github.com/langchain-ai/langgraph-example",
                deployment_type: "dev",
                build_on_push: false,
            },
            source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
            secrets: [{ name: "OPENAI_API_KEY", value: "sk-fixture-secret" }],
        });
        // Refresh and destroy configure the provider from the config recorded in the state (the default
        // provider's inputs), not from the stack's current config: point that record at this emulator.
        const text = readFileSync(FIXTURE, "utf8").split(RECORDED.deploymentId).join(deployment.id).split(RECORDED.url).join(em.url);
        writeFileSync(join(dir, "import.json"), text);
        await pulumi("stack", "init", "dev");
        await pulumi("stack", "import", "--file", join(dir, "import.json"));

        await pulumi("refresh", "--yes");
        const after = JSON.parse(await pulumi("stack", "export")).deployment.resources.find((r: any) => r.type === DEPLOYMENT_TYPE);
        assert.equal(after.id, deployment.id);
        assert.equal(after.outputs.latestRevisionId, deployment.latest_revision_id, "refresh read this emulator's revision");
        assert.equal(after.outputs.revisionStatus, "DEPLOYED");
        assert.match(after.outputs.__provider, /require\("pulumi-langsmith\/impl"\)\.deployment\.read/, "the stored 0.1.0 provider text ran");
        // A second refresh finds nothing to change: read maps the service back to the recorded inputs.
        await pulumi("refresh", "--yes", "--expect-no-changes");

        await pulumi("destroy", "--yes", "--skip-preview");
        assert.equal(em.controlPlane.allDeployments().length, 0, "destroy deleted the deployment through the old provider text");
    });
});
