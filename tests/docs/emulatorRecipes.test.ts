/**
 * docs/emulator.md as a user runs it: its `start` recipe launches `npx langsmith-emulator` in a project that
 * has the package, every other recipe runs as written against that emulator (only `$EMULATOR`,
 * `$LANGSMITH_API_KEY` and `$LANGSMITH_WORKSPACE_ID`, as the start recipe left them, are given), and what
 * the page says the client then sees is checked: over raw HTTP, through the provider's own clients and
 * through `@langchain/langgraph-sdk`, each observed word also found in the recipe's section. Every JSON
 * example of the reference is sent to the endpoint it names and must be taken with every field it gives;
 * the page's links lead somewhere. A recipe edited so that it no longer does what the page says fails here.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createDeploymentProvider, checkDeployment } from "../../provider/controlPlane/deployment/index";
import { admin, bulkExportClient, controlPlaneClient, githubBody, linkedProject, raw, sleep, uniqueName } from "../helpers/emulator";
import { settle } from "../helpers/bulkExport";
import { RecipePage, runRecipe, stopGroup, type RecipeRun } from "../helpers/docRecipes";
import { startMinio, type MinioServer, type S3Credentials } from "../helpers/minio";

const ROOT = join(__dirname, "..", "..");
const DOC = join(ROOT, "docs", "emulator.md");
/** Every recipe of the page, each run by a test below. */
const RECIPES = [
    "start",
    "node",
    "rate-limit-storm",
    "build-fails",
    "credentials-revoked",
    "ignore-interrupt",
    "ignore-interrupt-client",
    "lost-answer",
    "deployment-to-import",
    "slow-endpoint",
];
/** The tracing project the export recipes read: 3,000 runs in one UTC day. */
const PROJECT = { session_id: "55555555-0000-4000-8000-0000000000d0", start: "2026-11-01T00:00:00Z", end: "2026-11-02T00:00:00Z", count: 3_000, seed: 7 };

