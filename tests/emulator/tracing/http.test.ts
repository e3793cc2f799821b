/**
 * The emulator's tracing area over raw HTTP, with bodies built by hand as the official clients build them
 * (multipart parts Python-style with `Content-Type: application/json` + `Content-Length`, JS-style with
 * `Content-Type: application/json; length=N`; plain, gzip or zstd): `GET /info` (a whole
 * `batch_ingest_config`, zstd advertised); `POST /runs/multipart` (post and patch of a run in one request
 * or several, in either order, retried, with explicit nulls; times normalized; attachment and feedback
 * parts ignored); its refusals (422 located, 415), which store nothing; `/runs/batch`, `POST /runs`
 * (an id and the `default` project made here), `PATCH /runs/{id}`; the workspace a request speaks to (the
 * key's without `X-Tenant-Id`, isolated from the others; the control plane still wants the header);
 * `/sessions` (upsert, 409, experiment fields, the list's filters, run counts, a delete drops the runs);
 * `traced-runs.jsonl` across restarts (a truncated last line); and `exportSlots`, whose resume cursor must keep
 * pointing at the same runs as runs keep coming. The official clients themselves: tracing.clients.test.ts.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync, zstdCompressSync } from "node:zlib";
import { exportSlots, makeProject, type TracingProject } from "../../../emulator/bulkExport/projects";
import { SESSION_CLEANUP_MS } from "../../../emulator/tracing/sessions";
import { TracedRuns } from "../../../emulator/tracing/store";
import { opOfPatch, opOfPost } from "../../../emulator/tracing/wire";
import { OTHER_TENANT, TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator, type RawResponse } from "../../helpers/emulator";

type At = Pick<Emulator, "url">;
type Style = "py" | "js";
/** A part's name and value: JSON, or a Buffer sent as is. */
type PartSpec = [name: string, value: unknown];

const START = "2026-11-25T09:56:58.110572+00:00";
const START_Z = "2026-11-25T09:56:58.110572Z";
/** 2026-11-25T10:00:11.442Z, as the JS client sends an end time. */
const END_MS = 1795600811442;
const END_Z = "2026-11-25T10:00:11.442000Z";
const BOUNDARY: Record<Style, string> = { py: randomUUID().replace(/-/g, ""), js: `----LangSmithFormBoundary${Date.now().toString(36)}` };
const ENCODE: Record<string, (b: Buffer) => Buffer> = { zstd: (b) => zstdCompressSync(b), gzip: (b) => gzipSync(b) };

function partHead(name: string, length: number, style: Style): string {
    const type = style === "py" ? `Content-Type: application/json\r\nContent-Length: ${length}` : `Content-Type: application/json; length=${length}`;
    return `--${BOUNDARY[style]}\r\nContent-Disposition: form-data; name="${name}"\r\n${type}\r\n\r\n`;
}

