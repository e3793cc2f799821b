/**
 * The ScheduledExport's dynamic provider. Exports cannot be edited on the service, so a change cancels
 * the running scheduled export and creates a new one, inside `update`: the resource keeps its id (the
 * first export's), `exportId` names the current export, and `previousExportIds` the cancelled ones.
 *
 * Continuity is per stream, a tracing project exported to a place (the endpoint, bucket and prefix a
 * destination writes to, not the destination's id: a destination replaced by one writing to the same place,
 * a renamed one say, continues the stream): the new export starts where the resource's exports last covered
 * that stream (`coverage`), so no window of a project is exported twice to a place and none is skipped; a
 * stream never exported starts at `startTime`, unless `resumeAtNewDestination` says the new place only gets
 * the windows not exported yet. `startTime` is where the schedule began, not a trigger to start again;
 * moving it later than what was covered leaves that gap on purpose. Spawned exports of the old one that are
 * still running finish their windows. A failed window counts as covered only once retried: failed windows
 * at the end of what an export spawned are exported again by the next export (once: `retriedFrom`).
 *
 * Nothing is lost: once the old export is cancelled, or the new one exists, every failure is recorded
 * (ResourceInitError) with what is really running, so the next `up` carries on with it instead of making
 * a second one. `read` notices an export cancelled or failed outside Pulumi: `diff` then proposes an
 * update that re-creates it, resuming the same way. `delete` cancels every export the resource made and,
 * with `cancelSpawnedOnDelete`, every export they spawned that is not final.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderOf } from "../../kit/declare";
import type { BulkExportClient } from "../../api/bulkExport";
import { isFinalExportStatus, type BulkExportRecord, type Destination } from "../../api/schemas/bulkExport";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { ResourceInitError, messageOf } from "../../kit/initError";
import { declaredInputs } from "../../kit/declare";
import { UNKNOWN, known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { Service } from "../../kit/service";
import { checkScheduledExport } from "../traceExport/check";
import { SCHEMA_VERSION, scheduledExport, type ScheduledExportInputs, type ScheduledExportOutputs } from "./declare";
import { startExport } from "../traceExport/start";
import { configFromService, explain, exportInputsFromService, exportRequest, leftOutUnmanaged } from "../traceExport/wire";
import { inItsWorkspace } from "../../kit/workspace";

/** Every field of the export itself: a change re-creates it (in `update`, under the same resource id). */
export const SCHEDULED_EXPORT_DIFF = diffTableOf(scheduledExport.inputs);
/** Changes that only this provider keeps: no new export. */
const LOCAL_ONLY = ["cancelSpawnedOnDelete", "resumeAtNewDestination"];

/** What a schedule carries from export to export. */
interface History {
    previousExportIds: string[];
    effectiveStartTime: string;
    /** End of the last exported window per stream (`streamOf`). */
    coverage: Record<string, string>;
    /** Per stream, the start of the failed windows a re-created export already exported again. */
    retriedFrom: Record<string, string>;
}

/** Where each destination writes, by id (fixed for a destination: a change of config replaces it). */
const places = new Map<string, string>();

/** The place a destination writes to: endpoint (AWS S3 when none), bucket and the key prefix its files get. */
export function placeOf(d: Destination): string {
    const c = configFromService(d);
    const keys = [c.includeBucketInPrefix ? c.bucketName : "", c.prefix ?? ""].join("/").split("/").filter(Boolean).join("/");
    return `${(c.endpointUrl ?? "s3:/").replace(/\/+$/, "").toLowerCase()}/${c.bucketName}/${keys}`;
}

/**
 * The stream an export writes: a tracing project into a place (`<place>#<project>`). States written before
 * places keyed it by the destination's id (`<destination id>/<project>`): so is the stream of a destination
 * that no longer exists.
 */
async function streamOf(be: BulkExportClient, i: { destinationId: string; sessionId: string }): Promise<string> {
    let place = places.get(i.destinationId);
    if (!place) {
        const d = await be.tryGetDestination(i.destinationId);
        if (!d) return `${i.destinationId}/${i.sessionId}`;
        places.set(i.destinationId, (place = placeOf(d)));
    }
    return `${place}#${i.sessionId}`;
}

/** `coverage` with each key of an earlier version (`<destination id>/<project>`) moved to its place, where that destination still exists. */
async function byPlace(be: BulkExportClient, coverage: Record<string, string>): Promise<Record<string, string>> {
    let out: Record<string, string> = {};
    for (const [key, end] of Object.entries(coverage)) {
        const legacy = !key.includes("#") && /^([^/]+)\/(.+)$/.exec(key);
        out = covered(out, legacy ? await streamOf(be, { destinationId: legacy[1], sessionId: legacy[2] }) : key, end);
    }
    return out;
}

