/**
 * How ScheduledExport and BulkExport make an export: never a second one beside an identical export that has
 * not ended. Such an export is what an interrupted `pulumi up` left (the service made it, the state never
 * recorded it: docs/recovery.md); two would write every window twice, so it is taken over, with a warning. And
 * when a create had to be sent twice and the first attempt took effect late, the late one is cancelled (the
 * client finds it), with a warning.
 */
import type { BulkExportClient } from "../../api/bulkExport";
import type { BulkExportRecord, ExportCreateRequest } from "../../api/schemas/bulkExport";
import { tookOver } from "../../kit/adoption";
import { takenOverWarning } from "../../kit/interrupted";
import { warn } from "../../kit/warn";
import { rethrowExplained } from "./wire";

/** Creates the export `body` asks for (never sent twice blindly: the client reconciles), or takes over the identical running one. */
export async function startExport(be: BulkExportClient, body: ExportCreateRequest, resource: "ScheduledExport" | "BulkExport"): Promise<BulkExportRecord> {
    const running = await be.findRunningExport(body);
    if (running) {
        // Its delete in this run (a `pulumi up --replace` of the resource that holds it) is the new holder's: kept.
        tookOver();
        const what = body.interval_hours ? `a schedule every ${body.interval_hours} h from ${body.start_time}` : `${body.start_time} to ${body.end_time}`;
        await warn(
            takenOverWarning(
                `${resource}: export ${running.id} (${running.status}, created ${running.created_at ?? "?"}) is the one this resource asks for (${what}, to destination ${body.bulk_export_destination_id})`,
                "which would export the same windows a second time",
            ),
        );
        return running;
    }
    const { export: e, lateTwinCancelled: late } = await be.createExport(body).catch(rethrowExplained);
    if (late) {
        await warn(
            `${resource}: export ${late.id} was cancelled (${late.status}): the first attempt of this create, whose answer was lost, took effect after the second had made export ${e.id}; ` +
                "two would have exported every window twice.",
        );
    }
    return e;
}