/** A multipart body as the clients write it, closed by `--boundary--`. */
function multipart(parts: PartSpec[], style: Style): Buffer {
    const chunks = parts.flatMap(([name, value]) => {
        const data = Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value));
        return [Buffer.from(partHead(name, data.length, style)), data, Buffer.from("\r\n")];
    });
    return Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY[style]}--\r\n`)]);
}

interface UploadOptions {
    style?: Style;
    /** `zstd`, `gzip` (compressed here), or any other word sent as is. */
    encoding?: string;
    /** `/api/v1` (default) or `` (bare). */
    prefix?: string;
    /** `null`: no `X-Tenant-Id`. */
    tenant?: string | null;
    contentType?: string;
    /** Sent in chunks without a length (`Transfer-Encoding: chunked`), as the JS client streams a plain upload. */
    chunked?: boolean;
}

/** A body sent in pieces of 100 bytes, as a stream: fetch sends it chunked. */
const streamed = (b: Buffer) =>
    new ReadableStream<Uint8Array>({
        start(c) {
            for (let at = 0; at < b.length; at += 100) c.enqueue(b.subarray(at, at + 100));
            c.close();
        },
    });

/** `POST /runs/multipart` with a body `raw` cannot send (a Buffer, compressed, with its own headers). */
async function upload(em: At, parts: PartSpec[], o: UploadOptions = {}): Promise<{ status: number; body: any }> {
    const style = o.style ?? "py";
    const plain = multipart(parts, style);
    const headers: Record<string, string> = {
        "x-api-key": TEST_API_KEY,
        "content-type": o.contentType ?? `multipart/form-data; boundary=${BOUNDARY[style]}`,
    };
    if (o.tenant !== null) headers["x-tenant-id"] = o.tenant ?? TEST_TENANT;
    if (o.encoding) headers["content-encoding"] = o.encoding;
    const body = o.encoding && ENCODE[o.encoding] ? ENCODE[o.encoding](plain) : plain;
    const init = o.chunked ? { body: streamed(body), duplex: "half" } : { body };
    const res = await fetch(`${em.url}${o.prefix ?? "/api/v1"}/runs/multipart`, { method: "POST", headers, ...init } as RequestInit);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** `upload`, answered 202. */
async function ingest(em: At, parts: PartSpec[], o: UploadOptions = {}): Promise<void> {
    const res = await upload(em, parts, o);
    assert.equal(res.status, 202, JSON.stringify(res.body));
}

/** A traceable run's post: its main part (`over` merged in) and big fields, as Python sends them. */
function postOf(id: string, project: string, over: Record<string, unknown> = {}, big: Record<string, unknown> = {}): PartSpec[] {
    const main = { id, start_time: START, tags: ["t"], dotted_order: `20261125T095658110572Z${id}`, trace_id: id, session_name: project };
    const fields = { inputs: { x: 21 }, events: [], extra: { metadata: { m: 1 } }, ...big };
    return [
        [`post.${id}`, { ...main, name: "parent", run_type: "chain", ...over }],
        ...Object.entries(fields).map(([k, v]): PartSpec => [`post.${id}.${k}`, v]),
    ];
}

/** What Python's patches of a run send as null: the fields they do not change. */
const PATCH_NULLS = { name: null, run_type: null, trace_id: null, parent_run_id: null, dotted_order: null, tags: null, session_id: null, session_name: null };

/** A run's patch, Python's shape (the fields it does not change are null), with its outputs. */
function patchOf(id: string, over: Record<string, unknown> = {}, outputs: unknown = { y: 42 }): PartSpec[] {
    return [
        [`patch.${id}`, { id, ...PATCH_NULLS, end_time: END_MS, ...over }],
        [`patch.${id}.outputs`, outputs],
    ];
}

const getRun = (em: At, id: string, o: { prefix?: string; tenant?: string | null } = {}) =>
    raw(em, "GET", `${o.prefix ?? "/api/v1"}/runs/${id}`, { tenantId: o.tenant });

/** The run as `GET /runs/{id}` answers it (200 asserted). */
async function runOf(em: At, id: string): Promise<any> {
    const res = await getRun(em, id);
    assert.equal(res.status, 200, res.text);
    return res.body;
}

/** The project of that name in the test workspace, as `GET /sessions?name=` answers it. */
async function sessionNamed(em: At, name: string): Promise<any> {
    const res = await raw(em, "GET", `/api/v1/sessions?name=${encodeURIComponent(name)}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 1, `one project named ${name}`);
    return res.body[0];
}

async function postSession(em: At, body: Record<string, unknown>, query = ""): Promise<RawResponse> {
    return raw(em, "POST", `/api/v1/sessions${query}`, { body });
}

describe("emulator tracing: GET /info", () => {
    let em: Emulator;
    before(async () => (em = await startTestEmulator()));
    after(() => em.close());

    it("under /api/v1 and bare, without X-Tenant-Id: a whole batch_ingest_config (Python's tracing thread dies on a partial one) and zstd advertised", async () => {
        for (const prefix of ["/api/v1", ""]) {
            const res = await raw(em, "GET", `${prefix}/info`, { tenantId: null });
            assert.equal(res.status, 200, `${prefix}/info: ${res.text}`);
            const config = res.body.batch_ingest_config;
            for (const key of ["size_limit", "scale_up_qsize_trigger", "scale_up_nthreads_limit", "scale_down_nempty_trigger"]) {
                assert.ok(Number.isInteger(config[key]) && config[key] > 0, `${prefix}/info: batch_ingest_config.${key}`);
            }
            assert.equal(config.use_multipart_endpoint, true);
            assert.equal(res.body.instance_flags.zstd_compression_enabled, true);
        }
    });
});

