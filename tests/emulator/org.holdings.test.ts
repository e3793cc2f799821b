/**
 * A workspace that holds bulk-export objects cannot be deleted (docs/service.md R7, decided): with a real
 * destination on MinIO and an export not yet finished, `DELETE /api/v1/workspaces/{id}` answers 409 naming
 * them; once the export is cancelled and the destination and the tracing project deleted, the workspace goes.
 */
import assert from "node:assert/strict";
import { admin, bulkExportClient, raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { creds } from "../helpers/bulkExportArea";
import { startMinio, type MinioServer } from "../helpers/minio";
import { newWorkspace } from "../helpers/org";

describe("emulator: a workspace holding bulk-export objects", function () {
    this.timeout(60_000);
    let minio: MinioServer;
    let em: Emulator;
    before(async () => {
        minio = await startMinio();
        em = await startTestEmulator();
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
    });

    it("delete: 409 naming the destination and the unfinished export; 200 once they and the project are gone", async () => {
        const ws = await newWorkspace(em);
        const be = bulkExportClient(em, { tenantId: ws });
        const project = (await raw(em, "POST", "/sessions", { tenantId: ws, body: { name: "exported" } })).body;
        const { destination } = await be.createDestination({
            destination_type: "s3",
            display_name: "held bucket",
            config: { bucket_name: "exports", prefix: "ls", endpoint_url: minio.endpoint },
            credentials: creds(minio.users.writeDelete),
        });
        await admin(em, "PUT", "/bulk-exports/limits", { paused: true });
        const { export: e } = await be.createExport({
            bulk_export_destination_id: destination.id,
            session_id: project.id,
            start_time: "2026-11-01T00:00:00Z",
            end_time: "2026-11-02T00:00:00Z",
        });
        const refused = await raw(em, "DELETE", `/api/v1/workspaces/${ws}`, { tenantId: ws });
        assert.equal(refused.status, 409);
        assert.match(
            refused.body.detail,
            new RegExp(`tracing projects \\[exported\\].*bulk-export destinations \\[held bucket\\].*bulk exports \\[${e.id}\\]`),
        );
        await be.cancelExport(e.id);
        assert.equal(await be.deleteDestination(destination.id), "deleted");
        await raw(em, "DELETE", `/sessions/${project.id}`, { tenantId: ws });
        await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
        const deleted = await raw(em, "DELETE", `/api/v1/workspaces/${ws}`, { tenantId: ws });
        assert.equal(deleted.status, 200, deleted.text);
    });
});