/** The later of two ISO instants (either may be missing). */
function later(a: string | null | undefined, b: string | null | undefined): string | undefined {
    if (!a || !b) return a ?? b ?? undefined;
    return Date.parse(a) >= Date.parse(b) ? a : b;
}

/** Coverage with `end` recorded for `stream` (when later than what it had). */
function covered(coverage: Record<string, string>, stream: string, end: string | null | undefined): Record<string, string> {
    const until = later(coverage[stream], end);
    return until ? { ...coverage, [stream]: until } : coverage;
}

/**
 * The history stored outputs carry (keyed as they were written: see `byPlace`); states written before `coverage` existed
 * knew one stream only, its end as `lastWindowEnd` (an output until 0.2.0).
 */
function historyOf(stored: Partial<ScheduledExportOutputs>): History {
    const o = stored as Partial<ScheduledExportOutputs> & { lastWindowEnd?: string | null };
    return {
        previousExportIds: o.previousExportIds ?? [],
        effectiveStartTime: o.effectiveStartTime ?? o.startTime ?? "",
        coverage: o.coverage ?? (o.lastWindowEnd && o.destinationId && o.sessionId ? { [`${o.destinationId}/${o.sessionId}`]: o.lastWindowEnd } : {}),
        retriedFrom: o.retriedFrom ?? {},
    };
}

/** A spawned window that exported nothing (it failed past the service's retries, or was cancelled). */
const exportedNothing = (x: BulkExportRecord) => x.status === "Failed" || x.status === "Cancelled";
const endOf = (xs: BulkExportRecord[]) => {
    const ends = xs.map((x) => Date.parse(x.end_time ?? "")).filter((t) => Number.isFinite(t));
    return ends.length ? new Date(Math.max(...ends)).toISOString() : null;
};

/** The spawned exports of `e`. */
const spawnedBy = async (be: BulkExportClient, e: BulkExportRecord) => (await be.listExports()).filter((x) => x.source_bulk_export_id === e.id);

/**
 * How far the windows `spawned` covered, for an export being replaced: every window that did not fail (those
 * still running finish), and the failed ones after the last of those only when already retried once
 * (starting at or before `retriedFrom`). Answers the end, and the start of the failed windows that the next
 * export exports again, if any.
 */
function coveredBy(spawned: BulkExportRecord[], retriedFrom: string | undefined): { until: string | null; retryFrom?: string } {
    const byStart = [...spawned].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
    const lastGood = byStart.map(exportedNothing).lastIndexOf(false);
    const tail = byStart.slice(lastGood + 1);
    if (!tail.length || (retriedFrom && Date.parse(tail[0].start_time) <= Date.parse(retriedFrom))) return { until: endOf(byStart) };
    return { until: endOf(byStart.slice(0, lastGood + 1)), retryFrom: tail[0].start_time };
}

/**
 * The outputs of a schedule whose current export is `e`: what its configuration and history make, never how far
 * the export has got (the windows it spawned move with the service's clock: `getBulkExport` reads them, and an
 * update reads them itself before it re-creates the export: `historyWith`), so that a refresh changes nothing.
 */
function stateOf(inputs: ScheduledExportInputs, e: Pick<BulkExportRecord, "id" | "status">, history: History): ScheduledExportOutputs {
    return {
        ...inputs,
        schemaVersion: SCHEMA_VERSION,
        exportId: e.id,
        effectiveStartTime: history.effectiveStartTime,
        previousExportIds: history.previousExportIds,
        status: e.status,
        coverage: history.coverage,
        retriedFrom: history.retriedFrom,
    };
}

/** Creates the scheduled export of `inputs` starting at `from`, or takes over the identical one an interrupted run left (start.ts). */
const start = (be: BulkExportClient, inputs: ScheduledExportInputs, from: string): Promise<BulkExportRecord> =>
    startExport(be, exportRequest(scheduledExport, inputs, { start: from }), "ScheduledExport");

