/**
 * The fixture of the bulk-export resources' provider tests (tests/provider/tracing/traceExport/provider.test.ts and
 * scheduledExport.test.ts): the hooks that start a real MinIO and an emulator with one tracing project per
 * file, the providers of ExportDestination, ScheduledExport and BulkExport over the emulator's bulk-export
 * API, and the inputs of a destination writing into MinIO's `exports` bucket.
 */
import { createBulkExportProvider } from "../../provider/tracing/bulkExport/provider";
import { createExportDestinationProvider } from "../../provider/tracing/exportDestination/provider";
import { createScheduledExportProvider } from "../../provider/tracing/scheduledExport/provider";
import { admin, bulkExportClient, startTestEmulator, type Emulator } from "./emulator";
import { startMinio, type MinioServer } from "./minio";

/** The emulator's one tracing project: 20,000 runs over the last quarter of 2026. */
export const PROJECT = {
    session_id: "55555555-0000-4000-8000-0000000000c1",
    seed: 5,
    start: "2026-10-01T00:00:00Z",
    end: "2026-12-31T00:00:00Z",
    count: 20_000,
};

/** What the `before` hook of `useBulkExportProviders` starts, once per describe. */
export interface BulkExportWorld {
    minio: MinioServer;
    em: Emulator;
}

/**
 * Registers, in the calling describe, the hooks of the bulk-export resources' provider tests: MinIO and
 * the emulator started for the describe, handed to `bind` (the file keeps them in variables of its
 * describe), and after each test the emulator's bulk-export failure rules cleared and its limits unpaused.
 * Answers the client and the providers over that emulator, and the inputs of a destination in MinIO.
 */
export function useBulkExportProviders(bind: (world: BulkExportWorld) => void) {
    let minio: MinioServer;
    let em: Emulator;
    const client = () => bulkExportClient(em);
    const destinations = () => createExportDestinationProvider({ client });
    const scheduled = () => createScheduledExportProvider({ client });
    const oneOff = () => createBulkExportProvider({ client, pollMs: () => 50 });

    const destinationInputs = (prefix: string, user = () => minio.users.writeDelete) => ({
        displayName: `dest ${prefix}`,
        config: { bucketName: "exports", prefix, endpointUrl: minio.endpoint, includeBucketInPrefix: false },
        credentials: { accessKeyId: user().accessKeyId, secretAccessKey: user().secretAccessKey },
    });
    const newDestination = async (prefix: string) => (await destinations().create(destinationInputs(prefix))).id;

    before(async () => {
        minio = await startMinio();
        em = await startTestEmulator({ bulkExport: { projects: [PROJECT] } });
        bind({ minio, em });
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
    });
    afterEach(async () => {
        await admin(em, "DELETE", "/bulk-exports/failure-rules");
        await admin(em, "PUT", "/bulk-exports/limits", { paused: false });
    });

    return { client, destinations, scheduled, oneOff, destinationInputs, newDestination };
}
