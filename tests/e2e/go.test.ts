/**
 * A Go program through the native plugin `pulumi-resource-langsmith` and the Go SDK generated from its schema
 * (sdk/go): examples/go-quickstart's `program` (a Deployment, a TracingProject exported to MinIO by an
 * ExportDestination and a ScheduledExport, a Prompt with a version and its `prod` tag), run inline through Pulumi's
 * Automation API by tests/e2e/programs/go-runner (the Go module proxy refuses Pulumi's Go language host: the runner is
 * its own, docs/testing.md), with the real `pulumi` CLI and engine, against the emulator over HTTP: `pulumi import` of
 * a tracing project made outside Pulumi, `up`, the drift check, a repoRef change making one revision, an `up` killed
 * while that revision builds and the next converging on it, destroy leaving nothing; bad input ending with the provider's words in Go's spelling (an ExpiresAt in the past), a wrong API key
 * said once, never a Go stack trace; a misspelt field refused by the Go compiler (the control of the one build).
 *
 * One build of the runner (with the quickstart's program and tests/e2e/programs/go-runner/expiredKey.go), one refused
 * compile, and a `go vet` of a copy of the example (its main.go is not in the runner) after the Go workflow's `go
 * module` line took the SDK from a release archive into it (examples/ci/pulumi-langsmith-go.yml); one stack, and its commands, each needed: stack init and its config (2); the import (1); up,
 * its outputs, the drift check (3); the repoRef set, up, outputs (3); the repoRef set again, the up that is killed,
 * `pulumi cancel` (the lock it leaves), the up that converges, outputs (5); destroy and the stored state read (2); the
 * expired key's preview (1); the wrong key set and a preview (2). The runner also runs `pulumi stack select` before
 * each of its commands, and `stack output` after an `up` (the Automation API's own).
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { eventually } from "../helpers/async";
import { providersOf } from "../helpers/cli";
import { GoModule, go } from "../helpers/go";
import { startMinio, type MinioServer } from "../helpers/minio";
import { createYamlProject, type PulumiProject } from "../helpers/project";
import { CI_WORKFLOWS, runStep, step, workflowEnv } from "../helpers/workflow";

const GO_WORKFLOW = CI_WORKFLOWS.go;

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const WRONG_KEY = `lsv2_sk_${"0".repeat(32)}`;
const OPENAI_KEY = `sk-agent-${randomUUID()}`;
const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";
const HOUR = 3_600_000;
const ROOT = resolve(__dirname, "../..");

describe("e2e: a Go program (examples/go-quickstart) through the native plugin, inline through the Automation API", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let minio: MinioServer;
    let runner: GoModule;
    let binary: string;
    let project: PulumiProject;
    const stack = `go-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const prefix = `go-${randomUUID().slice(0, 8)}`;
    const handle = `support-${randomUUID().slice(0, 6)}`;
    const tracingName = `agent-${stack}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

    /** The runner's `command` on the stack (program.go's `program`, or another of the runner's), as the CLI's output. */
    async function run(command: "up" | "preview" | "drift" | "destroy", program = "quickstart", started?: (pid: number) => void) {
        // The Automation API's check of the CLI's version costs a `pulumi version` per run: the CLI is scripts/setup.sh's.
        const env = { ...project.env, PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true" };
        // In a process group of its own, the CLI it starts with it: what a cancelled CI job kills.
        const child = spawn(binary, [command, stack, program], { cwd: project.dir, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
        started?.(child.pid!);
        let output = "";
        child.stdout.on("data", (d: Buffer) => (output += d));
        child.stderr.on("data", (d: Buffer) => (output += d));
        const code = await new Promise<number>((done, fail) => {
            child.on("error", fail);
            child.on("close", (c) => done(c ?? 1));
        });
        project.transcript.push(`$ runner ${command} ${stack} ${program}`, output);
        return { code, output };
    }
    async function ok(command: "up" | "drift" | "destroy") {
        const r = await run(command);
        assert.equal(r.code, 0, r.output);
        return r;
    }
    const live = () => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace && d.status !== "AWAITING_DELETE");
    const ofWorkspace = <T extends { tenant_id?: string }>(m: Map<string, T>) => [...m.values()].filter((x) => x.tenant_id === workspace);

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, agentServer: { stepMs: 20 } });
        minio = await startMinio();
        runner = new GoModule("tests/e2e/programs/go-runner", "examples/go-quickstart/program.go");
        await runner.useCheckoutSdk();
        const built = await runner.build();
        assert.equal(built.code, 0, built.output);
        binary = built.binary;
        console.log(`      go build of the runner: ${built.ms} ms`);
        project = createYamlProject("go-quickstart");
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:endpoint": em.url,
                "langsmith:workspaceId": workspace,
                "go-quickstart:integrationId": INTEGRATION,
                "go-quickstart:tracingProject": tracingName,
                "go-quickstart:bucket": "exports",
                "go-quickstart:prefix": prefix,
                "go-quickstart:s3Endpoint": minio.endpoint,
                "go-quickstart:s3AccessKeyId": minio.users.writeDelete.accessKeyId,
                "go-quickstart:exportStart": new Date(Math.floor(Date.now() / HOUR) * HOUR - 20 * HOUR).toISOString(),
                "go-quickstart:intervalHours": "6",
                "go-quickstart:handle": handle,
            },
            {
                "langsmith:apiKey": API_KEY,
                "go-quickstart:openaiApiKey": OPENAI_KEY,
                "go-quickstart:s3SecretAccessKey": minio.users.writeDelete.secretAccessKey,
            },
        );
    });
    after(async () => {
        project?.remove();
        runner?.remove();
        await minio?.stop();
        await em?.close();
    });

    it("a misspelt field (RepoReff) is refused by the Go compiler, naming it and its type (the control of the runner's build)", async () => {
        const control = new GoModule("tests/e2e/programs/go-runner", "examples/go-quickstart/program.go");
        try {
            await control.useCheckoutSdk();
            const file = join(control.dir, "program.go");
            const text = readFileSync(file, "utf8");
            assert.ok(text.includes("RepoRef: "), "program.go sets no RepoRef");
            writeFileSync(file, text.replace("RepoRef: ", "RepoReff:"));
            const r = await control.build();
            assert.notEqual(r.code, 0, "the misspelt field compiled");
            assert.match(r.output, /unknown field RepoReff in struct literal of type langsmith\.DeploymentSourceRevisionConfigArgs/);
        } finally {
            control.remove();
        }
    });

    it("the Go workflow (examples/ci/pulumi-langsmith-go.yml): its `go module` line, as written, takes the Go SDK from a release's archive into a copy of the example, which then passes go vet (main.go too); its pulumi lines are the Node workflow's", async () => {
        const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
        assert.equal(workflowEnv("LANGSMITH_VERSION", GO_WORKFLOW), version, "the workflow names another version than the package's");
        // A release directory holding the Go module archive as scripts/release.ts lays it out: one top directory, sdk/go.
        const release = mkdtempSync(join(tmpdir(), "go-release-"));
        const copy = new GoModule("examples/go-quickstart");
        const server = createServer((req, res) => {
            const file = join(release, basename(req.url ?? ""));
            if (existsSync(file)) res.end(readFileSync(file));
            else res.writeHead(404).end();
        });
        try {
            execFileSync("tar", [
                "-czf",
                join(release, `pulumi-langsmith-go-v${version}.tar.gz`),
                "-C",
                join(ROOT, "sdk"),
                `--transform=s,^go,pulumi-langsmith-go-v${version},`,
                "go",
            ]);
            await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
            const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
            const r = await runStep({ dir: copy.dir, env: process.env }, step("go module", GO_WORKFLOW), {
                LANGSMITH_RELEASE: url,
                LANGSMITH_VERSION: version,
            });
            assert.equal(r.code, 0, r.output);
            assert.match(readFileSync(join(copy.dir, "go.mod"), "utf8"), new RegExp(`=> \\./pulumi-langsmith-go-v${version.replace(/\./g, "\\.")}\\n`));
            const vetted = await go(copy.dir, ["vet", "."]);
            assert.equal(vetted.code, 0, vetted.output);
        } finally {
            server.close();
            copy.remove();
            rmSync(release, { recursive: true, force: true });
        }
        for (const name of ["preview \\(pull request\\)", "up \\(main\\)", "drift check \\(schedule\\)"])
            assert.equal(step(name, GO_WORKFLOW), step(name), name);
    });

    let out1: Record<string, any>;
    let imported: string;

    it("pulumi import of a tracing project made outside Pulumi, then up: the deployment, the export of that project into MinIO, the prompt's version and tag; a clean drift check", async () => {
        // Made through the service's API, as the UI or a script would.
        const made = await fetch(`${em.url}/api/v1/sessions`, {
            method: "POST",
            headers: { "X-API-Key": API_KEY, "X-Tenant-Id": workspace, "content-type": "application/json" },
            body: JSON.stringify({ name: tracingName, description: "Traces of the support agent" }),
        });
        assert.ok(made.ok, await made.clone().text());
        imported = ((await made.json()) as { id: string }).id;
        // Through the YAML front door: the engine loads the project's language host for an import too, even one that
        // generates no code (`failed to load language plugin go`), and the Go host cannot be had here (docs/testing.md).
        // The same project name and stack, its Pulumi.yaml saying `runtime: yaml` for this one command.
        const goProject = readFileSync(join(project.dir, "Pulumi.yaml"), "utf8");
        writeFileSync(join(project.dir, "Pulumi.yaml"), "name: go-quickstart\nruntime: yaml\n");
        try {
            await cli("import", "langsmith:index:TracingProject", "agent-traces", imported, "--yes", "--generate-code=false", "--protect=false");
        } finally {
            writeFileSync(join(project.dir, "Pulumi.yaml"), goProject);
        }

        await ok("up");
        out1 = await project.outputs(stack);
        assert.equal(out1.revisionStatus, "DEPLOYED");
        assert.equal(out1.tracingProjectId, imported, "the imported project was replaced");
        const [d] = live();
        assert.equal(d.id, out1.deploymentId);
        assert.deepEqual(
            d.secrets.map((s) => s.name),
            ["OPENAI_API_KEY"],
        );
        assert.deepEqual(
            ofWorkspace(em.bulkExport.model.projects).map((p) => p.session_id),
            [imported],
            "one tracing project: the imported one",
        );
        const schedule = em.bulkExport.model.exports.get(out1.exportId)!;
        assert.equal(schedule.session_id, imported);
        assert.equal(schedule.bulk_export_destination_id, out1.destinationId);
        assert.equal(em.bulkExport.model.destinations.get(out1.destinationId)!.config.prefix, prefix);
        const repo = em.prompts.model.findRepo(workspace, handle)!;
        assert.ok(repo, "no prompt");
        const commits = em.prompts.model.commits(repo).map((c) => c.commit_hash);
        assert.equal(commits.length, 1);
        assert.equal(out1.prodCommit, commits[0]);
        assert.match(out1.pull, new RegExp(`${handle}:prod$`));

        await ok("drift");
    });

    it("a repoRef change makes exactly one new revision of the same deployment, nothing else changes", async () => {
        await project.setConfig(stack, { "go-quickstart:repoRef": "release-2" });
        await ok("up");
        const out2 = await project.outputs(stack);
        assert.equal(out2.deploymentId, out1.deploymentId);
        assert.notEqual(out2.revisionId, out1.revisionId);
        const revisions = em.controlPlane.listRevisions(workspace, out1.deploymentId, { limit: 100, offset: 0 }).resources;
        assert.equal(revisions.length, 2, "exactly one new revision");
        assert.equal(revisions[0].source_revision_config.repo_ref, "release-2");
        for (const k of ["tracingProjectId", "destinationId", "exportId", "prodCommit"]) assert.equal(out2[k], out1[k], k);
    });

    it("an up killed (SIGKILL to the program and the CLI) while its new revision builds: after `pulumi cancel`, the next up converges on that revision, none made twice", async () => {
        // Builds of about 5 s: room to kill the run while it waits.
        em.setTiming({ speed: "timed", ...scaledTiming(1) });
        try {
            await project.setConfig(stack, { "go-quickstart:repoRef": "release-3" });
            const revisions = () => em.controlPlane.listRevisions(workspace, out1.deploymentId, { limit: 100, offset: 0 }).resources;
            let pid = 0;
            const killed = run("up", "quickstart", (p) => (pid = p));
            assert.ok(await eventually(() => revisions().length === 3, 60_000), "the killed run made no revision");
            process.kill(-pid, "SIGKILL");
            assert.notEqual((await killed).code, 0);
            assert.notEqual(revisions()[0].status, "DEPLOYED", "the kill came after the build");
            assert.ok(await eventually(() => providersOf(project).length === 0, 15_000), `provider processes outlived the killed CLI: ${providersOf(project)}`);
            await cli("cancel", "--yes");
            await ok("up");
            const [latest, ...older] = revisions();
            assert.equal(older.length, 2, "a revision made twice");
            assert.equal(latest.status, "DEPLOYED");
            assert.equal(latest.source_revision_config.repo_ref, "release-3");
            assert.equal((await project.outputs(stack)).revisionId, latest.id);
        } finally {
            em.setTiming({ speed: "immediate" });
        }
    });

    it("destroy leaves nothing on the service; no secret stored or printed", async () => {
        const stored = await project.storedText(stack);
        for (const secret of [API_KEY, OPENAI_KEY, minio.users.writeDelete.secretAccessKey])
            assert.ok(!stored.includes(secret), "a secret is in the state in plain text");
        await ok("destroy");
        assert.equal(live().length, 0, "a deployment is left");
        assert.equal(ofWorkspace(em.bulkExport.model.projects).length, 0, "a tracing project is left");
        assert.equal(em.bulkExport.model.exports.get(out1.exportId)!.status, "Cancelled");
        assert.equal(em.bulkExport.model.destinations.has(out1.destinationId), false, "the destination is left");
        assert.equal(em.prompts.model.findRepo(workspace, handle), undefined, "the prompt is left");
        const printed = project.transcript.join("\n");
        for (const secret of [API_KEY, OPENAI_KEY, minio.users.writeDelete.secretAccessKey])
            assert.ok(!printed.includes(secret), "a secret in a command's output");
    });

    it("an expiry in the past is refused at preview naming ExpiresAt, as the Go program spells it, never expiresAt; no Go stack trace", async () => {
        const pv = await run("preview", "expired-key");
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.match(
            pv.output,
            /ExpiresAt 2020-01-01T00:00:00(\.000)?Z is in the past: a key must expire in the future \(or leave ExpiresAt out: it never expires\)/,
        );
        assert.doesNotMatch(pv.output, /expiresAt|goroutine \d|panic:/);
    });

    it("a wrong API key is said once, for the provider, naming where it came from; no Go stack trace", async () => {
        await project.setConfig(stack, {}, { "langsmith:apiKey": WRONG_KEY });
        const pv = await run("preview");
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.equal(pv.output.split("refused this provider's credentials").length - 1, 1, pv.output);
        assert.match(pv.output, /pulumi:providers:langsmith resource 'default[^']*' has a problem: LangSmith refused/);
        assert.ok(pv.output.includes(`to ${em.url} (stack config langsmith:endpoint), with the API key of stack config langsmith:apiKey`), pv.output);
        assert.doesNotMatch(pv.output, /goroutine \d|panic:/);
        assert.ok(!pv.output.includes(WRONG_KEY), "the key was printed");
    });
});
