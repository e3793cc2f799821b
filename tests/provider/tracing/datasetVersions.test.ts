/**
 * DatasetVersionTag, Example and DatasetShare (provider/tracing/...) and the look-ups getDatasetVersion and getExamples,
 * against the emulator over HTTP: a tag checked at preview to name a version, moved in place, read back, met already
 * set (moved, warned), left by a delete (warned); an example made, patched whole, read back with its split, deleted;
 * a share made, its token a secret output, refused when the dataset is shared already, taken over when told, unshared.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../provider/api/client";
import { ExamplesClient } from "../../../provider/api/examples";
import { secretOutputs } from "../../../provider/kit/declare";
import { createDatasetExamplesProvider, checkDatasetExamples } from "../../../provider/tracing/datasetExamples/provider";
import { getDatasetVersion, getExamples } from "../../../provider/tracing/datasetExamples/lookups";
import { checkDatasetShare, createDatasetShareProvider } from "../../../provider/tracing/datasetShare/provider";
import { datasetShare } from "../../../provider/tracing/datasetShare/declare";
import { checkDatasetVersionTag, createDatasetVersionTagProvider } from "../../../provider/tracing/datasetVersionTag/provider";
import { checkExample, createExampleProvider } from "../../../provider/tracing/example/provider";
import { withEnv } from "../../helpers/async";
import { TEST_API_KEY, TEST_TENANT, raw, rejection, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

type Json = Record<string, unknown>;

describe("DatasetVersionTag, Example, DatasetShare and the version look-ups", function () {
    this.timeout(30_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(async () => em?.close());
    const client = () =>
        new ExamplesClient(
            new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, apiKeyHeader: "X-API-Key", retryBaseMs: 5, retryMaxMs: 20 }),
        );
    const dataset = async () => (await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("ds") } })).body.id as string;
    const inputs = (check: (n: Json) => { inputs?: unknown; failures?: unknown[] }, news: Json) => {
        const r = check(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as any;
    };
    /** A dataset with rows written by a DatasetExamples: its id and the version the write left. */
    async function written(rows: Json[]): Promise<{ d: string; asOf: string }> {
        const d = await dataset();
        const made = await createDatasetExamplesProvider({ examples: client }).create(inputs(checkDatasetExamples, { datasetId: d, examples: rows }));
        return { d, asOf: made.outs.asOf };
    }
    const questions = async (d: string, asOf?: string) => (await client().list(d, asOf)).map((e) => (e.inputs as { q: string }).q).sort();

    it("DatasetVersionTag: a time that is no version is refused at preview (naming the latest ones), a version is tagged, moved in place, read back; a delete leaves it", async () => {
        const p = createDatasetVersionTagProvider({ examples: client });
        const { d, asOf } = await written([{ inputs: { q: "a" } }]);
        const between = new Date(Date.parse(asOf) + 1).toISOString();
        const env = { LANGSMITH_API_KEY: TEST_API_KEY, LANGSMITH_ENDPOINT: em.url, LANGSMITH_WORKSPACE_ID: TEST_TENANT };
        const refused = await withEnv(env, () => p.check!({}, { datasetId: d, tag: "prod", asOf: between }));
        assert.equal(refused.failures?.[0].property, "asOf");
        assert.match(refused.failures![0].reason, new RegExp(`asOf ${between} is not a version of dataset ${d}: its latest are ${asOf}`));
        assert.match(checkDatasetVersionTag({ datasetId: d, tag: "prod", asOf: "yesterday" }).failures![0].reason, /asOf/);
        const made = await p.create(inputs(checkDatasetVersionTag, { datasetId: d, tag: "prod", asOf }));
        assert.equal(made.id, `${d}:prod`);
        const later = (await client().createMany([{ dataset_id: d, inputs: { q: "b" } }]), (await client().version(d))!.as_of);
        assert.deepEqual(await questions(d, "prod"), ["a"]);
        const moved = inputs(checkDatasetVersionTag, { datasetId: d, tag: "prod", asOf: later });
        assert.deepEqual((await p.diff!(made.id, made.outs, moved)).replaces ?? [], []);
        await p.update!(made.id, made.outs, moved);
        assert.deepEqual(await questions(d, "prod"), ["a", "b"]);
        const read = await p.read!(made.id, made.outs);
        assert.equal(Date.parse(read.props!.asOf), Date.parse(later));
        const imported = await p.read!(`${d}:prod`);
        assert.deepEqual([imported.inputs?.datasetId, imported.inputs?.tag], [d, "prod"]);
        await p.delete!(made.id, made.outs);
        assert.ok(await client().version(d, { tag: "prod" }), "the service has no call that removes a tag: it stays");
        const again = await p.create(inputs(checkDatasetVersionTag, { datasetId: d, tag: "prod", asOf }));
        assert.deepEqual(await questions(d, "prod"), ["a"], "a create meeting the tag moves it");
        assert.equal(again.id, made.id);
    });

    it("Example: made with its split, patched whole (a removed field cleared), read back as declared, deleted", async () => {
        const p = createExampleProvider({ examples: client });
        const d = await dataset();
        assert.equal(checkExample({ datasetId: d, inputs: { q: 1 }, metadata: { dataset_split: ["x"] } }).failures?.[0].property, "metadata");
        const full = inputs(checkExample, { datasetId: d, inputs: { q: "hours" }, outputs: { a: "9-5" }, metadata: { by: "lead" }, split: ["smoke"] });
        const made = await p.create(full);
        const stored = await client().tryGetOne(made.id);
        assert.deepEqual([stored?.inputs, stored?.outputs, stored?.metadata], [{ q: "hours" }, { a: "9-5" }, { by: "lead", dataset_split: ["smoke"] }]);
        assert.deepEqual((await p.read!(made.id, made.outs)).inputs, full, "read back as declared (the id it asked for kept)");
        const bare = inputs(checkExample, { datasetId: d, inputs: { q: "hours?" } });
        const updated = await p.update!(made.id, made.outs, bare);
        const patched = await client().tryGetOne(made.id);
        assert.deepEqual([patched?.inputs, patched?.outputs, patched?.metadata], [{ q: "hours?" }, null, { dataset_split: ["base"] }]);
        assert.deepEqual((await p.read!(made.id, updated.outs)).inputs, { ...bare, requestedExampleId: full.requestedExampleId });
        await p.delete!(made.id, made.outs);
        assert.equal(await client().tryGetOne(made.id), undefined);
    });

    it("Example: a create a killed up made is found at the id derived from the resource and taken, never made twice; after a delete the next create makes it anew", async () => {
        const p = createExampleProvider({ examples: client });
        const d = await dataset();
        const args = { datasetId: d, inputs: { q: "killed" }, __identity: `urn:pulumi:s::p::langsmith:index:Example::${uniqueName("e")}` };
        const first = await p.create(inputs(checkExample, args));
        const again = await p.create(inputs(checkExample, { ...args, inputs: { q: "killed, then changed" } }));
        assert.equal(again.id, first.id, "the second create took the first one's example");
        assert.deepEqual(await questions(d), ["killed, then changed"]);
        await p.delete!(again.id, again.outs);
        const anew = await p.create(inputs(checkExample, args));
        assert.notEqual(anew.id, first.id, "a deleted example's id is taken for good (docs/service.md R14.1): another is made");
        assert.deepEqual(await questions(d), ["killed"]);
    });

    it("DatasetShare: its token a secret output; a dataset shared elsewhere refused unless LANGSMITH_ADOPT_IDS names it; unshared on delete", async () => {
        assert.deepEqual(secretOutputs(datasetShare), ["shareToken"]);
        const p = createDatasetShareProvider({ examples: client });
        const d = await dataset();
        const made = await p.create(inputs(checkDatasetShare, { datasetId: d }));
        const token = made.outs.shareToken as string;
        assert.equal((await raw(em, "GET", `/api/v1/public/${token}/examples`, { apiKey: null })).status, 200);
        await p.delete!(made.id, made.outs);
        assert.equal((await raw(em, "GET", `/api/v1/public/${token}/examples`, { apiKey: null })).status, 404);
        const other = await client().shareDataset(d);
        const refused = await rejection(() => p.create(inputs(checkDatasetShare, { datasetId: d })));
        assert.match(refused.message, new RegExp(`dataset ${d}: it is shared already[\\s\\S]*LANGSMITH_ADOPT_IDS=${d}`));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: d }, () => p.create(inputs(checkDatasetShare, { datasetId: d })));
        assert.equal(taken.outs.shareToken, other.share_token);
    });

    it("getDatasetVersion by tag, by time and the latest; getExamples: count and hashes at a version, as DatasetExamples makes them", async () => {
        const rows = [{ inputs: { q: "a" } }, { inputs: { q: "b" }, outputs: { x: 1 } }];
        const made = await createDatasetExamplesProvider({ examples: client }).create(
            inputs(checkDatasetExamples, { datasetId: await dataset(), examples: rows }),
        );
        const d = made.id;
        await client().tag(d, "prod", made.outs.asOf as string);
        await client().createMany([{ dataset_id: d, inputs: { q: "c" } }]);
        assert.deepEqual(await getDatasetVersion(client(), { datasetId: d, tag: "prod" }), { asOf: made.outs.asOf, tags: ["prod"] });
        assert.equal((await getDatasetVersion(client(), { datasetId: d, asOf: made.outs.asOf as string })).asOf, made.outs.asOf);
        assert.notEqual((await getDatasetVersion(client(), { datasetId: d })).asOf, made.outs.asOf);
        assert.match((await rejection(() => getDatasetVersion(client(), { datasetId: d, tag: "staging" }))).message, /has no version tagged staging/);
        assert.match((await rejection(() => getDatasetVersion(client(), { datasetId: d, tag: "prod", asOf: made.outs.asOf as string }))).message, /not both/);
        const prod = await getExamples(client(), { datasetId: d, asOf: "prod" });
        assert.deepEqual(prod, { count: 2, hashes: made.outs.exampleHashes });
        assert.equal((await getExamples(client(), { datasetId: d })).count, 3);
    });
});
