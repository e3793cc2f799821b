/**
 * The ScheduledExport's dynamic provider. Exports cannot be edited on the service, so a change cancels
 * the running scheduled export and creates a new one, inside `update`: the resource keeps its id (the
 * first export's), `exportId` names the current export, and the new export starts where the old one's
 * last spawned window ended, so no window is exported twice and none is skipped (`startTime` is where
 * the schedule began, not a trigger to start again; moving it later than what was covered leaves that
 * gap on purpose). Spawned exports of the old one that are still running finish their windows.
 *
 * `read` notices an export cancelled or failed outside Pulumi: `diff` then proposes an update that
 * re-creates it, resuming after the last covered window the same way. `delete` cancels the current
 * export and, with `cancelSpawnedOnDelete`, its spawned exports that are not final.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { BulkExportClient } from "../../api/bulkExport";
import { isFinalExportStatus, type BulkExportRecord } from "../../api/schemas/bulkExport";
import { diffByTable, prune, type DiffRow } from "../common/compare";
import { ResourceInitError, messageOf } from "../common/initError";
import { bulkExportClient, checkWithConfig, configure } from "../runtime";
import { checkScheduledExport } from "./check";
import { SCHEMA_VERSION, type ScheduledExportInputs, type ScheduledExportOutputs } from "./types";
import { explain, exportInputsFromService, exportRequest } from "./wire";

/** Every field of the export itself: a change re-creates it (in `update`, under the same resource id). */
export const SCHEDULED_EXPORT_DIFF: { replaceOn: readonly DiffRow[]; updateOn: readonly DiffRow[] } = {
    replaceOn: [],
    updateOn: [
        ...(["destinationId", "sessionId", "startTime", "intervalHours", "filter", "exportFields", "formatVersion", "compression"] as const).map(
            (k): DiffRow => [k, (i) => (k === "formatVersion" ? (i[k] ?? "v1") : i[k])],
        ),
        ["cancelSpawnedOnDelete", (i) => i.cancelSpawnedOnDelete ?? false],
    ],
};
/** Changes that only this provider keeps: no new export. */
const LOCAL_ONLY = ["cancelSpawnedOnDelete"];

/** What the schedule's exports have covered: the spawned exports of `e`, the last window's end. */
async function coverage(be: BulkExportClient, e: BulkExportRecord): Promise<{ spawned: BulkExportRecord[]; lastWindowEnd: string | null }> {
    const spawned = (await be.listExports()).filter((x) => x.source_bulk_export_id === e.id);
    const ends = spawned.map((x) => Date.parse(x.end_time ?? "")).filter((t) => Number.isFinite(t));
    return { spawned, lastWindowEnd: ends.length ? new Date(Math.max(...ends)).toISOString() : null };
}

async function outputs(be: BulkExportClient, inputs: ScheduledExportInputs, e: BulkExportRecord, history: { previousExportIds: string[]; effectiveStartTime: string; lastWindowEnd?: string | null }): Promise<ScheduledExportOutputs> {
    const { spawned, lastWindowEnd } = await coverage(be, e);
    const spawnedStatuses: Record<string, number> = {};
    for (const s of spawned) spawnedStatuses[s.status] = (spawnedStatuses[s.status] ?? 0) + 1;
    return {
        ...inputs,
        schemaVersion: SCHEMA_VERSION,
        exportId: e.id,
        effectiveStartTime: history.effectiveStartTime,
        previousExportIds: history.previousExportIds,
        status: e.status,
        spawnedCount: spawned.length,
        lastWindowEnd: lastWindowEnd ?? history.lastWindowEnd ?? null,
        spawnedStatuses,
    };
}

