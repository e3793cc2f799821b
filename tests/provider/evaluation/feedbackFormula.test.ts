/**
 * FeedbackFormula (provider/evaluation/feedbackFormula) against the emulator over HTTP, through the registered provider
 * (its workspace, the adoption guard): what preview refuses (no part, a weight that is not a number, a key twice, the
 * formula's own key among its parts, neither or both of a dataset and a project; nothing sent); a part whose key has
 * no FeedbackConfig refused at `up` naming the key and the fix, before any write; the create, an update in place (one
 * PUT), drift from a change made elsewhere, import by id, delete; a key the project already has a formula under
 * refused naming it, taken with LANGSMITH_ADOPT_IDS; a lost answer converging on one formula; getFeedbackFormula.
 */
import assert from "node:assert/strict";
import { FEEDBACK_FORMULA_DIFF } from "../../../provider/evaluation/feedbackFormula/provider";
import { diffByTable } from "../../../provider/kit/diff";
import { Service } from "../../../provider/kit/service";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { withEnv } from "../../helpers/async";
import { raw, rejection, uniqueName, type Emulator } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const formula = RESOURCES.feedbackFormula.provider as Provider;
const FORMULAS = "/api/v1/feedback/formulas";
const SOME_UUID = "6f0c2d8e-1b9a-4c3e-9d7f-2a5b8c1e4f60";

async function checked(news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await formula.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

/** A new tracing project and a FeedbackConfig for each key; answers the project's id. */
async function projectWithKeys(em: Emulator, ...keys: string[]): Promise<string> {
    for (const key of keys)
        await raw(em, "POST", "/api/v1/feedback-configs", { body: { feedback_key: key, feedback_config: { type: "continuous", min: 0, max: 1 } } });
    return (await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("proj") } })).body.id;
}

