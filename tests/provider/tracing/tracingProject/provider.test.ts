/**
 * TracingProject (provider/tracingProject) against the emulator's sessions API over HTTP, and MinIO for the
 * export that keeps a project from being deleted: check, diff, create, read (refresh and import), update
 * (rename in place), delete (waited on, refused while an export reads it), a taken name refused or adopted,
 * and the look-up by name.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../../provider/api/client";
import { SessionListSchema } from "../../../../provider/api/schemas/sessions";
import { TracingClient } from "../../../../provider/api/tracing";
import { getTracingProject } from "../../../../provider/tracing/tracingProject/lookups";
import { checkTracingProject, createTracingProjectProvider, TRACING_PROJECT_DIFF } from "../../../../provider/tracing/tracingProject/provider";
import { diffByTable } from "../../../../provider/kit/diff";
import { withEnv } from "../../../helpers/async";
import { useBulkExportProviders } from "../../../helpers/bulkExportProviders";
import { TEST_API_KEY, TEST_TENANT, admin, rejection, sleep, uniqueName, type Emulator } from "../../../helpers/emulator";

const DATASET = "00000000-0000-4000-8000-0000000da7a5";

describe("TracingProject", function () {
    this.timeout(30_000);
    let em: Emulator;
    const bulk = useBulkExportProviders((w) => ({ em } = w));
    const projects = () =>
        new TracingClient(
            new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, apiKeyHeader: "X-API-Key", retryBaseMs: 5, retryMaxMs: 20 }),
        );
    const provider = () => createTracingProjectProvider({ projects, exports: bulk.client, gonePollMs: 5 });
    const checked = (news: Record<string, unknown>) => {
        const r = checkTracingProject(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as { name: string } & Record<string, unknown>;
    };

    it("check: a dataset id that is not a uuid, an unknown tier and a misspelled key fail on their properties, before any call", () => {
        const r = checkTracingProject({ name: "p", referenceDatasetId: "ds-1", traceTier: "forever", descriptoin: "x" });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["descriptoin", "traceTier", "referenceDatasetId"],
        );
        assert.match(r.failures![0].reason, /did you mean "description"/);
        assert.deepEqual(
            checkTracingProject({ name: " p" }).failures?.map((f) => f.property),
            ["name"],
        );
    });

    it("diff: a rename updates in place; another dataset replaces, deleting first when the name stays", async () => {
        const olds = { name: "a", referenceDatasetId: DATASET };
        assert.deepEqual(diffByTable(TRACING_PROJECT_DIFF, olds, { ...olds, name: "b" }), { changes: true, replaces: [], updates: ["name"] });
        const d = await provider().diff!("id", olds, { ...olds, referenceDatasetId: "00000000-0000-4000-8000-0000000da7a6" });
        assert.deepEqual([d.replaces, d.deleteBeforeReplace], [["referenceDatasetId"], true]);
    });

    it("check: an empty description or metadata is none, as the service answers it: a refresh after the create plans nothing", async () => {
        const p = provider();
        const inputs = checked({ name: uniqueName("empty"), description: "", metadata: {} });
        assert.deepEqual(inputs, { name: inputs.name });
        const made = await p.create(inputs);
        const read = await p.read!(made.id, made.outs);
        const d = await p.diff!(made.id, read.props as never, inputs);
        assert.equal(d.changes, false, JSON.stringify(d));
        await p.delete!(made.id, made.outs);
    });

    it("create, read, update (a rename, in place), read by id alone (import), delete (waited until gone)", async () => {
        const p = provider();
        const name = uniqueName("traces");
        const inputs = checked({ name, description: "support agent", metadata: { team: "support" }, traceTier: "shortlived" });
        em.admin.requests = [];
        const made = await p.create(inputs);
        const calls = em.admin.requests.map((q) => `${q.method} ${q.path}`);
        assert.deepEqual(calls, ["GET /api/v1/sessions", "POST /api/v1/sessions"], "the name looked up, the POST's answer taken: no read back");
        const stored = await projects().getSession(made.id);
        assert.deepEqual([made.outs.createdAt, made.outs.tenantId], [stored.start_time, stored.tenant_id], "the outputs a read gives");
        assert.deepEqual(
            [stored.name, stored.description, stored.extra, stored.trace_tier],
            [name, "support agent", { metadata: { team: "support" } }, "shortlived"],
        );
        assert.equal(made.outs.tenantId, TEST_TENANT);
        const read = await p.read!(made.id, made.outs);
        assert.deepEqual(read.inputs, inputs, "nothing changed reads back as the inputs");

        const renamed = checked({ ...inputs, name: `${name}-2`, description: undefined });
        const after = await p.update!(made.id, made.outs, renamed);
        assert.equal((await projects().getSession(made.id)).name, `${name}-2`, "renamed in place: same id");
        assert.equal((await projects().getSession(made.id)).description, "", "a removed description is cleared");
        assert.equal(after.outs.name, `${name}-2`);
        // What traffic changes is no output (getTracingProject reads it): a refresh of a clean stack changes nothing.
        assert.ok(!("runCount" in made.outs) && !("lastRunStartTime" in after.outs), JSON.stringify(after.outs));

        const imported = await p.read!(made.id);
        assert.deepEqual(imported.inputs, { name: `${name}-2`, metadata: { team: "support" }, traceTier: "shortlived" });

        await p.delete!(made.id, after.outs);
        assert.equal(await projects().tryGetSession(made.id), undefined);
        await p.delete!(made.id, after.outs); // already gone: done
        assert.deepEqual(await p.read!(made.id, after.outs), {});
    });

    it("read: a change made elsewhere (the UI) shows as drift; a tier the program leaves out is not managed", async () => {
        const p = provider();
        const name = uniqueName("drift");
        const made = await p.create(checked({ name }));
        await projects().updateSession(made.id, { description: "edited in the UI", trace_tier: "shortlived" });
        const read = await p.read!(made.id, made.outs);
        assert.deepEqual(read.inputs, { name, description: "edited in the UI" });
    });

    it("create: a name the workspace holds is refused with the project's id, nothing made; LANGSMITH_ADOPT_IDS takes it in", async () => {
        const name = uniqueName("taken");
        const { session } = await projects().createSession({ name });
        const refused = String(await rejection(() => provider().create(checked({ name, description: "ours" }))));
        assert.match(refused, new RegExp(`already holds project ${session.id}`));
        assert.match(refused, /LANGSMITH_ADOPT_IDS=/);
        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: session.id }, () => provider().create(checked({ name, description: "ours" })));
        assert.equal(adopted.id, session.id);
        assert.equal((await projects().getSession(session.id)).description, "ours");
        const same = (await projects().http.request("GET", "/api/v1/sessions", { query: { name }, schema: SessionListSchema })).data;
        assert.equal(same.length, 1, "one project of that name");
    });

    it("delete: refused at once while a scheduled export reads the project, naming it; nothing deleted", async () => {
        const p = provider();
        const made = await p.create(checked({ name: uniqueName("exported") }));
        const destinationId = await bulk.newDestination("tp");
        const schedule = await bulk.scheduled().create({
            destinationId,
            sessionId: made.id,
            startTime: "2026-11-01T00:00:00.000Z",
            intervalHours: 24,
            formatVersion: "v1",
            cancelSpawnedOnDelete: true,
        });
        const refused = String(await rejection(() => p.delete!(made.id, made.outs)));
        assert.match(refused, new RegExp(`cannot be deleted: a scheduled export reads it: .*${schedule.outs.exportId} \\(IntervalScheduled, scheduled\\)`));
        assert.ok(await projects().tryGetSession(made.id), "still there");
        await bulk.scheduled().delete!(schedule.id, schedule.outs);
        await p.delete!(made.id, made.outs);
    });

    it("delete: waits for a one-off export reading the project to finish (it ends on its own), then deletes; refused with the export named when the wait runs out", async () => {
        const made = await provider().create(checked({ name: uniqueName("read-once") }));
        const destinationId = await bulk.newDestination("tp-once");
        await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
        const { export: once } = await bulk.client().createExport({
            bulk_export_destination_id: destinationId,
            session_id: made.id,
            start_time: "2026-11-01T00:00:00Z",
            end_time: "2026-11-01T06:00:00Z",
        });
        const short = createTracingProjectProvider({ projects, exports: bulk.client, gonePollMs: 5, exportsWaitMs: 300, exportsPollMs: () => 50 });
        const refused = String(await rejection(() => short.delete!(made.id, made.outs)));
        assert.match(refused, new RegExp(`exports still read it after .*: ${once.id} \\(Created\\)`));
        assert.ok(await projects().tryGetSession(made.id), "still there");
        const patient = createTracingProjectProvider({ projects, exports: bulk.client, gonePollMs: 5, exportsPollMs: () => 50 });
        const deleting = patient.delete!(made.id, made.outs);
        await sleep(200);
        assert.ok(await projects().tryGetSession(made.id), "deleted before the export finished");
        await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
        await deleting;
        assert.equal(await projects().tryGetSession(made.id), undefined);
    });

    it("getTracingProject: by exact name; a name the workspace does not hold fails naming it", async () => {
        const name = uniqueName("lookup");
        const made = await provider().create(checked({ name, description: "d" }));
        const found = await getTracingProject(projects(), { name });
        assert.deepEqual([found.id, found.name, found.description, found.tenantId], [made.id, name, "d", TEST_TENANT]);
        assert.match(String(await rejection(() => getTracingProject(projects(), { name: `${name}-none` }))), /no tracing project named/);
    });
});
