/**
 * The BulkExport (one-off) dynamic provider. An export cannot be edited, so any change to what it exports
 * replaces it: the old one is cancelled first when it still runs (`deleteBeforeReplace`, so two exports
 * never write the same range at once), then the new one is created. `create` waits for `Completed`
 * unless `waitForCompletion` is false; a `Failed` or `TimedOut` export fails the `up` with each failed
 * run's errors (`retry_N`) and stays in the stack, as does one still running when `timeouts.create`
 * ends or the wait is cancelled (kit/cancellation.ts): the next `up` waits again, or, for a failed one,
 * replaces it. `delete` cancels it if not final.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderOf } from "../../kit/declare";
import type { BulkExportClient } from "../../api/bulkExport";
import { PollCancelledError, PollFailedError, PollTimeoutError, pollUntil } from "../../api/poll";
import { isFinalExportStatus, sameStatus, type BulkExportRecord, type ExportRun } from "../../api/schemas/bulkExport";
import { cancelReason, operationsSignal } from "../../kit/cancellation";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { declaredInputs, isImport } from "../../kit/declare";
import { ResourceInitError, messageOf } from "../../kit/initError";
import { waitLimitS } from "../../kit/timeouts";
import { Service } from "../../kit/service";
import { checkBulkExport } from "../traceExport/check";
import { DEFAULT_EXPORT_TIMEOUTS, SCHEMA_VERSION, bulkExport, type BulkExportInputs, type BulkExportOutputs } from "./declare";
import { startExport } from "../traceExport/start";
import { explain, exportInputsFromService, exportRequest, leftOutUnmanaged } from "../traceExport/wire";
import { inItsWorkspace } from "../../kit/workspace";

export const BULK_EXPORT_DIFF = diffTableOf(bulkExport.inputs);

/** Statuses after which the export is re-created by the next `up`. */
const REDO = ["Failed", "Cancelled", "TimedOut"];

export interface BulkExportProviderOptions {
    client?: () => BulkExportClient;
    /** Delay before the next read while waiting (default: 0.5 s for 10 reads, then growing to 30 s). */
    pollMs?: (attempt: number) => number;
    /** Ends the wait for a final status at once (default: the process-wide one of kit/cancellation.ts). */
    signal?: AbortSignal;
}

export function createBulkExportProvider(o: BulkExportProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.tracing());
    const pollMs = o.pollMs ?? ((n: number) => (n < 10 ? 500 : Math.min(30_000, 500 * 1.3 ** (n - 10))));
    const signal = o.signal ?? operationsSignal;

    const provider: ProviderOf<typeof bulkExport> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkBulkExport(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(BULK_EXPORT_DIFF, olds, leftOutUnmanaged(olds, news));
            // A failed, cancelled or timed-out export is made again; one not seen to the end is waited on.
            const redo = REDO.some((s) => sameStatus(olds.status as string, s));
            const unsettled = !isFinalExportStatus(olds.status as string) && news.waitForCompletion !== false;
            if (redo && !replaces.length) replaces.push("status");
            return { changes: changes || redo || unsettled, replaces, updates, deleteBeforeReplace: true };
        },
        async create(raw) {
            const inputs = raw;
            const timeoutS = waitLimitS(inputs.timeouts?.create, DEFAULT_EXPORT_TIMEOUTS.create);
            const be = client().withDeadline(Date.now() + timeoutS * 1000);
            const e = await startExport(be, exportRequest(bulkExport, inputs), "BulkExport");
            return { id: e.id, outs: await settle(be, inputs, e, { timeoutS, rawProvider: raw.__provider, pollMs, signal }) };
        },
        async read(id, props?) {
            const be = client();
            const e = await be.tryGetExport(id);
            if (!e) return {};
            const recorded: Partial<BulkExportOutputs> = props ?? {};
            // The inputs only: the outputs recorded beside them (status, the counters) are not the program's.
            const inputs = declaredInputs(bulkExport, {
                ...exportInputsFromService(e, recorded),
                endTime: recorded.endTime ?? (isImport(props) ? (e.end_time ?? undefined) : undefined),
                waitForCompletion: recorded.waitForCompletion,
                timeouts: recorded.timeouts,
            });
            return { id, props: await outputs(be, inputs, e), inputs: { ...inputs } };
        },
        async update(id, _olds, newsRaw) {
            const news = newsRaw;
            const timeoutS = waitLimitS(news.timeouts?.update, DEFAULT_EXPORT_TIMEOUTS.update);
            const be = client().withDeadline(Date.now() + timeoutS * 1000);
            return { outs: await settle(be, news, await be.getExport(id), { timeoutS, rawProvider: newsRaw.__provider, pollMs, signal }) };
        },
        async delete(id, props) {
            const timeoutS = waitLimitS(props.timeouts?.delete, DEFAULT_EXPORT_TIMEOUTS.delete);
            const be = client().withDeadline(Date.now() + timeoutS * 1000);
            const e = await be.tryGetExport(id);
            if (!e || isFinalExportStatus(e.status)) return;
            await be.cancelExport(id).catch((err) => {
                if (!(err instanceof Error && /cannot be cancelled/.test(err.message))) throw explain(err);
            });
        },
    };
    return provider;
}