export function createScheduledExportProvider(o: { client?: () => BulkExportClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.tracing());
    const provider: ProviderOf<typeof scheduledExport> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkScheduledExport(news), "tracing");
        },
        async diff(id, olds, news) {
            const table = diffByTable(SCHEDULED_EXPORT_DIFF, olds, leftOutUnmanaged(olds, news));
            const { changes } = table;
            let { replaces, updates } = table;
            // The project's id not known: it is being replaced. The engine asks so when the project keeps its name
            // and is deleted first (docs/tracingProject.md): planned as an update, the export would still read it
            // and its delete would be refused at every `up`; a replacement is cancelled before the project goes.
            if (news.sessionId === UNKNOWN && updates.includes("sessionId")) {
                replaces = [...replaces, "sessionId"];
                updates = updates.filter((u) => u !== "sessionId");
            }
            // Cancelled or failed outside Pulumi (seen by refresh): an update re-creates it.
            const stopped = typeof olds.status === "string" && isFinalExportStatus(olds.status);
            if (stopped || updates.some((u) => !LOCAL_ONLY.includes(u))) {
                await warn(await recreateNotice(client(), id, olds, news, stopped));
            }
            // A forced replacement (`pulumi up --replace`) cancels first: created first, the new export would take
            // over the old one (start.ts), which the delete would then cancel.
            return { changes: changes || stopped, replaces, updates: stopped && !updates.length ? ["status"] : updates, deleteBeforeReplace: true };
        },
        async create(raw) {
            const inputs = raw;
            const be = client();
            const e = await start(be, inputs, inputs.startTime);
            const history: History = { previousExportIds: [], effectiveStartTime: inputs.startTime, coverage: {}, retriedFrom: {} };
            return { id: e.id, outs: stateOf(inputs, e, history) };
        },
        async read(id, props?) {
            const be = client();
            const e = await be.tryGetExport((props as Partial<ScheduledExportOutputs> | undefined)?.exportId ?? id);
            if (!e) return {};
            // `pulumi import` records nothing: the schedule starts where the service says it does.
            const imported = props?.startTime === undefined;
            const recorded: Partial<ScheduledExportOutputs> = imported ? { ...props, startTime: e.start_time, effectiveStartTime: e.start_time } : props;
            const read = { ...recorded, ...exportInputsFromService(e, recorded, imported), intervalHours: e.interval_hours ?? recorded.intervalHours };
            const program = declaredInputs(scheduledExport, read);
            return { id, props: stateOf(program, e, historyOf(recorded)), inputs: { ...program } };
        },
        async update(id, oldsRaw, newsRaw) {
            const olds = oldsRaw;
            const news = newsRaw;
            const be = client();
            const current = await be.tryGetExport(olds.exportId ?? id);
            const { updates } = diffByTable(SCHEDULED_EXPORT_DIFF, olds, leftOutUnmanaged(olds, news));
            const recreate = !current || isFinalExportStatus(current.status) || updates.some((u) => !LOCAL_ONLY.includes(u));
            if (!recreate) return { outs: stateOf(news, current!, historyOf(olds)) };
            return { outs: await recreateExport(be, id, olds, news, current, newsRaw.__provider) };
        },
        async delete(id, props) {
            await cancelEverything(client(), id, props);
        },
    };
    return provider;
}

/**
 * What an update that re-creates the export will do, for preview (a warning): the export cancelled and the
 * time the new one starts from, as far as the stack knows it (the running export may cover more windows
 * before `up`; the new one then starts where they end).
 */
export async function recreateNotice(
    be: BulkExportClient,
    id: string,
    olds: ScheduledExportOutputs,
    news: ScheduledExportInputs,
    stopped: boolean,
): Promise<string> {
    const current = olds.exportId ?? id;
    const what = stopped
        ? `export ${current} is ${olds.status} on the service: \`pulumi up\` creates a new one`
        : `exports cannot be edited: \`pulumi up\` cancels export ${current} and creates a new one`;
    if (!known(news.destinationId)) {
        return `ScheduledExport ${id}: ${what}, starting where the windows exported so far to the new destination's bucket and prefix end (at its startTime if none were; see resumeAtNewDestination). No window is exported twice.`;
    }
    const running = await be.tryGetExport(current);
    const resumeAt = await resumePoint(be, (await historyWith(be, olds, running)).coverage, olds, news);
    const from = resumeAt && Date.parse(resumeAt) > Date.parse(news.startTime) ? resumeAt : news.startTime;
    const where = resumeAt ? "where the windows exported so far end" : "its startTime: nothing of this project was exported to this bucket and prefix yet";
    const more = stopped ? "" : "; later if the running export covers more windows before then";
    return `ScheduledExport ${id}: ${what}, starting at ${from} (${where}${more}). No window is exported twice, none is skipped.`;
}

