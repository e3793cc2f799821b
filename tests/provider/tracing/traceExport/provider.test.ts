/**
 * The ExportDestination and BulkExport resources' providers against the emulator over HTTP, writing into a
 * real MinIO: a destination created, its credentials rotated in place, replaced, deleted (also where the
 * service has no DELETE, or refuses it while exports are in the way), not adopted when a lost answer leaves
 * an identical one, refused with what to fix (by an older self-hosted installation, naming the version it
 * needs); a one-off export waited for until Completed (the wait cancellable), failed with its runs' errors,
 * refreshed, and replaced when its filter changes.
 */
import assert from "node:assert/strict";
import { checkBulkExport } from "../../../../provider/tracing/traceExport/check";
import { ResourceInitError } from "../../../../provider/kit/initError";
import { createBulkExportProvider } from "../../../../provider/tracing/bulkExport/provider";
import { createExportDestinationProvider } from "../../../../provider/tracing/exportDestination/provider";
import { withEnv } from "../../../helpers/async";
import { settle } from "../../../helpers/bulkExport";
import { PROJECT, useBulkExportProviders } from "../../../helpers/bulkExportProviders";
import { admin, bulkExportClient, rejection, startTestEmulator, type Emulator } from "../../../helpers/emulator";
import type { MinioServer } from "../../../helpers/minio";

