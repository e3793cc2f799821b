/**
 * The emulator's prompt hub over raw HTTP (docs/service.md R8): the workspace's `/settings`; repositories (made,
 * read, listed, changed, deleted with their commits and tags; a taken handle 409, a handle the service refuses 422);
 * commits (the first without a parent, every later one on the latest: a stale or missing parent 409), read by hash,
 * hash prefix, tag or `latest`, listed newest first; tags (made, a second of the same name 409, moved by PATCH, a
 * commit of another prompt 404, deleted); the whole hub across a restart on the same `--state-dir`; and the official
 * Python client pulling a tagged prompt and one by hash, and listing the commits, before and after the tag moves;
 * the official JS client pulling the same.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "langsmith";
import { TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { chatManifest, pulledByPython } from "../../helpers/prompts";

/** A new prompt with one commit per manifest, each on the latest; answers the commits as made. */
async function promptWith(em: Emulator, handle: string, systems: string[]): Promise<Array<{ id: string; commit_hash: string }>> {
    assert.equal((await raw(em, "POST", "/api/v1/repos", { body: { repo_handle: handle, is_public: false } })).status, 200);
    const made: Array<{ id: string; commit_hash: string }> = [];
    for (const s of systems) {
        const parent = made.at(-1)?.commit_hash;
        const r = await raw(em, "POST", `/commits/-/${handle}`, { body: { manifest: chatManifest(s), ...(parent ? { parent_commit: parent } : {}) } });
        assert.equal(r.status, 201, r.text);
        made.push(r.body.commit);
    }
    return made;
}

