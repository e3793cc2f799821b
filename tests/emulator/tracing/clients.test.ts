/**
 * The emulator's tracing area judged by the official LangSmith clients, as released: the Python `langsmith`
 * (in the test venv; tests/emulator/tracing/trace_client.py) pointed at the bare URL without a workspace id
 * (so its requests carry no `X-Tenant-Id` and go to the key's workspace), and the JS `langsmith` (a
 * devDependency, in this process) pointed at `/api/v1` with one. Each traces with its default transport
 * (multipart, zstd-compressed since `/info` advertises it), runs nested `traceable` calls, a failing child
 * and a run made without a trace id, and manages projects and datasets. The emulator must hold every traced
 * run once, with the fields the client sent, and a bulk export must write exactly those runs into MinIO,
 * read back by pyarrow.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Client } from "langsmith";
import { getCurrentRunTree, traceable } from "langsmith/traceable";
import type { TracedRun } from "../../../emulator/tracing/store";
import { rowsUnder, settle } from "../../helpers/bulkExport";
import { creds } from "../../helpers/bulkExportArea";
import { TEST_API_KEY, TEST_TENANT, bulkExportClient, raw, startTestEmulator, type Emulator } from "../../helpers/emulator";
import { startMinio, type MinioServer } from "../../helpers/minio";
import { pythonCalls } from "../../helpers/pyarrow";

const SCRIPT = join(__dirname, "trace_client.py");

interface Traced {
    id: string;
    name: string;
    parent: string | null;
    trace: string;
}

/** The JS client's traces: three of an agent with a failing llm child and a tool child, plus createRun/updateRun. */
async function jsTraces(client: Client, project: string): Promise<Traced[]> {
    const traced: Traced[] = [];
    const note = () => {
        const run = getCurrentRunTree();
        traced.push({ id: run.id, name: run.name, parent: run.parent_run?.id ?? null, trace: run.trace_id });
    };
    const options = { client, project_name: project, tracingEnabled: true };
    const lookup = traceable(async (q: string) => (note(), { answer: q.toUpperCase() }), { ...options, name: "lookup", run_type: "tool", tags: ["tool"] });
    const fails = traceable(
        async (q: string) => {
            note();
            throw new Error(`no model for ${q}`);
        },
        { ...options, name: "fails", run_type: "llm" },
    );
    const agent = traceable(
        async (q: string) => {
            note();
            await fails(q).catch(() => undefined);
            return lookup(q);
        },
        { ...options, name: "agent", tags: ["prod"], metadata: { customer: "acme" } },
    );
    for (const q of ["one", "two", "three"]) await agent(q);
    const plain = "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5";
    await client.createRun({ id: plain, name: "plain", inputs: { q: "hi" }, run_type: "chain", project_name: project });
    await client.updateRun(plain, { outputs: { a: "yo" }, end_time: Date.now() });
    await client.awaitPendingTraceBatches();
    return [...traced, { id: plain, name: "plain", parent: null, trace: plain }];
}

/** What the emulator holds of the project named `name` in the test workspace. */
function held(em: Emulator, name: string): { sessionId: string; runs: readonly TracedRun[] } {
    const p = [...em.bulkExport.model.projects.values()].find((x) => x.session?.name === name && x.tenant_id === TEST_TENANT);
    assert.ok(p, `no project ${name} in the test workspace`);
    return { sessionId: p.session_id, runs: em.bulkExport.model.traced.of(p.session_id) };
}

/** Every traced run is held once, in its project, with its name, parent, trace, error and tags as sent (Python adds a parent's tags to its children's). */
function assertHeld(em: Emulator, project: string, traced: Traced[]): void {
    const { runs } = held(em, project);
    assert.deepEqual(runs.map((r) => r.id).sort(), traced.map((t) => t.id).sort(), "each traced run once");
    for (const t of traced) {
        const r = runs.find((x) => x.id === t.id)!;
        assert.equal(r.name, t.name);
        assert.equal(r.parent_run_id ?? null, t.parent);
        assert.equal(r.trace_id ?? r.id, t.trace);
        assert.ok(r.start_time && r.end_time, `${t.name} has its start and end times`);
        if (t.name === "fails") assert.match(r.error ?? "", /no model for/);
        if (t.name === "lookup") assert.deepEqual([r.run_type, r.tags?.includes("tool"), Object.keys(r.outputs ?? {})], ["tool", true, ["answer"]]);
        if (t.name === "agent") assert.equal((r.extra?.metadata as Record<string, unknown> | undefined)?.customer, "acme");
    }
}