describe("docs/emulator.md: every recipe run as written, against the emulator its start recipe launches", function () {
    this.timeout(120_000);
    const page = new RecipePage(readFileSync(DOC, "utf8"));
    let project: string;
    let started: RecipeRun;
    /** What the start recipe exported: the environment of every other recipe. */
    let env: Record<string, string>;
    let em: { url: string };

    const run = (name: string, extra: Record<string, string> = {}) => runRecipe(page.recipe(name), { cwd: project, env: { ...env, ...extra } });
    const call = (method: string, path: string, body?: unknown) =>
        raw(em, method, path, { body, apiKey: env.LANGSMITH_API_KEY, tenantId: env.LANGSMITH_WORKSPACE_ID });
    const clientOptions = () => ({ apiKey: env.LANGSMITH_API_KEY, tenantId: env.LANGSMITH_WORKSPACE_ID });
    /** The page says `words` in the section of recipe `name`. */
    const says = (name: string, words: string) => assert.ok(page.sectionOf(name).includes(words), `the section of ${name} does not say ${words}`);

    before(async () => {
        project = linkedProject(["@langchain/langgraph-sdk"]);
        started = await runRecipe(page.recipe("start"), { cwd: project, env: {}, report: ["EMULATOR", "LANGSMITH_API_KEY", "LANGSMITH_WORKSPACE_ID"] });
        env = started.reported;
        em = { url: env.EMULATOR };
    });
    after(() => {
        stopGroup(started?.pid);
        if (project) rmSync(project, { recursive: true, force: true });
    });
    beforeEach(async () => {
        if (em) await admin(em, "POST", "/reset");
    });

    it("every recipe on the page is run by a test here, and every output block belongs to a recipe", () => {
        assert.deepEqual([...page.recipeNames()].sort(), [...RECIPES].sort());
        for (const name of page.outputNames()) assert.ok(page.recipeNames().includes(name), `output=${name} has no recipe`);
    });

    it("start: npx langsmith-emulator on a free port, its URL read from emulator.json; it prints the empty list; the key and the workspace are required", async () => {
        assert.equal(started.stdout, page.output("start"));
        assert.equal(JSON.parse(readFileSync(join(project, "emulator.json"), "utf8")).url, env.EMULATOR);
        const wrongKey = await raw(em, "GET", "/v2/deployments", { apiKey: "lsv2_other", tenantId: env.LANGSMITH_WORKSPACE_ID });
        assert.equal(wrongKey.status, 401);
        const noTenant = await raw(em, "GET", "/v2/deployments", { apiKey: env.LANGSMITH_API_KEY, tenantId: null });
        assert.equal(noTenant.status, 403);
        const auth = sectionTitled(page.text, "## Authentication");
        for (const r of [wrongKey, noTenant]) assert.ok(auth.includes(`${r.status} \`${JSON.stringify(r.body).replace(":", ": ")}\``), r.text);
    });

    it("node: startEmulator in a script prints the injected 429 and its Retry-After", async () => {
        const { stdout } = await run("node");
        assert.equal(stdout, page.output("node"));
    });

    it("rate-limit-storm: every control-plane POST answers 429 with Retry-After for 10 s, unprocessed; GETs pass; the provider's client succeeds once it is over", async () => {
        const t0 = Date.now();
        await run("rate-limit-storm");
        const name = uniqueName("storm");
        for (let i = 0; i < 2; i++) {
            const r = await call("POST", "/v2/deployments", githubBody(name));
            assert.equal(r.status, 429);
            assert.equal(r.headers["retry-after"], "2");
            says("rate-limit-storm", `retry-after: ${r.headers["retry-after"]}`);
            says("rate-limit-storm", r.text);
        }
        const list = await call("GET", `/v2/deployments?name_contains=${name}`);
        assert.equal(list.status, 200);
        assert.deepEqual(list.body.resources, [], "nothing was created");
        const cp = controlPlaneClient(em, clientOptions()).withDeadline(Date.now() + 60_000);
        const { adopted } = await cp.createDeployment(githubBody(name));
        assert.equal(adopted, false);
        assert.ok(Date.now() - t0 >= 10_000, "the create went through only once the 10 s were over");
        const posts = (await admin(em, "GET", "/requests")).filter(
            (r: { method: string; path: string }) => r.method === "POST" && r.path === "/v2/deployments",
        );
        assert.ok(posts.filter((r: { status: number }) => r.status === 429).length >= 3, JSON.stringify(posts));
        assert.equal(posts.at(-1).status, 201);
        assert.equal((await call("GET", `/v2/deployments?name_contains=${name}`)).body.resources.length, 1);
    });

    it("build-fails: a revision from the ref `broken` goes through BUILDING into BUILD_FAILED, with no agent server; another ref deploys; the provider's create fails with the words quoted", async () => {
        await run("build-fails");
        const broken = await call(
            "POST",
            "/v2/deployments",
            githubBody(uniqueName("broken"), { source_revision_config: { repo_ref: "broken", langgraph_config_path: "langgraph.json" } }),
        );
        assert.equal(broken.status, 201);
        assert.equal(await revisionStatus(broken.body), "BUILD_FAILED");
        const history = await admin(em, "GET", `/revisions/${broken.body.latest_revision_id}/history`);
        assert.deepEqual(
            history.map((h: { status: string }) => h.status),
            ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "BUILD_FAILED"],
        );
        says("build-fails", "`CREATING`, `QUEUED`, `AWAITING_BUILD`, `BUILDING`, then `BUILD_FAILED`");
        assert.equal((await call("GET", `${new URL(broken.body.source_config.custom_url).pathname}/ok`)).status, 404);
        const fine = await call("POST", "/v2/deployments", githubBody(uniqueName("fine")));
        assert.equal(await revisionStatus(fine.body), "DEPLOYED");
        const e = await providerCreateError(uniqueName("pulumi-broken"), "broken");
        says("build-fails", e.replace(/revision \S+ of deployment (\S+) \(\S+\)/, "revision <id> of deployment <name> (<id>)"));
    });

    it("deployment-to-import: prints the id of a deployment made outside Pulumi, which the provider reads back as the page's program declares it", async () => {
        const { stdout } = await run("deployment-to-import");
        const id = stdout.trim();
        const d = (await call("GET", `/v2/deployments/${id}`)).body;
        assert.equal(d.name, "made-outside");
        const read = await createDeploymentProvider({ client: () => controlPlaneClient(em, clientOptions()) }).read!(id, {});
        assert.equal(read.id, id);
        assert.deepEqual(read.inputs!.sourceRevisionConfig, { repoRef: "main", graphConfigPath: "langgraph.json" });
        says("deployment-to-import", "pulumi import langsmith:index:Deployment agent <id> --generate-code=false --protect=false");
    });

    it("lost-answer: the create answers 502 yet the deployment exists, a second create is a 409; the provider's client adopts the one it made", async () => {
        await run("lost-answer");
        const name = uniqueName("lost");
        const lost = await call("POST", "/v2/deployments", githubBody(name));
        assert.equal(lost.status, 502);
        says("lost-answer", `\`${lost.status}\` with \`${lost.text}\``);
        assert.equal((await call("GET", `/v2/deployments?name_contains=${name}`)).body.resources.length, 1);
        assert.equal((await call("POST", "/v2/deployments", githubBody(name))).status, 409);
        await run("lost-answer");
        const other = uniqueName("adopted");
        const { adopted } = await controlPlaneClient(em, clientOptions()).createDeployment(githubBody(other));
        assert.equal(adopted, true);
        assert.equal((await call("GET", `/v2/deployments?name_contains=${other}`)).body.resources.length, 1);
    });

    it("slow-endpoint: a deployment's GET answers the same, 2 s late; the list answers at once", async () => {
        const { body: d } = await call("POST", "/v2/deployments", githubBody());
        const first = await call("GET", `/v2/deployments/${d.id}`);
        await run("slow-endpoint");
        const [slow, ms] = await timed(() => call("GET", `/v2/deployments/${d.id}`));
        assert.equal(slow.status, 200);
        assert.deepEqual(slow.body, first.body);
        assert.ok(ms >= 2_000, `answered after ${ms} ms`);
        const [list, listMs] = await timed(() => call("GET", "/v2/deployments"));
        assert.equal(list.status, 200);
        assert.ok(listMs < 1_000, `the list took ${listMs} ms`);
    });

    it("ignore-interrupt: through @langchain/langgraph-sdk, the second run waits pending and the first ends success with its whole answer; without the switch, interrupted", async () => {
        const agentUrl = async () => (await call("POST", "/v2/deployments", githubBody())).body.source_config.custom_url as string;
        await run("ignore-interrupt");
        const ignored = await run("ignore-interrupt-client", { AGENT_URL: await agentUrl() });
        assert.equal(ignored.stdout, page.output("ignore-interrupt-client"));
        await admin(em, "POST", "/reset");
        const honoured = (await run("ignore-interrupt-client", { AGENT_URL: await agentUrl() })).stdout.split("\n");
        for (const line of ["second run: running", "first run: interrupted"]) {
            assert.ok(honoured.includes(line), honoured.join("\n"));
            says("ignore-interrupt", `\`${line}\``);
        }
    });

    describe("bulk export, into MinIO", () => {
        let minio: MinioServer;
        before(async () => (minio = await startMinio()));
        after(async () => minio?.stop());

        /** The project, a destination writing under `prefix` with `user`'s keys, and the bulk-export client. */
        async function exportSetUp(prefix: string, user: S3Credentials) {
            await admin(em, "POST", "/bulk-exports/projects", PROJECT);
            const be = bulkExportClient(em, clientOptions());
            const config = { bucket_name: "exports", prefix, endpoint_url: minio.endpoint };
            const credentials = { access_key_id: user.accessKeyId, secret_access_key: user.secretAccessKey };
            const { destination } = await be.createDestination({ destination_type: "s3", display_name: prefix, config, credentials });
            const oneDay = { bulk_export_destination_id: destination.id, session_id: PROJECT.session_id, start_time: PROJECT.start, end_time: PROJECT.end };
            return { be, oneDay };
        }

        it("credentials-revoked: the export fails with the storage error after two files, which stay in the bucket; not retried", async () => {
            const { be, oneDay } = await exportSetUp("revoked", minio.users.writeDelete);
            await run("credentials-revoked");
            const { export: e } = await be.createExport(oneDay);
            assert.equal((await settle(be, e.id)).status, "Failed");
            const [r] = await be.listExportRuns(e.id);
            assert.equal(r.status, "Failed");
            assert.equal(r.retry_number, 0);
            says("credentials-revoked", `\`errors\` \`${JSON.stringify(r.errors).replace(":", ": ")}\``);
            assert.equal(r.metadata?.result?.exported_files.length, 2);
            assert.equal(r.metadata?.result?.rows_written, 1_000);
            assert.equal((await minio.listKeys("exports", `revoked/export_id=${e.id}/`)).length, 2);
        });

        it("(the page's claim beside that recipe) credentials revoked for real while a run writes fail it with the storage server's words, not retried", async () => {
            const user = await minio.addUser(["s3:PutObject", "s3:DeleteObject"]);
            const { be, oneDay } = await exportSetUp("real", user);
            await admin(em, "PUT", "/bulk-exports/limits", { rowsPerFile: 500 });
            // Two files, then a processing error: the run waits 30 s (emulator clock) to retry from its checkpoint.
            await admin(em, "POST", "/bulk-exports/failure-rules", { kind: "processing", afterFiles: 2 });
            const { export: e } = await be.createExport(oneDay);
            await until(async () => (await be.listExportRuns(e.id))[0].errors?.retry_0 !== undefined);
            await minio.revokeSecret(user);
            await admin(em, "POST", "/clock/advance", { ms: 30_000 });
            assert.equal((await settle(be, e.id)).status, "Failed");
            const [r] = await be.listExportRuns(e.id);
            assert.equal(r.retry_number, 1);
            assert.match(String(r.errors?.retry_1), /^Storage error: SignatureDoesNotMatch: /);
            says("credentials-revoked", "`Storage error: SignatureDoesNotMatch: ...`");
            assert.equal(r.metadata?.result?.exported_files.length, 2);
        });
    });

    it("every JSON example of the reference is taken by the endpoint it names, with every field it gives", async () => {
        const examples = page.examples();
        assert.ok(examples.length >= 7, `${examples.length} examples`);
        for (const x of examples) {
            await admin(em, "POST", "/reset");
            const answer = await admin(em, x.method, x.path.replace(/^\/__admin/, ""), x.body);
            if (x.path.endsWith("/clock/advance")) assert.ok(Date.parse(answer.now) >= Date.now() + (x.body as { ms: number }).ms - 5_000, answer.now);
            else assertTaken(x.body, answer, `${x.method} ${x.path}`);
        }
    });

    it("the page's links lead somewhere: its own headings and files of the repository", () => {
        const slugs = [...page.text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]));
        for (const [, target] of page.text.matchAll(/\]\(([^)]+)\)/g)) {
            if (target.startsWith("#")) assert.ok(slugs.includes(target.slice(1)), `no heading for ${target}`);
            else if (!/^https?:/.test(target)) {
                // Another page's heading: the page is there and has that heading.
                const [file, heading] = target.split("#");
                assert.ok(existsSync(join(dirname(DOC), file)), `no file ${file}`);
                if (heading) {
                    const other = readFileSync(join(dirname(DOC), file), "utf8");
                    assert.ok(
                        [...other.matchAll(/^#+ (.*)$/gm)].some((m) => slug(m[1]) === heading),
                        `no heading for ${target}`,
                    );
                }
            }
        }
    });

    /** The latest revision's status, read until it is final (DEPLOYED or failed) or 20 s pass. */
    async function revisionStatus(d: { id: string; latest_revision_id: string }): Promise<string> {
        let status = "";
        await until(async () => {
            status = (await call("GET", `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`)).body.status;
            return status === "DEPLOYED" || status.endsWith("_FAILED");
        });
        return status;
    }

    /** The message a `Deployment` create fails with, through the provider Pulumi runs, for a github ref. */
    async function providerCreateError(name: string, repoRef: string): Promise<string> {
        const cp = controlPlaneClient(em, clientOptions());
        const provider = createDeploymentProvider({ client: () => cp, pollInterval: () => 5 });
        const args = {
            name,
            source: "github",
            sourceConfig: { integrationId: githubBody().source_config.integration_id, repoUrl: "https://github.com/acme/agent" },
        };
        const { inputs } = checkDeployment({ ...args, sourceRevisionConfig: { repoRef, graphConfigPath: "langgraph.json" }, __provider: "p" });
        const e = await provider.create!(inputs!).then(
            () => assert.fail("the create succeeded"),
            (err: Error) => err,
        );
        return e.message;
    }
});

