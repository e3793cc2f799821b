/**
 * A prompt promoted by `pulumi up`, with the real CLI against the emulator's prompt hub (examples/prompt-promotion):
 * release 1 (a prompt, its first version, `prod` on it); release 2 in one `up` (the preview plans one version to
 * create and `prod` to update in place, nothing replaced or deleted; the official Python client then pulls
 * `handle:prod` and gets the second manifest, pulls the first by its hash, and lists each commit once); the drift
 * check green, also after a commit made elsewhere; release 3 with the CLI killed once the commit is made and before
 * the tag moves, then `up` again: one commit, not two, and `prod` on it; destroy leaves no prompt. And the Python
 * and YAML twins (examples/python-prompt-promotion, examples/yaml-prompt-promotion) through the native plugin: a
 * promotion in place, pulled by the Python client, the drift check, destroy.
 *
 * Its `pulumi` commands (issue 50: more than 8): one stack for the TypeScript releases, each release an `up` (the
 * second the workflow's pull-request preview and its up on main, the third killed, then its `up`), the drift check
 * before and after the commit made elsewhere, `destroy`; per twin one stack: `up`, the promotion's
 * `preview --diff` and `up`, the drift check, `destroy`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { killedWhen } from "../helpers/cli";
import { raw } from "../helpers/emulator";
import { chatManifest, pulledByPython } from "../helpers/prompts";
import { createProject, createPythonProject, createYamlProject, type PulumiProject } from "../helpers/project";
import { runStep, step } from "../helpers/workflow";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: a prompt promoted by pulumi up (real CLI, examples/prompt-promotion)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `prompts-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const handle = `support-${randomUUID().slice(0, 6)}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const repo = () => em.prompts.model.findRepo(workspace, handle);
    const commits = () => {
        const r = repo();
        return r ? em.prompts.model.commits(r).map((c) => c.commit_hash) : [];
    };
    /** What the official Python client answers for each identifier. */
    const python = (...ids: string[]) => pulledByPython(em.url, API_KEY, workspace, ...ids);
    const output = async (name: string) => JSON.parse((await cli("stack", "output", name, "--json")).stdout);

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        project = createProject("prompt-promotion");
        await project.initStack(
            stack,
            {
                "langsmith:endpoint": em.url,
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:workspaceId": workspace,
                "prompt-promotion:handle": handle,
                "prompt-promotion:release": "1",
            },
            { "langsmith:apiKey": API_KEY },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    it("release 1: the prompt, its first version and prod on it; the Python client pulls handle:prod", async () => {
        await cli("up", "--yes", "--skip-preview");
        assert.equal(commits().length, 1);
        assert.equal(await output("pull"), `${handle}:prod`);
        const pulled = await python(`${handle}:prod`);
        assert.match(pulled.get(`pull ${handle}:prod`).text, /Answer the customer's question politely\.$/m);
    });

    it("release 2 through the CI workflow (examples/ci): its pull-request preview plans one version and prod moved in place, its up on main does it; the client pulls the second by tag, the first by hash, each commit listed once", async () => {
        await cli("config", "set", "prompt-promotion:release", "2");
        const vars = { STACK: stack, LANGSMITH_API_KEY: API_KEY };
        const preview = await runStep(project, step("preview \\(pull request\\)"), vars);
        assert.equal(preview.code, 0, preview.output);
        assert.match(preview.output, /\+ 1 to create/);
        assert.match(preview.output, /~ 1 to update/);
        assert.doesNotMatch(preview.output, /to replace|to delete/);
        const up = await runStep(project, step("up \\(main\\)"), vars);
        assert.equal(up.code, 0, up.output);
        const [first, second] = (await output("commits")) as string[];
        assert.deepEqual(commits(), [second, first]);
        assert.equal(await output("prodCommit"), second);
        const pulled = await python(`${handle}:prod`, `${handle}:${first}`);
        assert.match(pulled.get(`pull ${handle}:prod`).text, /in three sentences at most\.$/m);
        assert.match(pulled.get(`pull ${handle}:${first}`).text, /Answer the customer's question politely\.$/m);
        assert.deepEqual(pulled.get("list_prompt_commits"), [second, first]);
    });

    it("the drift check is green, also after a commit made elsewhere (a change of the prompt's latest, not of a version)", async () => {
        await cli("preview", "--refresh", "--expect-no-changes");
        const elsewhere = await raw(em, "POST", `/commits/-/${handle}`, {
            apiKey: API_KEY,
            tenantId: workspace,
            body: { manifest: chatManifest("made in the UI"), parent_commit: commits()[0] },
        });
        assert.equal(elsewhere.status, 201);
        await cli("preview", "--refresh", "--expect-no-changes");
    });

    it("release 3 with the CLI killed between the commit and the tag move: the next up makes no second commit, and prod lands on it", async () => {
        await cli("config", "set", "prompt-promotion:release", "3");
        const before = commits().length;
        // The commit is made and its answer held back: room to kill the CLI before the state records it.
        em.addFault({ method: "POST", path: `^/api/v1/commits/-/${handle}$`, kind: "latency", when: "after", latencyMs: 5_000 });
        await killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", stack], () => commits().length === before + 1);
        await project.pulumi(["cancel", "--yes", "--stack", stack], { allowFailure: true });
        const up = await cli("up", "--yes", "--skip-preview");
        assert.match(up.stdout + up.stderr, /taken over instead of creating another/);
        assert.equal(commits().length, before + 1, "one commit, not two");
        const [, , third] = (await output("commits")) as string[];
        assert.equal(third, commits()[0]);
        assert.equal((await python(`${handle}:prod`)).get(`pull ${handle}:prod`).text.includes("name the docs page you used"), true);
    });

    it("destroy leaves no prompt (its versions and tags go with it)", async () => {
        await cli("destroy", "--yes", "--skip-preview");
        assert.equal(repo(), undefined);
        assert.equal((await raw(em, "GET", `/api/v1/repos/-/${handle}`, { apiKey: API_KEY, tenantId: workspace })).status, 404);
    });
});

describe("e2e: a prompt promoted by pulumi up, in Python and in YAML (the native plugin)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    const workspace = randomUUID();
    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
    });
    after(() => em?.close());

    /** The prod text the Python client pulls, and the prompt's commits, newest first. */
    const pulled = async (handle: string) => {
        const got = await pulledByPython(em.url, API_KEY, workspace, `${handle}:prod`);
        return { text: String(got.get(`pull ${handle}:prod`).text), commits: got.get("list_prompt_commits") as string[] };
    };

    for (const lang of ["python", "yaml"] as const) {
        it(`${lang}: the first release, then a promotion in place (one version more or the tag moved), pulled by the client; the drift check; destroy`, async () => {
            const name = `${lang}-prompt-promotion`;
            // The checkout's generated SDK, ahead of the one the shared virtualenv holds (another checkout's, maybe).
            const project = lang === "python" ? createPythonProject(name) : createYamlProject(name);
            project.useEnv({ PYTHONPATH: join(__dirname, "..", "..", "sdk", "python") });
            const stack = `prompts-${randomUUID().slice(0, 8)}`;
            const handle = `${lang}-${randomUUID().slice(0, 6)}`;
            const step = lang === "python" ? { key: `${name}:release`, first: "1", next: "2" } : { key: `${name}:promoted`, first: "0", next: "1" };
            const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
            try {
                await project.initStack(
                    stack,
                    { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace, [`${name}:handle`]: handle, [step.key]: step.first },
                    { "langsmith:apiKey": API_KEY },
                );
                await cli("up", "--yes", "--skip-preview");
                assert.match((await pulled(handle)).text, /politely[.:]/);
                await cli("config", "set", step.key, step.next);
                const preview = await cli("preview", "--diff");
                assert.match(preview.stdout, /~ 1 to update/);
                assert.doesNotMatch(preview.stdout, /to replace|to delete/);
                await cli("up", "--yes", "--skip-preview");
                const after = await pulled(handle);
                assert.match(after.text, /three sentences at most/);
                assert.equal(after.commits.length, 2);
                await cli("preview", "--refresh", "--expect-no-changes");
                await cli("destroy", "--yes", "--skip-preview");
                assert.equal(em.prompts.model.findRepo(workspace, handle), undefined);
            } finally {
                project.remove();
            }
        });
    }
});