describe("emulator tracing: POST /runs/multipart", () => {
    let em: Emulator;
    before(async () => (em = await startTestEmulator()));
    after(() => em.close());

    it("a post and a patch of two runs in one zstd request, in the compressed path's order (post.X, post.Y, patch.Y, patch.X): each run holds both", async () => {
        const [x, y, project] = [randomUUID(), randomUUID(), uniqueName("one-request")];
        const child = { name: "child", run_type: "tool", parent_run_id: x, trace_id: x, dotted_order: `20261125T095658110572Z${x}.20261125T095658111251Z${y}` };
        await ingest(em, [...postOf(x, project), ...postOf(y, project, child), ...patchOf(y, {}, { y: 2 }), ...patchOf(x)], { encoding: "zstd" });
        const [rx, ry] = [await runOf(em, x), await runOf(em, y)];
        assert.deepEqual([rx.name, rx.inputs, rx.outputs, rx.end_time, rx.status, rx.is_root], ["parent", { x: 21 }, { y: 42 }, END_Z, "success", true]);
        assert.deepEqual([ry.name, ry.run_type, ry.parent_run_id, ry.trace_id, ry.outputs, ry.parent_run_ids], ["child", "tool", x, x, { y: 2 }, [x]]);
        assert.equal((await sessionNamed(em, project)).run_count, 2);
    });

    it("a patch before its post, in separate requests (the JS client's concurrent uploads, gzip): one run holding the union, filed once", async () => {
        const [id, project] = [randomUUID(), uniqueName("reverse")];
        const jsPatch: PartSpec[] = [
            [`patch.${id}`, { id, name: "parent", run_type: "chain", start_time: "2026-11-25T09:56:58.110572Z", end_time: END_MS, session_name: project }],
            [`patch.${id}.outputs`, { y: 2 }],
        ];
        await ingest(em, jsPatch, { style: "js", encoding: "gzip" });
        await ingest(em, postOf(id, project, { tags: ["js"] }, { inputs: { input: 21 } }), { style: "js", encoding: "gzip" });
        const run = await runOf(em, id);
        assert.deepEqual([run.inputs, run.outputs, run.tags, run.end_time, run.extra.metadata], [{ input: 21 }, { y: 2 }, ["js"], END_Z, { m: 1 }]);
        assert.equal((await sessionNamed(em, project)).run_count, 1);
    });

    it("a patch naming no project waits, unanswered, for its post, which files it with the union", async () => {
        const [id, project] = [randomUUID(), uniqueName("waiting")];
        await ingest(em, patchOf(id));
        assert.equal((await getRun(em, id)).status, 404, "a run only patched is not answered");
        await ingest(em, postOf(id, project));
        const run = await runOf(em, id);
        assert.deepEqual([run.inputs, run.outputs, run.end_time, run.session_id], [{ x: 21 }, { y: 42 }, END_Z, (await sessionNamed(em, project)).id]);
    });

    it("a post arriving after its patch (overtaken, or a retried upload) does not undo it: Python's post carries outputs {} and events []", async () => {
        const [a, b, project] = [randomUUID(), randomUUID(), uniqueName("late-post")];
        const patch = (id: string) => patchOf(id, { session_name: project }, { y: 7 });
        const events = [{ name: "new_token", time: "2026-11-25T09:56:58.500000+00:00" }];
        const withEvents = (id: string): PartSpec[] => [...patch(id), [`patch.${id}.events`, events]];
        const post = (id: string) => postOf(id, project, {}, { outputs: {}, events: [] });
        await ingest(em, withEvents(a));
        await ingest(em, post(a));
        await ingest(em, [...post(b), ...withEvents(b)]);
        await ingest(em, post(b));
        for (const id of [a, b]) {
            const run = await runOf(em, id);
            assert.deepEqual(
                [run.outputs, run.events, run.inputs, run.end_time],
                [{ y: 7 }, events, { x: 21 }, END_Z],
                id === a ? "patch first" : "post retried",
            );
        }
    });

    it("a patch's explicit nulls (Python's shape) leave the run's fields as they were", async () => {
        const [parent, id, project] = [randomUUID(), randomUUID(), uniqueName("nulls")];
        const dotted = `20261125T095658110572Z${parent}.20261125T095658110572Z${id}`;
        await ingest(em, postOf(id, project, { name: "kept", run_type: "llm", parent_run_id: parent, trace_id: parent, dotted_order: dotted, tags: ["a"] }));
        await ingest(em, [...patchOf(id, { inputs: null, error: null }), [`patch.${id}.extra`, null]]);
        const run = await runOf(em, id);
        assert.deepEqual(
            [run.name, run.run_type, run.parent_run_id, run.trace_id, run.dotted_order, run.tags, run.inputs, run.extra.metadata, run.error],
            ["kept", "llm", parent, parent, dotted, ["a"], { x: 21 }, { m: 1 }, null],
        );
        assert.equal(run.end_time, END_Z);
    });

    it("a repeated post (a retried upload) stores the run once", async () => {
        const [id, project] = [randomUUID(), uniqueName("retried")];
        for (let i = 0; i < 3; i++) await ingest(em, postOf(id, project));
        const session = await sessionNamed(em, project);
        assert.equal(session.run_count, 1);
        assert.deepEqual(
            em.bulkExport.model.traced.of(session.id).map((r) => r.id),
            [id],
        );
    });

    it("plain, gzip and zstd bodies, with Python's and JS's part headers, under /api/v1 and bare", async () => {
        const project = uniqueName("encodings");
        for (const encoding of [undefined, "gzip", "zstd"]) {
            for (const style of ["py", "js"] as const) {
                for (const prefix of ["/api/v1", ""]) {
                    const id = randomUUID();
                    await ingest(em, postOf(id, project, { name: `${encoding}-${style}-${prefix}` }), { encoding, style, prefix });
                    assert.equal((await runOf(em, id)).name, `${encoding}-${style}-${prefix}`);
                }
            }
        }
        assert.equal((await sessionNamed(em, project)).run_count, 12);
    });

    it("a plain JS upload streamed with Transfer-Encoding: chunked", async () => {
        const [id, project] = [randomUUID(), uniqueName("chunked")];
        await ingest(em, [...postOf(id, project), ...patchOf(id)], { style: "js", chunked: true });
        assert.deepEqual((await runOf(em, id)).outputs, { y: 42 });
    });

    it("times normalized to YYYY-MM-DDTHH:MM:SS.ffffffZ: epoch milliseconds, ISO +00:00 and another offset", async () => {
        const [a, b, project] = [randomUUID(), randomUUID(), uniqueName("times")];
        await ingest(em, [...postOf(a, project, { end_time: END_MS }), ...postOf(b, project, { start_time: "2026-11-25T11:56:58.1+02:00" })]);
        const [ra, rb] = [await runOf(em, a), await runOf(em, b)];
        assert.deepEqual([ra.start_time, ra.end_time], [START_Z, END_Z]);
        assert.equal(rb.start_time, "2026-11-25T09:56:58.100000Z");
        assert.equal(rb.dotted_order, `20261125T095658110572Z${b}`, "a dotted order sent is kept as sent");
    });

    it("attachment.<id>.<name> and feedback.<id> parts are taken and ignored", async () => {
        const [id, project] = [randomUUID(), uniqueName("attachments")];
        const extras: PartSpec[] = [
            [`attachment.${id}.notes`, Buffer.from("not json at all")],
            [`feedback.${randomUUID()}`, { run_id: id, key: "correctness", score: 1 }],
        ];
        await ingest(em, [...postOf(id, project), ...extras], { style: "js" });
        const run = await runOf(em, id);
        assert.deepEqual([run.name, run.inputs, run.feedback_stats], ["parent", { x: 21 }, null]);
        assert.ok(!("attachments" in run));
    });
});