/** A `## ` section of a Markdown text, from its heading to the next one of that level. */
function sectionTitled(md: string, heading: string): string {
    const start = md.indexOf(`\n${heading}\n`);
    assert.ok(start >= 0, heading);
    const end = md.indexOf("\n## ", start + heading.length + 1);
    return md.slice(start, end < 0 ? undefined : end);
}

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
    return heading
        .toLowerCase()
        .replace(/[^\w\s-]/g, "")
        .trim()
        .replace(/\s/g, "-");
}

/** Every field of `sent` is in `answer` with the value sent (objects field by field, arrays item by item). */
function assertTaken(sent: unknown, answer: unknown, where: string): void {
    if (sent === null || typeof sent !== "object") {
        assert.deepEqual(answer, sent, where);
        return;
    }
    assert.ok(answer !== null && typeof answer === "object", `${where}: answered ${JSON.stringify(answer)}`);
    for (const [k, v] of Object.entries(sent)) assertTaken(v, (answer as Record<string, unknown>)[k], `${where}.${k}`);
}

/** Waits until `ok()` holds (every 50 ms), or fails after 20 s. */
async function until(ok: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await ok())) {
        if (Date.now() > deadline) assert.fail("still not so after 20 s");
        await sleep(50);
    }
}

/** The result of `f` and how long it took, in ms. */
async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
    const t = Date.now();
    const r = await f();
    return [r, Date.now() - t];
}
