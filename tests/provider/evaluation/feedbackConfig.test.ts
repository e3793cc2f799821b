/**
 * FeedbackConfig (provider/evaluation/feedbackConfig) against the emulator over HTTP, through the registered provider
 * (its workspace, the adoption guard): what preview refuses (min above max, a categorical key without categories or
 * with a value twice, a range on a freeform key, an unknown type; nothing sent); the create, an update in place (one
 * PATCH, the key kept), drift from a change made elsewhere, import by key, delete; a key the workspace already
 * configures refused naming it, taken with LANGSMITH_ADOPT_IDS; a lost answer converging on one config, not a 409.
 */
import assert from "node:assert/strict";
import { FEEDBACK_CONFIG_DIFF, checkFeedbackConfig } from "../../../provider/evaluation/feedbackConfig/provider";
import { diffByTable } from "../../../provider/kit/diff";
import { RESOURCES } from "../../../provider/registry";
import { withEnv } from "../../helpers/async";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const config = RESOURCES.feedbackConfig.provider as Provider;
const CONFIGS = "/api/v1/feedback-configs";

async function checked(news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await config.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

describe("FeedbackConfig", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const held = async (key: string) => (await raw(em(), "GET", `${CONFIGS}?key=${key}`)).body as Array<Record<string, any>>;

    it("check: min above max, a categorical key without categories or with a value twice, a range on a freeform key, an unknown type fail at preview, saying why; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const failures = async (news: Record<string, unknown>) =>
            ((await config.check({}, { feedbackKey: "k", ...news })).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
        assert.deepEqual(await failures({ type: "continuous", min: 2, max: 1 }), ["min: min (2) is above max (1)"]);
        assert.deepEqual(await failures({ type: "categorical" }), ["categories: categories must hold at least one category for a categorical key"]);
        assert.deepEqual(await failures({ type: "categorical", categories: [] }), [
            "categories: categories must hold at least one category for a categorical key",
        ]);
        assert.deepEqual(
            await failures({
                type: "categorical",
                categories: [
                    { value: 1, label: "a" },
                    { value: 1, label: "b" },
                ],
            }),
            ["categories: categories must have distinct values (1 is there twice)"],
        );
        assert.deepEqual(await failures({ type: "freeform", max: 5 }), ["max: max belongs to a continuous key, not a freeform one"]);
        assert.deepEqual(await failures({ type: "continuous", categories: [{ value: 1 }] }), [
            "categories: categories belong to a categorical key, not a continuous one",
        ]);
        assert.match(String(await failures({ type: "ordinal" })), /^type: /);
        assert.deepEqual(
            checkFeedbackConfig({ feedbackKey: "", type: "freeform" }).failures?.map((f) => f.property),
            ["feedbackKey"],
        );
        assert.deepEqual(await failures({ type: "continuous", min: 0, max: 1 }), []);
        assert.deepEqual(writes(em()), []);
    });

    it("diff: a new key replaces; the type, range, categories and direction update in place", () => {
        const olds = { feedbackKey: "a", type: "continuous", min: 0, max: 1, isLowerScoreBetter: false };
        assert.deepEqual(diffByTable(FEEDBACK_CONFIG_DIFF, olds, { ...olds, feedbackKey: "b" }).replaces, ["feedbackKey"]);
        assert.deepEqual(diffByTable(FEEDBACK_CONFIG_DIFF, olds, { ...olds, max: 10, isLowerScoreBetter: true }).updates, ["max", "isLowerScoreBetter"]);
        assert.equal(diffByTable(FEEDBACK_CONFIG_DIFF, olds, { feedbackKey: "a", type: "continuous", min: 0, max: 1 }).changes, false, "the default direction");
    });

    it("made, changed in place by one PATCH, a change made elsewhere read as drift, imported by key, deleted", async () => {
        const key = uniqueName("correctness");
        const made = await config.create(await checked({ feedbackKey: key, type: "continuous", min: 0, max: 1 }));
        assert.equal(made.id, key);
        assert.deepEqual((await held(key))[0].feedback_config, { type: "continuous", min: 0, max: 1, categories: null });
        const news = await checked({
            feedbackKey: key,
            type: "categorical",
            categories: [
                { value: 0, label: "wrong" },
                { value: 1, label: "right" },
            ],
            isLowerScoreBetter: true,
        });
        assert.deepEqual((await config.diff(key, made.outs, news)).replaces, []);
        em().admin.requests.length = 0;
        const updated = await config.update(key, made.outs, news);
        assert.deepEqual(
            writes(em()).map((r) => `${r.method} ${r.path} ${r.status}`),
            [`PATCH ${CONFIGS} 200`],
        );
        const refreshed = await config.read(key, updated.outs);
        assert.deepEqual(refreshed.inputs, {
            feedbackKey: key,
            type: "categorical",
            categories: [
                { value: 0, label: "wrong" },
                { value: 1, label: "right" },
            ],
            isLowerScoreBetter: true,
        });
        assert.equal((await config.diff(key, updated.outs, refreshed.inputs)).changes, false, "no drift after an update");
        await raw(em(), "PATCH", CONFIGS, { body: { feedback_key: key, feedback_config: { type: "freeform" } } });
        const drifted = await config.read(key, updated.outs);
        assert.deepEqual(((await config.diff(key, drifted.props, news)) as { updates?: string[] }).updates, ["type", "categories"]);
        assert.deepEqual((await config.read(key, {} as any)).inputs, drifted.inputs, "import by key reads what refresh reads");
        await config.delete(key, updated.outs);
        assert.deepEqual(await held(key), []);
        await config.delete(key, updated.outs);
        assert.deepEqual(await config.read(key, updated.outs), {});
    });

    it("a key the workspace already configures is refused naming it; LANGSMITH_ADOPT_IDS=<key> takes it and brings it in line", async () => {
        const key = uniqueName("held");
        await raw(em(), "POST", CONFIGS, { body: { feedback_key: key, feedback_config: { type: "freeform" } } });
        const inputs = await checked({ feedbackKey: key, type: "continuous", min: 1, max: 5 });
        const refused = String((await rejection(() => config.create(inputs)))?.message);
        assert.match(refused, new RegExp(`already holds feedback config ${key}[\\s\\S]*LANGSMITH_ADOPT_IDS=${key} pulumi up`));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: key }, () => config.create(inputs));
        assert.equal(taken.id, key);
        assert.deepEqual((await held(key))[0].feedback_config, { type: "continuous", min: 1, max: 5, categories: null });
    });

    it("a create whose answer is lost is looked up, not sent again into a 409", async () => {
        const key = uniqueName("lost");
        em().addFault({ method: "POST", path: `^${CONFIGS}$`, kind: "drop", when: "after" });
        const made = await config.create(await checked({ feedbackKey: key, type: "continuous", min: 0 }));
        assert.equal(made.id, key);
        assert.equal(em().admin.requests.filter((r) => r.method === "POST" && r.path === CONFIGS).length, 1, "sent once");
        assert.equal((await held(key)).length, 1);
    });
});
