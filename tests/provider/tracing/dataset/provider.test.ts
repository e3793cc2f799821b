/**
 * Dataset (provider/dataset) against the emulator's datasets API over HTTP: check (JSON Schema at preview),
 * diff, create, read (refresh and import), update (a rename and a schema, in place), delete, a taken name
 * refused or adopted, the look-up by name, and what `--state-dir` keeps.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpClient } from "../../../../provider/api/client";
import { DatasetSchema } from "../../../../provider/api/schemas/datasets";
import { TracingClient } from "../../../../provider/api/tracing";
import { getDataset } from "../../../../provider/tracing/dataset/lookups";
import { checkDataset, createDatasetProvider } from "../../../../provider/tracing/dataset/provider";
import { withEnv } from "../../../helpers/async";
import { TEST_API_KEY, TEST_TENANT, rejection, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";

const QUESTION = { type: "object", properties: { question: { type: "string" } }, required: ["question"] };

describe("Dataset", function () {
    this.timeout(20_000);
    let em: Emulator;
    let stateDir: string;
    before(async () => {
        stateDir = mkdtempSync(join(tmpdir(), "datasets-"));
        em = await startTestEmulator({ stateDir });
    });
    after(async () => {
        await em?.close();
        rmSync(stateDir, { recursive: true, force: true });
    });
    const client = () =>
        new TracingClient(
            new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, apiKeyHeader: "X-API-Key", retryBaseMs: 5, retryMaxMs: 20 }),
        );
    const provider = () => createDatasetProvider({ datasets: client });
    const checked = (news: Record<string, unknown>) => {
        const r = checkDataset(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as { name: string } & Record<string, unknown>;
    };

    it("check: a schema that is not JSON Schema, an unknown data type, a misspelled key fail on their properties; dataType defaults to kv", () => {
        const r = checkDataset({ name: "d", dataType: "table", inputsSchema: { type: "text" }, outputSchema: {} });
        assert.deepEqual(
            r.failures?.map((f) => [f.property, f.reason]),
            [
                [
                    "outputSchema",
                    'unknown argument "outputSchema" of Dataset: did you mean "outputsSchema"? (Dataset takes name, description, dataType, inputsSchema, outputsSchema, metadata, tags, workspaceId)',
                ],
                ["dataType", 'dataType must be one of kv, llm, chat (got "table")'],
                ["inputsSchema", 'inputsSchema is not a JSON Schema: type "text" is not one of object, array, string, number, integer, boolean, null'],
            ],
        );
        assert.equal(checked({ name: "d" }).dataType, "kv");
        assert.match(checkDataset({ name: "d", outputsSchema: { required: "answer" } }).failures![0].reason, /required must be a list/);
    });

    it("diff: a rename or a schema updates in place; another data type replaces, deleting first when the name stays", async () => {
        const olds = checked({ name: "a", inputsSchema: QUESTION });
        const renamed = await provider().diff!("id", olds, checked({ name: "b", inputsSchema: { ...QUESTION, required: [] } }));
        assert.deepEqual([renamed.replaces, (renamed as { updates?: string[] }).updates], [[], ["name", "inputsSchema"]]);
        const retyped = await provider().diff!("id", olds, checked({ name: "a", inputsSchema: QUESTION, dataType: "chat" }));
        assert.deepEqual([retyped.replaces, retyped.deleteBeforeReplace], [["dataType"], true]);
    });

    it("create, read, update, import, delete; the emulator keeps datasets in --state-dir", async () => {
        const p = provider();
        const name = uniqueName("golden");
        const inputs = checked({ name, description: "golden set", inputsSchema: QUESTION, metadata: { owner: "support" } });
        em.admin.requests = [];
        const made = await p.create(inputs);
        const calls = em.admin.requests.map((q) => `${q.method} ${q.path}`);
        assert.deepEqual(calls, ["GET /api/v1/datasets", "POST /api/v1/datasets"], "the name looked up, the POST's answer taken: no read back");
        const stored = await client().getDataset(made.id);
        assert.deepEqual([made.outs.createdAt, made.outs.tenantId], [stored.created_at, stored.tenant_id], "the outputs a read gives");
        assert.deepEqual([stored.name, stored.data_type, stored.inputs_schema_definition, stored.metadata], [name, "kv", QUESTION, { owner: "support" }]);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, inputs, "nothing changed reads back as the inputs");

        const news = checked({ ...inputs, name: `${name}-v2`, description: undefined });
        const updated = await p.update!(made.id, made.outs, news);
        assert.deepEqual([(await client().getDataset(made.id)).name, (await client().getDataset(made.id)).description], [`${name}-v2`, ""]);
        // What examples written change is no output (getDataset reads it): a refresh of a clean stack changes nothing.
        assert.ok(!("exampleCount" in updated.outs) && !("modifiedAt" in updated.outs), JSON.stringify(updated.outs));
        await client().updateDataset(made.id, { metadata: { owner: "edited in the UI" } });
        assert.deepEqual((await p.read!(made.id)).inputs, { ...news, metadata: { owner: "edited in the UI" } }, "import and drift read every argument");

        await em.close();
        em = await startTestEmulator({ stateDir });
        assert.equal((await client().getDataset(made.id)).name, `${name}-v2`, "kept across a restart");
        await p.delete!(made.id, made.outs);
        assert.deepEqual(await p.read!(made.id), {});
        await p.delete!(made.id, made.outs); // already gone: done
    });

    it("check: an empty description, schema or metadata is none, as the service answers it: a refresh after the create plans nothing", async () => {
        const p = provider();
        const inputs = checked({ name: uniqueName("empty"), description: "", inputsSchema: {}, outputsSchema: {}, metadata: {} });
        assert.deepEqual(inputs, { name: inputs.name, dataType: "kv" });
        const made = await p.create(inputs);
        const read = await p.read!(made.id, made.outs);
        const d = await p.diff!(made.id, read.props as never, inputs);
        assert.equal(d.changes, false, JSON.stringify(d));
        await p.delete!(made.id, made.outs);
    });

    it("create: a name the workspace holds is refused with the dataset's id; LANGSMITH_ADOPT_IDS takes it in; getDataset finds it by name", async () => {
        const name = uniqueName("taken");
        const { dataset } = await client().createDataset({ name });
        assert.match(
            String(await rejection(() => provider().create(checked({ name, description: "ours" })))),
            new RegExp(`already holds dataset ${dataset.id}`),
        );
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: dataset.id }, () => provider().create(checked({ name, description: "ours" })));
        assert.deepEqual([adopted.id, (await client().getDataset(dataset.id)).description], [dataset.id, "ours"]);
        const found = await getDataset(client(), { name });
        assert.deepEqual([found.id, found.dataType, found.description], [dataset.id, "kv", "ours"]);
        assert.match(String(await rejection(() => getDataset(client(), { name: `${name}-none` }))), /no dataset named/);
    });

    it("emulator: takes a create as the official Python client sends it (transformations null, metadata under extra.metadata) and answers the metadata", async () => {
        const body = { name: uniqueName("py-ds"), data_type: "kv", transformations: null, extra: { metadata: { x: 1 }, source: "sdk" }, description: "dd" };
        const made = (await client().http.request("POST", "/api/v1/datasets", { body, schema: DatasetSchema })).data;
        assert.deepEqual([made.name, made.metadata, made.description], [body.name, { x: 1 }, "dd"]);
    });
});