interface Refusal {
    what: string;
    /** The request's extra parts, beside a valid post of a run (`ok`); `bad`: another run id. */
    parts: (bad: string) => PartSpec[];
    loc: (bad: string) => Array<string | number>;
    type: string;
    contentType?: string;
}

const REFUSALS: Refusal[] = [
    { what: "an unknown part name", parts: (b) => [[`put.${b}`, {}]], loc: (b) => ["body", `put.${b}`], type: "multipart_part" },
    { what: "a run id that is no uuid", parts: () => [["post.run-1", {}]], loc: () => ["body", "post.run-1"], type: "uuid_parsing" },
    {
        what: "a run_type outside the list",
        parts: (b) => postOf(b, "refused", { run_type: "agent" }),
        loc: (b) => ["body", `post.${b}`, "run_type"],
        type: "enum",
    },
    {
        what: "a big field without its main part",
        parts: (b) => [[`post.${b}.inputs`, { x: 1 }]],
        loc: (b) => ["body", `post.${b}.inputs`],
        type: "multipart_part",
    },
    { what: "invalid JSON in a part", parts: (b) => [[`post.${b}`, Buffer.from('{"id": ')]], loc: (b) => ["body", `post.${b}`], type: "json_invalid" },
    {
        what: "a multipart body without its boundary",
        parts: () => [],
        loc: () => ["body"],
        type: "multipart_boundary",
        contentType: "multipart/form-data",
    },
];

