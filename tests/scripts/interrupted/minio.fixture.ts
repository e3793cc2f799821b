/**
 * One of the two test files of the run tests/scripts/interruptedRun.test.ts stops (not a `*.test.ts`): a MinIO server
 * with its data directory, as the bulk-export tests start it (tests/helpers/minio.ts), then a wait for the signal.
 */
import { startMinio } from "../../helpers/minio";

describe("a run to stop: MinIO", function () {
    this.timeout(0);
    it("a MinIO server and its data, then the wait for the signal", async () => {
        const minio = await startMinio();
        console.log(`READY minio ${minio.dataDir}`);
        await new Promise(() => {});
    });
});
