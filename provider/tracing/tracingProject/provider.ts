/**
 * The TracingProject's dynamic provider (its fields: declare.ts). A create carries an id made here, so a lost
 * answer is looked up rather than sent again; a create beside a project of the same name (what a killed
 * `pulumi up` leaves, or another stack's) is refused with its id, unless LANGSMITH_ADOPT_IDS names it
 * (docs/recovery.md). An update is one PATCH of the fields that changed (the name included). A delete is
 * refused at once while a scheduled export reads the project (it never ends by itself); exports that end on
 * their own (one-off exports, the windows a schedule spawned) are waited for, 10 minutes at most, as a
 * destination's delete does; either way the error names them and nothing is deleted. Then the project is
 * deleted and the delete waits until the service no longer answers it. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { BulkExportClient } from "../../api/bulkExport";
import { PollCancelledError, PollFailedError, PollTimeoutError, pollUntil } from "../../api/poll";
import { isFinalExportStatus, isRunningSchedule, type BulkExportRecord } from "../../api/schemas/bulkExport";
import type { Session, SessionUpdateRequest } from "../../api/schemas/sessions";
import type { TracingClient } from "../../api/tracing";
import { cancelReason, operationsSignal } from "../../kit/cancellation";
import { Checker, UUID_RE } from "../../kit/check";
import { emptiesAsAbsent } from "../../kit/fields";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, leftOutKept, prune, sameValue } from "../../kit/diff";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { waitLimitS } from "../../kit/timeouts";
import { toWire } from "../../kit/wire";
import { SCHEMA_VERSION, tracingProject, type TracingProjectInputs, type TracingProjectOutputs } from "./declare";
import { inItsWorkspace } from "../../kit/workspace";

export const TRACING_PROJECT_DIFF = diffTableOf(tracingProject.inputs);

/** How long a delete waits for the service to stop answering the project, unless `customTimeouts` says (seconds). */
const GONE_WAIT_S = 300;

export interface TracingProjectProviderOptions {
    projects?: () => TracingClient;
    exports?: () => BulkExportClient;
    /** Delay between reads while waiting for a deleted project to disappear (default 1 s). */
    gonePollMs?: number;
    /** How long a delete waits for the exports reading the project that end on their own (default 10 minutes). */
    exportsWaitMs?: number;
    /** Delay between looks at those exports (default 2 s, growing to 15 s). */
    exportsPollMs?: (attempt: number) => number;
}

export function checkTracingProject(news: Record<string, unknown>) {
    const c = new Checker();
    // The service answers an empty description or metadata as none (`inputsFrom`): given empty, it is none.
    const inputs = emptiesAsAbsent(c.declaration("TracingProject", tracingProject.inputs, news));
    // Optional to the program (kit/autoname.ts fills it before this check), required here.
    c.str(news.name, "name", true);
    c.matches(news.referenceDatasetId as string, UUID_RE, "referenceDatasetId", "referenceDatasetId must be a dataset id (a uuid)");
    if (typeof news.name === "string" && news.name.trim() !== news.name) c.fail("name", `name ${JSON.stringify(news.name)} must not begin or end with spaces`);
    return c.done(inputs);
}

export function createTracingProjectProvider(o: TracingProjectProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const projects = o.projects ?? (() => service.projects());
    const bulkExports = o.exports ?? (() => service.tracing());
    const provider: ProviderOf<typeof tracingProject> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkTracingProject(news), "tracing");
        },
        async diff(_id, olds, news) {
            // A trace tier left out is not managed (refresh reads it only when managed; an import reads it): not compared.
            const { changes, replaces, updates } = diffByTable(TRACING_PROJECT_DIFF, olds, leftOutKept(olds, news, ["traceTier"]));
            // Names are unique in a workspace: a replacement that keeps the name deletes first.
            return { changes, replaces, updates, deleteBeforeReplace: sameValue(olds.name, news.name) };
        },
        async create(inputs) {
            const tc = projects();
            const s = await createUniquelyNamed({
                resource: "TracingProject",
                noun: "project",
                holder: await tc.findSessionByName(inputs.name),
                createdAt: (h) => h.start_time,
                adopt: (h) => tc.updateSession(h.id, patchOf(inputsFrom(h), inputs)),
                create: async () => (await tc.createSession(createBody(inputs))).session,
                alsoMadeBy: "traced code also makes projects by naming them",
            });
            return { id: s.id, outs: outputs(inputs, s) };
        },
        async read(id, props?) {
            const s = await projects().tryGetSession(id);
            if (!s) return {};
            const inputs = inputsFrom(s, props);
            return { id, props: outputs(inputs, s), inputs };
        },
        async update(id, olds, news) {
            const patch = patchOf(olds, news);
            const s = Object.keys(patch).length ? await projects().updateSession(id, patch) : await projects().getSession(id);
            return { outs: outputs(news, s) };
        },
        async delete(id) {
            await untilNotExported(bulkExports(), id, o);
            const tc = projects();
            await tc.deleteSession(id);
            await untilGone(tc, id, o.gonePollMs ?? 1_000);
        },
    };
    return provider;
}

/** The create body: the declaration's mapping, and the metadata under `extra.metadata`, as the official clients put it. */
const createBody = (i: TracingProjectInputs) =>
    ({ ...toWire(tracingProject.inputs, i), ...(i.metadata ? { extra: { metadata: i.metadata } } : {}) }) as Parameters<TracingClient["createSession"]>[0];