describe("emulator tracing: a refused upload stores nothing", () => {
    let em: Emulator;
    before(async () => (em = await startTestEmulator()));
    after(() => em.close());

    /** Neither the valid run nor the other is held, by the workspace or the model. */
    async function assertNothingStored(...ids: string[]): Promise<void> {
        for (const id of ids) {
            assert.equal((await getRun(em, id)).status, 404, `run ${id} refused`);
            assert.equal(em.bulkExport.model.traced.get(TEST_TENANT, id), undefined);
        }
    }

    for (const r of REFUSALS) {
        it(`422 located at the offending part for ${r.what}`, async () => {
            const [ok, bad] = [randomUUID(), randomUUID()];
            const res = await upload(em, [...postOf(ok, "refused"), ...r.parts(bad)], { contentType: r.contentType });
            assert.equal(res.status, 422, JSON.stringify(res.body));
            assert.deepEqual(
                res.body.detail.map((d: any) => [d.loc, d.type]),
                [[r.loc(bad), r.type]],
            );
            await assertNothingStored(ok, bad);
        });
    }

    it("415 for a Content-Encoding it cannot undo", async () => {
        const id = randomUUID();
        const res = await upload(em, postOf(id, "refused"), { encoding: "br" });
        assert.equal(res.status, 415, JSON.stringify(res.body));
        assert.match(res.body.detail, /br/);
        await assertNothingStored(id);
    });

    it("404 for a run naming a project of another workspace by id, and the valid run before it in the request is not kept", async () => {
        const other = await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("theirs") }, tenantId: OTHER_TENANT });
        const [ok, bad] = [randomUUID(), randomUUID()];
        const res = await upload(em, [...postOf(ok, uniqueName("mine")), ...postOf(bad, "x", { session_name: null, session_id: other.body.id })]);
        assert.equal(res.status, 404, JSON.stringify(res.body));
        await assertNothingStored(ok, bad);
    });
});

describe("emulator tracing: /runs/batch, POST /runs, PATCH /runs/{id}", () => {
    let em: Emulator;
    before(async () => (em = await startTestEmulator()));
    after(() => em.close());

    it("/runs/batch with both keys: the posts filed, a patch merged into its post", async () => {
        const [a, b, project] = [randomUUID(), randomUUID(), uniqueName("batch")];
        const run = (id: string) => ({ id, name: "batched", run_type: "chain", start_time: START, session_name: project, inputs: { q: id }, child_runs: [] });
        const body = { post: [run(a), run(b)], patch: [{ id: a, end_time: END_MS, outputs: { a: 1 }, session_name: project }] };
        assert.equal((await raw(em, "POST", "/runs/batch", { body })).status, 202);
        const [ra, rb] = [await runOf(em, a), await runOf(em, b)];
        assert.deepEqual([ra.inputs, ra.outputs, ra.end_time], [{ q: a }, { a: 1 }, END_Z]);
        assert.deepEqual([rb.inputs, rb.outputs, rb.end_time], [{ q: b }, null, null]);
        assert.equal((await sessionNamed(em, project)).run_count, 2);
    });

    it("POST /runs without an id nor a session_name: the id made here, filed under the project named default, made on first use and once", async () => {
        assert.deepEqual((await raw(em, "GET", "/api/v1/sessions?name=default")).body, [], "no default project yet");
        const js = { name: "plain", run_type: "chain", inputs: { q: "hi" }, start_time: END_MS - 1000 };
        for (const path of ["/api/v1/runs", "/runs"]) assert.equal((await raw(em, "POST", path, { body: js })).status, 202);
        const session = await sessionNamed(em, "default");
        const held = em.bulkExport.model.traced.of(session.id);
        assert.deepEqual([session.run_count, held.length], [2, 2]);
        assert.notEqual(held[0].id, held[1].id);
        const run = await runOf(em, held[0].id);
        assert.deepEqual([run.trace_id, run.start_time, run.inputs], [run.id, "2026-11-25T10:00:10.442000Z", { q: "hi" }]);
        assert.equal(run.dotted_order, `20261125T100010442000Z${run.id}`);
    });

    it("PATCH /runs/{id} with Python's body (nulls, end_time, outputs), under /api/v1 and bare", async () => {
        for (const prefix of ["/api/v1", ""]) {
            const [id, project] = [randomUUID(), uniqueName("patched")];
            const post = { id, name: "plain-run", run_type: "chain", inputs: { q: "hi" }, tags: ["t1"], start_time: START, session_name: project };
            assert.equal((await raw(em, "POST", `${prefix}/runs`, { body: post })).status, 202);
            const body = { id, ...PATCH_NULLS, extra: null, end_time: "2026-11-25T09:56:59.012053+00:00", outputs: { a: "yo" } };
            assert.equal((await raw(em, "PATCH", `${prefix}/runs/${id}`, { body })).status, prefix ? 200 : 202, "the description: 200 under /api/v1, 202 bare");
            const run = await runOf(em, id);
            assert.deepEqual(
                [run.name, run.tags, run.inputs, run.outputs, run.end_time, run.status],
                ["plain-run", ["t1"], { q: "hi" }, { a: "yo" }, "2026-11-25T09:56:59.012053Z", "success"],
            );
        }
    });
});

const KEY_WORKSPACE = "33333333-4444-4555-8666-777777777777";
const OTHER_KEY = "lsv2_sk_emulator_other_9876543210";

