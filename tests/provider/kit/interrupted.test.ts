/**
 * The create (and update) that follows an interrupted `pulumi up` (docs/recovery.md), at the provider level
 * against the emulator over HTTP: the service already holds what the killed run made, the state does not.
 * A second identical export is never made (the running one is taken over, with a warning); a deployment's
 * taken name and an identical destination are refused with the object's id and what to do, because the
 * provider cannot tell them from another stack's, unless LANGSMITH_ADOPT_IDS names them; an update whose PATCH already reached the service
 * waits on that revision instead of making another. The e2e tests (tests/e2e/interrupted.test.ts) kill the
 * real CLI.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../provider/api/client";
import { ControlPlaneClient } from "../../../provider/api/controlPlane";
import { createBulkExportProvider } from "../../../provider/tracing/bulkExport/provider";
import { createExportDestinationProvider } from "../../../provider/tracing/exportDestination/provider";
import { createScheduledExportProvider } from "../../../provider/tracing/scheduledExport/provider";
import { checkDeployment, createDeploymentProvider } from "../../../provider/controlPlane/deployment/index";
import { deployment } from "../../../provider/controlPlane/deployment/declare";
import { adoptable } from "../../../provider/kit/adoption";
import { TEST_API_KEY, TEST_TENANT, admin, bulkExportClient, rejection, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { stderrOf, withEnv } from "../../helpers/async";
import { startMinio, type MinioServer } from "../../helpers/minio";

const PROJECT = { session_id: "55555555-0000-4000-8000-0000000000d7", seed: 7, start: "2026-10-01T00:00:00Z", end: "2026-10-03T00:00:00Z", count: 500 };
const INTEGRATION = "00000000-0000-4000-8000-00000000beef";

describe("provider: the create after an interrupted run", function () {
    this.timeout(30_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, apiKeys: [TEST_API_KEY], bulkExport: { projects: [PROJECT] } });
    });
    after(async () => {
        await em?.close();
    });

    describe("Deployment", () => {
        const cp = () =>
            new ControlPlaneClient(new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, retryBaseMs: 5, retryMaxMs: 20 }));
        const provider = () => createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: cp });
        const inputs = (name: string, repoUrl = "https://github.com/acme/agent", repoRef = "main") => {
            const r = checkDeployment({
                name,
                source: "github",
                sourceConfig: { integrationId: INTEGRATION, repoUrl },
                sourceRevisionConfig: { repoRef, graphConfigPath: "langgraph.json" },
                __provider: "p",
            });
            assert.deepEqual(r.failures, []);
            return r.inputs as Record<string, any>;
        };
        const named = (name: string) => em.controlPlane.allDeployments().filter((d) => d.name === name);

        it("create: a name the killed run took is refused with the deployment's id and what to do; nothing is made", async () => {
            const name = uniqueName("killed");
            const first = await provider().create!(inputs(name));
            const err = await rejection(() => provider().create!(inputs(name)));
            assert.match(err.message, /409 Conflict/);
            assert.ok(err.message.includes(`deployment ${first.id}`), err.message);
            assert.ok(err.message.includes(`\`LANGSMITH_ADOPT_IDS=${first.id} pulumi up\``), err.message);
            assert.ok(err.message.includes(`adoptId: "${first.id}"`), err.message);
            assert.match(err.message, /`pulumi up --continue-on-error` runs every create, so that one run names every object to take over/);
            assert.match(err.message, /set the resource option deleteBeforeReplace/, "a replacement may meet it too");
            assert.match(err.message, /another `name`/);
            assert.equal(named(name).length, 1);
        });

        it("create: with its id in LANGSMITH_ADOPT_IDS, the deployment the killed run made is taken over and waited on; nothing is made twice", async () => {
            const name = uniqueName("adopted");
            const first = await provider().create!(inputs(name));
            const { id, outs } = await withEnv({ LANGSMITH_ADOPT_IDS: `some-other-id, ${first.id}` }, () => provider().create!(inputs(name)));
            assert.equal(id, first.id);
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.equal(outs.adoptId, undefined, "the program did not set adoptId");
            assert.equal(named(name).length, 1);
        });

        it("delete: a deployment a create of this run took over (pulumi up --replace with LANGSMITH_ADOPT_IDS) is kept, with a warning", async () => {
            const name = uniqueName("replaced");
            const first = await provider().create!(inputs(name));
            const p = adoptable(deployment, provider());
            await withEnv({ LANGSMITH_ADOPT_IDS: first.id }, () => p.create!(inputs(name)));
            const warned = await stderrOf(() => p.delete!(first.id, { ...first.outs, __provider: "p" }));
            assert.match(warned, new RegExp(`Deployment ${first.id}: not deleted: a create of this run took it over`));
            assert.deepEqual(
                named(name).map((d) => [d.id, d.status]),
                [[first.id, "READY"]],
            );
        });

        it("create: a taken name says what to do when the stack is replacing its own deployment (pulumi up --replace)", async () => {
            const name = uniqueName("forced");
            await provider().create!(inputs(name));
            for (const repoUrl of [undefined, "https://github.com/acme/moved"]) {
                const err = await rejection(() => provider().create!(inputs(name, repoUrl)));
                assert.match(
                    err.message,
                    /being replaced \(`pulumi up --replace`, or `pulumi state taint`\), the old one must go first: set the resource option deleteBeforeReplace/,
                );
            }
        });

        it("create: a name held by a deployment of another repository cannot be this program's: the differing field named, no adoption offered", async () => {
            const name = uniqueName("taken");
            await provider().create!(inputs(name, "https://github.com/other/agent"));
            const err = await rejection(() => provider().create!(inputs(name)));
            assert.match(err.message, /cannot be this program's: sourceConfig.repoUrl is "https:\/\/github.com\/other\/agent" on the service/);
            assert.doesNotMatch(err.message, /LANGSMITH_ADOPT_IDS/);
            assert.equal(named(name).length, 1);
        });

        it("update: a PATCH the killed run sent is not sent again; the revision it made is waited on", async () => {
            const name = uniqueName("upd");
            const made = await provider().create!(inputs(name));
            const olds = { ...made.outs, __provider: "p" };
            // The killed update's PATCH reached the service; the state still holds `olds`.
            await cp().patchDeployment(made.id, { source_revision_config: { repo_ref: "release-2" } });
            const before = (await cp().listRevisions(made.id)).resources.length;
            const { outs } = await provider().update!(made.id, olds, inputs(name, undefined, "release-2"));
            const revisions = (await cp().listRevisions(made.id)).resources;
            assert.equal(revisions.length, before, "a second revision for one change");
            assert.equal(outs.latestRevisionId, revisions[0].id);
            assert.equal(outs.revisionStatus, "DEPLOYED");
        });
    });

    describe("exports", () => {
        const client = () => bulkExportClient(em);
        let minio: MinioServer;
        before(async () => {
            minio = await startMinio();
        });
        after(async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
            await minio?.stop();
        });
        const destination = (displayName: string) => ({
            displayName,
            config: { bucketName: "exports", prefix: "interrupted", endpointUrl: minio.endpoint, includeBucketInPrefix: false },
            credentials: { accessKeyId: minio.users.writeDelete.accessKeyId, secretAccessKey: minio.users.writeDelete.secretAccessKey },
        });
        const destinations = () => createExportDestinationProvider({ client });
        const parents = async (destinationId: string) =>
            (await client().listExports()).filter((x) => x.bulk_export_destination_id === destinationId && !x.source_bulk_export_id);

        it("ExportDestination: an identical destination (what a killed create leaves) is refused with its id and what to do; another displayName is made; LANGSMITH_ADOPT_IDS takes it over", async () => {
            const name = uniqueName("dest");
            const first = await destinations().create!(destination(name));
            const err = await rejection(() => destinations().create!(destination(name)));
            assert.ok(err.message.includes(`destination ${first.id}`), err.message);
            assert.ok(err.message.includes(`\`LANGSMITH_ADOPT_IDS=${first.id} pulumi up\``), err.message);
            assert.match(err.message, /another displayName/);
            assert.equal((await client().listDestinations()).filter((d) => d.display_name === name).length, 1, "a second destination was made");
            const other = await destinations().create!(destination(`${name} b`));
            assert.notEqual(other.id, first.id);
            const taken = await withEnv({ LANGSMITH_ADOPT_IDS: first.id }, () => destinations().create!(destination(name)));
            assert.equal(taken.id, first.id);
            assert.equal((await client().listDestinations()).filter((d) => d.display_name === name).length, 1, "a second destination was made");
        });

        it("ScheduledExport: the identical schedule a killed run left running is taken over with a warning, not made twice; a cancelled one is not", async () => {
            const { id: destinationId } = await destinations().create!(destination(uniqueName("sched")));
            const inputs = { destinationId, sessionId: PROJECT.session_id, startTime: PROJECT.start, intervalHours: 6, filter: 'eq(run_type, "llm")' };
            const first = await createScheduledExportProvider({ client }).create!(inputs);
            // The same request in another spelling of the same filter and instant: still the same export.
            const again = { ...inputs, startTime: "2026-10-01T00:00:00.000Z", filter: "eq(run_type, 'llm')" };
            let second: { id: string } | undefined;
            const warned = await stderrOf(async () => {
                second = await createScheduledExportProvider({ client }).create!(again);
            });
            assert.equal(second!.id, first.id);
            assert.match(
                warned,
                new RegExp(`ScheduledExport: export ${first.id} \\(IntervalScheduled, .*taken over instead of creating another.*--clear-pending-creates`, "s"),
            );
            assert.equal((await parents(destinationId)).length, 1, "two schedules would export every window twice");

            await client().cancelExport(first.id);
            const third = await createScheduledExportProvider({ client }).create!(inputs);
            assert.notEqual(third.id, first.id, "a cancelled export is not taken over");
            await client().cancelExport(third.id);
        });

        it("BulkExport: an identical one-off export still running is taken over; one with other export fields is another export", async () => {
            await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
            const { id: destinationId } = await destinations().create!(destination(uniqueName("once")));
            const inputs = {
                destinationId,
                sessionId: PROJECT.session_id,
                startTime: PROJECT.start,
                endTime: PROJECT.end,
                exportFields: ["id", "name"],
                waitForCompletion: false,
            };
            const p = createBulkExportProvider({ client, pollMs: () => 50 });
            const first = await p.create!(inputs);
            const second = await stderrOf(() => p.create!({ ...inputs, exportFields: ["name", "id"] }).then((r) => assert.equal(r.id, first.id)));
            assert.match(second, /BulkExport: export .* taken over/);
            const other = await p.create!({ ...inputs, exportFields: ["id"] });
            assert.notEqual(other.id, first.id);
            assert.equal((await parents(destinationId)).length, 2);
        });
    });
});