/** The export's outputs: the inputs, its status, and the rows and files its runs wrote. */
async function outputs(be: BulkExportClient, inputs: BulkExportInputs, e: BulkExportRecord): Promise<BulkExportOutputs> {
    const runs = await be.listExportRuns(e.id);
    return {
        ...inputs,
        schemaVersion: SCHEMA_VERSION,
        status: e.status,
        rowsWritten: runs.reduce((n, r) => n + (r.metadata?.result?.rows_written ?? 0), 0),
        filesWritten: runs.reduce((n, r) => n + (r.metadata?.result?.exported_files?.length ?? 0), 0),
        finishedAt: e.finished_at ?? null,
    };
}

/** Waits for a final status (when asked), reading every `pollMs(n)`; any failure keeps the export in the stack with what is known. */
async function settle(
    be: BulkExportClient,
    inputs: BulkExportInputs,
    e: BulkExportRecord,
    o: { timeoutS: number; rawProvider: unknown; pollMs: (attempt: number) => number; signal: AbortSignal },
): Promise<BulkExportOutputs> {
    const { timeoutS, rawProvider, pollMs, signal } = o;
    try {
        if (inputs.waitForCompletion === false || isFinalExportStatus(e.status)) return finished(await outputs(be, inputs, e), e);
        const done = await pollUntil(
            () => be.getExport(e.id),
            { done: ["Completed"], failed: REDO },
            { timeoutMs: timeoutS * 1000, interval: (_s, n) => pollMs(n), signal },
        );
        return await outputs(be, inputs, done);
    } catch (err) {
        const polled = err instanceof PollFailedError || err instanceof PollTimeoutError || err instanceof PollCancelledError;
        const last = polled ? ((err.value as BulkExportRecord | undefined) ?? e) : e;
        const outs = await outputs(be, inputs, last).catch(() => ({
            ...inputs,
            schemaVersion: SCHEMA_VERSION,
            status: last.status,
            rowsWritten: 0,
            filesWritten: 0,
            finishedAt: null,
        }));
        throw new ResourceInitError(await failureMessage(be, last, err, timeoutS), e.id, { ...outs, __provider: rawProvider });
    }
}

/** An export already final when first seen: Completed is success, anything else the failure of settle. */
function finished(outs: BulkExportOutputs, e: BulkExportRecord): BulkExportOutputs {
    if (!isFinalExportStatus(e.status) || sameStatus(e.status, "Completed") || outs.waitForCompletion === false) return outs;
    throw new PollFailedError(e.status, e, `export ${e.id} is ${e.status}`);
}

/** What failed, with each failed run's errors (`retry_N`), or how long was waited, or why the wait was cancelled. */
async function failureMessage(be: BulkExportClient, e: BulkExportRecord, err: unknown, timeoutS: number): Promise<string> {
    const what = `bulk export ${e.id}`;
    if (err instanceof PollTimeoutError) {
        return `timed out after ${timeoutS}s waiting for ${what} to complete; last status ${err.lastStatus ?? e.status}. It is kept in the stack: run \`pulumi up\` again to keep waiting (raise timeouts.create to wait longer), or set waitForCompletion: false.`;
    }
    if (err instanceof PollCancelledError) {
        return `the wait for ${what} to complete was cancelled (${cancelReason(err.cause)}); last status ${err.lastStatus ?? e.status}. It is kept in the stack: \`pulumi up\` resumes waiting for it.`;
    }
    if (!(err instanceof PollFailedError)) return `${messageOf(err)} (${what} is kept in the stack)`;
    const runs: ExportRun[] = await be.listExportRuns(e.id).catch(() => []);
    const failed = runs.filter((r) => !sameStatus(r.status, "Completed") && Object.keys(r.errors ?? {}).length);
    const detail = failed.map(
        (r) =>
            `run ${r.id} (${r.start_time ?? "?"} to ${r.end_time ?? "?"}) ${r.status}: ${Object.entries(r.errors ?? {})
                .map(([k, v]) => `${k}: ${String(v)}`)
                .join("; ")}`,
    );
    return `${what} ended ${err.status}${detail.length ? `: ${detail.join(" | ")}` : ""}. It is kept in the stack; fix the cause and run \`pulumi up\` again to export again.`;
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const bulkExportProvider = inItsWorkspace(createBulkExportProvider(), { deleteFirst: true });