/**
 * Cancels the current export (when it still runs) and starts the new one where the resource last covered
 * the new stream. Once the old one is cancelled, a failure to start the new one records the old one as
 * stopped, so the next `up` starts it; once the new one exists, any failure records it, so the next `up`
 * carries on with it (never a second export of the same windows).
 */
async function recreateExport(
    be: BulkExportClient,
    id: string,
    olds: ScheduledExportOutputs,
    news: ScheduledExportInputs,
    current: BulkExportRecord | undefined,
    rawProvider: unknown,
): Promise<ScheduledExportOutputs> {
    if (current && !isFinalExportStatus(current.status)) await be.cancelExport(current.id).catch((e) => rethrowUnlessFinal(e));
    const history = await historyWith(be, olds, current);
    const { coverage, retriedFrom } = history;
    // Resume the new stream after what was covered of it; a later startTime is the program's choice (a gap it asked for).
    const resumeAt = await resumePoint(be, coverage, olds, news);
    const from = resumeAt && Date.parse(resumeAt) > Date.parse(news.startTime) ? resumeAt : news.startTime;
    const next: History = {
        ...history,
        previousExportIds: [...history.previousExportIds, ...(current ? [current.id] : [olds.exportId].filter(Boolean))],
        effectiveStartTime: from,
    };
    let e: BulkExportRecord;
    try {
        e = await start(be, news, from);
    } catch (err) {
        const kept = { ...olds, status: "Cancelled", coverage, retriedFrom, __provider: rawProvider };
        throw new ResourceInitError(
            `${messageOf(err)}. The previous export ${olds.exportId} is cancelled; run \`pulumi up\` again to start the new one.`,
            id,
            kept,
        );
    }
    return stateOf(news, e, next);
}

/** The recorded history (keyed by place) with what `current`, the export being replaced, covered of the old inputs' stream. */
async function historyWith(be: BulkExportClient, olds: ScheduledExportOutputs, current: BulkExportRecord | undefined): Promise<History> {
    const history = historyOf(olds);
    let { coverage, retriedFrom } = { ...history, coverage: await byPlace(be, history.coverage) };
    if (current) {
        const oldStream = await streamOf(be, olds);
        const { until, retryFrom } = coveredBy(await spawnedBy(be, current), retriedFrom[oldStream]);
        coverage = covered(coverage, oldStream, until);
        if (retryFrom) retriedFrom = { ...retriedFrom, [oldStream]: retryFrom };
    }
    return { ...history, coverage, retriedFrom };
}

/**
 * Where the new export of `news` starts, as far as `coverage` (keyed by place: `historyWith`) covered its
 * stream: undefined when nothing of it was exported. A stream that only changes place (same project, another
 * bucket or prefix) starts where the old one was covered when `resumeAtNewDestination` says so.
 */
async function resumePoint(
    be: BulkExportClient,
    coverage: Record<string, string>,
    olds: ScheduledExportOutputs,
    news: ScheduledExportInputs,
): Promise<string | undefined> {
    const here = coverage[await streamOf(be, news)];
    if (here || !news.resumeAtNewDestination || olds.sessionId !== news.sessionId) return here;
    return coverage[await streamOf(be, olds)];
}

/** Delete: every export the resource made (current and earlier) and, if asked, every export they spawned, unless final. */
async function cancelEverything(be: BulkExportClient, id: string, recorded: ScheduledExportOutputs): Promise<void> {
    const ours = new Set([recorded.exportId ?? id, id, ...(recorded.previousExportIds ?? [])]);
    const current = await be.tryGetExport(recorded.exportId ?? id);
    if (current && !isFinalExportStatus(current.status)) await be.cancelExport(current.id).catch((e) => rethrowUnlessFinal(e));
    const all = await be.listExports();
    const running = all.filter(
        (x) =>
            !isFinalExportStatus(x.status) &&
            x.id !== current?.id &&
            (ours.has(x.id) || (recorded.cancelSpawnedOnDelete && ours.has(x.source_bulk_export_id ?? ""))),
    );
    for (const x of running) await be.cancelExport(x.id).catch((e) => rethrowUnlessFinal(e));
}

/** A cancel answered 400 because the export became final meanwhile is no failure. */
function rethrowUnlessFinal(e: unknown): void {
    if (e instanceof Error && /cannot be cancelled|already|final/i.test(e.message)) return;
    throw explain(e);
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const scheduledExportProvider = inItsWorkspace(createScheduledExportProvider(), { deleteFirst: true });
