/**
 * The emulator's saved views of a tracing project over raw HTTP (docs/service.md R5 "Saved views"): made with every
 * field (the type `runs` by default), a filter that does not parse 400 naming the field and the place, another
 * workspace's or an unknown project 404, listed by type, read, changed by a PATCH (absent fields stay, null clears),
 * renamed by `/rename` (the name and description, nothing else), deleted; gone with their project; kept across a
 * restart on the same `--state-dir`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OTHER_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

const views = (sessionId: string, ...rest: string[]) => [`/api/v1/sessions/${sessionId}/views`, ...rest].join("/");

async function project(em: Emulator): Promise<string> {
    const r = await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("proj") } });
    assert.equal(r.status, 200, r.text);
    return r.body.id;
}

describe("emulator: saved views of a tracing project", function () {
    this.timeout(30_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(() => em.close());

    it("made, refused where the rules say (a filter that does not parse 400, an unknown project 404), listed by type, read, patched, renamed, deleted", async () => {
        const sessionId = await project(em);
        const made = await raw(em, "POST", views(sessionId), {
            body: { display_name: "LLM errors", filter_string: 'and(eq(run_type, "llm"), eq(error, true))', duration: "7d" },
        });
        assert.equal(made.status, 200, made.text);
        assert.deepEqual([made.body.type, made.body.session_id, made.body.description, made.body.duration], ["runs", sessionId, null, "7d"]);
        const bad = await raw(em, "POST", views(sessionId), { body: { display_name: "x", trace_filter_string: 'eq(run_type "llm")' } });
        assert.equal(bad.status, 400, bad.text);
        assert.match(bad.body.detail, /^trace_filter_string: filter does not parse: at column 13: expected ","/);
        assert.equal((await raw(em, "POST", views("6f0c2d8e-1b9a-4c3e-9d7f-2a5b8c1e4f60"), { body: { display_name: "x" } })).status, 404);
        assert.equal((await raw(em, "GET", views(sessionId), { tenantId: OTHER_TENANT })).status, 404, "another workspace's project");
        assert.equal((await raw(em, "POST", views(sessionId), { body: { display_name: "x", colour: "red" } })).status, 422);
        const threads = await raw(em, "POST", views(sessionId), { body: { display_name: "Threads", type: "threads" } });
        assert.deepEqual(
            (await raw(em, "GET", `${views(sessionId)}?type=threads`)).body.map((v: { id: string }) => v.id),
            [threads.body.id],
        );
        assert.equal((await raw(em, "GET", views(sessionId))).body.length, 2);
        const id = made.body.id;
        const patched = await raw(em, "PATCH", views(sessionId, id), { body: { description: "d", duration: null, tree_filter_string: 'eq(name, "x")' } });
        assert.equal(patched.status, 200, patched.text);
        assert.deepEqual(
            [patched.body.description, patched.body.duration, patched.body.filter_string, patched.body.display_name],
            ["d", null, made.body.filter_string, "LLM errors"],
        );
        const renamed = await raw(em, "PATCH", views(sessionId, id, "rename"), { body: { display_name: "Failing LLM calls" } });
        assert.equal(renamed.status, 200, renamed.text);
        assert.deepEqual([renamed.body.display_name, renamed.body.description, renamed.body.id], ["Failing LLM calls", "d", id]);
        assert.equal(
            (await raw(em, "PATCH", views(sessionId, id, "rename"), { body: { display_name: "n", type: "threads" } })).status,
            422,
            "a rename renames",
        );
        assert.equal((await raw(em, "GET", views(sessionId, id))).body.display_name, "Failing LLM calls");
        assert.equal((await raw(em, "DELETE", views(sessionId, id))).status, 200);
        assert.equal((await raw(em, "GET", views(sessionId, id))).status, 404);
    });

    it("gone with their project", async () => {
        const sessionId = await project(em);
        const v = (await raw(em, "POST", views(sessionId), { body: { display_name: "v" } })).body;
        assert.equal((await raw(em, "DELETE", `/api/v1/sessions/${sessionId}`)).status, 202);
        assert.equal((await raw(em, "GET", views(sessionId, v.id))).status, 404);
    });

    it("kept in --state-dir across a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "views-"));
        try {
            const one = await startTestEmulator({ stateDir: dir });
            const sessionId = await project(one);
            const v = (await raw(one, "POST", views(sessionId), { body: { display_name: "kept", filter_string: 'eq(run_type, "llm")' } })).body;
            await one.close();
            const two = await startTestEmulator({ stateDir: dir });
            try {
                assert.deepEqual((await raw(two, "GET", views(sessionId, v.id))).body, v);
            } finally {
                await two.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