describe("FeedbackFormula", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();

    it("check: no part, a weight that is not a number, a key twice, its own key among its parts, neither or both of a dataset and a project fail at preview, each at its property; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const base = { feedbackKey: "overall", sessionId: SOME_UUID, parts: [{ key: "a", weight: 1 }] };
        const failures = async (over: Record<string, unknown>) =>
            ((await formula.check({}, { ...base, ...over })).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
        assert.deepEqual(await failures({ parts: [] }), ["parts: parts must hold at least one weighted key ({key, weight})"]);
        assert.match(String(await failures({ parts: [{ key: "a", weight: "heavy" }] })), /^parts\[0\]\.weight: .*number/);
        assert.deepEqual(
            await failures({
                parts: [
                    { key: "a", weight: 1 },
                    { key: "a", weight: 2 },
                ],
            }),
            ['parts[1].key: the key "a" is already a part: name each key once'],
        );
        assert.match(String(await failures({ parts: [{ key: "overall", weight: 1 }] })), /^parts\[0\]\.key: .*own key "overall" cannot be one of its parts/);
        assert.match(String(await failures({ sessionId: undefined })), /^datasetId: a formula is on exactly one of datasetId .* or sessionId/);
        assert.match(String(await failures({ datasetId: SOME_UUID })), /^sessionId: a formula is on exactly one/);
        assert.match(String(await failures({ sessionId: "my-project" })), /^sessionId: sessionId must be a tracing project's id \(a UUID\)/);
        assert.match(String(await failures({ parts: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, weight: 1 })) })), /at most 50/);
        assert.deepEqual(await failures({}), []);
        assert.equal((await checked(base)).aggregationType, "sum", "the default aggregation");
        assert.deepEqual(writes(em()), []);
    });

    it("diff: another dataset or project replaces; the key, aggregation and parts update in place", () => {
        const olds = { feedbackKey: "o", aggregationType: "sum", parts: [{ key: "a", weight: 1 }], sessionId: SOME_UUID };
        assert.deepEqual(diffByTable(FEEDBACK_FORMULA_DIFF, olds, { ...olds, sessionId: undefined, datasetId: SOME_UUID }).replaces, [
            "datasetId",
            "sessionId",
        ]);
        assert.deepEqual(
            diffByTable(FEEDBACK_FORMULA_DIFF, olds, { ...olds, feedbackKey: "p", aggregationType: "avg", parts: [{ key: "a", weight: 2 }] }).updates,
            ["feedbackKey", "aggregationType", "parts"],
        );
    });

    it("a part whose key has no FeedbackConfig is refused at up, naming the key and the fix, before any write; at create and at update", async () => {
        const sessionId = await projectWithKeys(em(), "correctness");
        em().admin.requests.length = 0;
        const inputs = await checked({
            feedbackKey: "overall",
            sessionId,
            parts: [
                { key: "correctness", weight: 1 },
                { key: "tone", weight: 1 },
            ],
        });
        const refused = String((await rejection(() => formula.create(inputs)))?.message);
        assert.match(refused, /no FeedbackConfig for parts\[1\]\.key "tone".*Declare a FeedbackConfig for it and give the part its `feedbackKey` output/s);
        assert.deepEqual(writes(em()), []);
        const made = await formula.create(await checked({ feedbackKey: "overall", sessionId, parts: [{ key: "correctness", weight: 1 }] }));
        em().admin.requests.length = 0;
        assert.match(String((await rejection(() => formula.update(made.id, made.outs, inputs)))?.message), /parts\[1\]\.key "tone"/);
        assert.deepEqual(writes(em()), []);
    });

    it("made, changed in place by one PUT, a change made elsewhere read as drift, imported by id, deleted", async () => {
        const sessionId = await projectWithKeys(em(), "correctness", "helpfulness");
        const made = await formula.create(
            await checked({
                feedbackKey: "overall",
                sessionId,
                parts: [
                    { key: "correctness", weight: 0.7 },
                    { key: "helpfulness", weight: 0.3 },
                ],
            }),
        );
        const held = (await raw(em(), "GET", `${FORMULAS}/${made.id}`)).body;
        assert.deepEqual([held.session_id, held.aggregation_type, held.formula_parts.length], [sessionId, "sum", 2]);
        const news = await checked({ feedbackKey: "total", aggregationType: "avg", sessionId, parts: [{ key: "helpfulness", weight: 2 }] });
        assert.deepEqual((await formula.diff(made.id, made.outs, news)).replaces, []);
        em().admin.requests.length = 0;
        const updated = await formula.update(made.id, made.outs, news);
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path} ${r.status}`),
            [`PUT ${FORMULAS}/${made.id} 200`],
        );
        const refreshed = await formula.read(made.id, updated.outs);
        assert.deepEqual(refreshed.inputs, { feedbackKey: "total", aggregationType: "avg", sessionId, parts: [{ key: "helpfulness", weight: 2 }] });
        assert.equal((await formula.diff(made.id, updated.outs, refreshed.inputs)).changes, false, "no drift after an update");
        await raw(em(), "PUT", `${FORMULAS}/${made.id}`, {
            body: { feedback_key: "total", aggregation_type: "avg", formula_parts: [{ part_type: "weighted_key", key: "helpfulness", weight: 5 }] },
        });
        const drifted = await formula.read(made.id, updated.outs);
        assert.deepEqual(((await formula.diff(made.id, drifted.props, news)) as { updates?: string[] }).updates, ["parts"]);
        assert.deepEqual((await formula.read(made.id, {} as any)).inputs, drifted.inputs, "import by id reads what refresh reads");
        await formula.delete(made.id, updated.outs);
        assert.equal((await raw(em(), "GET", `${FORMULAS}/${made.id}`)).status, 404);
        await formula.delete(made.id, updated.outs);
        assert.deepEqual(await formula.read(made.id, updated.outs), {});
    });

    it("a key the project already has a formula under is refused naming it; LANGSMITH_ADOPT_IDS=<id> takes it and brings it in line", async () => {
        const sessionId = await projectWithKeys(em(), "correctness");
        const other = await raw(em(), "POST", FORMULAS, {
            body: {
                session_id: sessionId,
                feedback_key: "overall",
                aggregation_type: "avg",
                formula_parts: [{ part_type: "weighted_key", key: "x", weight: 1 }],
            },
        });
        const inputs = await checked({ feedbackKey: "overall", sessionId, parts: [{ key: "correctness", weight: 3 }] });
        const refused = String((await rejection(() => formula.create(inputs)))?.message);
        assert.match(
            refused,
            new RegExp(`already has formula ${other.body.id} under the key "overall"[\\s\\S]*LANGSMITH_ADOPT_IDS=${other.body.id} pulumi up`),
        );
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: other.body.id }, () => formula.create(inputs));
        assert.equal(taken.id, other.body.id);
        const held = (await raw(em(), "GET", `${FORMULAS}/${other.body.id}`)).body;
        assert.deepEqual([held.aggregation_type, held.formula_parts[0].key, held.formula_parts[0].weight], ["sum", "correctness", 3]);
    });

    it("a create whose answer is lost is looked up, not sent again into a 409", async () => {
        const sessionId = await projectWithKeys(em(), "correctness");
        em().addFault({ method: "POST", path: `^${FORMULAS}$`, kind: "drop", when: "after" });
        const made = await formula.create(await checked({ feedbackKey: "lost", sessionId, parts: [{ key: "correctness", weight: 1 }] }));
        assert.equal(em().admin.requests.filter((r) => r.method === "POST" && r.path === FORMULAS).length, 1, "sent once");
        assert.deepEqual(
            (await raw(em(), "GET", `${FORMULAS}?session_id=${sessionId}`)).body.map((f: { id: string }) => f.id),
            [made.id],
        );
    });

    it("getFeedbackFormula by id and by its key on a project: the resource's fields as refresh reads them; none found fails naming what it looked for", async () => {
        const run = (args: Record<string, unknown>) => (FUNCTIONS.getFeedbackFormula.run as (s: Service, a: unknown) => Promise<any>)(new Service(), args);
        const failure = async (args: Record<string, unknown>) => String((await rejection(() => run(args)))?.message);
        const sessionId = await projectWithKeys(em(), "correctness");
        const made = await formula.create(await checked({ feedbackKey: "overall", sessionId, parts: [{ key: "correctness", weight: 1 }] }));
        const byId = await run({ id: made.id });
        assert.deepEqual(
            { ...byId, createdAt: undefined, modifiedAt: undefined },
            {
                id: made.id,
                feedbackKey: "overall",
                aggregationType: "sum",
                sessionId,
                parts: [{ key: "correctness", weight: 1 }],
                createdAt: undefined,
                modifiedAt: undefined,
            },
        );
        assert.deepEqual(await run({ feedbackKey: "overall", sessionId }), byId);
        assert.match(await failure({ feedbackKey: "none", sessionId }), new RegExp(`no feedback formula under the key "none" on tracing project ${sessionId}`));
        assert.match(await failure({ feedbackKey: "overall" }), /getFeedbackFormula: datasetId: with feedbackKey, give exactly one of datasetId and sessionId/);
        assert.match(await failure({ id: made.id, feedbackKey: "overall" }), /getFeedbackFormula: id: give either id/);
    });
});
