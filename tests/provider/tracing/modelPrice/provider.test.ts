/**
 * ModelPriceMap and getModelPrice (provider/tracing/modelPrice) against the emulator over HTTP, through the registered
 * provider and function: what preview refuses, naming the field (a negative price, a pattern that does not compile, a
 * start that is no time, an empty matchPath; nothing sent); prices compared as numbers; an entry made by the resource
 * prices the LLM runs the official JS client traces with their usage (`total_cost`), and its update prices the runs
 * traced after while the earlier keep their cost; a change made elsewhere seen by refresh, a removed optional field
 * cleared on the service; a name the workspace already holds refused with its id, a built-in entry's never met; the
 * look-up of built-in and own entries.
 */
import assert from "node:assert/strict";
import { Client } from "langsmith";
import { getCurrentRunTree, traceable } from "langsmith/traceable";
import { BUILT_IN_PRICES } from "../../../../emulator/tracing/modelPrices";
import { FUNCTIONS, RESOURCES } from "../../../../provider/registry";
import { Service } from "../../../../provider/kit/service";
import { TEST_API_KEY, TEST_TENANT, raw, rejection, uniqueName } from "../../../helpers/emulator";
import { withEnv } from "../../../helpers/async";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const price = RESOURCES.modelPriceMap.provider as Provider;
const PRICE_MAP = "/api/v1/model-price-map";

