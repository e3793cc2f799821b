/**
 * The emulator's model price map (docs/service.md R15, emulator/tracing/modelPrices.ts): its four calls over HTTP as
 * the description has them (built-in entries beside the workspace's, a PUT the whole entry, refusals on their field),
 * and the costs it gives LLM runs the official clients trace with their token usage: the JS `langsmith` in this
 * process and the Python one (price_client.py) each trace a run whose `total_cost` their own reads answer, the
 * tokens times the matching entry's prices (cached input tokens at their own price); a run traced after the entry's
 * PUT costs the new price while the one before keeps its cost; and both outlive a restart on the state directory.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "langsmith";
import { getCurrentRunTree, traceable } from "langsmith/traceable";
import { BUILT_IN_PRICES } from "../../../emulator/tracing/modelPrices";
import { OTHER_TENANT, TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { pythonCalls } from "../../helpers/pyarrow";

const PRICE_MAP = "/api/v1/model-price-map";

/** An entry for `model` (openai): 2e-6 a prompt token (1e-6 a cached one), 3e-6 a completion token, unless `over` says. */
const entry = (model: string, over: Record<string, unknown> = {}) => ({
    name: model,
    match_pattern: `^${model}$`,
    provider: "openai",
    prompt_cost: "2e-6",
    completion_cost: 0.000003,
    prompt_cost_details: { cache_read: 0.000001 },
    ...over,
});

async function create(em: Emulator, body: unknown): Promise<any> {
    const r = await raw(em, "POST", PRICE_MAP, { body });
    assert.equal(r.status, 200, r.text);
    return r.body;
}

/** Traces one LLM call of `model` through the JS client, its usage set on the run as the cost tracking guide shows; answers its id. */
async function jsTrace(client: Client, project: string, model: string, provider = "openai"): Promise<string> {
    let id = "";
    const chat = traceable(
        async (_q: string) => {
            const run = getCurrentRunTree();
            id = run.id;
            run.metadata.usage_metadata = { input_tokens: 27, output_tokens: 13, total_tokens: 40, input_token_details: { cache_read: 10 } };
            return { role: "assistant", content: "A table for two at eight." };
        },
        { client, project_name: project, tracingEnabled: true, name: "chat", run_type: "llm", metadata: { ls_provider: provider, ls_model_name: model } },
    );
    await chat("I'd like to book a table for two.");
    await client.awaitPendingTraceBatches();
    return id;
}

const costs = (r: any) => [r.prompt_tokens, r.completion_tokens, r.total_tokens, r.prompt_cost, r.completion_cost, r.total_cost];