/** The PATCH that turns `olds` into `news`: the fields that changed (a removed description or metadata is sent empty). */
function patchOf(olds: Partial<TracingProjectInputs>, news: TracingProjectInputs): SessionUpdateRequest {
    const changed = (k: keyof TracingProjectInputs) => !sameValue(olds[k], news[k]);
    return prune({
        name: changed("name") ? news.name : undefined,
        description: changed("description") ? (news.description ?? "") : undefined,
        extra: changed("metadata") ? { metadata: news.metadata ?? {} } : undefined,
        trace_tier: changed("traceTier") && news.traceTier ? news.traceTier : undefined,
    });
}

/** The inputs as the service says them (refresh, import); the trace tier only when the program manages it (or on import). */
function inputsFrom(s: Session, recorded?: Partial<TracingProjectOutputs>): TracingProjectInputs {
    const metadata = (s.extra as { metadata?: Record<string, unknown> } | null | undefined)?.metadata;
    const managesTier = isImport(recorded) || recorded?.traceTier !== undefined;
    return prune({
        name: s.name,
        description: s.description || undefined,
        metadata: metadata && Object.keys(metadata).length ? metadata : undefined,
        traceTier: managesTier ? ((s.trace_tier as TracingProjectInputs["traceTier"]) ?? undefined) : undefined,
        referenceDatasetId: s.reference_dataset_id ?? undefined,
    });
}

function outputs(i: TracingProjectInputs, s: Session): TracingProjectOutputs {
    return {
        ...i,
        tenantId: s.tenant_id,
        createdAt: s.start_time,
        schemaVersion: SCHEMA_VERSION,
    };
}

/** The exports that have not finished and read the project. */
async function exportsReading(be: BulkExportClient, id: string): Promise<BulkExportRecord[]> {
    return (await be.listExports()).filter((e) => e.session_id === id && !isFinalExportStatus(e.status));
}

/**
 * Waits until no unfinished export reads the project: none at all, at once; a scheduled one, refused at once;
 * only exports that end on their own, looked at again until they have (within `exportsWaitMs`, ended by the
 * engine's Cancel). A refusal names the exports in the way and what to do; nothing is deleted.
 */
async function untilNotExported(be: BulkExportClient, id: string, o: TracingProjectProviderOptions): Promise<void> {
    const waitMs = o.exportsWaitMs ?? 10 * 60_000;
    const pollMs = o.exportsPollMs ?? ((n: number) => Math.min(15_000, 2_000 * 1.5 ** n));
    let reading: BulkExportRecord[] = [];
    const state = async () => {
        reading = await exportsReading(be, id);
        return !reading.length ? "FREE" : reading.some(isRunningSchedule) ? "SCHEDULED" : "FINISHING";
    };
    await pollUntil(
        state,
        { done: ["FREE"], failed: ["SCHEDULED"] },
        { timeoutMs: waitMs, interval: (_s, n) => pollMs(n), statusOf: (s) => s, signal: operationsSignal },
    ).catch((e) => {
        const why =
            e instanceof PollFailedError
                ? "a scheduled export reads it"
                : e instanceof PollTimeoutError
                  ? `exports still read it after ${Math.round(waitMs / 60_000)} min of waiting`
                  : e instanceof PollCancelledError
                    ? `the wait for the exports reading it was cancelled (${cancelReason(e.cause)})`
                    : undefined;
        if (!why) throw e;
        throw new Error(`TracingProject ${id} cannot be deleted: ${why}: ${exportList(reading)}. ${REFUSAL_ADVICE}`);
    });
}

const exportList = (reading: BulkExportRecord[]) =>
    reading
        .map(
            (e) =>
                `${e.id} (${e.status}${e.source_bulk_export_id ? `, a window of scheduled export ${e.source_bulk_export_id}` : e.interval_hours ? ", scheduled" : ""})`,
        )
        .join(", ");

const REFUSAL_ADVICE =
    "Destroy the ScheduledExport or BulkExport resources that own them (a scheduled export's windows are cancelled with it only when cancelSpawnedOnDelete is true), or wait for them to finish, then run the command again; nothing was deleted.";

/**
 * Waits until the service no longer answers the project (its delete is asynchronous on the service), with the
 * shared polling helper: within the operation's wait limit (`customTimeouts`, else 5 minutes), ended at once by
 * the engine's Cancel (kit/cancellation.ts).
 */
async function untilGone(tc: TracingClient, id: string, pollMs: number): Promise<void> {
    const timeoutMs = waitLimitS(undefined, GONE_WAIT_S) * 1000;
    await pollUntil(
        async () => ((await tc.tryGetSession(id)) ? "PRESENT" : "GONE"),
        { done: ["GONE"], failed: [] },
        {
            timeoutMs,
            interval: () => pollMs,
            statusOf: (s) => s,
            signal: operationsSignal,
        },
    ).catch((e) => {
        if (e instanceof PollTimeoutError) throw new Error(`TracingProject ${id}: still answered ${timeoutMs / 1000}s after its delete; run the command again`);
        if (e instanceof PollCancelledError)
            throw new Error(
                `TracingProject ${id} was deleted, but the wait for it to disappear was cancelled (${cancelReason(e.cause)}); run the command again`,
            );
        throw e;
    });
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const tracingProjectProvider = inItsWorkspace(createTracingProjectProvider());
