/** Helpers of the bulk-export tests: waiting for an export's status through the provider's client. */
import type { BulkExportClient } from "../../provider/api/bulkExport";
import { isFinalExportStatus, type BulkExportRecord } from "../../provider/api/schemas/bulkExport";
import { sleep } from "./async";

/** Polls the export until `until` holds (default: a final status); answers it, or throws after `ms`. */
export async function settle(be: BulkExportClient, id: string, until = (e: BulkExportRecord) => isFinalExportStatus(e.status), ms = 30_000): Promise<BulkExportRecord> {
    const deadline = Date.now() + ms;
    for (;;) {
        const e = await be.getExport(id);
        if (until(e)) return e;
        if (Date.now() > deadline) throw new Error(`export ${id} still ${e.status} after ${ms} ms`);
        await sleep(50);
    }
}