describe("emulator: the prompt hub", function () {
    this.timeout(60_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(() => em.close());

    it("GET /settings answers the workspace (its id; no hub handle until one is set)", async () => {
        const r = await raw(em, "GET", "/api/v1/settings");
        assert.equal(r.status, 200);
        assert.equal(r.body.id, TEST_TENANT);
        assert.equal(r.body.tenant_handle, null);
    });

    it("repositories: made, read, a taken handle 409, a refused handle 422, changed, listed, deleted", async () => {
        const handle = uniqueName("repo");
        const made = await raw(em, "POST", "/api/v1/repos", { body: { repo_handle: handle, is_public: false, description: "d", tags: ["a"] } });
        assert.equal(made.status, 200);
        assert.equal(made.body.repo.full_name, handle);
        assert.equal(made.body.repo.num_commits, 0);
        assert.equal(made.body.repo.last_commit_hash, null);
        assert.equal((await raw(em, "POST", "/api/v1/repos", { body: { repo_handle: handle, is_public: false } })).status, 409);
        const bad = await raw(em, "POST", "/api/v1/repos", { body: { repo_handle: "Not A Handle", is_public: false } });
        assert.equal(bad.status, 422);
        assert.deepEqual(bad.body.detail[0].loc, ["body", "repo_handle"]);
        const patched = await raw(em, "PATCH", `/api/v1/repos/-/${handle}`, { body: { description: "e", is_archived: true } });
        assert.equal(patched.body.repo.description, "e");
        assert.equal(patched.body.repo.is_archived, true);
        assert.deepEqual(patched.body.repo.tags, ["a"]);
        const listed = (q: string) => raw(em, "GET", `/api/v1/repos?${q}`).then((r) => r.body.repos.map((x: { repo_handle: string }) => x.repo_handle));
        assert.ok(!(await listed("is_archived=false")).includes(handle));
        assert.ok((await listed("is_archived=true")).includes(handle));
        assert.equal((await raw(em, "GET", "/api/v1/repos?is_archived=maybe")).status, 422);
        assert.equal((await raw(em, "DELETE", `/api/v1/repos/-/${handle}`)).status, 200);
        assert.equal((await raw(em, "GET", `/api/v1/repos/-/${handle}`)).status, 404);
    });

    it("commits: the first without a parent, later ones on the latest only (a stale or missing parent is 409)", async () => {
        const handle = uniqueName("commits");
        const [first, second] = await promptWith(em, handle, ["one", "two"]);
        const stale = await raw(em, "POST", `/commits/-/${handle}`, { body: { manifest: chatManifest("three"), parent_commit: first.commit_hash } });
        assert.equal(stale.status, 409);
        assert.match(stale.body.detail, /Parent commit validation failed/);
        assert.equal((await raw(em, "POST", `/commits/-/${handle}`, { body: { manifest: chatManifest("three") } })).status, 409);
        const third = await raw(em, "POST", `/api/v1/commits/-/${handle}`, {
            body: { manifest: chatManifest("three"), parent_commit: second.commit_hash.slice(0, 8) },
        });
        assert.equal(third.status, 201);
        assert.equal(third.body.commit.parent_commit_hash, second.commit_hash);
        const list = await raw(em, "GET", `/commits/-/${handle}/?limit=2`);
        assert.equal(list.body.total, 3);
        assert.deepEqual(
            list.body.commits.map((c: { commit_hash: string }) => c.commit_hash),
            [third.body.commit.commit_hash, second.commit_hash],
        );
        const repo = (await raw(em, "GET", `/api/v1/repos/-/${handle}`)).body.repo;
        assert.equal(repo.last_commit_hash, third.body.commit.commit_hash);
        assert.equal(repo.num_commits, 3);
        const read = (ref: string) => raw(em, "GET", `/commits/-/${handle}/${ref}`);
        assert.equal((await read(first.commit_hash)).body.manifest.kwargs.messages[0].kwargs.prompt.kwargs.template, "one");
        assert.equal((await read(first.commit_hash.slice(0, 8))).body.commit_hash, first.commit_hash);
        assert.equal((await read("latest")).body.commit_hash, third.body.commit.commit_hash);
        assert.equal((await read("0000000000")).status, 404);
    });

    it("tags: made on a commit, a second of the same name 409, moved by PATCH, another prompt's commit 404, deleted", async () => {
        const handle = uniqueName("tags");
        const [first, second] = await promptWith(em, handle, ["one", "two"]);
        const [foreign] = await promptWith(em, uniqueName("other"), ["x"]);
        const tags = `/api/v1/repos/-/${handle}/tags`;
        const made = await raw(em, "POST", tags, { body: { tag_name: "prod", commit_id: first.id } });
        assert.equal(made.status, 200);
        assert.equal(made.body.commit_hash, first.commit_hash);
        assert.equal((await raw(em, "POST", tags, { body: { tag_name: "prod", commit_id: second.id } })).status, 409);
        assert.equal((await raw(em, "POST", tags, { body: { tag_name: "dev", commit_id: foreign.id } })).status, 404);
        assert.equal((await raw(em, "GET", `/commits/-/${handle}/prod`)).body.commit_hash, first.commit_hash);
        const moved = await raw(em, "PATCH", `${tags}/prod`, { body: { commit_id: second.id } });
        assert.equal(moved.status, 200);
        assert.equal(moved.body.commit_hash, second.commit_hash);
        assert.equal(moved.body.id, made.body.id);
        assert.equal((await raw(em, "GET", `/commits/-/${handle}/prod`)).body.commit_hash, second.commit_hash);
        assert.deepEqual((await raw(em, "GET", `/api/v1/repos/-/${handle}`)).body.repo.commit_tags, ["prod"]);
        assert.deepEqual(
            (await raw(em, "GET", tags)).body.map((t: { tag_name: string }) => t.tag_name),
            ["prod"],
        );
        assert.equal((await raw(em, "DELETE", `${tags}/prod`)).status, 200);
        assert.equal((await raw(em, "GET", `${tags}/prod`)).status, 404);
    });

    it("the official Python client pulls handle:tag (before and after the tag moves) and a commit by hash, and lists the commits once each", async () => {
        const handle = uniqueName("pulled");
        const [first, second] = await promptWith(em, handle, ["You are {role}, version one.", "You are {role}, version two."]);
        await raw(em, "POST", `/api/v1/repos/-/${handle}/tags`, { body: { tag_name: "prod", commit_id: first.id } });
        const python = (...ids: string[]) => pulledByPython(em.url, TEST_API_KEY, TEST_TENANT, ...ids);
        const before = await python(`${handle}:prod`, `${handle}:${second.commit_hash}`);
        assert.equal(before.get(`pull ${handle}:prod`).class, "ChatPromptTemplate", JSON.stringify(before.get(`pull ${handle}:prod`)));
        assert.match(before.get(`pull ${handle}:prod`).text, /version one/);
        assert.match(before.get(`pull ${handle}:${second.commit_hash}`).text, /version two/);
        assert.deepEqual(before.get("list_prompt_commits"), [second.commit_hash, first.commit_hash]);
        await raw(em, "PATCH", `/api/v1/repos/-/${handle}/tags/prod`, { body: { commit_id: second.id } });
        const after = await python(`${handle}:prod`);
        assert.match(after.get(`pull ${handle}:prod`).text, /version two/);
    });

    it("the official JS client pulls handle:tag and a commit by hash, and lists the commits", async () => {
        const handle = uniqueName("js");
        const [first, second] = await promptWith(em, handle, ["js one", "js two"]);
        await raw(em, "POST", `/api/v1/repos/-/${handle}/tags`, { body: { tag_name: "prod", commit_id: second.id } });
        const js = new Client({ apiUrl: em.url, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        const tagged = await js.pullPromptCommit(`${handle}:prod`, { skipCache: true });
        assert.equal(tagged.commit_hash, second.commit_hash);
        assert.equal((tagged.manifest as any).kwargs.messages[0].kwargs.prompt.kwargs.template, "js two");
        assert.equal((await js.pullPromptCommit(`${handle}:${first.commit_hash}`, { skipCache: true })).commit_hash, first.commit_hash);
        const listed: string[] = [];
        for await (const c of js.listCommits(handle)) listed.push(c.commit_hash);
        assert.deepEqual(listed, [second.commit_hash, first.commit_hash]);
    });

    it("keeps repositories, commits and tags in --state-dir across a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "prompts-state-"));
        try {
            const one = await startTestEmulator({ stateDir: dir });
            const handle = uniqueName("kept");
            const [c] = await promptWith(one, handle, ["kept"]);
            await raw(one, "POST", `/api/v1/repos/-/${handle}/tags`, { body: { tag_name: "prod", commit_id: c.id } });
            await one.close();
            const two = await startTestEmulator({ stateDir: dir });
            try {
                assert.equal((await raw(two, "GET", `/api/v1/repos/-/${handle}`)).body.repo.last_commit_hash, c.commit_hash);
                assert.equal((await raw(two, "GET", `/commits/-/${handle}/prod`)).body.commit_hash, c.commit_hash);
            } finally {
                await two.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
