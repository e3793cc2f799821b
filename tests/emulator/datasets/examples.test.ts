/**
 * A dataset's examples, versions, tags, splits and share in the emulator (docs/service.md R14), judged by the
 * official Python client (examples_client.py: what an evaluation team's code calls) and, for what the clients do not
 * send, raw HTTP: each write one version, reads `as_of` a time or a tag, a tag moved, bulk writes all or nothing, and
 * what `--state-dir` keeps.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_API_KEY, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { pythonCalls } from "../../helpers/pyarrow";

const SCRIPT = join(__dirname, "examples_client.py");

async function dataset(em: Emulator): Promise<string> {
    const made = await raw(em, "POST", "/api/v1/datasets", { body: { name: uniqueName("golden") } });
    assert.equal(made.status, 200, made.text);
    return made.body.id;
}

const questions = (r: { body: Array<{ inputs: { q: string } }> }) => r.body.map((e) => e.inputs.q).sort();

describe("emulator: a dataset's examples, versions, tags, splits and share", function () {
    this.timeout(60_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(async () => em?.close());

    it("the official Python client: as_of a tag reads that version before and after a change, a moved tag the new one; splits, share", async () => {
        const calls = await pythonCalls(SCRIPT, [em.url, TEST_API_KEY, uniqueName("py-golden")]);
        assert.equal(calls.get("created"), 3);
        assert.equal(calls.get("versions after create"), 1);
        assert.deepEqual(calls.get("prod"), ["a", "b", "c"]);
        assert.deepEqual(calls.get("v1 by time"), ["a", "b", "c"]);
        assert.deepEqual(calls.get("latest"), ["a2", "c", "d"]);
        assert.deepEqual(calls.get("train at prod"), ["a", "b"]);
        assert.deepEqual(calls.get("splits at prod"), ["test", "train"]);
        assert.deepEqual(calls.get("splits now"), ["base", "test", "train"]);
        assert.equal(calls.get("versions"), 4, "create, tag-free update, delete, create: four versions");
        assert.equal(calls.get("prod version"), true);
        assert.deepEqual(calls.get("prod moved"), ["a2", "c", "d"]);
        assert.equal(calls.get("count"), 3);
        assert.deepEqual(calls.get("shared"), ["a2", "c", "d"]);
        assert.match(calls.get("shared dataset"), /^py-golden/);
        assert.equal(calls.get("unshared"), "LangSmithNotFoundError");
    });

    it("a bulk create is all or nothing: a malformed row 422 at its place, an unknown dataset 404, a taken id 409, and nothing made; inputs left out are none", async () => {
        const d = await dataset(em);
        const id = "0b5c2a4e-1f2a-4c3b-9d8e-7f6a5b4c3d2e";
        const ok = await raw(em, "POST", "/api/v1/examples/bulk", { body: [{ dataset_id: d, id, inputs: { q: "x" } }] });
        assert.equal(ok.status, 200, ok.text);
        const malformed = await raw(em, "POST", "/api/v1/examples/bulk", {
            body: [
                { dataset_id: d, inputs: { q: "y" } },
                { dataset_id: d, inputs: "y" },
            ],
        });
        assert.equal(malformed.status, 422, malformed.text);
        assert.deepEqual(malformed.body.detail[0].loc, ["body", 1, "inputs"]);
        const unknown = await raw(em, "POST", "/api/v1/examples/bulk", {
            body: [
                { dataset_id: d, inputs: { q: "y" } },
                { dataset_id: "6a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d", inputs: { q: "z" } },
            ],
        });
        assert.equal(unknown.status, 404, unknown.text);
        const taken = await raw(em, "POST", "/api/v1/examples/bulk", {
            body: [
                { dataset_id: d, inputs: { q: "y" } },
                { dataset_id: d, id, inputs: { q: "x again" } },
            ],
        });
        assert.equal(taken.status, 409, taken.text);
        assert.match(taken.text, new RegExp(id));
        assert.deepEqual(questions(await raw(em, "GET", `/api/v1/examples?dataset=${d}`)), ["x"]);
        assert.equal((await raw(em, "GET", `/api/v1/datasets/${d}/versions`)).body.length, 1, "a refused write is no version");
        const bare = await raw(em, "POST", "/api/v1/examples", { body: { dataset_id: d } });
        assert.deepEqual([bare.status, bare.body.inputs], [200, {}], bare.text);
        const run = {
            id: "3f1e2d3c-4b5a-4968-8776-655443322110",
            name: "answer",
            run_type: "chain",
            start_time: new Date().toISOString(),
            inputs: { q: "from a run" },
            outputs: { a: 1 },
        };
        assert.equal((await raw(em, "POST", "/api/v1/runs", { body: { ...run, session_name: uniqueName("p") } })).status, 202);
        const fromRun = await raw(em, "POST", "/api/v1/examples", { body: { dataset_id: d, source_run_id: run.id, use_source_run_io: true } });
        assert.deepEqual(
            [fromRun.status, fromRun.body.inputs, fromRun.body.outputs, fromRun.body.source_run_id],
            [200, run.inputs, run.outputs, run.id],
            fromRun.text,
        );
    });

    it("a bulk update and a delete of several are one version each; an unknown id refuses the whole request; overwrite clears what it does not give", async () => {
        const d = await dataset(em);
        const made = await raw(em, "POST", "/api/v1/examples/bulk", {
            body: [
                { dataset_id: d, inputs: { q: "a" }, outputs: { o: 1 }, metadata: { m: 1 } },
                { dataset_id: d, inputs: { q: "b" } },
                { dataset_id: d, inputs: { q: "c" } },
            ],
        });
        const [a, b, c] = made.body.map((e: { id: string }) => e.id);
        const unknown = await raw(em, "PATCH", "/api/v1/examples/bulk", {
            body: [
                { id: a, inputs: { q: "a2" } },
                { id: "6a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d", inputs: {} },
            ],
        });
        assert.equal(unknown.status, 404, unknown.text);
        const patched = await raw(em, "PATCH", "/api/v1/examples/bulk", {
            body: [
                { id: a, inputs: { q: "a2" }, overwrite: true },
                { id: b, outputs: { o: 2 } },
            ],
        });
        assert.equal(patched.status, 200, patched.text);
        const gone = await raw(em, "DELETE", `/api/v1/examples?example_ids=${b}&example_ids=${c}`);
        assert.equal(gone.status, 200, gone.text);
        const versions = (await raw(em, "GET", `/api/v1/datasets/${d}/versions`)).body.map((v: { as_of: string }) => v.as_of);
        assert.equal(versions.length, 3);
        assert.equal(new Set(versions).size, 3, "versions written in one millisecond are still distinct");
        const now = await raw(em, "GET", `/api/v1/examples/${a}`);
        assert.deepEqual([now.body.inputs, now.body.outputs, now.body.metadata], [{ q: "a2" }, null, { dataset_split: ["base"] }]);
        const before = await raw(em, "GET", `/api/v1/examples?dataset=${d}&as_of=${encodeURIComponent(versions[1])}`);
        assert.deepEqual(questions(before), ["a2", "b", "c"]);
        assert.deepEqual(before.body.find((e: { id: string }) => e.id === b).outputs, { o: 2 });
    });

    it("tags: set and moved to the version current at a time; an unknown tag 404; a time before the first version 404", async () => {
        const d = await dataset(em);
        await raw(em, "POST", "/api/v1/examples", { body: { dataset_id: d, inputs: { q: "one" } } });
        const [first] = (await raw(em, "GET", `/api/v1/datasets/${d}/versions`)).body;
        const later = new Date(Date.parse(first.as_of) + 1).toISOString();
        const tagged = await raw(em, "PUT", `/api/v1/datasets/${d}/tags`, { body: { tag: "prod", as_of: later } });
        assert.deepEqual(tagged.body, { as_of: first.as_of, tags: ["prod"] });
        await raw(em, "POST", "/api/v1/examples", { body: { dataset_id: d, inputs: { q: "two" } } });
        assert.deepEqual(questions(await raw(em, "GET", `/api/v1/examples?dataset=${d}&as_of=prod`)), ["one"]);
        const moved = await raw(em, "PUT", `/api/v1/datasets/${d}/tags`, { body: { tag: "prod", as_of: "latest" } });
        assert.deepEqual(moved.body.tags, ["prod"]);
        assert.notEqual(moved.body.as_of, first.as_of);
        assert.deepEqual(questions(await raw(em, "GET", `/api/v1/examples?dataset=${d}&as_of=prod`)), ["one", "two"]);
        const unknown = await raw(em, "GET", `/api/v1/examples?dataset=${d}&as_of=staging`);
        assert.equal(unknown.status, 404, unknown.text);
        const early = await raw(em, "PUT", `/api/v1/datasets/${d}/tags`, { body: { tag: "old", as_of: "2020-01-01T00:00:00Z" } });
        assert.equal(early.status, 404, early.text);
    });

    it("--state-dir keeps examples, their versions, tags and shares across a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "examples-state-"));
        try {
            const first = await startTestEmulator({ stateDir: dir });
            const d = await dataset(first);
            await raw(first, "POST", "/api/v1/examples/bulk", { body: [{ dataset_id: d, inputs: { q: "kept" } }] });
            await raw(first, "PUT", `/api/v1/datasets/${d}/tags`, { body: { tag: "prod", as_of: "latest" } });
            const share = await raw(first, "PUT", `/api/v1/datasets/${d}/share`);
            await raw(first, "POST", "/api/v1/examples/bulk", { body: [{ dataset_id: d, inputs: { q: "later" } }] });
            await first.close();
            const again = await startTestEmulator({ stateDir: dir });
            try {
                assert.deepEqual(questions(await raw(again, "GET", `/api/v1/examples?dataset=${d}&as_of=prod`)), ["kept"]);
                assert.deepEqual(questions(await raw(again, "GET", `/api/v1/public/${share.body.share_token}/examples`, { apiKey: null })), ["kept", "later"]);
            } finally {
                await again.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