async function checked(news: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const r = await price.check(olds, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}
const entry = (model: string, over: Record<string, unknown> = {}) => ({
    name: model,
    matchPattern: `^${model}$`,
    promptCost: 0.000002,
    completionCost: 0.000003,
    promptCostDetails: { cache_read: 0.000001 },
    modelProvider: "openai",
    ...over,
});
const getModelPrice = (args: Record<string, unknown>) => FUNCTIONS.getModelPrice.run(new Service(), args as never);

describe("ModelPriceMap and getModelPrice", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const onService = async (id: string) => ((await raw(em(), "GET", PRICE_MAP)).body as any[]).find((p) => p.id === id);

    /** One LLM call of `model` traced by the official JS client with its usage; answers the run as the client reads it back. */
    async function traced(model: string): Promise<any> {
        const client = new Client({ apiUrl: `${em().url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        let id = "";
        const chat = traceable(
            async () => {
                const run = getCurrentRunTree();
                id = run.id;
                run.metadata.usage_metadata = { input_tokens: 27, output_tokens: 13, total_tokens: 40, input_token_details: { cache_read: 10 } };
                return { content: "ok" };
            },
            { client, project_name: "priced", tracingEnabled: true, name: "chat", run_type: "llm", metadata: { ls_provider: "openai", ls_model_name: model } },
        );
        await chat();
        await client.awaitPendingTraceBatches();
        return client.readRun(id);
    }

    it("check: a negative price, a pattern that does not compile, a start that is no time, an empty matchPath fail at preview by property with the fix; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const failures = async (news: Record<string, unknown>) => (await price.check({}, news)).failures ?? [];
        const props = async (news: Record<string, unknown>) => (await failures(news)).map((f) => f.property).sort();
        assert.deepEqual(await props(entry("m", { promptCost: -0.000001 })), ["promptCost"]);
        assert.match(String((await failures(entry("m", { completionCost: -1 })))[0].reason), /completionCost must be a price per token, 0 or more .* got -1/);
        assert.deepEqual(await props(entry("m", { promptCostDetails: { cache_read: -1 }, completionCostDetails: { reasoning: -2 } })), [
            "completionCostDetails.reasoning",
            "promptCostDetails.cache_read",
        ]);
        const pattern = await failures(entry("m", { matchPattern: "gpt-(4o" }));
        assert.deepEqual(
            pattern.map((f) => f.property),
            ["matchPattern"],
        );
        assert.match(String(pattern[0].reason), /matchPattern must be a regular expression the service can compile: .*escape/);
        assert.deepEqual(await props(entry("m", { startTime: "next tuesday", matchPath: [] })), ["matchPath", "startTime"]);
        assert.deepEqual(await props(entry("m", { promptCost: "cheap" })), ["promptCost"]);
        // Python's ignore-case flag and named groups are the service's regular expressions.
        assert.deepEqual(await props(entry("m", { matchPattern: "(?i)^(?P<family>gpt-4o)(-mini)?$" })), []);
        assert.deepEqual(writes(em()), []);
    });

    it("prices are compared as numbers: 0.000001 and 1e-6, and the service's decimal text of them, are no change", async () => {
        const olds = { ...(await checked(entry("m", { promptCost: 0.000001, promptCostDetails: { cache_read: 5e-7 } }))), schemaVersion: 1 };
        const same = await checked(entry("m", { promptCost: 1e-6, promptCostDetails: { cache_read: 0.0000005 } }), olds);
        assert.equal((await price.diff("id", olds, same)).changes, false);
        const asText = { ...olds, promptCost: "0.0000010", completionCost: "3E-6" };
        assert.equal((await price.diff("id", asText, same)).changes, false);
        const changed = await checked(entry("m", { promptCost: 2e-6 }), olds);
        assert.deepEqual((await price.diff("id", olds, changed)).replaces ?? [], []);
        assert.equal((await price.diff("id", olds, changed)).changes, true);
    });

    it("an entry made by the resource prices the LLM runs the official client traces; its update prices the runs traced after, the earlier keep their cost; drift seen, a removed field cleared, deleted", async () => {
        const model = uniqueName("house-model");
        const made = await price.create(await checked(entry(model)));
        const first = await traced(model);
        // 10 cached input tokens at 1e-6, 17 at 2e-6; 13 output tokens at 3e-6.
        assert.deepEqual([first.total_cost, first.prompt_cost, first.completion_cost, first.price_model_id], ["0.000083", "0.000044", "0.000039", made.id]);
        const news = await checked(entry(model, { completionCost: 0.000005 }), made.outs);
        assert.deepEqual((await price.diff(made.id, made.outs, news)).replaces ?? [], []);
        const updated = await price.update(made.id, made.outs, news);
        const second = await traced(model);
        assert.equal(second.total_cost, "0.000109");
        assert.equal((await traced(model)).total_cost, "0.000109");
        const client = new Client({ apiUrl: `${em().url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        assert.equal(((await client.readRun(first.id)) as any).total_cost, "0.000083");
        // A change made elsewhere (the UI) is seen by refresh.
        const onIt = await onService(made.id);
        const put = await raw(em(), "PUT", `${PRICE_MAP}/${made.id}`, { body: { ...onIt, id: undefined, tenant_id: undefined, prompt_cost: 0.000004 } });
        assert.equal(put.status, 200, put.text);
        const read = await price.read(made.id, updated.outs as never);
        assert.equal(read.inputs?.promptCost, 0.000004);
        assert.deepEqual((await price.diff(made.id, read.props as never, news)).changes, true);
        // Optional fields removed from the program: cleared on the service.
        const bare = await checked({ name: model, matchPattern: `^${model}$`, promptCost: 0.000002, completionCost: 0.000005 }, read.props as never);
        await price.update(made.id, read.props as never, bare);
        const cleared = await onService(made.id);
        assert.deepEqual([cleared.provider, cleared.prompt_cost_details, cleared.start_time], [null, null, null]);
        assert.deepEqual((await price.read(made.id, {} as never)).inputs, {
            ...bare,
            matchPath: ["model", "model_name", "model_id", "model_path", "endpoint_name"],
        });
        await price.delete(made.id, bare as never);
        assert.equal(await onService(made.id), undefined);
        assert.deepEqual(await price.read(made.id, {} as never), {});
    });

    it("a name the workspace already holds is refused with its id, taken over when LANGSMITH_ADOPT_IDS names it; a built-in entry of the name is never met", async () => {
        const name = uniqueName("held");
        const other = await raw(em(), "POST", PRICE_MAP, { body: { name, match_pattern: "^x$", prompt_cost: 1, completion_cost: 1 } });
        const args = await checked(entry(name));
        const refused = await rejection(() => price.create(args));
        assert.match(String(refused?.message), new RegExp(`already holds model price ${other.body.id} named .*LANGSMITH_ADOPT_IDS=${other.body.id}`, "s"));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: other.body.id }, () => price.create(args));
        assert.equal(taken.id, other.body.id);
        assert.equal((await onService(other.body.id)).match_pattern, `^${name}$`);
        // A workspace entry overriding the built-in gpt-4o is made beside it.
        const mine = await price.create(await checked(entry("gpt-4o", { matchPattern: "^gpt-4o$" })));
        assert.notEqual(mine.id, BUILT_IN_PRICES[0].id);
        assert.deepEqual(await price.read(BUILT_IN_PRICES[0].id, {} as never), {});
    });

    it("getModelPrice: a built-in entry by name, the workspace's by name (over a built-in one of the name) and by id; none, and two of one name, fail in words", async () => {
        const builtIn = await getModelPrice({ name: "gpt-4o-mini" });
        assert.deepEqual([builtIn.builtIn, builtIn.promptCost, builtIn.modelProvider], [true, 0.00000015, "openai"]);
        const mine = await price.create(await checked(entry("gpt-4o-mini", { matchPattern: "^gpt-4o-mini$", startTime: "2026-02-01T00:00:00Z" })));
        const own = await getModelPrice({ name: "gpt-4o-mini" });
        assert.deepEqual([own.id, own.builtIn, own.promptCost, own.promptCostDetails], [mine.id, false, 0.000002, { cache_read: 0.000001 }]);
        assert.equal(Date.parse(String(own.startTime)), Date.parse("2026-02-01T00:00:00Z"));
        assert.equal((await getModelPrice({ id: mine.id })).name, "gpt-4o-mini");
        assert.match(String((await rejection(() => getModelPrice({ name: "nobody" })))?.message), /holds no entry named "nobody"/);
        await raw(em(), "POST", PRICE_MAP, { body: { name: "gpt-4o-mini", match_pattern: "^m$", prompt_cost: 1, completion_cost: 1 } });
        assert.match(String((await rejection(() => getModelPrice({ name: "gpt-4o-mini" })))?.message), /2 model prices named "gpt-4o-mini" .*look it up by id/);
        assert.match(String((await rejection(() => getModelPrice({})))?.message), /id|name/);
    });
});
