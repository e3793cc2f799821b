/**
 * `pulumi preview` of a stack of 50 scheduled exports (one destination, bench/programs/scheduled-exports),
 * with the real CLI against the emulator: wall time and API calls the emulator received, for
 *   - the first preview (nothing exists yet): every rule is checked locally, so it costs no call;
 *   - a preview after `up` with nothing changed: diff compares the state, no call;
 *   - `preview --refresh` (the CI drift check): one read per resource and the spawned-export listing;
 *   - the `up` that creates them, for scale.
 * Side by side: the cost a drift check adds over a plain preview is what refresh reads, which is what any
 * provider (the Terraform ones included: `terraform plan` refreshes by default) pays per resource.
 */
import { randomUUID } from "node:crypto";
import { startEmulator } from "../emulator/core/server";
import { createProject } from "../tests/helpers/project";
import { startMinio } from "../tests/helpers/minio";
import { printTable } from "./util";
import { join } from "node:path";

const COUNT = Number(process.env.BENCH_EXPORTS ?? 50);

export async function previewExportsBench(): Promise<void> {
    console.log(`\n== pulumi preview of ${COUNT} scheduled exports (real CLI, emulator over HTTP) ==`);
    const minio = await startMinio();
    const em = await startEmulator({ apiKeys: ["bench-key"], bulkExport: { limits: { paused: true } } });
    const project = createProject(join(__dirname, "programs", "scheduled-exports"));
    try {
        const tracing = em.bulkExport.model.addProject({ start: "2026-01-01T00:00:00Z", end: "2026-12-31T00:00:00Z", count: 1000 });
        const stack = `bench-${randomUUID().slice(0, 8)}`;
        await project.initStack(
            stack,
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:endpoint": em.url,
                "langsmith:workspaceId": randomUUID(),
                "scheduled-exports:count": String(COUNT),
                "scheduled-exports:bucket": "exports",
                "scheduled-exports:endpointUrl": minio.endpoint,
                "scheduled-exports:accessKeyId": minio.users.writeDelete.accessKeyId,
                "scheduled-exports:sessionId": tracing.session_id,
                "scheduled-exports:startTime": new Date(em.clock.now()).toISOString(),
            },
            { "langsmith:apiKey": "bench-key", "scheduled-exports:secretAccessKey": minio.users.writeDelete.secretAccessKey },
        );
        const rows = [["command", "wall s", "API calls"]];
        const measure = async (label: string, args: string[]) => {
            em.admin.requests = [];
            const r = await project.pulumi([...args, "--stack", stack]);
            const calls = em.admin.requests.filter((q) => !q.path.startsWith("/__admin")).length;
            rows.push([label, (r.ms / 1000).toFixed(1), String(calls)]);
        };
        await measure("preview (new stack)", ["preview"]);
        await measure("up", ["up", "--yes", "--skip-preview"]);
        await measure("preview (no change)", ["preview"]);
        await measure("preview --refresh", ["preview", "--refresh"]);
        printTable(rows);
        await project.pulumi(["destroy", "--yes", "--stack", stack]);
    } finally {
        await em.close();
        await minio.stop();
        project.remove();
    }
}
