/**
 * The `tags` argument (kit/tags.ts) on each resource it wraps (TracingProject, Dataset, Deployment, Prompt's
 * `resourceTags`), driven through the registered providers against one emulator over HTTP: a change of the tags
 * alone is an update in place whose only writes are the tags API's (a tagging taken off, a value made, a tagging
 * made): the resource's own update runs (it finishes an interrupted create) but sends nothing to the object's own
 * path when nothing of its own changed, no PATCH of the project, dataset, deployment or prompt and no new revision.
 * The tags on the object are then the new ones, so the test cannot pass by doing nothing.
 */
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import type { TableDiffResult } from "../../../provider/kit/diff";
import { RESOURCES, type ResourceType } from "../../../provider/registry";
import { github } from "../../helpers/deploymentInputs";
import { raw, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

/** The tags API's writes: the only ones a change of tags alone may send. */
const TAGS_API = /^\/api\/v1\/workspaces\/current\/(taggings|tag-keys)(\/|$)/;

/** Each wrapped resource: its arguments, its tags argument, the service's kind and the id it tags. */
const WRAPPED: Array<{ type: ResourceType; args: () => Record<string, unknown>; field: string; kind: string; objectId: (id: string, outs: any) => string }> = [
    { type: "tracingProject", args: () => ({ name: uniqueName("tags"), description: "d" }), field: "tags", kind: "project", objectId: (id) => id },
    { type: "dataset", args: () => ({ name: uniqueName("tags"), description: "d" }), field: "tags", kind: "dataset", objectId: (id) => id },
    {
        type: "deployment",
        args: () => github({ name: uniqueName("tags"), sourceRevisionConfig: { repoRef: "release" } }),
        field: "tags",
        kind: "deployment",
        objectId: (id) => id,
    },
    // With secrets too: their values are never read back, and an update that could not tell them unchanged would PATCH them.
    {
        type: "deployment",
        args: () => github({ name: uniqueName("tags"), secrets: [{ name: "OPENAI_API_KEY", value: "sk-1" }] }),
        field: "tags",
        kind: "deployment",
        objectId: (id) => id,
    },
    {
        type: "prompt",
        args: () => ({ handle: uniqueName("tags"), description: "d", tags: ["label"] }),
        field: "resourceTags",
        kind: "prompt",
        objectId: (_id, outs) => outs.promptId,
    },
];

describe("the tags argument: a change of tags alone sends nothing to the resource's own update", function () {
    this.timeout(60_000);
    const emulator = orgEmulator({ controlPlane: true, emulator: { timing: { speed: "immediate" } } });
    const em = () => emulator.get();

    /** The tags on an object, as `key=value`, sorted. */
    const tagsOn = async (kind: string, id: string) => {
        const r = await raw(em(), "GET", `/api/v1/workspaces/current/tags/resource?resource_type=${kind}&resource_id=${id}`);
        assert.equal(r.status, 200);
        return (r.body as Array<{ key: string; values: Array<{ value: string }> }>).flatMap((k) => k.values.map((v) => `${k.key}=${v.value}`)).sort();
    };

    for (const w of WRAPPED) {
        it(`${w.type}${JSON.stringify(w.args()).includes("secrets") ? " with secrets" : ""}: ${w.field} changed alone: an update whose only writes are the tags API's, the object's tags then the new ones`, async () => {
            const p = RESOURCES[w.type].provider as Required<pulumi.dynamic.ResourceProvider>;
            const checked = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
                const r = await p.check(olds, news);
                assert.deepEqual(r.failures ?? [], [], `${w.type}: check failed`);
                return r.inputs as Record<string, any>;
            };
            const args = w.args();
            const made = await p.create(await checked({}, { ...args, [w.field]: { team: "support", env: "prod" } }));
            const object = w.objectId(made.id, made.outs);
            assert.deepEqual(await tagsOn(w.kind, object), ["env=prod", "team=support"]);

            const news = await checked(made.outs, { ...args, [w.field]: { team: "research" } });
            const d = (await p.diff(made.id, made.outs, news)) as TableDiffResult;
            assert.deepEqual([d.changes, d.replaces ?? [], d.updates ?? []], [true, [], [w.field]], `${w.type}: ${JSON.stringify(d)}`);
            em().admin.requests.length = 0;
            const u = await p.update(made.id, made.outs, news);
            const sent = writes(em()).map((r) => `${r.method} ${r.path}`);
            assert.deepEqual(
                sent.filter((s) => !TAGS_API.test(s.split(" ")[1])),
                [],
                `${w.type}: a change of tags alone wrote beside the tags API`,
            );
            assert.ok(sent.length > 0, `${w.type}: the tags were not changed`);
            assert.deepEqual(await tagsOn(w.kind, object), ["team=research"]);
            assert.deepEqual(u.outs[w.field], { team: "research" });
            await p.delete(made.id, u.outs);
        });
    }
});