export function createScheduledExportProvider(o: { client?: () => BulkExportClient } = {}): pulumi.dynamic.ResourceProvider {
    const client = o.client ?? (() => bulkExportClient());

    async function start(be: BulkExportClient, inputs: ScheduledExportInputs, from: string): Promise<BulkExportRecord> {
        const { export: e } = await be.createExport(exportRequest(inputs, { intervalHours: inputs.intervalHours, start: from })).catch((err) => {
            throw explain(err);
        });
        return e;
    }

    return {
        async configure(req) {
            configure(req);
        },
        async check(_olds, news) {
            return checkWithConfig(() => checkScheduledExport(news));
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(SCHEDULED_EXPORT_DIFF, olds, news);
            // Cancelled or failed outside Pulumi (seen by refresh): an update re-creates it.
            const stopped = typeof olds.status === "string" && isFinalExportStatus(olds.status);
            return { changes: changes || stopped, replaces, detailedDiff: stopped && !updates.length ? { status: { kind: "update" } } : undefined };
        },
        async create(raw) {
            const inputs = raw as unknown as ScheduledExportInputs;
            const be = client();
            const e = await start(be, inputs, inputs.startTime);
            try {
                return { id: e.id, outs: await outputs(be, inputs, e, { previousExportIds: [], effectiveStartTime: inputs.startTime }) };
            } catch (err) {
                throw new ResourceInitError(messageOf(err), e.id, { ...inputs, exportId: e.id, status: e.status, __provider: raw.__provider });
            }
        },
        async read(id, props) {
            const be = client();
            const recorded = (props ?? {}) as unknown as ScheduledExportOutputs;
            const e = await be.tryGetExport(recorded.exportId ?? id);
            if (!e) return {};
            const inputs = { ...recorded, ...exportInputsFromService(e, recorded), intervalHours: e.interval_hours ?? recorded.intervalHours } as ScheduledExportInputs;
            const program = pickInputs(inputs);
            const outs = await outputs(be, program, e, { previousExportIds: recorded.previousExportIds ?? [], effectiveStartTime: recorded.effectiveStartTime ?? recorded.startTime, lastWindowEnd: recorded.lastWindowEnd });
            return { id, props: outs, inputs: { ...program } };
        },
        async update(id, oldsRaw, newsRaw) {
            const olds = oldsRaw as unknown as ScheduledExportOutputs;
            const news = newsRaw as unknown as ScheduledExportInputs;
            const be = client();
            const current = await be.tryGetExport(olds.exportId ?? id);
            const history = { previousExportIds: olds.previousExportIds ?? [], effectiveStartTime: olds.effectiveStartTime ?? olds.startTime, lastWindowEnd: olds.lastWindowEnd };
            const { updates } = diffByTable(SCHEDULED_EXPORT_DIFF, olds, news);
            const recreate = !current || isFinalExportStatus(current.status) || updates.some((u) => !LOCAL_ONLY.includes(u));
            if (!recreate) return { outs: await outputs(be, news, current!, history) };
            return { outs: await recreateExport(be, id, olds, news, current, history, start, newsRaw.__provider) };
        },
        async delete(id, props) {
            const recorded = props as unknown as ScheduledExportOutputs;
            const be = client();
            const current = await be.tryGetExport(recorded.exportId ?? id);
            if (current && !isFinalExportStatus(current.status)) await be.cancelExport(current.id).catch((e) => rethrowUnlessFinal(e));
            if (!recorded.cancelSpawnedOnDelete || !current) return;
            for (const s of (await coverage(be, current)).spawned) {
                if (!isFinalExportStatus(s.status)) await be.cancelExport(s.id).catch((e) => rethrowUnlessFinal(e));
            }
        },
    };
}

/**
 * Cancels the current export (when it still runs) and starts the new one after the last covered window.
 * Once the old one is cancelled, any failure is recorded with the old export as stopped, so the next
 * `up` re-creates it instead of losing track.
 */
async function recreateExport(
    be: BulkExportClient,
    id: string,
    olds: ScheduledExportOutputs,
    news: ScheduledExportInputs,
    current: BulkExportRecord | undefined,
    history: { previousExportIds: string[]; effectiveStartTime: string; lastWindowEnd?: string | null },
    start: (be: BulkExportClient, inputs: ScheduledExportInputs, from: string) => Promise<BulkExportRecord>,
    rawProvider: unknown,
): Promise<ScheduledExportOutputs> {
    let covered = history.lastWindowEnd ?? null;
    if (current) {
        if (!isFinalExportStatus(current.status)) await be.cancelExport(current.id).catch((e) => rethrowUnlessFinal(e));
        covered = (await coverage(be, current)).lastWindowEnd ?? covered;
    }
    // Resume after what was covered; a later startTime than that is the program's choice (a gap it asked for).
    const from = covered && Date.parse(covered) > Date.parse(news.startTime) ? covered : news.startTime;
    const previous = [...history.previousExportIds, ...(current ? [current.id] : [olds.exportId].filter(Boolean))];
    let e: BulkExportRecord;
    try {
        e = await start(be, news, from);
    } catch (err) {
        const kept = { ...olds, status: "Cancelled", lastWindowEnd: covered, __provider: rawProvider };
        throw new ResourceInitError(`${messageOf(err)}. The previous export ${olds.exportId} is cancelled; run \`pulumi up\` again to start the new one.`, id, kept);
    }
    return outputs(be, news, e, { previousExportIds: previous, effectiveStartTime: from, lastWindowEnd: covered });
}

/** A cancel answered 400 because the export became final meanwhile is no failure. */
function rethrowUnlessFinal(e: unknown): void {
    if (e instanceof Error && /cannot be cancelled|already|final/i.test(e.message)) return;
    throw explain(e);
}

function pickInputs(i: ScheduledExportInputs): ScheduledExportInputs {
    const { destinationId, sessionId, startTime, intervalHours, filter, exportFields, formatVersion, compression, cancelSpawnedOnDelete } = i;
    return prune({ destinationId, sessionId, startTime, intervalHours, filter, exportFields, formatVersion, compression, cancelSpawnedOnDelete });
}

export const scheduledExportProvider = createScheduledExportProvider();
