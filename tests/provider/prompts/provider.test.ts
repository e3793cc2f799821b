/**
 * Prompt, PromptVersion and PromptTag (provider/prompts) against the emulator's prompt hub over HTTP, through the
 * registered providers (each operation in its workspace, the adoption guard): what preview refuses (a handle the
 * hub refuses, a manifest the clients cannot load, a tag that names no hash; nothing sent), the prompt's create,
 * update, refresh (a version made elsewhere shows on the prompt, never on a version), import and delete; versions
 * written on the latest read at the write (one made elsewhere in between becomes the parent), every change a
 * replacement; a promotion (a new version, the tag moved by PATCH: same tag, no delete, no create); a tag naming
 * another prompt's version refused in words; an interrupted create converging on one commit, not two; and two
 * versions created at once both landing, one on the other.
 */
import assert from "node:assert/strict";
import { diffByTable } from "../../../provider/kit/diff";
import { PROMPT_DIFF } from "../../../provider/prompts/prompt/provider";
import { checkPromptTag } from "../../../provider/prompts/promptTag/provider";
import { PROMPT_VERSION_DIFF, checkPromptVersion } from "../../../provider/prompts/promptVersion/provider";
import { checkPrompt } from "../../../provider/prompts/prompt/provider";
import { RESOURCES } from "../../../provider/registry";
import { withEnv } from "../../helpers/async";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";
import { chatManifest, promptTemplate } from "../../helpers/prompts";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const prompt = RESOURCES.prompt.provider as Provider;
const version = RESOURCES.promptVersion.provider as Provider;
const tag = RESOURCES.promptTag.provider as Provider;

/** The message of the error `fn` fails with. */
const failure = async (fn: () => Promise<unknown>) => String((await rejection(fn))?.message);

