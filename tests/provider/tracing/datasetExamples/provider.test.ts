/**
 * DatasetExamples (provider/tracing/datasetExamples) against the emulator's examples over HTTP: the rows of a JSONL or
 * CSV file checked at preview (the line of a problem), the diff by hashes (an unchanged file is no change), a create
 * and an update in the service's bulk calls (what they send, counted), the version each leaves, drift made elsewhere
 * seen by read and undone (or kept, not exclusive), an interrupted create finished with no example twice, strays
 * refused at create unless adopted, import, delete.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpClient } from "../../../../provider/api/client";
import { ExamplesClient } from "../../../../provider/api/examples";
import { checkDatasetExamples, createDatasetExamplesProvider } from "../../../../provider/tracing/datasetExamples/provider";
import { parseCsv } from "../../../../provider/tracing/datasetExamples/rows";
import { withEnv } from "../../../helpers/async";
import { TEST_API_KEY, TEST_TENANT, raw, rejection, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";

type Json = Record<string, unknown>;
const jsonl = (rows: Json[]) => rows.map((r) => JSON.stringify(r)).join("\n");
const golden = (n: number) => Array.from({ length: n }, (_, i) => ({ inputs: { q: `q${i}` }, outputs: { a: `a${i}` }, ...(i % 2 ? { split: ["test"] } : {}) }));

describe("DatasetExamples", function () {
    this.timeout(30_000);
    let em: Emulator;
    let dir: string;
    before(async () => {
        dir = mkdtempSync(join(tmpdir(), "examples-"));
        em = await startTestEmulator();
    });
    after(async () => {
        await em?.close();
        rmSync(dir, { recursive: true, force: true });
    });
    const client = () =>
        new ExamplesClient(
            new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, apiKeyHeader: "X-API-Key", retryBaseMs: 5, retryMaxMs: 20 }),
        );
    const provider = () => createDatasetExamplesProvider({ examples: client });
    const file = (name: string, text: string) => {
        const path = join(dir, name);
        writeFileSync(path, text);
        return path;
    };
    const dataset = async () => (await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("golden") } })).body.id as string;
    const checked = (news: Json) => {
        const r = checkDatasetExamples(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as any;
    };
    const remote = async (d: string, asOf?: string) =>
        (await client().list(d, asOf)).map((e) => `${(e.inputs as { q: string }).q}=${JSON.stringify(e.outputs)}`).sort();
    const writes = () => em.admin.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.path.replace(/\?.*/, "")}`);
    const failures = (news: Json) => checkDatasetExamples(news).failures?.map((f) => [f.property, f.reason]);

    it("check: a file not there, a line that is not JSON, a row without inputs, two rows of one identity, an unknown column: each on `file`, with the line", async () => {
        const d = "0b5c2a4e-1f2a-4c3b-9d8e-7f6a5b4c3d2e";
        assert.deepEqual(failures({ datasetId: d, file: join(dir, "none.jsonl") })?.[0][0], "file");
        assert.match(failures({ datasetId: d, file: join(dir, "none.jsonl") })![0][1], /none\.jsonl is not there .*relative to the program's directory/);
        assert.match(failures({ datasetId: d, file: file("bad.jsonl", '{"inputs": {"q": 1}}\n{"inputs": ') })![0][1], /bad\.jsonl line 2 is not JSON/);
        assert.match(
            failures({ datasetId: d, file: file("noin.jsonl", '{"inputs": {"q": 1}}\n\n{"outputs": {}}') })![0][1],
            /noin\.jsonl line 3 has no `inputs`/,
        );
        assert.match(
            failures({ datasetId: d, file: file("dup.jsonl", '{"inputs": {"q": 1}}\n{"inputs": {"q": 2}}\n{"inputs": {"q": 1}, "outputs": {}}') })![0][1],
            /dup\.jsonl line 3 has the same inputs as line 1 \(give each an `id` to keep both\)/,
        );
        assert.match(
            failures({ datasetId: d, file: file("typo.jsonl", '{"input": {"q": 1}}') })![0][1],
            /has `input`, which an example does not have \(did you mean `inputs`\?\)/,
        );
        assert.match(failures({ datasetId: d, file: file("x.txt", "") })![0][1], /name a \.jsonl .* or a \.csv file/);
        assert.deepEqual(failures({ datasetId: d, examples: [{ inputs: { q: 1 } }, { outputs: {} }] })?.[0][0], "examples[1]");
        assert.match(failures({ datasetId: d })![0][1], /exactly one of `file`.*and `examples`/);
        assert.match(failures({ datasetId: "golden", examples: [] })![0][1], /a dataset's id/);
    });

    it("a CSV file: a header, JSON cells (quoted, with commas, quotes and newlines), split a name or a JSON list", () => {
        const rows = parseCsv('inputs,outputs,split\n"{""q"": ""a, b""}","{""a"":\n""one""}",train\n"{""q"": 2}",,"[""x"",""y""]"\n', "g.csv");
        assert.deepEqual(rows, [
            { inputs: { q: "a, b" }, outputs: { a: "one" }, split: ["train"] },
            { inputs: { q: 2 }, split: ["x", "y"] },
        ]);
    });

    it("create from a file: one bulk request; the version it leaves reads exactly the rows; an unchanged file is no change", async () => {
        const d = await dataset();
        const inputs = checked({ datasetId: d, file: file("g1.jsonl", jsonl(golden(250))) });
        em.admin.requests = [];
        const made = await provider().create(inputs);
        assert.deepEqual(writes(), ["POST /api/v1/examples/bulk"]);
        assert.equal(made.id, d);
        assert.equal(made.outs.exampleCount, 250);
        assert.equal(made.outs.exampleHashes.length, 250);
        assert.ok(made.outs.exampleHashes.every((h: string) => /^[0-9a-f]{24}$/.test(h)));
        assert.equal((await remote(d, made.outs.asOf)).length, 250);
        assert.equal((await provider().diff!(d, made.outs, checked({ datasetId: d, file: file("g1-copy.jsonl", jsonl(golden(250))) }))).changes, false);
        const listed = checked({ datasetId: d, examples: golden(250) });
        assert.equal((await provider().diff!(d, made.outs, listed)).changes, false, "the same rows as a list are no change either");
    });

    it("update: three rows changed, one removed, one added: three write requests; the old version still reads the old rows", async () => {
        const d = await dataset();
        const rows = golden(20);
        const made = await provider().create(checked({ datasetId: d, file: file("g2.jsonl", jsonl(rows)) }));
        const next: Array<{ inputs: { q: string }; outputs?: Json }> = [...rows.slice(0, 19), { inputs: { q: "new" } }].map((r, i) =>
            i < 3 ? { ...r, outputs: { a: `changed${i}` } } : r,
        );
        const news = checked({ datasetId: d, file: file("g2.jsonl", jsonl(next)) });
        const diff = await provider().diff!(d, made.outs, news);
        assert.deepEqual([diff.changes, diff.replaces, (diff as { updates?: string[] }).updates], [true, [], ["file"]]);
        em.admin.requests = [];
        const updated = await provider().update!(d, made.outs, news);
        assert.deepEqual(writes(), ["DELETE /api/v1/examples", "PATCH /api/v1/examples/bulk", "POST /api/v1/examples/bulk"]);
        assert.deepEqual(await remote(d), next.map((r) => `${r.inputs.q}=${JSON.stringify(r.outputs ?? null)}`).sort());
        assert.deepEqual(await remote(d, made.outs.asOf), rows.map((r) => `${r.inputs.q}=${JSON.stringify(r.outputs)}`).sort());
        assert.notEqual(updated.outs.asOf, made.outs.asOf);
    });

    it("drift: an example added elsewhere shows in read and the next update deletes it (exclusive), or is kept (not exclusive)", async () => {
        for (const exclusive of [true, false]) {
            const d = await dataset();
            const made = await provider().create(checked({ datasetId: d, examples: golden(3), exclusive }));
            await raw(em, "POST", "/api/v1/examples", { body: { dataset_id: d, inputs: { q: "by hand" } } });
            const read = await provider().read!(d, made.outs);
            assert.equal(read.props!.exampleCount, exclusive ? 4 : 3);
            const diff = await provider().diff!(d, read.props as any, checked({ datasetId: d, examples: golden(3), exclusive }));
            assert.equal(diff.changes, exclusive);
            if (exclusive) await provider().update!(d, read.props as any, checked({ datasetId: d, examples: golden(3), exclusive }));
            assert.equal((await remote(d)).includes("by hand=null"), !exclusive);
            await provider().delete!(d, made.outs);
            assert.deepEqual(await remote(d), exclusive ? [] : ["by hand=null"], "delete takes only what it made");
        }
    });

    it("an interrupted create (half its examples made) is finished by the next one with no example twice", async () => {
        const d = await dataset();
        const rows = golden(6);
        await client().createMany(rows.slice(0, 3).map((r) => ({ dataset_id: d, ...r })));
        const made = await provider().create(checked({ datasetId: d, examples: rows }));
        assert.equal((await remote(d)).length, 6);
        assert.equal(made.outs.exampleCount, 6);
    });

    it("a bulk write the service refuses half-way (the second of three batches): the next up finishes it, no example twice; a lost answer is looked up, not resent blind", async () => {
        const d = await dataset();
        const inputs = checked({ datasetId: d, examples: golden(2_500) });
        const fault = (f: Json) =>
            raw(em, "POST", "/__admin/faults", { apiKey: null, tenantId: null, body: { method: "POST", path: "^/api/v1/examples/bulk$", ...f } });
        // The first batch goes through (a fault of no effect takes it); the second is refused.
        await fault({ kind: "latency", latencyMs: 1 });
        await fault({ kind: "status", status: 422, when: "before" });
        await rejection(() => provider().create(inputs));
        assert.equal((await remote(d)).length, 1_000, "the first batch made, the rest refused");
        // The engine recorded nothing: the next up creates again, taking the 1,000 made as the rows they are.
        await fault({ kind: "status", status: 502, when: "after" });
        const made = await provider().create(inputs);
        const held = await client().list(d);
        assert.equal(held.length, 2_500);
        assert.equal(new Set(held.map((e) => JSON.stringify(e.inputs))).size, 2_500, "no example twice");
        assert.equal(made.outs.exampleCount, 2_500);
    });

    it("a create meeting examples no row names refuses to delete them, unless LANGSMITH_ADOPT_IDS names the dataset", async () => {
        const d = await dataset();
        await raw(em, "POST", "/api/v1/examples", { body: { dataset_id: d, inputs: { q: "theirs" } } });
        const inputs = checked({ datasetId: d, examples: golden(2) });
        const refused = await rejection(() => provider().create(inputs));
        assert.match(refused.message, new RegExp(`dataset ${d} holds 1 example\\(s\\) no row .* names.*exclusive: false.*LANGSMITH_ADOPT_IDS=${d}`));
        assert.deepEqual(await remote(d), ["theirs=null"], "nothing written");
        await withEnv({ LANGSMITH_ADOPT_IDS: d }, () => provider().create(inputs));
        assert.deepEqual(await remote(d), ["q0=" + JSON.stringify({ a: "a0" }), "q1=" + JSON.stringify({ a: "a1" })]);
    });

    it("pulumi up --replace: the new resource's create takes the examples as they are, and the old one's delete in the same run leaves them", async () => {
        const d = await dataset();
        const inputs = checked({ datasetId: d, examples: golden(3) });
        const old = await provider().create(inputs);
        em.admin.requests = [];
        const replacement = await provider().create(inputs);
        assert.deepEqual(writes(), [], "nothing written: every example is there");
        assert.equal(replacement.outs.asOf, old.outs.asOf);
        await provider().delete!(d, old.outs);
        assert.equal((await remote(d)).length, 3, "the old resource's delete took its replacement's examples");
    });

    it("import reads the examples as a list with their ids, splits and all; a diff of the same rows without ids plans an update that writes nothing", async () => {
        const d = await dataset();
        const made = await provider().create(checked({ datasetId: d, file: file("g3.jsonl", jsonl(golden(4))) }));
        const imported = await provider().read!(d);
        const ids = (await client().list(d)).reverse().map((e) => e.id);
        assert.deepEqual(
            imported.inputs?.examples,
            golden(4).map((r, i) => ({ id: ids[i], inputs: r.inputs, outputs: r.outputs, ...(r.split ? { split: r.split } : {}) })),
        );
        assert.equal((imported.props as { asOf: string }).asOf, made.outs.asOf);
        const declared = checked(imported.inputs as Json);
        assert.equal((await provider().diff!(d, imported.props as any, declared)).changes, false, "declared as imported: no change");
        const fromFile = checked({ datasetId: d, file: file("g3.jsonl", jsonl(golden(4))) });
        assert.equal((await provider().diff!(d, imported.props as any, fromFile)).changes, true);
        em.admin.requests = [];
        await provider().update!(d, imported.props as any, fromFile);
        assert.deepEqual(writes(), []);
    });
});
