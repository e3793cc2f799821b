/**
 * AnnotationQueue (provider/evaluation/annotationQueue) against the emulator over HTTP, through the registered
 * provider: what preview refuses (a dataset or project id that is no UUID, no reviewers, a rubric key twice, an empty
 * name; nothing sent); the create with every field; an update in place that leaves the runs traced into the queue
 * (data, never drift: refresh after runs come in plans nothing); a change made elsewhere read as drift; `sessionIds`
 * kept from the state (the service answers them nowhere) and their change a replacement; import by id; delete; a queue
 * of the same name refused naming it, taken with LANGSMITH_ADOPT_IDS; a lost answer converging on one queue.
 */
import assert from "node:assert/strict";
import { ANNOTATION_QUEUE_DIFF, checkAnnotationQueue } from "../../../provider/evaluation/annotationQueue/provider";
import { diffByTable } from "../../../provider/kit/diff";
import { RESOURCES } from "../../../provider/registry";
import { stderrOf, withEnv } from "../../helpers/async";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { traceRuns } from "../../helpers/evaluation";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const queue = RESOURCES.annotationQueue.provider as Provider;
const QUEUES = "/api/v1/annotation-queues";

async function checked(news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await queue.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

const updatesOf = async (id: string, olds: Record<string, any>, news: Record<string, any>) =>
    ((await queue.diff(id, olds, news)) as { updates?: string[] }).updates;

describe("AnnotationQueue", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const sizeOf = async (id: string) => (await raw(em(), "GET", `${QUEUES}/${id}/total_size`)).body.size as number;

    it("check: ids that are no UUIDs, no reviewers, a rubric key twice, an empty name fail at preview, saying why; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const failures = async (news: Record<string, unknown>) =>
            ((await queue.check({}, { name: "q", ...news })).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
        assert.deepEqual(await failures({ defaultDatasetId: "golden" }), ['defaultDatasetId: defaultDatasetId must be a dataset\'s id (a UUID), got "golden"']);
        assert.deepEqual(await failures({ sessionIds: ["prod"] }), ['sessionIds[0]: sessionIds[0] must be a tracing project\'s id (a UUID), got "prod"']);
        assert.deepEqual(await failures({ numReviewersPerItem: 0, reservationMinutes: 0 }), [
            "numReviewersPerItem: numReviewersPerItem must be at least 1, got 0",
            "reservationMinutes: reservationMinutes must be at least 1, got 0",
        ]);
        assert.deepEqual(await failures({ rubricItems: [{ feedbackKey: "a" }, { feedbackKey: "a" }] }), [
            'rubricItems[1].feedbackKey: rubricItems[1].feedbackKey "a" is already in the rubric: a key is scored once',
        ]);
        assert.deepEqual(await failures({ rubricItems: [{ description: "no key" }] }).then((f) => f.map((x) => x.split(":")[0])), [
            "rubricItems[0].feedbackKey",
        ]);
        assert.deepEqual(
            checkAnnotationQueue({ name: "" }).failures?.map((f) => f.property),
            ["name"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("diff: a change of sessionIds replaces (the service takes them at creation only); the rest updates in place; sessionIds compare as a set", () => {
        const [a, b] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];
        const olds = { name: "q", sessionIds: [a, b], numReviewersPerItem: 1 };
        assert.equal(diffByTable(ANNOTATION_QUEUE_DIFF, olds, { ...olds, sessionIds: [b, a] }).changes, false);
        assert.deepEqual(diffByTable(ANNOTATION_QUEUE_DIFF, olds, { ...olds, sessionIds: [a] }).replaces, ["sessionIds"]);
        assert.deepEqual(diffByTable(ANNOTATION_QUEUE_DIFF, olds, { ...olds, name: "r", numReviewersPerItem: 2 }).updates, ["name", "numReviewersPerItem"]);
        assert.equal(diffByTable(ANNOTATION_QUEUE_DIFF, olds, { name: "q", sessionIds: [a, b] }).changes, false, "defaults compare as given");
    });

    it("diff: sessionIds changed under the same name deletes first, and the preview warns that the queued runs go with it; a rename too makes first, silently", async () => {
        const [a, b] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];
        const olds = { name: "q", sessionIds: [a], numReviewersPerItem: 1 };
        let diff: Record<string, unknown> = {};
        const warned = await stderrOf(async () => {
            diff = (await queue.diff("q-id", olds, { ...olds, sessionIds: [a, b] })) as Record<string, unknown>;
        });
        assert.deepEqual([diff.replaces, diff.deleteBeforeReplace], [["sessionIds"], true]);
        assert.match(warned, /AnnotationQueue q-id is replaced, deleting the old one first .*the runs queued in it, with their reviews go with it/);
        const renamed = await stderrOf(async () => {
            diff = (await queue.diff("q-id", olds, { ...olds, name: "r", sessionIds: [a, b] })) as Record<string, unknown>;
        });
        assert.deepEqual([diff.replaces, diff.deleteBeforeReplace], [["sessionIds"], undefined]);
        assert.doesNotMatch(renamed, /deleting the old one first/);
    });

    it("made with every field; its runs (traced in, added elsewhere) are data: refresh plans nothing, an update leaves them; drift from a change elsewhere; import by id; delete", async () => {
        const dataset = (await raw(em(), "POST", "/api/v1/datasets", { body: { name: uniqueName("golden") } })).body.id;
        const project = (await raw(em(), "POST", "/api/v1/sessions", { body: { name: uniqueName("prod") } })).body;
        const args = {
            name: uniqueName("review"),
            description: "LLM answers to check",
            rubricInstructions: "Read the question first.",
            rubricItems: [{ feedbackKey: "correctness", description: "is it right", scoreDescriptions: { "0": "wrong", "1": "right" }, isRequired: true }],
            defaultDatasetId: dataset,
            numReviewersPerItem: 2,
            enableReservations: false,
            reservationMinutes: 10,
            sessionIds: [project.id],
            metadata: { team: "qa" },
        };
        const made = await queue.create(await checked(args));
        assert.equal(made.outs.queueId, made.id);
        const wire = (await raw(em(), "GET", `${QUEUES}/${made.id}`)).body;
        assert.deepEqual(
            [wire.default_dataset, wire.num_reviewers_per_item, wire.reservation_minutes, wire.rubric_items[0].score_descriptions],
            [dataset, 2, 10, { "0": "wrong", "1": "right" }],
        );
        const runs = await traceRuns(em(), project.name, 2);
        await raw(em(), "POST", `${QUEUES}/${made.id}/runs`, { body: runs });
        const refreshed = await queue.read(made.id, made.outs);
        assert.deepEqual(refreshed.inputs, { ...args }, "the runs in it are no drift; sessionIds kept from the state");
        assert.equal((await queue.diff(made.id, refreshed.props, await checked(args))).changes, false);
        const news = await checked({
            ...args,
            name: `${args.name}-v2`,
            rubricItems: [{ feedbackKey: "helpfulness" }],
            metadata: undefined,
            defaultDatasetId: undefined,
        });
        assert.deepEqual((await queue.diff(made.id, refreshed.props, news)).replaces, []);
        em().admin.requests.length = 0;
        const updated = await queue.update(made.id, refreshed.props, news);
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path}`),
            [`PATCH ${QUEUES}/${made.id}`],
        );
        assert.equal(await sizeOf(made.id), 2, "an update leaves the runs in the queue");
        const after = (await raw(em(), "GET", `${QUEUES}/${made.id}`)).body;
        assert.deepEqual([after.name, after.rubric_items, after.metadata, after.default_dataset], [news.name, [{ feedback_key: "helpfulness" }], null, null]);
        await raw(em(), "PATCH", `${QUEUES}/${made.id}`, { body: { description: "changed in the UI" } });
        const drifted = await queue.read(made.id, updated.outs);
        assert.deepEqual(await updatesOf(made.id, drifted.props, news), ["description"]);
        const imported = await queue.read(made.id, {} as any);
        const { sessionIds: _unanswered, ...readable } = drifted.inputs;
        assert.deepEqual(imported.inputs, readable, "import reads all but sessionIds");
        await queue.delete(made.id, updated.outs);
        assert.equal((await raw(em(), "GET", `${QUEUES}/${made.id}`)).status, 404);
        await queue.delete(made.id, updated.outs);
        assert.deepEqual(await queue.read(made.id, updated.outs), {});
    });

    it("a queue of the same name is refused naming it; LANGSMITH_ADOPT_IDS=<id> takes it and brings it in line", async () => {
        const name = uniqueName("held");
        const other = (await raw(em(), "POST", QUEUES, { body: { name, description: "old" } })).body;
        const inputs = await checked({ name, description: "new" });
        const refused = String((await rejection(() => queue.create(inputs)))?.message);
        assert.match(refused, new RegExp(`already holds annotation queue ${other.id} named "${name}"[\\s\\S]*LANGSMITH_ADOPT_IDS=${other.id} pulumi up`));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: other.id }, () => queue.create(inputs));
        assert.equal(taken.id, other.id);
        assert.equal((await raw(em(), "GET", `${QUEUES}/${other.id}`)).body.description, "new");
    });

    it("a create whose answer is lost is looked up by the id sent with it: one queue, not two", async () => {
        const name = uniqueName("lost");
        em().addFault({ method: "POST", path: `^${QUEUES}$`, kind: "drop", when: "after" });
        const made = await queue.create(await checked({ name }));
        const named = (await raw(em(), "GET", `${QUEUES}?name=${name}`)).body;
        assert.deepEqual(
            named.map((q: { id: string }) => q.id),
            [made.id],
        );
        assert.equal(em().admin.requests.filter((r) => r.method === "POST" && r.path === QUEUES).length, 1, "sent once");
    });
});