describe("emulator tracing: the workspace a request speaks to", () => {
    let em: Emulator;
    let derived: Emulator;
    before(async () => {
        em = await startTestEmulator({ keyWorkspaceId: KEY_WORKSPACE });
        derived = await startTestEmulator();
    });
    after(async () => {
        await em.close();
        await derived.close();
    });

    it("without X-Tenant-Id the key's workspace (keyWorkspaceId), with it that workspace: neither sees the other's run", async () => {
        const [mine, theirs] = [randomUUID(), randomUUID()];
        await ingest(em, postOf(mine, "same-name"), { tenant: null, prefix: "" });
        await ingest(em, postOf(theirs, "same-name"), { tenant: TEST_TENANT });
        const status = async (id: string, tenant: string | null) => (await getRun(em, id, { tenant, prefix: "" })).status;
        assert.deepEqual([await status(mine, null), await status(mine, KEY_WORKSPACE), await status(mine, TEST_TENANT)], [200, 200, 404]);
        assert.deepEqual([await status(theirs, TEST_TENANT), await status(theirs, null), await status(theirs, OTHER_TENANT)], [200, 404, 404]);
        const [a, b] = [(await getRun(em, mine, { tenant: null })).body, (await getRun(em, theirs)).body];
        assert.deepEqual([a.tenant_id, b.tenant_id], [KEY_WORKSPACE, TEST_TENANT]);
        assert.notEqual(a.session_id, b.session_id, "a project of each workspace");
    });

    it("a project of another workspace is invisible: 404 on GET /sessions/{id}, absent from GET /sessions", async () => {
        const name = uniqueName("ours");
        const made = await postSession(em, { name });
        assert.equal(made.status, 200, made.text);
        assert.equal((await raw(em, "GET", `/api/v1/sessions/${made.body.id}`)).status, 200);
        for (const tenantId of [OTHER_TENANT, null]) {
            assert.equal((await raw(em, "GET", `/api/v1/sessions/${made.body.id}`, { tenantId })).status, 404, `seen by ${tenantId}`);
            assert.deepEqual((await raw(em, "GET", `/sessions?name=${name}`, { tenantId })).body, []);
        }
    });

    it("without keyWorkspaceId a workspace derived from the key: the same on every request, another for another key", async () => {
        const made = async (apiKey: string) => (await raw(derived, "POST", "/sessions", { body: { name: uniqueName("k") }, tenantId: null, apiKey })).body;
        const [a1, a2, b] = [await made(TEST_API_KEY), await made(TEST_API_KEY), await made(OTHER_KEY)];
        assert.match(a1.tenant_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.equal(a2.tenant_id, a1.tenant_id);
        assert.notEqual(b.tenant_id, a1.tenant_id);
        const read = async (apiKey: string) => (await raw(derived, "GET", `/sessions/${a1.id}`, { tenantId: null, apiKey })).status;
        assert.deepEqual([await read(TEST_API_KEY), await read(OTHER_KEY)], [200, 404]);
        const id = randomUUID();
        await ingest(derived, postOf(id, uniqueName("derived")), { tenant: null });
        assert.equal((await getRun(derived, id, { tenant: a1.tenant_id })).status, 200, "the key's runs in its derived workspace");
    });

    it("the control plane still wants X-Tenant-Id: GET /v2/deployments answers 403 without it", async () => {
        const res = await raw(em, "GET", "/v2/deployments", { tenantId: null });
        assert.equal(res.status, 403, res.text);
        assert.match(res.text, /X-Tenant-Id/);
        assert.equal((await raw(em, "GET", "/v2/deployments")).status, 200);
    });
});

describe("emulator tracing: /sessions", () => {
    let em: Emulator;
    before(async () => (em = await startTestEmulator()));
    after(() => em.close());

    it("?upsert=True (Python) and ?upsert=true (JS) answer the project of that name, updated; without, or with upsert=False, a taken name is 409", async () => {
        const name = uniqueName("upsert");
        const first = await postSession(em, { name, description: "d1", id: randomUUID() });
        assert.equal(first.status, 200, JSON.stringify(first.body));
        for (const [query, description] of [
            ["?upsert=True", "d2"],
            ["?upsert=true", "d3"],
        ]) {
            const res = await postSession(em, { name, description, extra: { metadata: { m: 1 } } }, query);
            assert.equal(res.status, 200, JSON.stringify(res.body));
            assert.deepEqual([res.body.id, res.body.description], [first.body.id, description], query);
        }
        for (const query of ["", "?upsert=False"]) assert.equal((await postSession(em, { name }, query)).status, 409, query);
        assert.equal((await sessionNamed(em, name)).description, "d3");
    });

    it("the experiment fields of create_project are taken (num_examples, num_repetitions, evaluator_keys; tag_value_ids tag it: tests/emulator/tags)", async () => {
        const id = randomUUID();
        const body = { name: uniqueName("exp"), id, extra: { metadata: {} }, description: null, num_examples: 3, num_repetitions: 2 };
        const res = await postSession(em, { ...body, evaluator_keys: ["correctness"], tag_value_ids: [] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.id, id);
        assert.equal(res.body.reference_dataset_id, null, "present, as Python's TracerSession needs");
    });

    it("the list by id, reference_dataset, reference_free (both ways) and metadata, every one given holding; metadata that is no JSON object 400", async () => {
        const [dataset, tag] = [randomUUID(), uniqueName("meta")];
        const exp = (await postSession(em, { name: uniqueName("exp"), reference_dataset_id: dataset, extra: { metadata: { tag } } })).body;
        const plain = (await postSession(em, { name: uniqueName("plain"), extra: { metadata: { tag, n: 2 } } })).body;
        const names = async (query: string) => (await raw(em, "GET", `/api/v1/sessions?${query}`)).body.map((p: { name: string }) => p.name).sort();
        const metadata = (m: object) => `metadata=${encodeURIComponent(JSON.stringify(m))}`;
        assert.deepEqual(await names(`id=${exp.id}&id=${plain.id}`), [exp.name, plain.name].sort());
        assert.deepEqual(await names(`reference_dataset=${dataset}`), [exp.name]);
        assert.deepEqual(await names(`${metadata({ tag })}&reference_free=false`), [exp.name]);
        assert.deepEqual(await names(`${metadata({ tag })}&reference_free=true`), [plain.name]);
        assert.deepEqual(await names(metadata({ tag, n: 2 })), [plain.name]);
        assert.deepEqual(await names(`id=${exp.id}&${metadata({ n: 2 })}`), []);
        const refused = await raw(em, "GET", "/api/v1/sessions?metadata=%5B1%5D");
        assert.deepEqual([refused.status, refused.body.detail], [400, 'metadata must be a JSON object, got "[1]"']);
        assert.equal((await raw(em, "GET", "/api/v1/sessions?id=not-a-uuid")).status, 422);
    });

    it("run_count and last_run_start_time count the runs traced into the project (by session_id)", async () => {
        const made = await postSession(em, { name: uniqueName("counted") });
        const read = async () => (await raw(em, "GET", `/sessions/${made.body.id}`)).body;
        assert.deepEqual([(await read()).run_count, (await read()).last_run_start_time], [0, null]);
        const traced = (start: string) => postOf(randomUUID(), "unused", { session_name: null, session_id: made.body.id, start_time: start });
        await ingest(em, traced("2026-11-25T12:00:00.000001+00:00"));
        await ingest(em, traced(START));
        assert.deepEqual([(await read()).run_count, (await read()).last_run_start_time], [2, "2026-11-25T12:00:00.000001Z"]);
    });

    it("DELETE is accepted (202) and finishes on the clock: the name is free at once, the project reads by id until then; then it and its runs are gone", async () => {
        const [id, name] = [randomUUID(), uniqueName("deleted")];
        await ingest(em, postOf(id, name));
        const session = await sessionNamed(em, name);
        assert.equal((await raw(em, "DELETE", `/api/v1/sessions/${session.id}`)).status, 202);
        assert.deepEqual((await raw(em, "GET", `/sessions?name=${name}`)).body, [], "no longer listed");
        assert.deepEqual([(await getRun(em, id)).status, (await raw(em, "GET", `/sessions/${session.id}`)).status], [200, 200], "still being deleted");
        em.clock.advance(SESSION_CLEANUP_MS);
        assert.deepEqual([(await getRun(em, id)).status, (await raw(em, "GET", `/sessions/${session.id}`)).status], [404, 404]);
        assert.deepEqual(em.bulkExport.model.traced.of(session.id), []);
        await ingest(em, postOf(randomUUID(), name));
        assert.equal((await sessionNamed(em, name)).run_count, 1, "the name made anew holds only the new run");
    });

    it("at --speed immediate a deleted project is gone at once, as a deleted deployment is; back to timed, the clean-up takes its time again", async () => {
        const fast = await startTestEmulator({ timing: { speed: "immediate" } });
        try {
            const deleted = async () => {
                const made = await postSession(fast, { name: uniqueName("immediate") });
                assert.equal((await raw(fast, "DELETE", `/api/v1/sessions/${made.body.id}`)).status, 202);
                return (await raw(fast, "GET", `/api/v1/sessions/${made.body.id}`)).status;
            };
            assert.equal(await deleted(), 404);
            fast.setTiming({ speed: "timed" });
            assert.equal(await deleted(), 200, "still being deleted");
        } finally {
            await fast.close();
        }
    });
});

describe("emulator tracing: traced-runs.jsonl across restarts", () => {
    let dir: string;
    let em: Emulator | undefined;
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [kept, dropped] = [uniqueName("kept"), uniqueName("dropped")];
    /** Closes the emulator running (if any) and starts another on the same directory. */
    const restart = async () => {
        await em?.close();
        em = await startTestEmulator({ stateDir: dir });
        return em;
    };

    before(async () => {
        dir = mkdtempSync(join(tmpdir(), "emulator-tracing-"));
        const first = await restart();
        await ingest(first, postOf(a, kept));
        await ingest(first, [...patchOf(a), ...postOf(b, kept)]);
        await ingest(first, postOf(c, dropped));
        assert.equal((await raw(first, "DELETE", `/sessions/${(await sessionNamed(first, dropped)).id}`)).status, 202);
        await first.close();
        em = undefined;
        appendFileSync(join(dir, "traced-runs.jsonl"), `{"t":"${TEST_TENANT}","op":{"kind":"post","id":"`);
    });
    after(async () => {
        await em?.close();
        rmSync(dir, { recursive: true, force: true });
    });

    it("a new emulator on the directory answers the same runs, merged, and the run count; a truncated last line is skipped", async () => {
        const second = await restart();
        const run = await runOf(second, a);
        assert.deepEqual([run.inputs, run.outputs, run.end_time], [{ x: 21 }, { y: 42 }, END_Z]);
        assert.equal((await runOf(second, b)).name, "parent");
        assert.equal((await sessionNamed(second, kept)).run_count, 2);
    });

    it("a project deleted before the restart stays deleted, without its runs", async () => {
        const second = em ?? (await restart());
        second.clock.advance(SESSION_CLEANUP_MS);
        assert.equal((await getRun(second, c)).status, 404);
        assert.deepEqual((await raw(second, "GET", `/sessions?name=${dropped}`)).body, []);
    });

    it("runs traced after that restart are kept through the next one (the truncated line does not swallow them)", async () => {
        await ingest(em ?? (await restart()), postOf(d, kept));
        const third = await restart();
        assert.equal((await runOf(third, d)).name, "parent");
        assert.equal((await sessionNamed(third, kept)).run_count, 3);
    });
});

describe("exportSlots: one slot per traced run, after the generated ones, so a resume cursor stays put", () => {
    const [FROM, TO] = [Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-02T00:00:00Z")];
    let traced: TracedRuns;
    let project: TracingProject;
    beforeEach(() => {
        traced = new TracedRuns(undefined);
        project = makeProject({ tenant_id: TEST_TENANT, start: new Date(FROM).toISOString(), end: new Date(TO).toISOString(), count: 3 });
    });
    const apply = (op: ReturnType<typeof opOfPost>) => traced.apply(TEST_TENANT, [op], () => project.session_id);
    const post = (id: string, startMs: number) => apply(opOfPost({ id, name: "traced", run_type: "chain", start_time: startMs }));
    /** A patch naming the project (filed, not posted) or naming none (waiting: no slot). */
    const patch = (id: string, named: boolean) => apply(opOfPatch(id, { end_time: TO - 1, ...(named ? { session_name: "p" } : {}) }));
    const ids = (skip = 0) => [...exportSlots(project, traced, TEST_TENANT, FROM, TO, skip)].map((r) => r?.id);

    it("runs outside [from, to) and runs not posted are undefined slots; a patch naming no project takes none", () => {
        const generated = ids();
        assert.ok(generated.length > 0 && generated.every((id) => id !== undefined), "the generated runs first");
        const [atFrom, before, atTo, unposted, waiting] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
        post(atFrom, FROM);
        post(before, FROM - 1);
        post(atTo, TO);
        patch(unposted, true);
        patch(waiting, false);
        assert.deepEqual(ids(), [...generated, atFrom, undefined, undefined, undefined]);
    });

    it("a cursor taken after N slots points at the same runs after more are traced and a waiting run gets its post", () => {
        const [r1, unposted, waiting, r2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
        post(r1, FROM + 1_000);
        patch(unposted, true);
        patch(waiting, false);
        const first = ids();
        const cursor = first.length;
        post(r2, FROM + 2_000);
        post(waiting, FROM + 3_000);
        post(unposted, FROM + 4_000);
        assert.deepEqual(ids(cursor), [r2, waiting], "resumed: only what came after the cursor");
        assert.deepEqual(ids().slice(0, cursor), [...first.slice(0, cursor - 1), unposted], "the slots before it unchanged, the unposted run in its own");
        assert.deepEqual(ids(cursor - 2), [r1, unposted, r2, waiting]);
    });
});