describe("provider: bulk-export resources against the emulator and MinIO", function () {
    this.timeout(120_000);
    let minio: MinioServer;
    let em: Emulator;
    const { client, destinations, oneOff, destinationInputs, newDestination } = useBulkExportProviders((w) => ({ minio, em } = w));

    describe("ExportDestination", () => {
        it("create, then a credentials change rotates them in place (same id, PATCH), and delete deletes it on the service", async () => {
            const p = destinations();
            const inputs = destinationInputs("rotate");
            const { id, outs } = await p.create(inputs);
            assert.deepEqual(outs.credentialsKeys, ["access_key_id", "secret_access_key"]);
            const next = { ...inputs, credentials: { accessKeyId: minio.users.writeOnly.accessKeyId, secretAccessKey: minio.users.writeOnly.secretAccessKey } };
            const diff = await p.diff!(id, outs, next);
            assert.equal(diff.changes, true);
            assert.deepEqual(diff.replaces, []);
            await admin(em, "DELETE", "/requests");
            await p.update!(id, outs, next);
            const log: Array<{ method: string; path: string }> = await admin(em, "GET", "/requests");
            assert.deepEqual(
                log.filter((r) => !r.path.startsWith("/__admin")).map((r) => `${r.method} ${r.path}`),
                [`PATCH /api/v1/bulk-exports/destinations/${id}`],
            );
            assert.equal((await p.read!(id, outs)).id, id);
            await p.delete!(id, outs);
            assert.equal(await client().tryGetDestination(id), undefined);
            assert.deepEqual(await p.read!(id, outs), {}, "read of a deleted destination: gone from the stack on refresh");
        });

        it("delete on an installation without the DELETE (405): the destination leaves the stack and stays in the workspace", async () => {
            const p = destinations();
            const { id, outs } = await p.create(destinationInputs("old-installation"));
            await admin(em, "POST", "/faults", { method: "DELETE", path: "^/api/v1/bulk-exports/destinations/", kind: "status", status: 405, times: 1 });
            await p.delete!(id, outs);
            assert.equal((await client().getDestination(id)).id, id);
        });

        it("a config or displayName change replaces; keys to environment credentials replaces", async () => {
            const p = destinations();
            const olds = destinationInputs("same");
            assert.deepEqual((await p.diff!("x", olds, { ...olds, config: { ...olds.config, prefix: "other" } })).replaces, ["config.prefix"]);
            assert.deepEqual((await p.diff!("x", olds, { ...olds, displayName: "renamed" })).replaces, ["displayName"]);
            assert.deepEqual((await p.diff!("x", olds, { ...olds, credentials: undefined })).replaces, ["credentials"]);
            assert.equal((await p.diff!("x", olds, { ...olds })).changes, false);
        });

        it("delete refused (409) though the export list shows nothing in the way (the exports ended meanwhile): the DELETE is sent again at once", async () => {
            const p = destinations();
            const { id, outs } = await p.create(destinationInputs("refused-once"));
            await admin(em, "POST", "/faults", { method: "DELETE", path: "^/api/v1/bulk-exports/destinations/", kind: "status", status: 409, times: 1 });
            await admin(em, "DELETE", "/requests");
            const t0 = Date.now();
            await p.delete!(id, outs);
            assert.ok(Date.now() - t0 < 1_000, "sent again at once, not after a wait");
            const log: Array<{ method: string; path: string; status: number }> = await admin(em, "GET", "/requests");
            assert.deepEqual(
                log.filter((r) => r.method === "DELETE" && !r.path.startsWith("/__admin")).map((r) => r.status),
                [409, 204],
            );
            assert.equal(await client().tryGetDestination(id), undefined);
        });

        it("create: an identical destination that shows up after the answer was lost is not adopted (another program may have made it): refused with its id and the way in; LANGSMITH_ADOPT_IDS takes it in; one destination, one POST", async () => {
            const inputs = { ...destinationInputs("lost"), displayName: `lost answer ${Date.now()}` };
            await admin(em, "DELETE", "/requests");
            // The connection drops at once; the service validates and stores the destination 1 s later.
            await admin(em, "POST", "/faults", { method: "POST", path: "^/api/v1/bulk-exports/destinations$", kind: "drop", when: "during", latencyMs: 1000 });
            const err = await rejection(() => destinations().create(inputs));
            const same = () =>
                client()
                    .listDestinations()
                    .then((all) => all.filter((d) => d.display_name === inputs.displayName).map((d) => d.id));
            const [found] = await same();
            assert.deepEqual(await same(), [found]);
            assert.match(err.message, new RegExp(`the answer to this create was lost, and destination ${found} appeared since`));
            assert.ok(err.message.includes(`LANGSMITH_ADOPT_IDS=${found} pulumi up`), err.message);
            const log: Array<{ method: string; path: string }> = await admin(em, "GET", "/requests");
            assert.equal(log.filter((r) => r.method === "POST" && r.path === "/api/v1/bulk-exports/destinations").length, 1, "never sent again");
            const { id } = await withEnv({ LANGSMITH_ADOPT_IDS: found }, () => destinations().create(inputs));
            assert.equal(id, found);
            assert.deepEqual(await same(), [found]);
        });

        it("a refused destination says what the service said and what to fix, without the secret", async () => {
            const e = await rejection(() => destinations().create(destinationInputs("denied", () => minio.users.noAccess)));
            assert.match(e.message, /Access denied/);
            assert.match(e.message, /To fix: check credentials\.accessKeyId\/secretAccessKey/);
            assert.ok(!e.message.includes(minio.users.noAccess.secretAccessKey));
        });
    });

    describe("BulkExport", () => {
        const oneOffInputs = (destinationId: string, over: Record<string, unknown> = {}) => ({
            destinationId,
            sessionId: PROJECT.session_id,
            startTime: "2026-11-01T00:00:00.000Z",
            endTime: "2026-11-02T12:00:00.000Z",
            formatVersion: "v1",
            waitForCompletion: true,
            ...over,
        });

        it("allExperiments: one export of every experiment, sent as all_experiments without session_id; a refresh is no change; switching to one project replaces", async () => {
            em.bulkExport.model.addProject({ start: "2026-11-01T00:00:00Z", end: "2026-11-03T00:00:00Z", count: 300, seed: 77, experiment: true });
            const inputs = oneOffInputs(await newDestination("experiments"), { sessionId: undefined, allExperiments: true });
            delete (inputs as Record<string, unknown>).sessionId;
            await admin(em, "DELETE", "/requests");
            const { id, outs } = await oneOff().create(inputs);
            const log: Array<{ method: string; path: string }> = await admin(em, "GET", "/requests");
            assert.equal(log.filter((r) => r.method === "POST" && r.path === "/api/v1/bulk-exports").length, 1);
            const e = await client().getExport(id);
            assert.deepEqual([e.all_experiments, e.session_id], [true, null]);
            assert.equal(outs.status, "Completed");
            assert.ok(outs.rowsWritten > 0);
            const read = await oneOff().read!(id, outs);
            assert.equal((await oneOff().diff!(id, read.props!, inputs)).changes, false);
            const diff = await oneOff().diff!(id, outs, { ...inputs, allExperiments: undefined, sessionId: PROJECT.session_id });
            assert.deepEqual(new Set(diff.replaces), new Set(["sessionId", "allExperiments"]));
        });

        it("create waits for Completed and records rows and files", async () => {
            const { id, outs } = await oneOff().create(oneOffInputs(await newDestination("one")));
            assert.equal(outs.status, "Completed");
            assert.ok(outs.rowsWritten > 0);
            assert.equal(outs.filesWritten, 2);
            assert.equal((await oneOff().diff!(id, outs, oneOffInputs(outs.destinationId))).changes, false);
        });

        it("refresh: create records every output a read learns, so reads of a finished export change nothing; the state's inputs stay the program's", async () => {
            const p = oneOff();
            const inputs = checkBulkExport(oneOffInputs(await newDestination("refresh"))).inputs!;
            const { id, outs } = await p.create(inputs);
            const first = await p.read!(id, outs);
            const second = await p.read!(id, first.props);
            // What the engine compares on refresh: the outputs, and the inputs (provider diff of new outputs against the old inputs).
            assert.deepEqual(first.props, outs);
            assert.deepEqual(second.props, outs);
            assert.deepEqual(first.inputs, inputs, "a read's inputs carry the outputs");
            assert.deepEqual(second.inputs, inputs);
            assert.equal((await p.diff!(id, second.props, inputs)).changes, false);
        });

        it("refresh: an export that moved on after create changes status, the counters and finishedAt, nothing else; a state without them reads fine", async () => {
            const p = oneOff();
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const inputs = checkBulkExport(oneOffInputs(await newDestination("refresh-moved"), { waitForCompletion: false })).inputs!;
            const { id, outs } = await p.create(inputs);
            assert.deepEqual([outs.rowsWritten, outs.filesWritten, outs.finishedAt], [0, 0, null], "create leaves a counter out");
            await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
            await settle(client(), id);
            const read = await p.read!(id, outs);
            const changed = Object.keys(read.props!).filter((k) => JSON.stringify(read.props![k]) !== JSON.stringify(outs[k]));
            assert.deepEqual(changed.sort(), ["filesWritten", "finishedAt", "rowsWritten", "status"]);
            assert.deepEqual(read.inputs, inputs);
            // A state written before the counters were recorded (inputs only) reads to the same outputs.
            assert.deepEqual((await p.read!(id, inputs)).props, read.props);
        });

        it("a failed export fails create with each failed run's retry_N errors, stays in the stack, and the next up replaces it", async () => {
            await admin(em, "POST", "/bulk-exports/failure-rules", { kind: "storage", times: 1 });
            const inputs = oneOffInputs(await newDestination("fail"));
            const e = await rejection(() => oneOff().create(inputs));
            assert.ok(e instanceof ResourceInitError, String(e));
            assert.match(e.message, /ended Failed: run .* Failed: retry_0: Storage error: Access Denied/);
            assert.equal(e.properties.status, "Failed");
            const diff = await oneOff().diff!(e.id, e.properties, inputs);
            assert.equal(diff.changes, true);
            assert.ok(diff.replaces!.length > 0);
        });

        it("create: a cancelled wait for Completed throws at once with the export's id and status; the next up waits again", async () => {
            const inputs = oneOffInputs(await newDestination("cancel-wait"));
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const ac = new AbortController();
            const p = createBulkExportProvider({ client, pollMs: () => 3_600_000, signal: ac.signal });
            setTimeout(() => ac.abort(new Error("the Pulumi engine cancelled the operation")), 300);
            const started = Date.now();
            const e = await rejection(() => p.create(inputs));
            assert.ok(Date.now() - started < 5_000);
            assert.ok(e instanceof ResourceInitError, String(e));
            assert.equal((await client().getExport(e.id)).id, e.id);
            assert.match(
                e.message,
                /^the wait for bulk export \S+ to complete was cancelled \(the Pulumi engine cancelled the operation\); last status \w+\. It is kept in the stack: `pulumi up` resumes waiting for it\.$/,
            );
            assert.ok(!["Completed", "Failed", "Cancelled", "TimedOut"].includes(String(e.properties.status)), String(e.properties.status));
            const diff = await p.diff!(e.id, e.properties, inputs);
            assert.deepEqual([diff.changes, diff.replaces], [true, []], "the next up waits for it");
            await p.delete!(e.id, e.properties);
        });

        it("destination delete: a cancelled wait for the exports in its way fails at once, naming them; the destination stays", async () => {
            const destinationId = await newDestination("cancel-delete");
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const running = await oneOff().create(oneOffInputs(destinationId, { waitForCompletion: false }));
            const ac = new AbortController();
            const p = createExportDestinationProvider({ client, deleteWaitMs: 600_000, pollMs: () => 300_000, signal: ac.signal });
            setTimeout(() => ac.abort(new Error("the provider received SIGTERM")), 300);
            const started = Date.now();
            const e = await rejection(() => p.delete!(destinationId, {}));
            assert.ok(Date.now() - started < 5_000);
            assert.match(
                e.message,
                new RegExp(
                    `^the wait for the exports using destination ${destinationId} to finish was cancelled \\(the provider received SIGTERM\\): 409 Conflict: .*${running.id} \\(`,
                ),
            );
            assert.equal((await client().getDestination(destinationId)).id, destinationId);
            await oneOff().delete!(running.id, running.outs);
        });

        it("a changed filter replaces, cancelling the old export first if it still runs", async () => {
            const p = oneOff();
            const inputs = oneOffInputs(await newDestination("replace"), { waitForCompletion: false });
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const { id, outs } = await p.create(inputs);
            const diff = await p.diff!(id, outs, { ...inputs, filter: 'eq(run_type, "tool")' });
            assert.deepEqual([diff.replaces, diff.deleteBeforeReplace], [["filter"], true]);
            await p.delete!(id, outs);
            assert.equal((await client().getExport(id)).status, "Cancelled");
        });
    });

    it("an older self-hosted installation: the error names the version that brings the field", async () => {
        const old = await startTestEmulator({ bulkExport: { installation: "self-hosted", installationVersion: "0.10.50", projects: [PROJECT] } });
        try {
            const p = createExportDestinationProvider({ client: () => bulkExportClient(old) });
            const inputs = destinationInputs("old");
            const e = await rejection(() =>
                p.create({ ...inputs, credentials: { ...inputs.credentials, sessionToken: "FwoGZXIvYXdzEXAMPLEsessionTOKEN0123456789" } }),
            );
            assert.match(e.message, /does not know session_token: it needs LangSmith self-hosted packaging 0\.10\.34 \/ application 0\.10\.91 or later/);
        } finally {
            await old.close();
        }
    });
});