/** The inputs after the provider's check, which must pass. */
async function checked(p: Provider, news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await p.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

describe("Prompt, PromptVersion, PromptTag", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const commits = async (handle: string) => (await raw(em(), "GET", `/commits/-/${handle}?limit=100`)).body.commits as Array<{ commit_hash: string }>;
    const newPrompt = async (handle = uniqueName("p")) => {
        const inputs = await checked(prompt, { handle });
        return { handle, ...(await prompt.create(inputs)) };
    };
    const newVersion = async (handle: string, system: string, extra: Record<string, unknown> = {}) =>
        version.create(await checked(version, { promptHandle: handle, manifest: chatManifest(system), ...extra }));

    it("check: a refused handle, a manifest the clients cannot load and a tag without a hash fail at preview, saying why; nothing is sent", async () => {
        em().admin.requests.length = 0;
        assert.deepEqual(
            checkPrompt({ handle: "Support Bot" }).failures?.map((f) => [f.property, f.reason]),
            [
                [
                    "handle",
                    'handle "Support Bot" is not a handle the prompt hub takes: lowercase letters, digits, "-" and "_", starting with a letter or digit, at most 100 characters (docs/service.md R8.1)',
                ],
            ],
        );
        const bad = (manifest: unknown) => checkPromptVersion({ promptHandle: "p", manifest }).failures?.map((f) => `${f.property}: ${f.reason}`);
        assert.deepEqual(bad({ text: "Hello {name}" }), [
            "manifest: not a prompt the LangSmith clients can load: manifest.lc must be 1 (a serialized LangChain object), got undefined",
        ]);
        assert.match(
            String(bad({ lc: 1, type: "constructor", id: ["my_pkg", "Prompt"], kwargs: {} })),
            /starts with "my_pkg": the clients load only objects of langchain/,
        );
        assert.match(String(bad({ ...chatManifest("x"), kwargs: { messages: [] } })), /kwargs.messages must be a non-empty list/);
        assert.match(String(bad({ ...promptTemplate("x", []), kwargs: {} })), /kwargs.template must be the template's text/);
        assert.match(
            String(bad({ lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "HumanMessage"], kwargs: { content: "hi" } })),
            /is a HumanMessage, not a prompt/,
        );
        assert.match(
            String(bad({ ...chatManifest("x"), kwargs: { messages: [{ lc: 1, type: "secret", id: ["OPENAI_API_KEY"] }] } })),
            /kwargs.messages\[0\] is a secret reference/,
        );
        assert.deepEqual(bad(chatManifest("fine {role}", ["role"])), []);
        assert.deepEqual(bad(promptTemplate("Say {x}", ["x"])), []);
        assert.deepEqual(
            checkPromptTag({ promptHandle: "p", name: "prod", commitHash: "v2" }).failures?.map((f) => f.property),
            ["commitHash"],
        );
        assert.deepEqual(
            checkPromptTag({ promptHandle: "p", name: "pr od", commitHash: "0123abcd" }).failures?.map((f) => f.property),
            ["name"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("diff: a new handle replaces a prompt, its description updates in place, tags compare as a set; any change of a version replaces it", () => {
        const olds = { handle: "a", description: "x", tags: ["b", "a"], isPublic: false, isArchived: false };
        assert.deepEqual(diffByTable(PROMPT_DIFF, olds, { ...olds, tags: ["a", "b"] }).changes, false);
        assert.deepEqual(diffByTable(PROMPT_DIFF, olds, { ...olds, description: "y" }).updates, ["description"]);
        assert.deepEqual(diffByTable(PROMPT_DIFF, olds, { ...olds, handle: "b" }).replaces, ["handle"]);
        const v = { promptHandle: "a", manifest: chatManifest("one") };
        assert.deepEqual(diffByTable(PROMPT_VERSION_DIFF, v, { ...v, manifest: chatManifest("two") }).replaces, ["manifest"]);
        assert.deepEqual(diffByTable(PROMPT_VERSION_DIFF, v, { ...v, description: "why" }).replaces, ["description"]);
    });

    it("Prompt: made, changed in place, read back (a version made elsewhere shows on it), imported by handle, deleted with its versions", async () => {
        const p = await newPrompt();
        assert.equal(p.id, p.handle);
        assert.equal(p.outs.fullName, p.handle);
        const news = await checked(prompt, { handle: p.handle, description: "support answers", tags: ["support"], isArchived: true });
        const updated = await prompt.update(p.id, p.outs, news);
        assert.equal(updated.outs.description, "support answers");
        const repo = (await raw(em(), "GET", `/api/v1/repos/-/${p.handle}`)).body.repo;
        assert.deepEqual([repo.description, repo.tags, repo.is_archived], ["support answers", ["support"], true]);
        const elsewhere = await raw(em(), "POST", `/commits/-/${p.handle}`, { body: { manifest: chatManifest("from the UI") } });
        assert.equal(elsewhere.status, 201, elsewhere.text);
        const refreshed = await prompt.read(p.id, updated.outs);
        // A version made elsewhere is data: the prompt's outputs are what they were (getPrompt reads the latest).
        assert.deepEqual(refreshed.props, updated.outs);
        assert.deepEqual(refreshed.inputs, { handle: p.handle, description: "support answers", tags: ["support"], isPublic: false, isArchived: true });
        const imported = await prompt.read(p.handle, {} as any);
        assert.deepEqual(imported.inputs, refreshed.inputs);
        await prompt.delete(p.id, updated.outs);
        assert.equal((await raw(em(), "GET", `/api/v1/repos/-/${p.handle}`)).status, 404);
        assert.deepEqual(await prompt.read(p.id, updated.outs), {});
    });

    it("Prompt: a handle the workspace holds is refused naming it; LANGSMITH_ADOPT_IDS=<handle> takes it and brings it in line", async () => {
        const handle = uniqueName("held");
        await raw(em(), "POST", "/api/v1/repos", { body: { repo_handle: handle, is_public: false, description: "old" } });
        const inputs = await checked(prompt, { handle, description: "new" });
        assert.match(await failure(() => prompt.create(inputs)), new RegExp(`already holds prompt ${handle}[\\s\\S]*LANGSMITH_ADOPT_IDS=${handle} pulumi up`));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: handle }, () => prompt.create(inputs));
        assert.equal(taken.id, handle);
        assert.equal((await raw(em(), "GET", `/api/v1/repos/-/${handle}`)).body.repo.description, "new");
    });

    it("PromptVersion: each written on the latest read at the write (a commit made elsewhere in between is the parent); refresh and import by handle:hash", async () => {
        const { handle } = await newPrompt();
        const v1 = await newVersion(handle, "one");
        assert.equal(v1.id, `${handle}:${v1.outs.commitHash}`);
        assert.equal(v1.outs.parentCommitHash, null);
        const elsewhere = (await raw(em(), "POST", `/commits/-/${handle}`, { body: { manifest: chatManifest("UI"), parent_commit: v1.outs.commitHash } })).body
            .commit;
        const v2 = await newVersion(handle, "two", { description: "second" });
        assert.equal(v2.outs.parentCommitHash, elsewhere.commit_hash, "the parent is the latest at the time of the write, not v1");
        // Refresh of v1 after newer commits: no change of v1 (its manifest from the state, its hash and parent as they were).
        const r1 = await version.read(v1.id, v1.outs);
        assert.deepEqual(r1.props, v1.outs);
        const imported = await version.read(v2.id, {} as any);
        assert.deepEqual(imported.inputs, { promptHandle: handle, manifest: chatManifest("two"), description: "second" });
        assert.equal(imported.props.parentCommitHash, elsewhere.commit_hash);
        await version.delete(v2.id, v2.outs);
        assert.equal((await commits(handle)).length, 3, "a version's delete leaves its commit (commits go with their prompt)");
        assert.deepEqual(await version.read(`${handle}:0123456789abcdef`, v1.outs), {});
    });

    it("PromptVersion: an interrupted create (the commit made, the state not written) converges on one commit, not two", async () => {
        const { handle } = await newPrompt();
        const first = await newVersion(handle, "one");
        // The answer of the commit is lost (the connection dropped after the service made it): the client finds it.
        em().addFault({ method: "POST", path: `^/api/v1/commits/-/${handle}$`, kind: "drop", when: "after" });
        const lost = await newVersion(handle, "two");
        assert.equal((await commits(handle)).length, 2);
        // The whole run killed after the commit: the next `up` creates the version again, and takes that commit.
        const again = await newVersion(handle, "two");
        assert.equal(again.outs.commitHash, lost.outs.commitHash);
        assert.equal(again.outs.parentCommitHash, first.outs.commitHash);
        assert.equal((await commits(handle)).length, 2, "one commit, not two");
    });

    it("PromptVersion: two created at once both land, one written on the other", async () => {
        const { handle } = await newPrompt();
        const [a, b] = await Promise.all([newVersion(handle, "a"), newVersion(handle, "b")]);
        const parents = [a.outs.parentCommitHash, b.outs.parentCommitHash];
        assert.ok(
            (parents[0] === null && parents[1] === a.outs.commitHash) || (parents[1] === null && parents[0] === b.outs.commitHash),
            JSON.stringify(parents),
        );
        assert.equal((await commits(handle)).length, 2);
    });

    it("PromptTag: promotion moves the tag by PATCH (same tag, no delete, no create); refresh shows a move made elsewhere; import; delete", async () => {
        const { handle } = await newPrompt();
        const v1 = await newVersion(handle, "one");
        const t = await tag.create(await checked(tag, { promptHandle: handle, name: "prod", commitHash: v1.outs.commitHash }));
        assert.equal(t.id, `${handle}:prod`);
        assert.equal((await raw(em(), "GET", `/commits/-/${handle}/prod`)).body.commit_hash, v1.outs.commitHash);
        const v2 = await newVersion(handle, "two");
        const news = await checked(tag, { promptHandle: handle, name: "prod", commitHash: v2.outs.commitHash });
        const diff = await tag.diff(t.id, t.outs, news);
        assert.deepEqual([diff.replaces, (diff as { updates?: string[] }).updates], [[], ["commitHash"]]);
        em().admin.requests.length = 0;
        const moved = await tag.update(t.id, t.outs, news);
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path} ${r.status}`),
            [`PATCH /api/v1/repos/-/${handle}/tags/prod 200`],
        );
        assert.equal(moved.outs.tagId, t.outs.tagId);
        assert.equal((await raw(em(), "GET", `/commits/-/${handle}/prod`)).body.commit_hash, v2.outs.commitHash);
        await raw(em(), "PATCH", `/api/v1/repos/-/${handle}/tags/prod`, { body: { commit_id: v1.outs.commitId } });
        assert.equal((await tag.read(t.id, moved.outs)).inputs.commitHash, v1.outs.commitHash, "a move made elsewhere is drift");
        assert.deepEqual((await tag.read(t.id, {} as any)).inputs, { promptHandle: handle, name: "prod", commitHash: v1.outs.commitHash });
        await tag.delete(t.id, moved.outs);
        assert.equal((await raw(em(), "GET", `/api/v1/repos/-/${handle}/tags/prod`)).status, 404);
    });

    it("PromptTag: renamed without an alias, or `pulumi up --replace`: the create takes the tag on that version, and the delete of the resource that held it leaves it (kit/adoption.ts)", async () => {
        // Both are checked as a new resource, without olds (the engine's isTargetedReplace for `--replace`).
        const { handle } = await newPrompt();
        const v1 = await newVersion(handle, "one");
        const args = { promptHandle: handle, name: "prod", commitHash: v1.outs.commitHash };
        const old = await tag.create(await checked(tag, args));
        const taken = await tag.create((await tag.check({}, args)).inputs);
        assert.equal(taken.id, old.id);
        await tag.delete(old.id, old.outs);
        assert.equal((await raw(em(), "GET", `/commits/-/${handle}/prod`)).status, 200, `${handle}:prod gone after its create took it`);
    });

    it("PromptTag: a second resource for a tag another resource of the program holds (checked with its olds in this run) is refused naming it, even on that version", async () => {
        const { handle } = await newPrompt();
        const v1 = await newVersion(handle, "one");
        const args = { promptHandle: handle, name: "prod", commitHash: v1.outs.commitHash };
        const first = await tag.create(await checked(tag, args));
        await tag.check(first.outs, args);
        const refused = await failure(() => tag.create(args as any));
        assert.match(refused, /Another resource of this stack holds it/);
        assert.equal((await raw(em(), "GET", `/commits/-/${handle}/prod`)).status, 200);
    });

    it("PromptTag: a version of another prompt is refused in words at preview and at up, nothing sent; a tag already on that version (an interrupted run) is taken; on another, refused", async () => {
        const { handle } = await newPrompt();
        const other = await newPrompt();
        const foreign = await newVersion(other.handle, "theirs");
        em().admin.requests.length = 0;
        const foreignTag = { promptHandle: handle, name: "prod", commitHash: foreign.outs.commitHash };
        em().admin.requests.length = 0;
        const atPreview = await tag.check({}, foreignTag);
        assert.deepEqual(
            atPreview.failures?.map((f) => [f.property, f.reason.replace(foreign.outs.commitHash, "<hash>")]),
            [
                [
                    "commitHash",
                    `commitHash <hash> is not a version of prompt ${handle}: a tag names a version of its own prompt (give the commitHash of a PromptVersion whose promptHandle is ${handle})`,
                ],
            ],
        );
        // At up too (the hash unknown at preview: another version made in the same run).
        const refused = await failure(() => tag.create(foreignTag));
        assert.match(refused, new RegExp(`is not a version of prompt ${handle}: a tag names a version of its own prompt`));
        assert.deepEqual(writes(em()), []);
        const v1 = await newVersion(handle, "one");
        const v2 = await newVersion(handle, "two");
        await raw(em(), "POST", `/api/v1/repos/-/${handle}/tags`, { body: { tag_name: "prod", commit_id: v1.outs.commitId } });
        const taken = await tag.create(await checked(tag, { promptHandle: handle, name: "prod", commitHash: v1.outs.commitHash }));
        assert.equal(taken.outs.commitId, v1.outs.commitId);
        const onV2 = await checked(tag, { promptHandle: handle, name: "prod", commitHash: v2.outs.commitHash });
        const elsewhere = await failure(() => tag.create(onV2));
        assert.match(elsewhere, /already holds tag "prod" on version/);
    });
});
