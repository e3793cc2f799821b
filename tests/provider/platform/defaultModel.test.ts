/**
 * DefaultModel (provider/platform/defaultModel, docs/service.md R18.3) against the emulator over HTTP, through the
 * registered provider: what preview refuses, naming the field (a feature the service does not have, naming those it
 * has; a default model among the disabled ones; two resources of a program for one feature; nothing sent); made,
 * changed in place in an order the service takes (a model disabled before becomes the default), a change made
 * elsewhere seen by refresh; destroy puts the service's own default back and enables the models it disabled;
 * `up --replace` (created again, then the old deleted in the same run) leaves the feature set.
 */
import assert from "node:assert/strict";
import { createDefaultModelProvider } from "../../../provider/platform/defaultModel/provider";
import { RESOURCES } from "../../../provider/registry";
import { raw } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const model = RESOURCES.defaultModel.provider as Provider;
const FEATURES = "/v1/platform/features";
async function checked(news: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const r = await model.check(olds, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

describe("DefaultModel", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const feature = async (f: string) => (await raw(em(), "GET", FEATURES)).body.find((x: { feature: string }) => x.feature === f);

    it("check: a feature the service does not have (naming those it has), a default among the disabled models, a second resource for one feature fail at preview; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const failures = async (news: Record<string, unknown>) => (await model.check({}, news)).failures ?? [];
        const unknown = await failures({ feature: "autocomplete", model: "m" });
        assert.deepEqual(
            unknown.map((f) => f.property),
            ["feature"],
        );
        assert.match(
            String(unknown[0].reason),
            /feature must be one of playground, evaluators, fleet, polly, insights_thinking, insights_summarization \(got "autocomplete"\)/,
        );
        const disabled = await failures({ feature: "polly", model: "openai:o3", disabledModels: ["openai:o3"] });
        assert.deepEqual(
            disabled.map((f) => f.property),
            ["model"],
        );
        assert.match(String(disabled[0].reason), /is also among disabledModels/);
        assert.deepEqual(await failures({ feature: "fleet", model: "m", __identity: "urn:a" }), []);
        const second = await failures({ feature: "fleet", model: "n", __identity: "urn:b" });
        assert.deepEqual(
            second.map((f) => f.property),
            ["feature"],
        );
        assert.match(String(second[0].reason), /already holds the models of feature fleet in workspace .*: they exist once per workspace and feature/);
        assert.deepEqual(writes(em()), []);
    });

    it("made, changed in place (a disabled model made the default), a change elsewhere seen by refresh; destroy puts the service's default back and enables what it disabled", async () => {
        // Unwrapped: the registered provider's create takes the feature over, so its delete in the same process (a replacement's) leaves it.
        const model = createDefaultModelProvider() as Provider;
        const made = await model.create(await checked({ feature: "polly", model: "openai:gpt-4.1-mini", disabledModels: ["openai:o3", "openai:o1"] }));
        assert.equal(made.id, "polly");
        assert.deepEqual(await feature("polly"), { feature: "polly", default_model: "openai:gpt-4.1-mini", disabled_models: ["openai:o3", "openai:o1"] });
        // openai:o3 becomes the default: enabled first, then made the default; the old default disabled after.
        const news = await checked({ feature: "polly", model: "openai:o3", disabledModels: ["openai:gpt-4.1-mini", "openai:o1"] }, made.outs);
        const d = await model.diff(made.id, made.outs, news);
        assert.deepEqual([d.changes, d.replaces ?? []], [true, []]);
        const updated = await model.update(made.id, made.outs, news);
        assert.deepEqual(await feature("polly"), { feature: "polly", default_model: "openai:o3", disabled_models: ["openai:o1", "openai:gpt-4.1-mini"] });
        // The set's order is no change.
        assert.equal(
            (await model.diff(made.id, updated.outs, await checked({ ...news, disabledModels: ["openai:o1", "openai:gpt-4.1-mini"] }, updated.outs))).changes,
            false,
        );
        // Set in the UI: seen by refresh.
        assert.equal((await raw(em(), "PUT", `${FEATURES}/polly/default-model`, { body: { model: "anthropic:claude-sonnet-4-5" } })).status, 204);
        const read = await model.read(made.id, updated.outs as never);
        assert.equal(read.inputs?.model, "anthropic:claude-sonnet-4-5");
        assert.equal((await model.diff(made.id, read.props as never, news)).changes, true);
        await model.delete(made.id, updated.outs as never);
        assert.deepEqual(await feature("polly"), { feature: "polly", disabled_models: [] });
        assert.deepEqual(await model.read(made.id, updated.outs as never), {});
    });

    it("pulumi up --replace (the new one made, then the old one deleted in the same run) leaves the feature set", async () => {
        const inputs = await checked({ feature: "fleet", model: "openai:gpt-4.1" });
        const old = await model.create(inputs);
        const again = await model.create(inputs);
        assert.equal(again.id, old.id);
        await model.delete(old.id, old.outs);
        assert.equal((await feature("fleet")).default_model, "openai:gpt-4.1");
    });
});