describe("emulator: the model price map (/api/v1/model-price-map) and the costs of traced LLM runs", function () {
    this.timeout(120_000);
    let em: Emulator;
    let dir: string;
    let client: Client;

    before(async () => {
        dir = mkdtempSync(join(tmpdir(), "prices-"));
        em = await startTestEmulator({ keyWorkspaceId: TEST_TENANT, stateDir: dir });
        client = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
    });
    after(async () => {
        await em?.close();
        rmSync(dir, { recursive: true, force: true });
    });

    it("the list answers the built-in entries (no workspace) and the workspace's own, prices as numbers; another workspace sees only the built-in ones", async () => {
        const made = await create(em, entry("list-model", { start_time: "2026-03-01T00:00:00+00:00" }));
        assert.deepEqual(
            [made.tenant_id, made.prompt_cost, made.completion_cost, made.prompt_cost_details, made.provider, made.match_path],
            [TEST_TENANT, 0.000002, 0.000003, { cache_read: 0.000001 }, "openai", ["model", "model_name", "model_id", "model_path", "endpoint_name"]],
        );
        assert.equal(Date.parse(made.start_time), Date.parse("2026-03-01T00:00:00Z"));
        const mine = (await raw(em, "GET", PRICE_MAP)).body;
        assert.deepEqual(
            mine.filter((p: any) => p.tenant_id === null).map((p: any) => p.name),
            BUILT_IN_PRICES.map((p) => p.name),
        );
        assert.ok(mine.some((p: any) => p.id === made.id));
        const theirs = (await raw(em, "GET", PRICE_MAP, { tenantId: OTHER_TENANT })).body;
        assert.ok(theirs.every((p: any) => p.tenant_id === null));
    });

    it("a PUT is the whole entry again: what it leaves out is cleared, match_path back to its default; a DELETE removes it", async () => {
        const made = await create(em, entry("put-model", { match_path: ["model"], start_time: "2026-01-01T00:00:00Z" }));
        const put = await raw(em, "PUT", `${PRICE_MAP}/${made.id}`, {
            body: { name: "put-model", match_pattern: "^put", prompt_cost: 1, completion_cost: "0.5" },
        });
        assert.equal(put.status, 200, put.text);
        assert.deepEqual(
            [put.body.match_pattern, put.body.prompt_cost, put.body.completion_cost, put.body.start_time, put.body.provider, put.body.prompt_cost_details],
            ["^put", 1, 0.5, null, null, null],
        );
        assert.equal(put.body.match_path.length, 5);
        assert.equal((await raw(em, "DELETE", `${PRICE_MAP}/${made.id}`)).status, 200);
        assert.ok(!(await raw(em, "GET", PRICE_MAP)).body.some((p: any) => p.id === made.id));
        const again = await raw(em, "DELETE", `${PRICE_MAP}/${made.id}`);
        assert.deepEqual([again.status, again.body.detail], [404, `Model price ${made.id} not found`]);
    });

    it("refusals: a pattern that does not compile, a price that is not a decimal, an unknown field (422 on the field); a built-in entry's PUT (403)", async () => {
        const bad = async (body: unknown) => {
            const r = await raw(em, "POST", PRICE_MAP, { body });
            assert.equal(r.status, 422, r.text);
            return r.body.detail.map((d: any) => d.loc.join("."));
        };
        assert.deepEqual(await bad(entry("x", { match_pattern: "gpt-(4" })), ["body.match_pattern"]);
        assert.deepEqual(await bad(entry("x", { prompt_cost: "cheap" })), ["body.prompt_cost"]);
        assert.deepEqual(await bad(entry("x", { cost: 1 })), ["body.cost"]);
        assert.deepEqual(await bad({ name: "x", prompt_cost: 1, completion_cost: 1 }), ["body.match_pattern"]);
        const builtIn = BUILT_IN_PRICES[0];
        const put = await raw(em, "PUT", `${PRICE_MAP}/${builtIn.id}`, { body: entry("gpt-4o") });
        assert.equal(put.status, 403);
        assert.match(put.body.detail, /built-in entry.*same match pattern/);
        // Python's `(?i)` flag and named groups are read as the service reads them.
        assert.equal((await raw(em, "POST", PRICE_MAP, { body: entry("py", { match_pattern: "(?i)^(?P<family>py)-model$" }) })).status, 200);
    });

    it("JS: an LLM run traced with its usage costs its tokens at the matching entry's prices (cached ones at theirs), read by listRuns, readRun and runs.query; a run traced after the entry's PUT costs the new price, the earlier one keeps its cost", async () => {
        const model = uniqueName("house-model");
        const project = uniqueName("js-costs");
        const made = await create(em, entry(model));
        // Entries that must not price it: another provider's, and one starting tomorrow at a lower price.
        await create(em, entry(model, { provider: "anthropic", prompt_cost: 9 }));
        await create(em, entry(model, { start_time: new Date(Date.now() + 86_400_000).toISOString(), prompt_cost: 0 }));
        const first = await jsTrace(client, project, model);
        // 10 cached tokens at 1e-6 and 17 at 2e-6; 13 at 3e-6.
        const before = ["0.000044", "0.000039", "0.000083"];
        const read = await client.readRun(first);
        assert.deepEqual(costs(read), [27, 13, 40, ...before]);
        assert.equal((read as any).price_model_id, made.id);
        const put = await raw(em, "PUT", `${PRICE_MAP}/${made.id}`, { body: entry(model, { completion_cost: "0.000005" }) });
        assert.equal(put.status, 200, put.text);
        const second = await jsTrace(client, project, model);
        const listed = new Map<string, any>();
        for await (const r of client.listRuns({ projectName: project, runType: "llm" })) listed.set(r.id, r);
        assert.deepEqual(costs(listed.get(first)).slice(3), before);
        assert.deepEqual(costs(listed.get(second)).slice(3), ["0.000044", "0.000065", "0.000109"]);
        const projectId = (await client.readProject({ projectName: project })).id;
        const v2 = new Map<string, any>();
        for await (const r of client.runs.query({ project_ids: [projectId], selects: ["ID", "TOTAL_COST", "PRICE_MODEL_ID"] })) v2.set(String(r.id), r);
        assert.deepEqual([v2.get(first).total_cost, v2.get(second).total_cost, v2.get(second).price_model_id], [0.000083, 0.000109, made.id]);
        // A model no entry matches has its tokens and no cost.
        const unpriced = await client.readRun(await jsTrace(client, project, "nobody-prices-this"));
        assert.deepEqual(costs(unpriced), [27, 13, 40, null, null, null]);
    });

    it("Python: the run its @traceable LLM call traced with run.set(usage_metadata=...) reads back with its cost, by read_run and list_runs", async () => {
        const model = uniqueName("py-model");
        await create(em, entry(model));
        const calls = await pythonCalls(join(__dirname, "price_client.py"), [em.url, TEST_API_KEY, uniqueName("py-costs"), model]);
        const expected = [27, 13, 40, "0.000044", "0.000039", "0.000083"];
        assert.deepEqual(calls.get("read_run"), expected);
        assert.deepEqual(calls.get("list_runs"), [expected]);
    });

    it("costs the client sent are kept as they are, and LangChain's token_usage is read; entries and costs outlive a restart on the state directory", async () => {
        const project = uniqueName("sent-costs");
        const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
        const now = new Date().toISOString();
        const post = await raw(em, "POST", "/api/v1/runs/batch", {
            body: {
                post: [
                    { id: a, name: "tool", run_type: "tool", start_time: now, session_name: project, outputs: { usage_metadata: { total_cost: 0.0015 } } },
                    {
                        id: b,
                        name: "lc",
                        run_type: "llm",
                        start_time: now,
                        session_name: project,
                        extra: { invocation_params: { model_name: "lc-model" }, metadata: { ls_provider: "openai" } },
                        outputs: { llm_output: { token_usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } } },
                    },
                ],
            },
        });
        assert.equal(post.status, 202, post.text);
        // `lc-model` is priced only by an entry made after it was traced: its cost stays none.
        await create(em, entry("lc-model"));
        const read = async (id: string) => (await raw(em, "GET", `/api/v1/runs/${id}`)).body;
        assert.deepEqual(costs(await read(a)), [0, 0, 0, "0", "0", "0.0015"]);
        assert.deepEqual(costs(await read(b)), [100, 10, 110, null, null, null]);
        const entries = (await raw(em, "GET", PRICE_MAP)).body;
        const priced = (await raw(em, "POST", "/api/v1/runs/query", { body: { session: [], run_type: "llm", select: ["total_cost"] } })).body.runs;
        await em.close();
        em = await startTestEmulator({ keyWorkspaceId: TEST_TENANT, stateDir: dir });
        client = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        assert.deepEqual((await raw(em, "GET", PRICE_MAP)).body, entries);
        assert.deepEqual((await raw(em, "POST", "/api/v1/runs/query", { body: { session: [], run_type: "llm", select: ["total_cost"] } })).body.runs, priced);
        assert.ok(priced.some((r: any) => r.total_cost === "0.000083"));
    });
});
