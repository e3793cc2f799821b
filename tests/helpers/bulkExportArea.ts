/**
 * The fixture of the emulator's bulk-export area tests (tests/emulator/bulkExport/area*.test.ts): a MinIO,
 * an emulator with a generated tracing project and a `--state-dir`, the provider's bulk-export client, the
 * limits and failure rules put back after each test, and the request bodies those tests build.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BulkExportClient } from "../../provider/api/bulkExport";
import type { DestinationCreateRequest } from "../../provider/api/schemas/bulkExport";
import { admin, bulkExportClient, startTestEmulator, type Emulator } from "./emulator";
import { startMinio, type MinioServer, type S3Credentials } from "./minio";

/** The tracing project the emulator generates runs for. */
export const PROJECT = {
    session_id: "55555555-0000-4000-8000-00000000000a",
    seed: 3,
    start: "2026-11-01T00:00:00Z",
    end: "2026-11-04T00:00:00Z",
    count: 3_000,
};

export const creds = (c: S3Credentials) => ({ access_key_id: c.accessKeyId, secret_access_key: c.secretAccessKey });

/** What the hooks made: set before the tests run. */
export interface AreaFixture {
    minio: MinioServer;
    em: Emulator;
    be: BulkExportClient;
    stateDir: string;
    /** A destination on the MinIO bucket `exports` (prefix `ls`), `over` changing its config. */
    destinationBody(over?: Partial<DestinationCreateRequest["config"]>, c?: S3Credentials | null): DestinationCreateRequest;
    newDestination(over?: Partial<DestinationCreateRequest["config"]>): Promise<string>;
    /** Creates an export while the worker is paused, with failure rules for it in place before it starts. */
    exportFailing(body: Parameters<BulkExportClient["createExport"]>[0], rule: { kind: string; times: number; afterFiles?: number }): Promise<{ id: string }>;
}

/** Registers the hooks (inside the caller's describe) and answers the fixture they fill. */
export function useBulkExportArea(): AreaFixture {
    const f = {} as AreaFixture;
    f.destinationBody = (over = {}, c = f.minio.users.writeDelete) => ({
        destination_type: "s3",
        display_name: "traces bucket",
        config: { bucket_name: "exports", prefix: "ls", endpoint_url: f.minio.endpoint, ...over },
        credentials: c ? creds(c) : undefined,
    });
    f.newDestination = async (over = {}) => (await f.be.createDestination(f.destinationBody(over))).destination.id;
    f.exportFailing = async (body, rule) => {
        await admin(f.em, "PUT", "/bulk-exports/limits", { paused: true });
        const { export: e } = await f.be.createExport(body);
        await admin(f.em, "POST", "/bulk-exports/failure-rules", { ...rule, exportId: e.id });
        await admin(f.em, "PUT", "/bulk-exports/limits", { paused: false });
        return e;
    };
    before(async () => {
        f.minio = await startMinio();
        f.stateDir = mkdtempSync(join(tmpdir(), "bulk-export-state-"));
        f.em = await startTestEmulator({ bulkExport: { stateDir: f.stateDir, projects: [PROJECT] } });
        f.be = bulkExportClient(f.em);
    });
    after(async () => {
        await f.em?.close();
        await f.minio?.stop();
        if (f.stateDir) rmSync(f.stateDir, { recursive: true, force: true });
    });
    afterEach(async () => {
        await admin(f.em, "DELETE", "/bulk-exports/failure-rules");
        await admin(f.em, "PUT", "/bulk-exports/limits", { retryDelayMs: 30_000, retries: 20, exportsPerWorkspace: 15, paused: false, rowsPerFile: 50_000 });
    });
    return f;
}
