/**
 * Interrupted runs converge when the service dies and on a team backend, with the real CLI and
 * examples/quickstart (a Deployment): an emulator process (`--state-dir`) killed with SIGKILL while `pulumi
 * up` waits on a revision and started again on the same directory and port: the next `up` converges, with
 * the deployment made once, the drift check finds the deployment the stack holds, destroy deletes it, and the
 * directory never held the stack's secret in plain text (tests/e2e/restart.test.ts killed an emulator at rest
 * on a stack of its own for this until issue 50); and a stack whose state lives in an S3-compatible bucket (MinIO), whose
 * `pulumi up` is killed mid-wait: the lock refuses the next run until `pulumi cancel`, LANGSMITH_ADOPT_IDS
 * takes the deployment in (docs/recovery.md), and of two `pulumi up` at once the second is refused by the
 * lock, nothing lost. And the file backend's `.attrs` file, which a kill can leave empty: the error, the way
 * out, and `metadata=skip`, which the tests' own file backends use.
 *
 * Its `pulumi` commands (issue 50: more than 8, on two stacks): on each, the `up` that is interrupted (the
 * emulator killed; the CLI killed), the `up`s each recovery step asserts on (refused by the lock, refused naming
 * the object, taken in with LANGSMITH_ADOPT_IDS, two at once), then the drift check and `destroy` that show
 * nothing was lost; the `.attrs` case runs cheap commands that fail before any program.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";
import { killedWhen } from "../helpers/cli";
import { raw, startEmulatorProcess } from "../helpers/emulator";
import { startMinio, type MinioServer } from "../helpers/minio";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const AGENT_SECRET = `sk-agent-${randomUUID()}`;

describe("e2e: interrupted runs when the service dies, and on an S3 backend", function () {
    this.timeout(10 * 60_000);
    let project: PulumiProject;
    before(() => {
        project = createProject("quickstart");
    });
    after(() => project?.remove());

    /** A stack of the quickstart against `url`, in a new workspace; its commands; and the deployment's name. */
    async function newStack(url: string) {
        const stack = `be-${randomUUID().slice(0, 8)}`;
        const workspace = randomUUID();
        await project.initStack(
            stack,
            { "langsmith:controlPlaneUrl": url, "langsmith:workspaceId": workspace },
            { "langsmith:apiKey": API_KEY, "quickstart:agentSecret": AGENT_SECRET },
        );
        const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => project.pulumi([...args, "--stack", stack], { allowFailure: true, env });
        return { stack, workspace, cli, name: `quickstart-${stack}` };
    }

    describe("the emulator killed with SIGKILL mid-up", () => {
        let dir: string;
        const children: ChildProcess[] = [];
        before(() => {
            dir = mkdtempSync(join(tmpdir(), "emulator-dies-"));
        });
        after(() => {
            for (const c of children) c.kill("SIGKILL");
            rmSync(dir, { recursive: true, force: true });
        });
        /** The built emulator on the state directory, revisions of about 9 s, on `port` (0: a free one). */
        async function start(port: string) {
            const em = await startEmulatorProcess(["--state-dir", dir, "--api-key", API_KEY, "--scale", "2", "--port", port]);
            children.push(em.child);
            return em;
        }

        it("restarted on the same directory and port while up waits on the revision: the next up converges, the deployment made once; the drift check finds it; destroy deletes it; the directory never holds the secret", async () => {
            const first = await start("0");
            const port = new URL(first.url).port;
            const s = await newStack(first.url);
            const list = async (url: string) =>
                (await raw({ url }, "GET", "/v2/deployments?limit=100", { apiKey: API_KEY, tenantId: s.workspace })).body.resources as Array<{
                    id: string;
                    name: string;
                }>;

            const up = s.cli(["up", "--yes", "--skip-preview"]);
            for (let i = 0; i < 300 && !(await list(first.url).catch(() => [])).length; i++) await new Promise((r) => setTimeout(r, 100));
            first.child.kill("SIGKILL");
            await new Promise((r) => first.child.once("exit", r));
            await new Promise((r) => setTimeout(r, 3_000));
            const second = await start(port);
            const during = await up;

            // Whether that `up` rode the outage out or stopped with the deployment recorded, the next one converges.
            const again = await s.cli(["up", "--yes", "--skip-preview"]);
            assert.equal(again.code, 0, `${during.stdout}${during.stderr}\n---\n${again.stdout}${again.stderr}`);
            const made = (await list(second.url)).filter((d) => d.name === s.name);
            assert.equal(made.length, 1, "the deployment made twice");
            const outputs = await project.outputs(s.stack);
            assert.equal(outputs.deploymentId, made[0].id);
            assert.equal(outputs.revisionStatus, "DEPLOYED");
            assert.equal((await s.cli(["preview", "--refresh", "--expect-no-changes"])).code, 0);
            assert.equal((await s.cli(["destroy", "--yes", "--skip-preview"])).code, 0);
            assert.deepEqual(
                (await list(second.url)).filter((d) => d.name === s.name),
                [],
            );
            for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), "utf8").includes(AGENT_SECRET), `${f} holds the secret in plain text`);
        });
    });

    describe("a stack on an S3-compatible backend (MinIO)", () => {
        let minio: MinioServer;
        let em: Emulator;
        before(async () => {
            minio = await startMinio({ buckets: ["exports", "pulumi-state"] });
            em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "timed", phaseMs: scaledTiming(2).phaseMs, deleteMs: 500 } });
            const endpoint = encodeURIComponent(minio.endpoint);
            project.useBackend(`s3://pulumi-state?endpoint=${endpoint}&region=us-east-1&use_path_style=true`, {
                AWS_ACCESS_KEY_ID: minio.root.accessKeyId,
                AWS_SECRET_ACCESS_KEY: minio.root.secretAccessKey,
                AWS_REGION: "us-east-1",
            });
        });
        after(async () => {
            await em?.close();
            await minio?.stop();
        });

        it("up killed mid-wait: the lock refuses the next run until pulumi cancel; LANGSMITH_ADOPT_IDS takes the deployment in; two ups at once, the second refused by the lock", async () => {
            const s = await newStack(em.url);
            const live = () => em.controlPlane.allDeployments().filter((d) => d.tenant_id === s.workspace && d.status !== "AWAITING_DELETE");
            assert.ok(
                (await minio.listKeys("pulumi-state")).some((k) => k.includes(s.stack)),
                "the stack is not in the bucket",
            );

            await killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", s.stack], () => live().length === 1);
            const locked = await s.cli(["up", "--yes", "--skip-preview"]);
            assert.notEqual(locked.code, 0);
            assert.match(locked.stdout + locked.stderr, /the stack is currently locked/);
            assert.equal((await s.cli(["cancel", "--yes"])).code, 0);

            const taken = await s.cli(["up", "--yes", "--skip-preview"]);
            assert.notEqual(taken.code, 0);
            const id = live()[0].id;
            assert.ok((taken.stdout + taken.stderr).includes(`LANGSMITH_ADOPT_IDS=${id} pulumi up`), taken.stdout + taken.stderr);
            const adopted = await s.cli(["up", "--yes", "--skip-preview"], { LANGSMITH_ADOPT_IDS: id });
            assert.equal(adopted.code, 0, adopted.stdout + adopted.stderr);
            assert.equal((await project.outputs(s.stack)).deploymentId, id);

            // Two runs of one stack at once: one holds the lock, the other is refused and changes nothing.
            const revisions = () => em.controlPlane.listRevisions(s.workspace, id, { limit: 100, offset: 0 }).resources;
            const before = revisions().length;
            await project.pulumi(["config", "set", "--stack", s.stack, "quickstart:repoRef", "release-2"]);
            const [a, b] = await Promise.all([s.cli(["up", "--yes", "--skip-preview"]), s.cli(["up", "--yes", "--skip-preview"])]);
            const refused = [a, b].filter((r) => /the stack is currently locked/.test(r.stdout + r.stderr));
            assert.equal(refused.length, 1, `${a.stdout}${a.stderr}\n---\n${b.stdout}${b.stderr}`);
            assert.equal([a, b].filter((r) => r.code === 0).length, 1);
            assert.equal(live().length, 1);
            assert.equal(revisions().length, before + 1, "one revision for the one change");
            assert.equal((await s.cli(["preview", "--refresh", "--expect-no-changes"])).code, 0);
            assert.equal((await s.cli(["destroy", "--yes", "--skip-preview"])).code, 0);
            assert.deepEqual(live(), []);
        });
    });

    describe("a stack in a file backend: the empty .attrs file a kill can leave (docs/recovery.md)", () => {
        let dir: string;
        before(() => {
            dir = mkdtempSync(join(tmpdir(), "file-backend-"));
        });
        after(() => rmSync(dir, { recursive: true, force: true }));
        const sidecar = (stack: string) => join(dir, ".pulumi", "stacks", "quickstart", `${stack}.json.attrs`);

        it("an emptied <stack>.json.attrs fails every command with 'failed to load checkpoint: EOF' until it is deleted; metadata=skip never writes it", async () => {
            project.useBackend(`file://${dir}`);
            const s = await newStack("http://127.0.0.1:9");
            assert.ok(existsSync(sidecar(s.stack)), "the file backend writes the sidecar");
            writeFileSync(sidecar(s.stack), "");
            const refused = await s.cli(["stack", "export"]);
            assert.notEqual(refused.code, 0);
            assert.match(refused.stderr, /failed to load checkpoint: EOF/);
            rmSync(sidecar(s.stack));
            assert.equal((await s.cli(["stack", "export"])).code, 0);

            project.useBackend(`file://${dir}?metadata=skip`);
            const skipped = await newStack("http://127.0.0.1:9");
            assert.equal((await skipped.cli(["stack", "export"])).code, 0);
            assert.ok(!existsSync(sidecar(skipped.stack)), "metadata=skip wrote the sidecar");
        });
    });
});
