/**
 * The ScheduledExport resource's provider against the emulator over HTTP, writing into a real MinIO: a
 * schedule re-created where the old one's last window ended, without gap or overlap (a filter change,
 * another tracing project or place, failed windows at the end); an export cancelled outside Pulumi noticed;
 * a failed update carried on by the next up; delete cancelling what it spawned; creations through 429s and
 * lost answers made once each; the cloud's quota; a destination delete refused while a schedule runs.
 */
import assert from "node:assert/strict";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { createExportDestinationProvider } from "../../../../provider/tracing/exportDestination/provider";
import { createScheduledExportProvider } from "../../../../provider/tracing/scheduledExport/provider";
import { getBulkExport } from "../../../../provider/tracing/traceExport/lookups";
import type { ScheduledExportOutputs } from "../../../../provider/tracing/scheduledExport/declare";
import { isFinalExportStatus } from "../../../../provider/api/schemas/bulkExport";
import { eventually, stderrOf } from "../../../helpers/async";
import { PROJECT, useBulkExportProviders } from "../../../helpers/bulkExportProviders";
import { admin, bulkExportClient, rejection, sleep, type Emulator } from "../../../helpers/emulator";

const HOUR = 3_600_000;

describe("provider: bulk-export resources against the emulator and MinIO", function () {
    this.timeout(120_000);
    let em: Emulator;
    const { client, destinations, scheduled, destinationInputs, newDestination } = useBulkExportProviders((w) => ({ em } = w));

    describe("ScheduledExport", () => {
        const scheduleInputs = (destinationId: string, startTime: string) => ({
            destinationId,
            sessionId: PROJECT.session_id,
            startTime,
            intervalHours: 6,
            formatVersion: "v1",
            cancelSpawnedOnDelete: false,
        });
        /** Every window spawned by any of these exports, sorted. */
        const windows = async (exportIds: string[]) =>
            (await client().listExports())
                .filter((e) => exportIds.includes(e.source_bulk_export_id ?? ""))
                .map((e) => [Date.parse(e.start_time), Date.parse(e.end_time!)] as const)
                .sort((a, b) => a[0] - b[0]);
        /**
         * Until export `id` has spawned `n` windows and each has ended: the emulator's worker runs on real time, and
         * a fixed sleep is too short on a loaded machine.
         */
        async function windowsEnded(id: string, n: number): Promise<void> {
            const spawned = () => [...em.bulkExport.model.exports.values()].filter((e) => e.source_bulk_export_id === id);
            const ended = await eventually(() => spawned().length >= n && spawned().every((e) => isFinalExportStatus(e.status)));
            assert.ok(ended, `export ${id}: ${spawned().length} windows spawned, ${n} awaited, not all ended`);
        }

        /** How far export `id` has got, as a program reads it (getBulkExport: the schedule's outputs hold no such figures). */
        const progress = (id: string) => getBulkExport(client(), { id });

        it("diff: a project being replaced (its id unknown: the engine asks so when the project, keeping its name, is deleted first) replaces the export, cancelled first", async () => {
            const olds = { ...scheduleInputs("00000000-0000-4000-8000-00000000de57", "2026-10-01T00:00:00Z"), status: "IntervalScheduled" };
            const d = await scheduled().diff!("e1", olds as never, { ...olds, sessionId: UNKNOWN } as never);
            assert.deepEqual([d.changes, d.replaces, (d as { updates?: string[] }).updates, d.deleteBeforeReplace], [true, ["sessionId"], [], true]);
        });

        it("a filter change cancels the export and starts a new one where the old one's last window ended: every window once, no gap", async () => {
            const p = scheduled();
            const destinationId = await newDestination("sched");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 20 * HOUR).toISOString();
            const inputs = scheduleInputs(destinationId, start);
            const created = await p.create(inputs);
            await windowsEnded(created.id, 3);
            const outs = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            assert.equal(outs.exportId, created.id);
            assert.equal((await progress(created.id)).spawnedCount, 3, "20 hours at 6 per window: three whole windows");
            const news = { ...inputs, filter: 'eq(run_type, "llm")' };
            const diff = await p.diff!(created.id, outs, news);
            assert.deepEqual([diff.changes, diff.replaces], [true, []]);
            const { outs: after } = await p.update!(created.id, outs, news);
            assert.notEqual(after.exportId, created.id);
            assert.deepEqual(after.previousExportIds, [created.id]);
            assert.equal(after.effectiveStartTime, new Date(Date.parse(start) + 18 * HOUR).toISOString());
            assert.equal((await client().getExport(created.id)).status, "Cancelled");
            assert.equal((await client().getExport(after.exportId)).filter, news.filter);
            await admin(em, "POST", "/clock/advance", { ms: 12 * HOUR });
            await windowsEnded(after.exportId, 2);
            const all = await windows([created.id, after.exportId]);
            assert.equal(all.length, 5);
            for (let i = 1; i < all.length; i++) assert.equal(all[i][0], all[i - 1][1], `window ${i} does not start where ${i - 1} ended`);
            assert.equal(all[0][0], Date.parse(start));
            await p.delete!(created.id, after);
        });

        it("refresh notices an export cancelled outside Pulumi; the next up re-creates it after the covered windows", async () => {
            const p = scheduled();
            const destinationId = await newDestination("outside");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 13 * HOUR).toISOString();
            const inputs = scheduleInputs(destinationId, start);
            const created = await p.create(inputs);
            await sleep(300);
            await client().cancelExport(created.id);
            const refreshed = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            assert.equal(refreshed.status, "Cancelled");
            const diff = await p.diff!(created.id, refreshed, inputs);
            assert.equal(diff.changes, true);
            const { outs } = await p.update!(created.id, refreshed, inputs);
            assert.equal(outs.status, "IntervalScheduled");
            assert.equal(outs.effectiveStartTime, new Date(Date.parse(start) + 12 * HOUR).toISOString());
            assert.equal((await p.diff!(created.id, outs, inputs)).changes, false);
            await p.delete!(created.id, outs);
        });

        it("update: once the new export exists nothing more is asked of the service (its progress is no output): a list failing right after the POST changes nothing, and delete stops both", async () => {
            const p = scheduled();
            const destinationId = await newDestination("orphan");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 13 * HOUR).toISOString();
            const inputs = scheduleInputs(destinationId, start);
            const created = await p.create(inputs);
            await sleep(200);
            const outs = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            const news = { ...inputs, filter: 'eq(run_type, "llm")' };
            // The old export's windows are read, and the look for a running twin before the POST (both pass), then
            // the list answers 500 past every retry: the update, done once the new export exists, never asks it.
            await admin(em, "POST", "/faults", [
                { method: "POST", path: "^/api/v1/bulk-exports$", kind: "latency", latencyMs: 300 },
                { method: "GET", path: "^/api/v1/bulk-exports$", kind: "latency", latencyMs: 0, count: 2 },
                { method: "GET", path: "^/api/v1/bulk-exports$", kind: "status", status: 500, count: 20 },
            ]);
            const { outs: after } = await p.update!(created.id, outs, news).finally(() => admin(em, "DELETE", "/faults"));
            assert.notEqual(after.exportId, created.id);
            assert.deepEqual(after.previousExportIds, [created.id]);
            assert.equal(after.filter, news.filter);
            assert.equal((await client().getExport(after.exportId)).status, "IntervalScheduled");
            const parents = async () =>
                (await client().listExports()).filter((x) => x.bulk_export_destination_id === destinationId && !x.source_bulk_export_id);
            assert.deepEqual(
                (await parents()).filter((x) => x.status !== "Cancelled").map((x) => x.id),
                [after.exportId],
                "one export spawns each window",
            );
            await p.delete!(created.id, after);
            assert.deepEqual(
                (await parents()).map((x) => x.status),
                ["Cancelled", "Cancelled"],
            );
        });

        it("delete through a 503 on the cancel: sent again (a cancel twice is one), whether the first was done or not (npm run bench chaos)", async () => {
            const p = scheduled();
            const destinationId = await newDestination("cancel-503");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 2 * HOUR).toISOString();
            for (const when of ["before", "after"] as const) {
                const created = await p.create(scheduleInputs(destinationId, start));
                em.addFault({ method: "PATCH", path: `^/api/v1/bulk-exports/${created.id}$`, kind: "status", status: 503, when });
                await p.delete!(created.id, created.outs);
                assert.equal((await client().getExport(created.id)).status, "Cancelled", `a 503 ${when} the cancel`);
            }
        });

        it("delete with cancelSpawnedOnDelete cancels what every export of the resource spawned, not only the current one's", async () => {
            const p = scheduled();
            const destinationId = await newDestination("spawned-all");
            // Every run attempt times out and waits its retry: spawned exports stay Running.
            await admin(em, "POST", "/bulk-exports/failure-rules", { kind: "timeout", times: 1000 });
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 24 * HOUR).toISOString();
            const inputs = { ...scheduleInputs(destinationId, start), cancelSpawnedOnDelete: true };
            const created = await p.create(inputs);
            await sleep(200);
            const outs = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            const { outs: after } = await p.update!(created.id, outs, { ...inputs, filter: 'eq(run_type, "tool")' });
            const spawnedByFirst = async () => (await client().listExports()).filter((x) => x.source_bulk_export_id === created.id);
            assert.ok(
                (await spawnedByFirst()).some((x) => x.status === "Running"),
                "the first export's windows are still being exported",
            );
            await p.delete!(created.id, after);
            assert.deepEqual(
                (await spawnedByFirst()).filter((x) => !["Completed", "Cancelled"].includes(x.status)).map((x) => x.status),
                [],
            );
        });

        it("update: continuity is per tracing project: another project starts at startTime, and coming back resumes where that one stopped", async () => {
            const p = scheduled();
            const destinationId = await newDestination("projects");
            const other = await admin(em, "POST", "/bulk-exports/projects", {
                start: "2026-10-01T00:00:00Z",
                end: "2026-12-31T00:00:00Z",
                count: 2000,
                seed: 9,
            });
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 20 * HOUR).toISOString();
            const inputs = scheduleInputs(destinationId, start);
            const created = await p.create(inputs);
            await windowsEnded(created.id, 3);
            const a1 = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            assert.equal((await progress(a1.exportId)).lastWindowEnd, new Date(Date.parse(start) + 18 * HOUR).toISOString());
            const { outs: b } = await p.update!(created.id, a1, { ...inputs, sessionId: other.session_id });
            assert.equal(b.effectiveStartTime, start, "a project never exported starts at startTime: none of its windows skipped");
            await windowsEnded(b.exportId, 3);
            const b1 = (await p.read!(created.id, b)).props as ScheduledExportOutputs;
            assert.equal((await progress(b1.exportId)).lastWindowEnd, new Date(Date.parse(start) + 18 * HOUR).toISOString());
            const { outs: a2 } = await p.update!(created.id, b1, inputs);
            assert.equal(
                a2.effectiveStartTime,
                new Date(Date.parse(start) + 18 * HOUR).toISOString(),
                "back to the first project: after its covered windows, none twice",
            );
            const { outs: d2 } = await p.update!(created.id, a2, { ...inputs, destinationId: await newDestination("projects-2") });
            assert.equal(d2.effectiveStartTime, start, "the same project to another destination starts at startTime");
            await p.delete!(created.id, d2);
        });

        it("update: continuity is per place: a destination renamed (same bucket and prefix) continues, from a state of an earlier version too; another prefix starts at startTime, or with resumeAtNewDestination where the windows end", async () => {
            const p = scheduled();
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 20 * HOUR).toISOString();
            const covered = new Date(Date.parse(start) + 18 * HOUR).toISOString();
            const inputs = scheduleInputs(await newDestination("place"), start);
            const created = await p.create(inputs);
            await sleep(200);
            const a = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            const renamed = (await destinations().create({ ...destinationInputs("place"), displayName: `renamed place ${Date.now()}` })).id;
            // As a state of an earlier version recorded it: no coverage by place, only the last window's end.
            const earlier = {
                ...a,
                coverage: undefined,
                retriedFrom: undefined,
                lastWindowEnd: (await progress(a.exportId)).lastWindowEnd,
            } as unknown as ScheduledExportOutputs;
            const { outs: b } = await p.update!(created.id, earlier, { ...inputs, destinationId: renamed });
            assert.equal(b.effectiveStartTime, covered, "a renamed destination writes where the old one did: nothing exported again");
            const { outs: c } = await p.update!(created.id, b, { ...inputs, destinationId: await newDestination("place-2") });
            assert.equal(c.effectiveStartTime, start, "another prefix holds nothing yet: every window since startTime");
            await sleep(200);
            const c1 = (await p.read!(created.id, c)).props as ScheduledExportOutputs;
            const { outs: d } = await p.update!(created.id, c1, { ...inputs, destinationId: await newDestination("place-3"), resumeAtNewDestination: true });
            assert.equal(d.effectiveStartTime, covered, "resumeAtNewDestination: only the windows not exported yet");
            await p.delete!(created.id, d);
        });

        it("update: failed windows at the end are not covered: the new export exports them again, once", async () => {
            const p = scheduled();
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 20 * HOUR).toISOString();
            const at = (h: number) => new Date(Date.parse(start) + h * HOUR).toISOString();
            const inputs = scheduleInputs(await newDestination("failed-tail"), start);
            const created = await p.create(inputs);
            await windowsEnded(created.id, 3);
            // The next two windows fail (storage errors are not retried by the service).
            await admin(em, "POST", "/bulk-exports/failure-rules", { kind: "storage", times: 2 });
            await admin(em, "POST", "/clock/advance", { ms: 12 * HOUR });
            await windowsEnded(created.id, 5);
            const a = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            assert.deepEqual((await progress(a.exportId)).spawnedStatuses, { Completed: 3, Failed: 2 });
            assert.equal((await progress(a.exportId)).lastWindowEnd, at(18), "failed windows are not exported");
            // They will fail again: the next re-creation moves past them.
            await admin(em, "POST", "/bulk-exports/failure-rules", { kind: "storage", times: 2 });
            const { outs: b } = await p.update!(created.id, a, { ...inputs, filter: 'eq(run_type, "llm")' });
            assert.equal(b.effectiveStartTime, at(18), "the failed windows are exported again");
            await windowsEnded(b.exportId, 2);
            const b1 = (await p.read!(created.id, b)).props as ScheduledExportOutputs;
            assert.deepEqual((await progress(b1.exportId)).spawnedStatuses, { Failed: 2 });
            const { outs: c } = await p.update!(created.id, b1, inputs);
            assert.equal(c.effectiveStartTime, at(30), "retried once, not again");
            await p.delete!(created.id, c);
        });

        it("refresh: the service answering exportFields in another order and the filter rewritten (spaces, quotes) is no change: nothing cancelled or re-created", async () => {
            const p = scheduled();
            const destinationId = await newDestination("normal");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 2 * HOUR).toISOString();
            // What the service answers (its own order and quoting) ...
            const asService = {
                ...scheduleInputs(destinationId, start),
                exportFields: ["id", "name", "run_type"],
                filter: "and(eq(run_type,'llm'),gt(total_tokens,5))",
            };
            const created = await p.create(asService);
            const refreshed = (await p.read!(created.id, created.outs)).props as ScheduledExportOutputs;
            assert.deepEqual(refreshed.exportFields, asService.exportFields);
            // ... and what the program says.
            const program = { ...asService, exportFields: ["run_type", "id", "name"], filter: 'and(eq(run_type, "llm"), gt(total_tokens, 5))' };
            assert.equal((await p.diff!(created.id, refreshed, program)).changes, false);
            const before = (await client().listExports()).length;
            const { outs } = await p.update!(created.id, refreshed, program);
            assert.equal(outs.exportId, created.id, "the same export goes on");
            assert.equal((await client().listExports()).length, before);
            assert.equal(
                (await p.diff!(created.id, refreshed, { ...program, filter: 'and(eq(run_type, "tool"), gt(total_tokens, 5))' })).changes,
                true,
                "a real change still is one",
            );
            await p.delete!(created.id, outs);
        });

        it("30 scheduled exports created at once through a window of 429s (10 creations per hour): each created once, none twice", async () => {
            const destinationId = await newDestination("burst");
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true, creationsPerHour: 10 });
            em.clock.advance(2 * HOUR); // earlier tests' creations leave the hour
            await admin(em, "DELETE", "/requests");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR).toISOString();
            const p = scheduled();
            const creating = Promise.all(
                Array.from({ length: 30 }, (_, i) => p.create({ ...scheduleInputs(destinationId, start), filter: `eq(name, "burst-${i}")` })),
            );
            // The hour opens again twice, each time once the waiting creates have met a 429.
            const refusals = async () =>
                ((await admin(em, "GET", "/requests")) as Array<{ method: string; status: number }>).filter((r) => r.method === "POST" && r.status === 429)
                    .length;
            let seen = 0;
            for (let opened = 0; opened < 2; await sleep(100)) {
                const now = await refusals();
                if (now <= seen + 20) continue;
                [seen, opened] = [now, opened + 1];
                em.clock.advance(HOUR);
            }
            const created = await creating;
            const ours = (await client().listExports()).filter((e) => e.bulk_export_destination_id === destinationId && !e.source_bulk_export_id);
            assert.equal(ours.length, 30, "an export created twice, or one missing");
            assert.deepEqual(new Set(created.map((c) => c.outs.exportId)), new Set(ours.map((e) => e.id)));
            assert.deepEqual(ours.map((e) => e.filter).sort(), Array.from({ length: 30 }, (_, i) => `eq(name, "burst-${i}")`).sort());
            assert.ok((await refusals()) > 40, "no 429 was met");
            for (const e of ours) await client().cancelExport(e.id);
            await admin(em, "PUT", "/bulk-exports/limits", { paused: false, creationsPerHour: 250 });
        });

        it("create: a POST whose lost answer the service applies after the settle, once the second attempt made the export: the late one is cancelled, with a warning; one schedule runs", async () => {
            const destinationId = await newDestination("late-twin");
            const settled = () => bulkExportClient(em, { settleMs: 300 });
            // Dropped at once, applied 450 ms later: after the 300 ms look (the second POST goes out at about 250 ms).
            await admin(em, "POST", "/faults", { method: "POST", path: "^/api/v1/bulk-exports$", kind: "drop", when: "during", latencyMs: 450, times: 1 });
            let made: { outs?: Record<string, any> } = {};
            const warned = await stderrOf(async () => {
                made = await createScheduledExportProvider({ client: settled }).create(scheduleInputs(destinationId, "2026-10-02T00:00:00Z"));
            });
            await sleep(500); // past the late attempt, whether or not the create watched for it
            const ours = (await client().listExports()).filter((e) => e.bulk_export_destination_id === destinationId && !e.source_bulk_export_id);
            assert.equal(ours.length, 2, "the late first attempt did take effect");
            assert.deepEqual(
                ours.filter((e) => e.status !== "Cancelled").map((e) => e.id),
                [made.outs!.exportId],
                "two schedules run: every window twice",
            );
            const late = ours.find((e) => e.id !== made.outs!.exportId)!;
            assert.match(
                warned,
                new RegExp(
                    `ScheduledExport: export ${late.id} was cancelled \\(Cancelled\\): the first attempt of this create, whose answer was lost, took effect after the second`,
                ),
            );
            await client().cancelExport(made.outs!.exportId);
        });

        it("the cloud's quota of scheduled exports per workspace fails the create at once, with what to do", async () => {
            const destinationId = await newDestination("quota");
            const held = (await client().listExports()).filter((e) => e.status === "IntervalScheduled").length;
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true, scheduledExportsPerWorkspace: held });
            const t0 = Date.now();
            const err = await rejection(() => scheduled().create(scheduleInputs(destinationId, new Date(em.clock.now()).toISOString())));
            assert.ok(Date.now() - t0 < 5_000, "the quota was waited on like a rate limit");
            assert.match(
                err.message,
                /^429 Too Many Requests: Scheduled export limit reached.*at most 200 scheduled exports on the LangSmith cloud: cancel one/,
            );
            await admin(em, "PUT", "/bulk-exports/limits", { paused: false, scheduledExportsPerWorkspace: 200 });
        });

        it("delete cancels the export; with cancelSpawnedOnDelete also its spawned exports that are not final; the destination's delete waits for the windows still running, and past the wait names them", async () => {
            const p = scheduled();
            const destinationId = await newDestination("del");
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR - 24 * HOUR).toISOString();
            const plain = await p.create(scheduleInputs(destinationId, start));
            // An hour earlier: an identical schedule would be taken over, not made twice (provider/tracing/traceExport/start.ts).
            const eager = await p.create({ ...scheduleInputs(destinationId, new Date(Date.parse(start) - HOUR).toISOString()), cancelSpawnedOnDelete: true });
            await admin(em, "PUT", "/bulk-exports/limits", { paused: false, exportsPerWorkspace: 1 });
            await sleep(100);
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            await p.delete!(plain.id, plain.outs);
            await p.delete!(eager.id, eager.outs);
            const children = async (id: string) => (await client().listExports()).filter((e) => e.source_bulk_export_id === id);
            assert.equal((await client().getExport(plain.id)).status, "Cancelled");
            assert.equal((await client().getExport(eager.id)).status, "Cancelled");
            assert.ok(
                (await children(plain.id)).some((e) => e.status !== "Cancelled"),
                "plain delete leaves spawned exports alone",
            );
            assert.ok((await children(eager.id)).length > 0);
            assert.ok((await children(eager.id)).every((e) => e.status === "Cancelled" || e.status === "Completed"));

            // The destination cannot go while the plain one's windows run: they are waited for, and past the
            // wait the error names them and the way out.
            const running = (await children(plain.id)).filter((e) => e.status !== "Cancelled" && e.status !== "Completed");
            const waitBriefly = createExportDestinationProvider({ client, deleteWaitMs: 400, pollMs: () => 100 });
            const refused = await rejection(() => waitBriefly.delete!(destinationId, {}));
            assert.match(refused.message, /^409 Conflict: .*Exports still using destination \S+, still running after 0.4 s of waiting/);
            for (const e of running) assert.ok(refused.message.includes(`${e.id} (${e.status}, a window of scheduled export ${plain.id})`), refused.message);
            assert.match(refused.message, /cancelSpawnedOnDelete is true\) or wait for them to finish/);

            // Windows finish on their own: a delete that waits long enough sees them end, then deletes.
            const waitLonger = createExportDestinationProvider({ client, deleteWaitMs: 60_000, pollMs: () => 100 });
            setTimeout(() => void admin(em, "PUT", "/bulk-exports/limits", { paused: false, exportsPerWorkspace: 15 }), 500);
            await waitLonger.delete!(destinationId, {});
            assert.equal(await client().tryGetDestination(destinationId), undefined);
            for (const e of running) assert.equal((await client().getExport(e.id)).status, "Completed", "the windows ran to the end");
        });

        it("destination delete: a scheduled export still running (it never ends by itself) is refused at once, naming it", async () => {
            const destinationId = await newDestination("del-running");
            const start = new Date(Math.floor(em.clock.now() / HOUR) * HOUR).toISOString();
            const live = await scheduled().create(scheduleInputs(destinationId, start));
            const waitLong = createExportDestinationProvider({ client, deleteWaitMs: 60_000, pollMs: () => 100 });
            const t0 = Date.now();
            const refused = await rejection(() => waitLong.delete!(destinationId, {}));
            assert.ok(Date.now() - t0 < 5_000, "not waited on");
            assert.match(
                refused.message,
                new RegExp(`^409 Conflict: .*Exports still using destination ${destinationId}: .*${live.id} \\(IntervalScheduled, scheduled\\)`),
            );
            assert.doesNotMatch(refused.message, /of waiting/);
            await scheduled().delete!(live.id, live.outs);
            await waitLong.delete!(destinationId, {});
            assert.equal(await client().tryGetDestination(destinationId), undefined);
        });
    });
});