describe("emulator: traces and projects from the official langsmith clients (Python and JS)", function () {
    this.timeout(180_000);
    let em: Emulator;
    let minio: MinioServer;
    let py: Map<string, any>;
    let jsTraced: Traced[];
    let js: Client;

    before(async () => {
        minio = await startMinio();
        em = await startTestEmulator({ keyWorkspaceId: TEST_TENANT });
        py = await pythonCalls(SCRIPT, [em.url, TEST_API_KEY, "-", "py-traces"]);
        js = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        jsTraced = await jsTraces(js, "js-traces");
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
    });

    it("Python: every run of @traceable and create_run is held once, in the project it named, made on first use", () => {
        assert.equal(py.get("traced").length, 10);
        assertHeld(em, "py-traces", py.get("traced"));
        assert.deepEqual(py.get("read_project by name").run_count, 10);
        assert.equal(py.get("read_project by name").tenant_id, TEST_TENANT, "without a workspace id the key's workspace");
    });

    it("JS: every run of traceable and createRun/updateRun is held once, in the project it named", () => {
        assert.equal(jsTraced.length, 10);
        assertHeld(em, "js-traces", jsTraced);
    });

    it("Python: projects read by name and id, upserted, listed, deleted; datasets made, read, deleted", () => {
        assert.equal(py.get("read_project by id"), "py-traces");
        assert.deepEqual(py.get("has_project"), [true, false]);
        assert.deepEqual(py.get("create_project upsert"), { same: true, description: "d2" });
        assert.deepEqual(py.get("list_projects name_contains"), ["py-traces-crud", "py-traces-exp"]);
        assert.deepEqual(py.get("read_dataset"), { by_name: true, description: "dd" });
        assert.deepEqual(py.get("after deletes"), []);
    });

    it("JS: readProject, hasProject, createProject (409, then upsert), listProjects, deleteProject; createDataset, readDataset, deleteDataset", async () => {
        const read = await js.readProject({ projectName: "js-traces" });
        assert.equal((await js.readProject({ projectId: read.id })).name, "js-traces");
        assert.ok(await js.hasProject({ projectName: "js-traces" }));
        const made = await js.createProject({ projectName: "js-crud", description: "d", metadata: { m: 1 } });
        await assert.rejects(js.createProject({ projectName: "js-crud" }), /409|already exists/i);
        assert.equal((await js.createProject({ projectName: "js-crud", upsert: true })).id, made.id);
        const listed = [];
        for await (const p of js.listProjects({ nameContains: "js-" })) listed.push(p.name);
        assert.deepEqual(listed.sort(), ["js-crud", "js-traces"]);
        await js.deleteProject({ projectName: "js-crud" });
        assert.equal(await js.hasProject({ projectName: "js-crud" }), false);
        const ds = await js.createDataset("js-ds", { description: "dd", dataType: "kv", metadata: { x: 1 } });
        assert.equal((await js.readDataset({ datasetName: "js-ds" })).id, ds.id);
        await js.deleteDataset({ datasetId: ds.id });
        await assert.rejects(js.readDataset({ datasetName: "js-ds" }), /not found/i);
    });

    it("a bulk export of each project writes exactly its traced runs, each once, with the fields the client sent (pyarrow from MinIO)", async () => {
        const be = bulkExportClient(em);
        const config = { bucket_name: "exports", prefix: "traced", endpoint_url: minio.endpoint };
        const { destination } = await be.createDestination({
            destination_type: "s3",
            display_name: "traces",
            config,
            credentials: creds(minio.users.writeDelete),
        });
        for (const [project, traced] of [["py-traces", py.get("traced") as Traced[]] as const, ["js-traces", jsTraced] as const]) {
            const { sessionId } = held(em, project);
            const range = { start_time: new Date(Date.now() - 3_600_000).toISOString(), end_time: new Date(Date.now() + 60_000).toISOString() };
            const { export: e } = await be.createExport({ bulk_export_destination_id: destination.id, session_id: sessionId, ...range });
            assert.equal((await settle(be, e.id)).status, "Completed");
            const rows = await rowsUnder(minio, `traced/export_id=${e.id}/`);
            assert.deepEqual(rows.map((r) => r.id).sort(), traced.map((t) => t.id).sort(), `${project}: each traced run once`);
            for (const t of traced) {
                const row = rows.find((r) => r.id === t.id)!;
                assert.deepEqual([row.name, row.parent_run_id ?? null, row.trace_id, row.session_id], [t.name, t.parent, t.trace, sessionId]);
                assert.equal(row.status, t.name === "fails" ? "error" : "success");
                if (t.name !== "lookup") continue;
                const asked = Object.values(JSON.parse(row.inputs as string))[0];
                assert.deepEqual(
                    [JSON.parse(row.outputs as string).answer, (JSON.parse(row.tags as string) as string[]).includes("tool")],
                    [String(asked).toUpperCase(), true],
                );
            }
        }
    });

    it("retention: a run older than the retention it got when written (14 days short-lived, the long-lived days) is gone from run_count, readRun and exports; later days and tiers apply to runs written after them, settings applied to every project to the runs they hold", async () => {
        const DAY = 24 * 3_600_000;
        const ages = { fresh: 1, past14: 20, past400: 500 };
        const client = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT, autoBatchTracing: false });
        const ids: Record<string, Record<string, string>> = {};
        const trace = async (project: string, name: string, ageDays: number) => {
            const id = randomUUID();
            const start = Date.now() - ageDays * DAY;
            await client.createRun({ id, name, run_type: "chain", inputs: {}, project_name: project, start_time: start, end_time: start + 1000 });
            return id;
        };
        for (const tier of ["shortlived", "longlived"]) {
            const name = `kept-${tier}`;
            assert.equal((await raw(em, "POST", "/api/v1/sessions", { body: { name, trace_tier: tier } })).status, 200);
            ids[tier] = {};
            for (const [age, days] of Object.entries(ages)) ids[tier][age] = await trace(name, age, days);
        }
        const count = async (name: string) => (await client.readProject({ projectName: name })).run_count;
        assert.deepEqual([await count("kept-shortlived"), await count("kept-longlived")], [1, 2]);
        assert.equal((await client.readRun(ids.longlived.past14)).name, "past14");
        await assert.rejects(client.readRun(ids.shortlived.past14), /not found|404/i);
        await assert.rejects(client.readRun(ids.longlived.past400), /not found|404/i);

        // 600 long-lived days apply to the runs written from then on (docs/service.md R11.5): the 500-day-old run
        // written before stays gone, one written after is kept; 30 days later on, and the project going short-lived,
        // take nothing from the runs written before them.
        const days = "/workspaces/current/ttl-settings";
        assert.equal((await raw(em, "PUT", days, { body: { longlived_ttl_days: 600 } })).status, 200);
        const later = await trace("kept-longlived", "past400-later", ages.past400);
        assert.equal(await count("kept-longlived"), 3);
        await assert.rejects(client.readRun(ids.longlived.past400), /not found|404/i);
        assert.equal((await raw(em, "PUT", days, { body: { longlived_ttl_days: 30 } })).status, 200);
        const { sessionId: longlived } = held(em, "kept-longlived");
        assert.equal((await raw(em, "PATCH", `/api/v1/sessions/${longlived}`, { body: { trace_tier: "shortlived" } })).status, 200);
        assert.deepEqual([await count("kept-longlived"), (await client.readRun(later)).name], [3, "past400-later"]);

        const be = bulkExportClient(em);
        const { destination } = await be.createDestination({
            destination_type: "s3",
            display_name: "kept",
            config: { bucket_name: "exports", prefix: "kept", endpoint_url: minio.endpoint },
            credentials: creds(minio.users.writeDelete),
        });
        const range = { start_time: new Date(Date.now() - 700 * DAY).toISOString(), end_time: new Date(Date.now() + 60_000).toISOString() };
        const exported: Record<string, string[]> = {};
        for (const tier of ["shortlived", "longlived"]) {
            const { sessionId } = held(em, `kept-${tier}`);
            const { export: e } = await be.createExport({ bulk_export_destination_id: destination.id, session_id: sessionId, ...range });
            assert.equal((await settle(be, e.id)).status, "Completed");
            exported[tier] = (await rowsUnder(minio, `kept/export_id=${e.id}/`)).map((r) => String(r.name)).sort();
        }
        assert.deepEqual(exported, { shortlived: ["fresh"], longlived: ["fresh", "past14", "past400-later"] });

        // The short-lived tier applied to every existing project applies to the traces they hold: past 14 days, gone.
        const settings = "/api/v1/ttl-settings";
        assert.equal((await raw(em, "PUT", settings, { body: { default_trace_tier: "shortlived", apply_to_all_projects: true } })).status, 200);
        assert.equal(await count("kept-longlived"), 1);
        await assert.rejects(client.readRun(ids.longlived.past14), /not found|404/i);
        assert.equal((await raw(em, "PUT", settings, { body: { default_trace_tier: "longlived", apply_to_all_projects: false } })).status, 200);
        assert.equal((await raw(em, "PUT", days, { body: { longlived_ttl_days: 400 } })).status, 200);
    });
});
