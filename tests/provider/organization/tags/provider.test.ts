/**
 * Resource tags (provider/organization/tag*, kit/tags.ts) against the emulator's tags area over HTTP, through the
 * registered providers: what preview refuses (a kind of object the service cannot tag, ids that are no UUIDs, an
 * empty or over-long tag; nothing sent); TagKey, TagValue and Tagging made, read, renamed, imported (the Tagging by
 * its compound id) and deleted; a tagging already there refused with its id; and the `tags` argument of a
 * TracingProject: keys and values made or reused (one made by another stack is that one), the project list filtered
 * by the value, a changed value moving the project, a removed tag taken off while its key and value stay, another
 * value of one of its keys (a Tagging's) left alone by an update and not read by a refresh, a tag taken
 * off elsewhere seen at refresh, an import reading every tag, a change of tags alone an update that sends nothing
 * but taggings, a lost tagging answer looked up instead of sent twice, and delete taking the tags off.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "../../../../provider/registry";
import { raw, rejection, uniqueName } from "../../../helpers/emulator";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const tagKey = RESOURCES.tagKey.provider as Provider;
const tagValue = RESOURCES.tagValue.provider as Provider;
const tagging = RESOURCES.tagging.provider as Provider;
const project = RESOURCES.tracingProject.provider as Provider;

async function checked(p: Provider, news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await p.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

describe("TagKey, TagValue, Tagging and the tags argument", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    /** The tags on project `id`, as `key=value`, sorted. */
    const tagsOf = async (id: string, type = "project") => {
        const r = await raw(em(), "GET", `/api/v1/workspaces/current/tags/resource?resource_type=${type}&resource_id=${id}`);
        assert.equal(r.status, 200);
        return (r.body as Array<{ key: string; values: Array<{ value: string }> }>).flatMap((k) => k.values.map((v) => `${k.key}=${v.value}`)).sort();
    };
    const keys = async () =>
        (await raw(em(), "GET", "/api/v1/workspaces/current/tags")).body as Array<{ id: string; key: string; values: Array<{ id: string; value: string }> }>;
    const valueId = async (key: string, value: string) => (await keys()).find((k) => k.key === key)?.values.find((v) => v.value === value)?.id;
    const listedBy = async (valueIds: string[]) =>
        ((await raw(em(), "GET", `/api/v1/sessions?${valueIds.map((v) => `tag_value_id=${v}`).join("&")}`)).body as Array<{ name: string }>)
            .map((s) => s.name)
            .sort();

    it("check: a kind the service cannot tag, ids that are no UUIDs, empty and over-long tags fail at preview by property; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const r = await tagging.check({}, { tagValueId: "v1", resourceType: "run", resourceId: "p1" });
        assert.deepEqual(r.failures?.map((f) => f.property).sort(), ["resourceId", "resourceType", "tagValueId"]);
        assert.match(
            String(r.failures?.find((f) => f.property === "resourceType")?.reason),
            /must be one of dashboard, dataset, deployment, .*project, prompt, queue, sandbox \(got "run"\)/,
        );
        const p = await project.check({}, { name: uniqueName("p"), tags: { team: "", "": "x", env: "p".repeat(256) } });
        assert.deepEqual(p.failures?.map((f) => f.property).sort(), ["tags", "tags.env", "tags.team"]);
        const v = await tagValue.check({}, { tagKeyId: "k", value: "x".repeat(256) });
        assert.deepEqual(v.failures?.map((f) => f.property).sort(), ["tagKeyId", "value"]);
        assert.deepEqual(writes(em()), []);
    });

    it("TagKey, TagValue, Tagging: made, read, renamed, imported and deleted; a tagging already there is refused with its id", async () => {
        const k = await tagKey.create(await checked(tagKey, { key: "team", description: "Who owns it" }));
        const v = await tagValue.create(await checked(tagValue, { tagKeyId: k.id, value: "support" }));
        const p = await project.create(await checked(project, { name: uniqueName("p") }));
        const t = await tagging.create(await checked(tagging, { tagValueId: v.id, resourceType: "project", resourceId: p.id }));
        assert.deepEqual(await tagsOf(p.id), ["team=support"]);
        assert.deepEqual(await listedBy([v.id]), [p.outs.name]);
        // Import: the key and value by id, the tagging by its compound id.
        assert.deepEqual((await tagKey.read(k.id, {} as never)).inputs, { key: "team", description: "Who owns it" });
        assert.deepEqual((await tagValue.read(v.id, {} as never)).inputs, { tagKeyId: k.id, value: "support" });
        const imported = await tagging.read(`project/${p.id}/${v.id}`, {} as never);
        assert.equal(imported.id, t.id);
        assert.deepEqual(imported.inputs, { tagValueId: v.id, resourceType: "project", resourceId: p.id });
        assert.match(String((await rejection(() => tagging.read(t.id, {} as never)))?.message), /must be <resourceType>\/<resourceId>\/<tagValueId>/);
        // A second tagging of the same value on the same object: refused, naming the one there.
        const again = await rejection(() => tagging.create({ tagValueId: v.id, resourceType: "project", resourceId: p.id }));
        assert.match(String(again?.message), new RegExp(`already carries tag value ${v.id} \\(tagging ${t.id}`));
        // Renamed in place; the description cleared.
        const renamed = await tagKey.update(k.id, k.outs, await checked(tagKey, { key: "owner" }));
        assert.equal(renamed.outs.key, "owner");
        assert.deepEqual((await tagKey.read(k.id, renamed.outs)).inputs, { key: "owner" });
        await tagging.delete(t.id, { ...t.outs } as never);
        assert.deepEqual(await tagsOf(p.id), []);
        assert.deepEqual(await tagging.read(t.id, t.outs as never), {});
        await tagValue.delete(v.id, v.outs as never);
        await tagKey.delete(k.id, renamed.outs as never);
        assert.deepEqual(await keys(), []);
        // A second key of the same text is refused with the holder's id.
        const held = await tagKey.create(await checked(tagKey, { key: "env" }));
        assert.match(String((await rejection(() => tagKey.create({ key: "env" })))?.message), new RegExp(`already holds tag key ${held.id} named "env"`));
    });

    it("tags on a TracingProject: made or reused, filtered by, moved, taken off (key and value kept), drift seen, imported, and taken off at delete", async () => {
        // A key another stack made is reused, not made twice.
        const other = await tagKey.create(await checked(tagKey, { key: "team" }));
        const p = await project.create(await checked(project, { name: uniqueName("p"), tags: { team: "support", env: "prod" } }));
        assert.deepEqual(await tagsOf(p.id), ["env=prod", "team=support"]);
        assert.equal((await keys()).filter((k) => k.key === "team").length, 1);
        assert.equal((await keys()).find((k) => k.key === "team")?.id, other.id);
        const support = (await valueId("team", "support"))!;
        assert.deepEqual(await listedBy([support]), [p.outs.name]);
        assert.deepEqual(p.outs.tags, { team: "support", env: "prod" });

        // A change of tags alone: an update that sends nothing but taggings (no PATCH of the project).
        const news = await checked(project, { name: p.outs.name, tags: { team: "research" } });
        const d = await project.diff(p.id, p.outs, news);
        assert.equal(d.changes, true);
        assert.deepEqual(d.replaces ?? [], []);
        em().admin.requests.length = 0;
        const u = await project.update(p.id, p.outs, news);
        assert.deepEqual(
            writes(em()).map((w) => `${w.method} ${w.path.replace(/[0-9a-f-]{36}/g, "{id}")}`),
            [
                "DELETE /api/v1/workspaces/current/taggings/{id}",
                "DELETE /api/v1/workspaces/current/taggings/{id}",
                "POST /api/v1/workspaces/current/tag-keys/{id}/tag-values",
                "POST /api/v1/workspaces/current/taggings",
            ],
        );
        assert.deepEqual(await tagsOf(p.id), ["team=research"]);
        assert.deepEqual(await listedBy([support]), []);
        // Removed tags leave their key and value for whoever else uses them.
        assert.ok(await valueId("env", "prod"));
        assert.ok(await valueId("team", "support"));

        // Taken off elsewhere: refresh sees it; another stack's tag on the project is not ours to read.
        const research = (await valueId("team", "research"))!;
        const on = (await raw(em(), "GET", `/api/v1/workspaces/current/tags/resource?resource_type=project&resource_id=${p.id}`)).body;
        await raw(em(), "DELETE", `/api/v1/workspaces/current/taggings/${on[0].values[0].taggings[0].id}`);
        const theirs = await tagValue.create(await checked(tagValue, { tagKeyId: (await keys()).find((k) => k.key === "env")!.id, value: "dev" }));
        await tagging.create({ tagValueId: theirs.id, resourceType: "project", resourceId: p.id });
        const refreshed = await project.read(p.id, u.outs);
        assert.deepEqual(refreshed.props?.tags, {});
        assert.equal((await project.diff(p.id, refreshed.props as never, news)).changes, true);
        // An import reads every tag on it.
        assert.deepEqual((await project.read(p.id, {} as never)).inputs?.tags, { env: "dev" });
        // Put back by the next update, then taken off at delete (the other stack's stays).
        const back = await project.update(p.id, refreshed.props as never, news);
        assert.deepEqual(await tagsOf(p.id), ["env=dev", "team=research"]);
        assert.deepEqual(await listedBy([research]), [p.outs.name]);
        // Another value of a key the program names is another's (a Tagging's): an update leaves it on, a refresh does not read it.
        const billing = await tagValue.create(await checked(tagValue, { tagKeyId: (await keys()).find((k) => k.key === "team")!.id, value: "billing" }));
        await tagging.create({ tagValueId: billing.id, resourceType: "project", resourceId: p.id });
        const described = await project.update(p.id, back.outs as never, await checked(project, { ...news, description: "support" }));
        assert.deepEqual(await tagsOf(p.id), ["env=dev", "team=billing", "team=research"]);
        assert.deepEqual((await project.read(p.id, described.outs as never)).props?.tags, { team: "research" });
        await project.delete(p.id, described.outs as never);
        assert.deepEqual(await tagsOf(p.id), ["env=dev", "team=billing"]);
    });

    it("tags on a Dataset and a Prompt (resourceTags: its tags are the hub's labels): each tagged by its kind, a prompt by its repository's id", async () => {
        const dataset = RESOURCES.dataset.provider as Provider;
        const prompt = RESOURCES.prompt.provider as Provider;
        const d = await dataset.create(await checked(dataset, { name: uniqueName("d"), tags: { team: "support" } }));
        assert.deepEqual(await tagsOf(d.id, "dataset"), ["team=support"]);
        const handle = uniqueName("p");
        const p = await prompt.create(await checked(prompt, { handle, tags: ["label"], resourceTags: { team: "support" } }));
        assert.match(p.outs.promptId, /^[0-9a-f-]{36}$/);
        assert.deepEqual(await tagsOf(p.outs.promptId, "prompt"), ["team=support"]);
        assert.deepEqual(p.outs.tags, ["label"], "the hub's labels are untouched");
        assert.deepEqual((await prompt.read(handle, {} as never)).inputs?.resourceTags, { team: "support" });
        await prompt.delete(handle, p.outs as never);
        assert.deepEqual(await tagsOf(p.outs.promptId, "prompt"), []);
    });

    it("a tagging whose answer is lost is looked up, not sent twice", async () => {
        const p = await project.create(await checked(project, { name: uniqueName("p") }));
        em().addFault({ method: "POST", path: "^/api/v1/workspaces/current/taggings$", kind: "status", status: 500, when: "after" });
        em().admin.requests.length = 0;
        const u = await project.update(p.id, p.outs, await checked(project, { name: p.outs.name, tags: { team: "support" } }));
        assert.deepEqual(u.outs.tags, { team: "support" });
        assert.equal(writes(em()).filter((w) => w.method === "POST" && w.path.endsWith("/taggings")).length, 1);
        assert.deepEqual(await tagsOf(p.id), ["team=support"]);
    });
});
