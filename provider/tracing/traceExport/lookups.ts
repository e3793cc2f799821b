/**
 * `getBulkExport`: how far an export has got, by its id (a `BulkExport`'s id, or a `ScheduledExport`'s `exportId`):
 * its status and, for a scheduled one, the windows it spawned by status and the end of the last one exported. These
 * are figures the service's clock moves, so no resource holds them as outputs (a refresh of a clean stack changes
 * nothing); a program or a CI job reads them here. One implementation behind both front doors. Nothing here changes
 * anything on the service.
 */
import type { BulkExportClient } from "../../api/bulkExport";
import { checkFunctionArgs } from "../../kit/check";
import { lookup, map, number, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";

export const getBulkExportFunction = lookup({
    name: "getBulkExport",
    description:
        "Looks up an export by its id (a `BulkExport`'s id, or a `ScheduledExport`'s `exportId`): its status and, for a scheduled export, the windows it spawned by status and the end of the last one exported; fails naming the id when the workspace holds no such export.",
    args: { id: string("The export's id.", { required: true }), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The export's id.", { required: true }),
        status: string("Its status (`Running`, `Completed`, `IntervalScheduled` while a schedule runs, `Cancelled`, `Failed`...).", { required: true }),
        sessionId: string("The tracing project it exports (absent: every experiment)."),
        destinationId: string("The destination it writes to.", { required: true }),
        startTime: string("The start of what it exports.", { required: true }),
        endTime: string("The end of what it exports (absent for a scheduled export)."),
        intervalHours: number("A scheduled export's interval (absent for a one-off)."),
        spawnedCount: number("The windows a scheduled export spawned so far (0 for a one-off).", { required: true }),
        spawnedStatuses: map('The spawned windows by status, e.g. `{"Completed": 3, "Running": 1}`.', number("A count."), { required: true }),
        lastWindowEnd: string("The end of the last spawned window that completed (absent before the first)."),
        finishedAt: string("When it finished (absent while it runs)."),
    },
});

export type GetBulkExportArgs = FunctionInputs<typeof getBulkExportFunction>;
export type GetBulkExportResult = FunctionResult<typeof getBulkExportFunction>;

export async function getBulkExport(be: BulkExportClient, args: GetBulkExportArgs): Promise<GetBulkExportResult> {
    checkFunctionArgs("getBulkExport", (c) => {
        c.str(args.id, "id", true);
    });
    const e = await be.tryGetExport(args.id);
    if (!e) throw new Error(`getBulkExport: the workspace holds no export of id ${JSON.stringify(args.id)}`);
    const spawned = (await be.listExports()).filter((x) => x.source_bulk_export_id === e.id);
    const spawnedStatuses: Record<string, number> = {};
    for (const s of spawned) spawnedStatuses[s.status] = (spawnedStatuses[s.status] ?? 0) + 1;
    const ends = spawned.filter((x) => x.status === "Completed").map((x) => Date.parse(x.end_time ?? ""));
    const last = ends.filter((t) => Number.isFinite(t)).sort((a, b) => b - a)[0];
    return {
        id: e.id,
        status: e.status,
        sessionId: e.session_id ?? undefined,
        destinationId: e.bulk_export_destination_id,
        startTime: e.start_time,
        endTime: e.end_time ?? undefined,
        intervalHours: e.interval_hours ?? undefined,
        spawnedCount: spawned.length,
        spawnedStatuses,
        lastWindowEnd: last === undefined ? undefined : new Date(last).toISOString(),
        finishedAt: e.finished_at ?? undefined,
    };
}
