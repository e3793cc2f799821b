/**
 * A `pulumi` CLI killed with SIGKILL in the middle of a run (a cancelled CI job), through the native plugin: the
 * program (programs/interrupted-py) makes two deployments, a destination, a scheduled export and a one-off export
 * against the emulator and MinIO. Each step kills the CLI once the service holds what the run was making
 * and the state does not (mid-create of the deployments and the destination, mid-create of the exports,
 * mid-update of a revision and of an export's re-creation, mid-destroy), then recovers as a user would
 * (`pulumi cancel` for the lock, `pulumi up`, and, where the error says so, `LANGSMITH_ADOPT_IDS=<ids> pulumi up`),
 * and counts on the emulator: every object in the state exactly once, none made
 * twice, no window exported twice, nothing left by `destroy`; and no provider process outliving the killed
 * CLI (docs/recovery.md). On the same stack, before the destroy: `pulumi up --replace` of a deployment, whose
 * name the old one holds until it is deleted (docs/deployment.md), and a deployment's wait ended by
 * `customTimeouts` and by Ctrl-C (SIGINT to the CLI) long before its build ends.
 *
 * One front door: what recovers (the refusals, LANGSMITH_ADOPT_IDS, the take-overs, kit/adoption.ts and
 * kit/interrupted.ts) is the registry's providers, which both doors serve. The TypeScript door ran every step
 * here too (programs/interrupted-ts) until issue 50; its own parts are tested where they are its own: the
 * dynamic-provider host hearing the engine's Cancel (a Ctrl-C) and `customTimeouts`, its warnings reaching the
 * engine, and its exit when the engine dies, in tests/provider/plugin/lifecycle.test.ts (the real host, over
 * gRPC); a TypeScript program's CLI killed mid-create, its refusal naming LANGSMITH_ADOPT_IDS and the take-in,
 * in tests/e2e/agentObjects.test.ts; its take-over warning printed by the CLI, in tests/e2e/prompts.test.ts.
 *
 * Its `pulumi` commands, on one stack: `stack init` and `config set-all`; a `config set` or `rm` before each step
 * that changes the program (cheap: no program runs); per step, the run that is killed (or ends by itself: the
 * timeout), `pulumi cancel` (the lock a killed run leaves), and the `up` (or `destroy`) that must converge, with
 * `stack export` to read the state. Beyond that, the first step's `up --continue-on-error` (the refusal that
 * names every object) and `refresh --clear-pending-creates` (the pending creates the engine keeps), the
 * replace's refused `up --replace` before the allowed one, and the timeout step's `up` back to two deployments.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { TracingProject } from "../../emulator/bulkExport/projects";
import { scaledTiming } from "../../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { isFinalExportStatus } from "../../provider/api/schemas/bulkExport";
import { createPythonProject, type PulumiProject } from "../helpers/project";
import { killedWhen } from "../helpers/cli";
import { spawnedSettled, windowsWritten } from "../helpers/bulkExport";
import { startMinio, type MinioServer } from "../helpers/minio";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";
const HOUR = 3_600_000;
const PROGRAMS = join(__dirname, "programs");

describe("e2e: a pulumi CLI killed mid-run loses nothing and doubles nothing", function () {
    this.timeout(15 * 60_000);
    let em: Emulator;
    let minio: MinioServer;
    let tracing: TracingProject;
    /** The schedule starts 20 whole hours ago: three 6-hour windows are due at once. */
    let start: number;

    before(async () => {
        minio = await startMinio();
        // Builds of about 14 s and deletes of 4 s: room to kill the CLI while it waits.
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "timed", phaseMs: scaledTiming(3).phaseMs, deleteMs: 4_000 } });
        start = Math.floor(Date.now() / HOUR) * HOUR - 20 * HOUR;
        tracing = em.bulkExport.model.addProject({
            start: new Date(start - 48 * HOUR).toISOString(),
            end: new Date(start + 30 * 24 * HOUR).toISOString(),
            count: 8_000,
            seed: 25,
        });
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
    });

    const faults = (list: unknown[]) =>
        fetch(`${em.url}/__admin/faults`, { method: "POST", body: JSON.stringify(list), headers: { "content-type": "application/json" } });
    const clearFaults = () => fetch(`${em.url}/__admin/faults`, { method: "DELETE" });
    const pauseExports = (paused: boolean) =>
        fetch(`${em.url}/__admin/bulk-exports/limits`, { method: "PUT", body: JSON.stringify({ paused }), headers: { "content-type": "application/json" } });

    describe("native plugin (Python)", () => {
        let project: PulumiProject;
        let stack: string;
        const workspace = randomUUID();
        const prefix = `kill-py-${randomUUID().slice(0, 6)}`;
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack], { allowFailure: true });

        before(async () => {
            project = createPythonProject(join(PROGRAMS, "interrupted-py"));
            stack = `kill-${randomUUID().slice(0, 8)}`;
            const name = "interrupted-py";
            await project.initStack(
                stack,
                {
                    "langsmith:controlPlaneUrl": em.url,
                    "langsmith:endpoint": em.url,
                    "langsmith:workspaceId": workspace,
                    [`${name}:prefix`]: prefix,
                    [`${name}:integrationId`]: INTEGRATION,
                    [`${name}:bucket`]: "exports",
                    [`${name}:s3Endpoint`]: minio.endpoint,
                    [`${name}:s3AccessKeyId`]: minio.users.writeDelete.accessKeyId,
                    [`${name}:tracingProjectId`]: tracing.session_id,
                    [`${name}:exportStart`]: new Date(start).toISOString(),
                    [`${name}:exportEnd`]: new Date(start + 6 * HOUR).toISOString(),
                },
                { "langsmith:apiKey": API_KEY, [`${name}:s3SecretAccessKey`]: minio.users.writeDelete.secretAccessKey },
            );
        });
        after(() => project?.remove());

        /** `pulumi <args>`, killed with SIGKILL once `ready` holds (tests/helpers/cli.ts); then `pulumi cancel` lifts the lock. */
        async function killed(args: string[], ready: () => boolean): Promise<void> {
            await killedWhen(project, [...args, "--stack", stack], ready);
            await cli("cancel", "--yes");
        }

        const deployments = () => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace && d.status !== "AWAITING_DELETE");
        /** A deployment's revisions, latest first. */
        const revisions = (id: string) => em.controlPlane.listRevisions(workspace, id, { limit: 100, offset: 0 }).resources;
        const destinations = () => [...em.bulkExport.model.destinations.values()].filter((d) => d.tenant_id === workspace);
        const parents = () => [...em.bulkExport.model.exports.values()].filter((e) => e.tenant_id === workspace && !e.source_bulk_export_id);
        const running = () => parents().filter((e) => !isFinalExportStatus(e.status));
        const state = async () => (await project.exportStack(stack)).deployment;
        const pendingCreates = async (): Promise<Array<{ urn: string; inputs: Record<string, any> }>> =>
            ((await state()).pending_operations ?? []).filter((o: any) => o.type === "creating").map((o: any) => o.resource);

        /** Every object live on the service is in the state exactly once, under the resource the program names. */
        async function assertConverged(): Promise<void> {
            const resources = ((await state()).resources ?? []).filter((r: any) => r.custom && !r.type.startsWith("pulumi:providers:"));
            const ids = resources.map((r: any) => r.outputs?.exportId ?? r.id).sort();
            assert.equal(new Set(ids).size, ids.length, `an object in the state twice: ${ids}`);
            const live = [...deployments().map((d) => d.id), ...destinations().map((d) => d.id), ...running().map((e) => e.id)];
            const oneOff = parents().find((e) => e.end_time);
            if (oneOff && isFinalExportStatus(oneOff.status)) live.push(oneOff.id);
            assert.deepEqual(ids, live.sort(), "the state and the service hold different objects");
            assert.equal(deployments().length, 2, "deployments made twice or lost");
            assert.equal(destinations().length, 1, "destinations made twice or lost");
            assert.ok(running().filter((e) => e.interval_hours).length <= 1, "two schedules running: every window exported twice");
        }

        it("killed while creating the deployments and the destination: the next up (--continue-on-error) names them all and what to do; one LANGSMITH_ADOPT_IDS run takes them in and up converges", async () => {
            await faults([
                // The destination shows up 1.5 s after its POST, whose answer is lost; its list answers slowly.
                { method: "POST", path: "^/api/v1/bulk-exports/destinations$", kind: "drop", when: "during", latencyMs: 1_500 },
                { method: "GET", path: "^/api/v1/bulk-exports/destinations$", kind: "latency", latencyMs: 3_000, forMs: 60_000 },
            ]);
            await killed(["up", "--yes", "--skip-preview"], () => deployments().length === 2 && destinations().length === 1);
            await clearFaults();
            assert.equal((await pendingCreates()).length >= 3, true, "the kill left pending creates");

            // The recipe of docs/recovery.md: every create runs, so that one run names every object to take in.
            const up = await cli("up", "--yes", "--skip-preview", "--continue-on-error");
            assert.notEqual(up.code, 0);
            const text = up.stdout + up.stderr;
            assert.match(text, /`pulumi up --continue-on-error` runs every create/, "the refusal says how to meet them all in one run");
            assert.match(text, /409 Conflict: Deployment with name kill-\S+-d0 already exists/);
            assert.match(text, /the workspace already holds destination/);
            assert.equal(deployments().length, 2, "a deployment made twice");
            assert.equal(destinations().length, 1, "a destination made twice");
            const ids = [...deployments(), ...destinations()].map((o) => o.id);
            for (const id of ids) assert.ok(text.includes(`LANGSMITH_ADOPT_IDS=${id} pulumi up`), `no way to take ${id} in:\n${text}`);

            // The person running it says they are this stack's: the next up takes them in and converges.
            const taken = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], {
                allowFailure: true,
                env: { LANGSMITH_ADOPT_IDS: ids.join(",") },
            });
            assert.equal(taken.code, 0, taken.stdout + taken.stderr);
            await assertConverged();
            // Pulumi keeps the killed run's pending creates until a refresh clears them.
            assert.equal((await pendingCreates()).length >= 3, true);
            const refresh = await cli("refresh", "--yes", "--skip-preview", "--clear-pending-creates");
            assert.equal(refresh.code, 0, refresh.stdout + refresh.stderr);
            assert.equal((await pendingCreates()).length, 0);
            await assertConverged();
        });

        it("killed while creating the exports: the next up takes the running ones over with a warning, none made twice", async () => {
            await cli("config", "set", "exports", "true");
            await pauseExports(true);
            // Each create's answer comes slowly once the export is made (and the reads a BulkExport waits with): room to
            // kill once both exports exist, before the state records them.
            await faults([
                { method: "POST", path: "^/api/v1/bulk-exports$", kind: "latency", latencyMs: 3_000, when: "after", forMs: 60_000 },
                { method: "GET", path: "^/api/v1/bulk-exports(/[^/]+/runs)?$", kind: "latency", latencyMs: 3_000, forMs: 60_000 },
            ]);
            await killed(["up", "--yes", "--skip-preview"], () => parents().length === 2);
            await clearFaults();
            const up = await cli("up", "--yes", "--skip-preview");
            await pauseExports(false);
            assert.equal(up.code, 0, up.stdout + up.stderr);
            assert.match(up.stdout + up.stderr, /ScheduledExport: export \S+ .*taken over instead of creating another/);
            assert.match(up.stdout + up.stderr, /BulkExport: export \S+ .*taken over instead of creating another/);
            assert.equal(parents().length, 2, "an export made twice");
            await assertConverged();
        });

        it("killed mid-update, a revision in flight: the next up waits on it, no second revision", async () => {
            await cli("config", "set", "repoRef", "release-2");
            await killed(["up", "--yes", "--skip-preview"], () => deployments().every((d) => revisions(d.id).length === 2));
            const up = await cli("up", "--yes", "--skip-preview");
            assert.equal(up.code, 0, up.stdout + up.stderr);
            for (const d of deployments()) {
                assert.equal(revisions(d.id).length, 2, `deployment ${d.name}: a revision made twice`);
                assert.equal(revisions(d.id)[0].source_revision_config.repo_ref, "release-2");
                assert.equal(revisions(d.id)[0].status, "DEPLOYED");
            }
            await assertConverged();
        });

        it("killed while an export is re-created: the next up takes the new one over; each window is exported once", async () => {
            await cli("config", "set", "filter", 'eq(run_type, "llm")');
            await faults([{ method: "GET", path: "^/api/v1/bulk-exports$", kind: "latency", latencyMs: 3_000, forMs: 60_000 }]);
            const before = parents().length;
            await killed(["up", "--yes", "--skip-preview"], () => parents().length === before + 1);
            await clearFaults();
            const up = await cli("up", "--yes", "--skip-preview");
            assert.equal(up.code, 0, up.stdout + up.stderr);
            assert.equal(parents().length, before + 1, "the new export made twice");
            await assertConverged();
            await spawnedSettled(em, workspace);
            const written = await windowsWritten(em, minio, tracing, workspace, prefix);
            assert.ok(written.length >= 3, `windows: ${written.length}`);
            for (let i = 1; i < written.length; i++)
                assert.ok(written[i].start >= written[i - 1].end, `window ${new Date(written[i].start).toISOString()} exported twice`);
            for (const w of written) assert.equal(w.rows, w.expected, `window ${new Date(w.start).toISOString()}`);
        });

        // The refusal and the replacement are the registry's wrappers (kit/adoption.ts), the same in both doors,
        // and tests/provider/kit/registered.test.ts replaces every resource through them; this case adds the
        // engine's own --replace flow, which the doors share.
        it("pulumi up --replace of a deployment: refused with the way out (deleteBeforeReplace), nothing made or lost; with the option, replaced once", async () => {
            const urn = ((await state()).resources as Array<{ urn: string }>).find((r) => r.urn.endsWith("Deployment::d0"))!.urn;
            const before = deployments().map((d) => d.id);
            const refused = await cli("up", "--yes", "--skip-preview", "--replace", urn);
            assert.notEqual(refused.code, 0, refused.stdout + refused.stderr);
            assert.match(refused.stdout, /being replaced \(`pulumi up --replace`.*set the resource option deleteBeforeReplace/);
            assert.deepEqual(
                deployments().map((d) => d.id),
                before,
                "a refused replace changed the deployments",
            );
            await cli("config", "set", "deleteBeforeReplace", "true");
            const up = await cli("up", "--yes", "--skip-preview", "--replace", urn);
            await cli("config", "rm", "deleteBeforeReplace");
            assert.equal(up.code, 0, up.stdout + up.stderr);
            const now = ((await state()).resources as Array<{ urn: string; id: string }>).find((r) => r.urn === urn)!.id;
            assert.ok(!before.includes(now), "the deployment was not replaced");
            assert.equal(deployments().length, 2);
            await assertConverged();
        });

        it("customTimeouts and Ctrl-C end a deployment's wait within seconds, not at the end of the build; it stays in the stack and the next up resumes it", async () => {
            const named = (i: number) => deployments().find((d) => d.name === `${prefix}-d${i}`);
            const statusOf = (i: number) => revisions(named(i)!.id)[0].status;
            const inState = async (i: number) =>
                ((await state()).resources as Array<{ urn: string; id: string }>).find((r) => r.urn.endsWith(`Deployment::d${i}`))?.id;
            await cli("config", "set", "deployments", "3");
            await cli("config", "set", "createTimeout", "2s");
            const timedOut = await cli("up", "--yes", "--skip-preview");
            assert.notEqual(timedOut.code, 0, timedOut.stdout + timedOut.stderr);
            assert.match(timedOut.stdout, /timed out after 2s/);
            assert.notEqual(statusOf(2), "DEPLOYED", "the wait went on to the end of the build");
            assert.equal(await inState(2), named(2)!.id);

            await cli("config", "rm", "createTimeout");
            await cli("config", "set", "deployments", "4");
            const interrupted = await killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", stack], () => named(3) !== undefined, "SIGINT");
            assert.notEqual(statusOf(3), "DEPLOYED", "Ctrl-C waited for the build");
            assert.match(interrupted.stdout, /cancelled/);
            // The engine stops the language host with SIGINT to its process group: the program ends without
            // a traceback (Python: scripts/language-host/pulumi-language-python-exec, issue 43, which
            // tests/e2e/python.test.ts checks in twenty failed previews).
            assert.doesNotMatch(interrupted.stdout + interrupted.stderr, /Traceback|KeyboardInterrupt/, "a normal cancel printed a traceback");
            assert.equal(await inState(3), named(3)!.id);

            const up = await cli("up", "--yes", "--skip-preview");
            assert.equal(up.code, 0, up.stdout + up.stderr);
            assert.deepEqual([2, 3].map(statusOf), ["DEPLOYED", "DEPLOYED"]);
            assert.deepEqual(
                [2, 3].map((i) => revisions(named(i)!.id).length),
                [1, 1],
                "a revision made twice",
            );
            await cli("config", "set", "deployments", "2");
            assert.equal((await cli("up", "--yes", "--skip-preview")).code, 0);
            await assertConverged();
        });

        it("killed mid-destroy: the next destroy finishes it; nothing is left on the service", async () => {
            await killed(["destroy", "--yes", "--skip-preview"], () =>
                em.controlPlane.allDeployments().some((d) => d.tenant_id === workspace && d.status === "AWAITING_DELETE"),
            );
            const destroy = await cli("destroy", "--yes", "--skip-preview");
            assert.equal(destroy.code, 0, destroy.stdout + destroy.stderr);
            assert.deepEqual(deployments(), []);
            assert.deepEqual(destinations(), []);
            assert.deepEqual(running(), []);
            assert.deepEqual(
                ((await state()).resources ?? []).filter((r: any) => r.custom && !r.type.startsWith("pulumi:providers:")),
                [],
            );
        });
    });
});
