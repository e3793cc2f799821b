/**
 * Java programs through the native plugin `pulumi-resource-langsmith`, run by the real `pulumi` CLI with the Java
 * language host (`pulumi-language-java`, scripts/setup-java.sh) against the emulator over HTTP and a real MinIO:
 * examples/java-quickstart built as a user builds it (sdk/java packaged, its jar and POM installed by the
 * `mvn install:install-file` line of examples/ci/pulumi-langsmith-java.yml) and run as users run it: the Java host's
 * `mvn compile exec:java` on every command (a prebuilt jar, `runtime.options.binary`, is not read by the Java host
 * v1.16.0 under this Pulumi: docs/testing.md). The copy's `.mvn/` points Maven at the run's own local repository
 * (tests/helpers/java.ts) and starts its JVM with the quick JIT. One stack, its commands those of the Java CI workflow
 * where it has them: `up`, the drift check, a repoRef change planned and made as one update, `pulumi import` of a
 * tracing project made outside (with the Java code the host generates for it), destroy (nothing left on the
 * emulator). The first hour's mistakes in Java: a misspelt builder method refused by javac naming it (a control
 * compile); an expiry in the past and a wrong API key each ending with the provider's message, in the program's
 * spelling (camelCase, the schema's: `expiresAt`), with no Java stack trace; a Ctrl-C'd `up` (no stack trace either),
 * after which the workflow's `up` makes the rest and nothing twice.
 *
 * Its commands, each needed: stack init and its config (2); the two bad previews (2); the Ctrl-C'd up (1); the workflow's up, drift
 * check, preview and up (4) and the config change between (1); import (1); stack export for the leak check (1);
 * two `stack output` reads (2); destroy (1).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { killedWhen } from "../helpers/cli";
import { raw } from "../helpers/emulator";
import { JAVA_SDK_VERSION, buildJavaSdk, createJavaProject, javac, keepDownloads, mavenRepository, mvn } from "../helpers/java";
import { startMinio, type MinioServer } from "../helpers/minio";
import type { PulumiProject } from "../helpers/project";
import { CI_WORKFLOWS, runStep, step } from "../helpers/workflow";

const WORKFLOW = CI_WORKFLOWS.java;
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const WRONG_KEY = `lsv2_sk_${"0".repeat(32)}`;
const OPENAI_KEY = `sk-agent-${randomUUID()}`;
const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";
/** What the Java SDK prints of an exception it did not expect: a frame of a stack trace. */
const STACK_TRACE = /^\s+at [\w.$]+\(/m;

describe("e2e: Java programs through the native plugin and the Java language host", function () {
    this.timeout(15 * 60_000);
    let em: Emulator;
    let minio: MinioServer;
    let project: PulumiProject;
    let scratch: string;
    let repo: string;
    const stack = `java-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    let classpath: string;
    const workflow = async (name: string) => {
        const r = await runStep(project, step(name, WORKFLOW), { STACK: stack, LANGSMITH_API_KEY: API_KEY });
        assert.equal(r.code, 0, r.output);
        return r.output;
    };
    /**
     * Maven's settings for the copy (`.mvn/maven.config`, read by every `mvn` run in it, the Java host's too): the run's
     * own repository, and the class the program's `mvn exec:java` runs (the pom's `mainClass`, App, unless given).
     */
    const maven = (mainClass?: string) =>
        writeFileSync(
            join(project.dir, ".mvn", "maven.config"),
            [`-Dmaven.repo.local=${repo}`, ...(mainClass ? [`-DmainClass=${mainClass}`] : [])].join("\n") + "\n",
        );

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 } });
        minio = await startMinio();
        scratch = mkdtempSync(join(tmpdir(), "pulumi-langsmith-java-"));
        repo = mavenRepository(join(scratch, "m2"));
        project = createJavaProject("java-quickstart");
        // The API key as the CI workflow gives it, from the environment (the stack holds none), and the release the
        // workflow names (its `env:`), this checkout's version.
        project.useEnv({ LANGSMITH_API_KEY: API_KEY, LANGSMITH_VERSION: JAVA_SDK_VERSION });
        mkdirSync(join(project.dir, ".mvn"));
        maven();
        // Maven's JVM (which runs the program too: exec:java) starts faster with the quick JIT alone.
        writeFileSync(join(project.dir, ".mvn", "jvm.config"), "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n");
        // The release's names for the SDK's jar and POM, where the workflow's line installs them from.
        const sdk = await buildJavaSdk(repo, scratch);
        mkdirSync(join(project.dir, "release"));
        copyFileSync(sdk.jar, join(project.dir, "release", `langsmith-${JAVA_SDK_VERSION}.jar`));
        copyFileSync(sdk.pom, join(project.dir, "release", `langsmith-${JAVA_SDK_VERSION}.pom`));
        await workflow("Java SDK");
        // The bad-input program, compiled with the example, and the classpath the control compile takes, in one Maven run.
        copyFileSync(join(__dirname, "programs", "java", "BadInput.java"), join(project.dir, "src", "main", "java", "quickstart", "BadInput.java"));
        const built = await mvn(project.dir, repo, "compile", "dependency:build-classpath", `-Dmdep.outputFile=${join(scratch, "classpath")}`);
        classpath = `${join(project.dir, "target", "classes")}:${readFileSync(join(scratch, "classpath"), "utf8").trim()}`;
        console.log(`      Java SDK built in ${sdk.ms} ms, the example in ${built.ms} ms`);
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:endpoint": em.url,
                "langsmith:workspaceId": workspace,
                "java-quickstart:integrationId": INTEGRATION,
                "java-quickstart:s3Endpoint": minio.endpoint,
                "java-quickstart:bucket": "exports",
                "java-quickstart:s3AccessKeyId": minio.users.writeDelete.accessKeyId,
            },
            { "java-quickstart:openaiApiKey": OPENAI_KEY, "java-quickstart:s3SecretAccessKey": minio.users.writeDelete.secretAccessKey },
        );
    });
    after(async () => {
        project?.remove();
        if (repo) keepDownloads(repo);
        if (scratch) rmSync(scratch, { recursive: true, force: true });
        await minio?.stop();
        await em?.close();
    });

    it("a misspelt builder method is refused by javac naming it, the only error (a control compile of the example against its classpath)", async () => {
        const app = join(project.dir, "src", "main", "java", "quickstart", "App.java");
        const misspelt = join(scratch, "control", "quickstart", "App.java");
        mkdirSync(join(scratch, "control", "quickstart"), { recursive: true });
        const text = readFileSync(app, "utf8");
        assert.ok(text.includes(".repoRef("), "the example calls repoRef");
        writeFileSync(misspelt, text.replace(".repoRef(", ".repoReff("));
        const r = await javac(classpath, join(scratch, "control-out"), [misspelt]);
        assert.notEqual(r.code, 0, "javac took a misspelt builder method");
        assert.match(r.output, /App\.java:\d+: error: cannot find symbol\n.*\.repoReff\(/);
        assert.match(r.output, /symbol: +method repoReff\(String\)/);
        assert.match(r.output, /^1 error$/m);
    });

    it("an expiry in the past and a wrong API key: each preview ends with the provider's message in the program's spelling (expiresAt), no Java stack trace", async () => {
        maven("quickstart.BadInput");
        const expired = await project.pulumi(["preview", "--stack", stack], { allowFailure: true });
        maven();
        const said = expired.stdout + expired.stderr;
        assert.notEqual(expired.code, 0, said);
        assert.match(
            said,
            /property expiresAt value \{2020-01-01T00:00:00Z\} has a problem: expiresAt 2020-01-01T00:00:00.000Z is in the past: a token cannot be made with an expiry in the past/,
        );
        assert.doesNotMatch(said, /expires_at|ExpiresAt/);
        // The example's pom gives SLF4J a binding: no three lines of its warning among the program's messages.
        assert.doesNotMatch(said, /SLF4J/);
        assert.doesNotMatch(said, STACK_TRACE, "a Java stack trace");

        const refused = await project.pulumi(["preview", "--stack", stack], { allowFailure: true, env: { LANGSMITH_API_KEY: WRONG_KEY } });
        const words = refused.stdout + refused.stderr;
        assert.notEqual(refused.code, 0, words);
        assert.match(words, /401 Unauthorized/);
        assert.match(words, /refused this provider's credentials/);
        assert.match(words, /LANGSMITH_API_KEY/);
        assert.doesNotMatch(words, STACK_TRACE, "a Java stack trace");
    });

    it("a Ctrl-C'd up, then the CI workflow's lines: up makes every object once, the drift check is green, a repoRef change is planned and made as one update; pulumi import of a tracing project made outside; destroy leaves nothing; no secret stored or printed", async () => {
        // Ctrl-C (SIGINT to the CLI) while the prompt's version is made (its answer held back 5 s): the run ends
        // cancelled, with no Java stack trace; the workflow's up then makes the rest, nothing twice.
        const commits = () => {
            const repo = em.prompts.model.findRepo(workspace, "support");
            return repo ? em.prompts.model.commits(repo).length : 0;
        };
        em.addFault({ method: "POST", path: "^/api/v1/commits/-/support$", kind: "latency", when: "after", latencyMs: 5_000 });
        const interrupted = await killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", stack], () => commits() === 1, "SIGINT");
        assert.match(interrupted.stdout, /\^C received; cancelling\.[\s\S]*error: update canceled/);
        assert.doesNotMatch(interrupted.stdout + interrupted.stderr, STACK_TRACE, "a Java stack trace");

        await workflow("up \\(main\\)");
        const out = await project.outputs(stack);
        const live = em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);
        assert.equal(live.length, 1, "a deployment made twice");
        assert.equal(em.bulkExport.model.listDestinations(workspace).length, 1, "a destination made twice");
        assert.equal(em.bulkExport.model.listExports(workspace).length, 1, "an export made twice");
        assert.equal(commits(), 1, "a version committed twice");
        const [agent] = live;
        assert.equal(agent.name, `java-${stack}`);
        assert.equal(agent.id, out.deploymentId);
        assert.deepEqual(
            agent.secrets.map((s) => s.name),
            ["OPENAI_API_KEY"],
        );
        const traces = em.bulkExport.model.projects.get(out.projectId);
        assert.equal(traces?.session?.name, `support-agent-${stack}`);
        const destination = em.bulkExport.model.destination(workspace, out.destinationId);
        assert.equal(destination.config.bucket_name, "exports");
        const daily = em.bulkExport.model.export(workspace, out.exportId);
        assert.equal(daily.session_id, out.projectId);
        assert.equal(daily.interval_hours, 24);
        const prompt = em.prompts.model.findRepo(workspace, "support")!;
        const [commit] = em.prompts.model.commits(prompt);
        assert.equal(out.prodCommit, commit.commit_hash);
        assert.deepEqual(em.prompts.model.tagsOf(commit), ["prod"]);
        assert.match(out.pull, /(^|\/)support:prod$/);

        await workflow("drift check \\(schedule\\)");

        await project.pulumi(["config", "set", "--stack", stack, "java-quickstart:repoRef", "release-2"]);
        const plan = await workflow("preview \\(pull request\\)");
        assert.match(plan, /~ sourceRevisionConfig: \{\n\s+~ repoRef: "main" => "release-2"/);
        assert.match(plan, /~ 1 to update/);
        assert.doesNotMatch(plan, /to create|to replace|to delete/);
        await workflow("up \\(main\\)");
        const after = await project.outputs(stack);
        assert.equal(after.deploymentId, out.deploymentId);
        assert.notEqual(after.revisionId, out.revisionId);
        assert.equal(em.controlPlane.listRevisions(workspace, agent.id, { limit: 100, offset: 0 }).resources.length, 2);

        // A tracing project made outside Pulumi, imported: the Java the host generates for it names the class and its name.
        const outside = await raw(em, "POST", "/api/v1/sessions", { apiKey: API_KEY, tenantId: workspace, body: { name: `outside-${stack}` } });
        assert.equal(outside.status, 200, JSON.stringify(outside.body));
        const generated = join(project.dir, "Outside.java");
        await project.pulumi([
            "import",
            "langsmith:index:TracingProject",
            "outside",
            outside.body.id,
            "--yes",
            "--protect=false",
            "--out",
            generated,
            "--stack",
            stack,
        ]);
        const code = readFileSync(generated, "utf8");
        assert.match(code, /new TracingProject\("outside", TracingProjectArgs\.builder\(\)/);
        assert.match(code, new RegExp(`\\.name\\("outside-${stack}"\\)`));

        const stored = await project.storedText(stack);
        const printed = project.transcript.join("\n");
        for (const [what, secret] of Object.entries({
            "the API key": API_KEY,
            "the deployment's secret": OPENAI_KEY,
            "the bucket's secret key": minio.users.writeDelete.secretAccessKey,
        })) {
            assert.ok(!stored.includes(secret), `${what} is in the state in plain text`);
            assert.ok(!printed.includes(secret), `${what} is in a command's output`);
        }

        await project.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
        assert.deepEqual(
            em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace && d.status !== "AWAITING_DELETE"),
            [],
        );
        assert.equal(em.bulkExport.model.projects.get(out.projectId)?.deleting_until !== undefined || !em.bulkExport.model.projects.has(out.projectId), true);
        assert.equal(
            em.bulkExport.model.projects.get(outside.body.id)?.deleting_until !== undefined || !em.bulkExport.model.projects.has(outside.body.id),
            true,
        );
        assert.deepEqual(em.bulkExport.model.listDestinations(workspace), []);
        assert.equal(em.bulkExport.model.export(workspace, out.exportId).status, "Cancelled");
        assert.equal(em.prompts.model.findRepo(workspace, "support"), undefined);
    });
});
