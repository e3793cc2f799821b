/**
 * PromptWebhook (provider/prompts/promptWebhook) against the emulator's prompt hub over HTTP, through the registered
 * provider, with a real HTTP receiver: what preview refuses (nothing sent); a webhook made, called on a commit and on
 * a tag's move with its secret header (and not for a prompt it leaves out, nor for an event it does not name);
 * changed in place; read back and imported; an identical one refused naming it (not its URL, a credential); deleted, then
 * called no more.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { checkPromptWebhook } from "../../../provider/prompts/promptWebhook/provider";
import { RESOURCES } from "../../../provider/registry";
import { raw, rejection, sleep, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";
import { chatManifest } from "../../helpers/prompts";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const webhook = RESOURCES.promptWebhook.provider as Provider;

interface Call {
    auth?: string;
    body: { event: string; prompt_handle: string; commit_hash: string; tag_name?: string };
}

describe("PromptWebhook", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    let receiver: Server;
    let url = "";
    const calls: Call[] = [];
    before(async () => {
        receiver = createServer((req, res) => {
            let text = "";
            req.on("data", (d: Buffer) => (text += d));
            req.on("end", () => {
                calls.push({ auth: req.headers.authorization, body: JSON.parse(text) });
                res.writeHead(204).end();
            });
        });
        await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
        url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    after(() => new Promise<void>((r) => receiver.close(() => r())));

    const checked = async (news: Record<string, unknown>) => {
        const r = await webhook.check({}, news);
        assert.deepEqual(r.failures ?? [], []);
        return r.inputs as Record<string, any>;
    };
    const newPrompt = async () => {
        const handle = uniqueName("hooked");
        const r = await raw(em(), "POST", "/api/v1/repos", { body: { repo_handle: handle, is_public: false } });
        return { handle, id: r.body.repo.id as string };
    };
    const commit = async (handle: string, parent?: string) =>
        (await raw(em(), "POST", `/commits/-/${handle}`, { body: { manifest: chatManifest("x"), ...(parent ? { parent_commit: parent } : {}) } })).body.commit;
    /** The calls received once the emulator's are answered (they are sent after the write's answer). */
    const received = async (n: number) => {
        if (n === 0) await sleep(200);
        for (let i = 0; i < 50 && calls.length < n; i++) await sleep(20);
        return calls.splice(0);
    };

    it("check: a URL that is not http(s), no trigger, a prompt that is no id fail at preview; nothing sent", async () => {
        em().admin.requests.length = 0;
        const r = checkPromptWebhook({ url: "ftp://x", triggers: [], includePrompts: ["support"] });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["url", "triggers", "includePrompts[0]"],
        );
        assert.deepEqual(
            checkPromptWebhook({ url: "https://x", triggers: ["tag:moved"] }).failures?.map((f) => f.property),
            ["triggers[0]"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("made, called on a commit and a tag move with its secret header (not for a prompt left out), changed in place, imported, refused twice, deleted", async () => {
        const a = await newPrompt();
        const b = await newPrompt();
        const inputs = await checked({ url, headers: { Authorization: "Bearer s3cret" }, triggers: ["commit"], includePrompts: [a.id] });
        const made = await webhook.create(inputs);
        const first = await commit(a.handle);
        await commit(b.handle);
        assert.deepEqual(
            (await received(1)).map((c) => [c.auth, c.body.event, c.body.prompt_handle, c.body.commit_hash]),
            [["Bearer s3cret", "commit", a.handle, first.commit_hash]],
            "called for the prompt it includes only",
        );
        // Moving a tag calls it once the trigger is there (a change in place, the same webhook).
        const news = await checked({ ...inputs, triggers: ["commit", "tag:update"] });
        assert.deepEqual((await webhook.diff(made.id, made.outs, news)).replaces ?? [], []);
        const updated = await webhook.update(made.id, made.outs, news);
        await raw(em(), "POST", `/api/v1/repos/-/${a.handle}/tags`, { body: { tag_name: "prod", commit_id: first.id } });
        const second = await commit(a.handle, first.commit_hash);
        await raw(em(), "PATCH", `/api/v1/repos/-/${a.handle}/tags/prod`, { body: { commit_id: second.id } });
        assert.deepEqual(
            (await received(2)).map((c) => [c.body.event, c.body.tag_name ?? null]),
            [
                ["commit", null],
                ["tag:update", "prod"],
            ],
            "a tag made (tag:create) is not named, so it does not call",
        );
        const imported = await webhook.read(made.id, {} as any);
        assert.deepEqual(imported.inputs, news);
        assert.deepEqual((await webhook.read(made.id, updated.outs)).inputs, news);
        const again = String((await rejection(() => webhook.create(news)))?.message);
        // The URL is a credential: the refusal names the webhook's id, never the URL.
        assert.match(again, new RegExp(`already holds webhook ${made.id} calling the same URL`));
        assert.ok(!again.includes(url), again);
        await webhook.delete(made.id, updated.outs);
        await commit(a.handle, second.commit_hash);
        assert.deepEqual(await received(0), []);
        assert.deepEqual(await webhook.read(made.id, updated.outs), {});
    });
});
