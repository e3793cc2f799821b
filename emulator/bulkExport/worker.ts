/**
 * The bulk-export worker: what the service does between requests. On every tick (and whenever the model
 * changes) it, in order:
 *   1. spawns the exports scheduled exports owe by now (docs/service.md 4.4: window after window, each at its
 *      end_time plus 10 minutes on the emulator clock, so advancing the clock spawns them);
 *   2. times out exports running longer than the workflow timeout (docs/service.md 3.3, 8);
 *   3. admits queued exports while the workspace has fewer than 15 running (docs/service.md 8);
 *   4. starts queued runs of running exports, at most 45 per export (docs/service.md 8) and `workers` in all;
 *   5. completes exports whose runs all completed.
 * A run writes its UTC day of the tracing project as Parquet files (parquet.ts) into the destination
 * through the AWS SDK, and checkpoints after each file (cursor, rows, files), so that a run interrupted
 * by a restart resumes after its last written file: numbered files make a rewrite replace, never add.
 * Failures follow docs/service.md 7: storage errors fail the run and the export at once; timeouts and processing
 * errors retry (20 times, 30 s apart) with the message under `errors.retry_N`. Without the optional
 * packages (packages.ts; an export restored from a state directory written by a fuller install) an attempt
 * fails at once, not retried, with the words of the 501 the routes answer.
 */
import { parseFilter } from "../../provider/api/filter";
import { isFinalExportStatus } from "../../provider/api/schemas/bulkExport";
import { classifyStorageError, destinationClient, s3Sdk } from "./destination";
import { matches } from "./filterEval";
import { dayPartitions, fileKey } from "./layout";
import type { BulkExportModel } from "./model";
import { requireBulkExportPackages } from "./packages";
import { ParquetWriter, type FormatVersion, type Compression } from "./parquet";
import { exportSlots } from "./projects";
import { EXPORT_TABLE, RUN_TABLE, moveTo, type ExportRecord, type RunRecord } from "./records";

/** A failure injected through the admin endpoint: the next `times` attempts (of one export, or any) fail. */
export interface RunFailureRule {
    kind: "timeout" | "processing" | "storage";
    times: number;
    exportId?: string;
    /**
     * Absent: the attempt fails as it starts. N: it fails before writing the file after the run's N-th (a
     * failure part-way, such as credentials revoked while a run writes), the N files staying written.
     */
    afterFiles?: number;
}

class AttemptError extends Error {
    constructor(
        message: string,
        readonly retryable: boolean,
    ) {
        super(message);
    }
}

const TICK_MS = 50;
/** Source runs read between two yields to the event loop (the server keeps answering during a run). */
const YIELD_EVERY = 2_000;

export class BulkExportWorker {
    private timer?: NodeJS.Timeout;
    private readonly active = new Map<string, Promise<void>>();
    private writer?: Promise<ParquetWriter>;
    private closing = false;
    /** Bumped by `reset`: attempts of an earlier generation stop at their next step. */
    private generation = 0;
    private ticking = false;
    failureRules: RunFailureRule[] = [];

    constructor(private readonly model: BulkExportModel) {
        model.onChange = () => setImmediate(() => this.tick());
    }

    /** Requeues the runs a previous process left running (an infrastructure interruption), then ticks. */
    start(): void {
        this.requeueInterrupted();
        this.timer = setInterval(() => this.tick(), TICK_MS);
        this.timer.unref();
    }

    /** Stops ticking and waits for the runs in flight to stop at their next step (they stay Running). */
    async close(): Promise<void> {
        this.closing = true;
        clearInterval(this.timer);
        await Promise.allSettled(this.active.values());
        if (this.writer) await (await this.writer).close();
        this.writer = undefined;
    }

    /** Forgets the rules and stops every attempt in flight (the model forgets their records). */
    reset(): void {
        this.failureRules = [];
        this.generation++;
    }

    /** Runs a tick now and resolves when the runs it started have finished (tests). */
    async drain(): Promise<void> {
        this.tick();
        while (this.active.size) {
            await Promise.allSettled(this.active.values());
            this.tick();
        }
    }

    tick(): void {
        if (this.ticking || this.closing || this.model.limits.paused) return;
        this.ticking = true;
        try {
            const changed = [this.spawnDue(), this.timeOut(), this.admit(), this.dispatch(), this.complete()].some(Boolean);
            if (changed) this.model.save();
        } finally {
            this.ticking = false;
        }
    }

    private requeueInterrupted(): void {
        let changed = false;
        for (const r of this.model.runs.values()) {
            if (r.status !== "Running") continue;
            this.failAttempt(r, new AttemptError("Infrastructure interruption: the export worker restarted; requeued, resumes from its checkpoint", true), 0);
            changed = true;
        }
        if (changed) this.model.save();
    }

    private spawnDue(): boolean {
        const now = this.model.clock.now();
        let spawned = 0;
        for (const e of this.model.exports.values()) {
            if (e.status !== "IntervalScheduled" || e.interval_hours == null || e._nextWindow === undefined) continue;
            const span = e.interval_hours * 3_600_000;
            while (e._nextWindow + span + this.model.limits.spawnDelayMs <= now && spawned < 500) {
                this.model.spawn(e, e._nextWindow, e._nextWindow + span);
                e._nextWindow += span;
                spawned++;
            }
        }
        return spawned > 0;
    }

    private timeOut(): boolean {
        const now = this.model.clock.now();
        let changed = false;
        for (const e of this.running()) {
            const since = Date.parse(e._history.find((h) => h.status === "Running")!.at);
            if (now - since <= this.model.limits.exportTimeoutMs) continue;
            this.model.finishExport(e, "TimedOut", "TimedOut");
            changed = true;
        }
        return changed;
    }

    private admit(): boolean {
        const byTenant = new Map<string, number>();
        for (const e of this.running()) byTenant.set(e.tenant_id, (byTenant.get(e.tenant_id) ?? 0) + 1);
        let changed = false;
        const queued = [...this.model.exports.values()].filter((e) => e.status === "Created").sort((a, b) => a.created_at.localeCompare(b.created_at));
        for (const e of queued) {
            const n = byTenant.get(e.tenant_id) ?? 0;
            if (n >= this.model.limits.exportsPerWorkspace) continue;
            moveTo(EXPORT_TABLE, e, "Running", this.model.now());
            byTenant.set(e.tenant_id, n + 1);
            changed = true;
        }
        return changed;
    }

    private dispatch(): boolean {
        const now = this.model.clock.now();
        let changed = false;
        for (const e of this.running()) {
            const runs = this.model.runsOf(e.id);
            let running = runs.filter((r) => r.status === "Running").length;
            for (const r of runs) {
                if (this.active.size >= this.model.limits.workers || running >= this.model.limits.runsPerExport) break;
                if (r.status !== "Created" || (r._notBefore ?? 0) > now) continue;
                moveTo(RUN_TABLE, r, "Running", this.model.now());
                r._attemptStart = now;
                running++;
                changed = true;
                const work = this.process(e, r).finally(() => {
                    this.active.delete(r.id);
                    this.model.onChange();
                });
                this.active.set(r.id, work);
            }
        }
        return changed;
    }

    private complete(): boolean {
        let changed = false;
        for (const e of this.running()) {
            const runs = this.model.runsOf(e.id);
            if (!runs.every((r) => r.status === "Completed")) continue;
            this.model.finishExport(e, "Completed", "Cancelled");
            changed = true;
        }
        return changed;
    }

    private running(): ExportRecord[] {
        return [...this.model.exports.values()].filter((e) => e.status === "Running");
    }

    /** One attempt of one run; any failure is recorded by `failAttempt`. */
    private async process(e: ExportRecord, r: RunRecord): Promise<void> {
        const generation = this.generation;
        const stopped = () => this.closing || generation !== this.generation || r.status !== "Running";
        try {
            this.injectFailure(e, r, false);
            await this.write(e, r, stopped);
            if (stopped()) return;
            moveTo(RUN_TABLE, r, "Completed", this.model.now());
            r.finished_at = this.model.now();
            this.model.save();
        } catch (err) {
            if (stopped()) return;
            this.failAttempt(r, err instanceof AttemptError ? err : asAttemptError(err), this.model.limits.retryDelayMs);
            this.model.save();
        }
    }

    /** The destination and the tracing project of a run; an attempt that cannot be retried when either is gone. */
    private sourcesOf(e: ExportRecord, r: RunRecord) {
        const d = this.model.destinations.get(e.bulk_export_destination_id);
        if (!d) throw new AttemptError("Destination deleted during export: recreate the destination and start a new export", false);
        const sessionId = r._sessionId ?? e.session_id!;
        const project = this.model.projects.get(sessionId);
        if (!project) throw new AttemptError(`Tracing project ${sessionId} no longer exists`, false);
        return { d, sessionId, project };
    }

    /** Writes the run's files from its checkpoint on, checkpointing after each. */
    private async write(e: ExportRecord, r: RunRecord, stopped: () => boolean): Promise<void> {
        const { d, sessionId, project } = this.sourcesOf(e, r);
        await requireBulkExportPackages().catch((err: Error) => {
            throw new AttemptError(err.message, false);
        });
        const { PutObjectCommand } = await s3Sdk();
        const s3 = await destinationClient({ config: d.config, credentials: this.model.credentialsOf(d) }, this.model.validateOptions());
        const writer = await (this.writer ??= ParquetWriter.open());
        const expr = e.filter ? parseFilter(e.filter) : undefined;
        const fileOpts = { fields: e.export_fields as never, formatVersion: e.format_version as FormatVersion, compression: e.compression as Compression };
        const day = dayPartitions(r.start_time, r.end_time)[0];
        const placement = { exportId: e.id, tenantId: e.tenant_id, sessionId };
        const result = r.metadata.result;
        let cursor = r._cursor;
        let file = writer.begin(fileOpts);
        const upload = async () => {
            this.injectFailure(e, r, true);
            const { bytes, rows } = await file.finish();
            const key = fileKey(d.config, placement, day, result.exported_files.length);
            await s3.send(new PutObjectCommand({ Bucket: d.config.bucket_name, Key: key, Body: bytes })).catch((err) => {
                throw asAttemptError(err);
            });
            if (stopped()) return;
            result.exported_files.push(key);
            result.rows_written += rows;
            r._cursor = cursor;
            result.latest_cursor = String(cursor);
            r.updated_at = this.model.now();
            this.model.save();
            if (this.model.clock.now() - (r._attemptStart ?? 0) > this.model.limits.runTimeoutMs) {
                throw new AttemptError(`Run timed out after ${this.model.limits.runTimeoutMs / 3_600_000} hours; retried from its checkpoint`, true);
            }
        };
        try {
            const slots = exportSlots(project, this.model.traced, e.tenant_id, Date.parse(r.start_time), Date.parse(r.end_time), r._cursor, (run) =>
                this.model.keeps(run),
            );
            for (const run of slots) {
                cursor++;
                if (cursor % YIELD_EVERY === 0) {
                    await new Promise((res) => setImmediate(res));
                    if (stopped()) return;
                }
                if (!run || (expr && !matches(expr, run))) continue;
                file.add(run);
                if (file.rows < this.model.limits.rowsPerFile) continue;
                await upload();
                if (stopped()) return;
                file = writer.begin(fileOpts);
            }
            if (file.rows > 0) await upload();
            else {
                await file.abort();
                r._cursor = cursor;
            }
        } finally {
            await file.abort();
            s3.destroy();
        }
    }

    /** Throws the failure of the first rule for this export due now: as the attempt starts, or before a file (`midRun`). */
    private injectFailure(e: ExportRecord, r: RunRecord, midRun: boolean): void {
        const written = r.metadata.result.exported_files.length;
        const due = (f: RunFailureRule) => (f.afterFiles === undefined ? !midRun : f.afterFiles <= written);
        const rule = this.failureRules.find((f) => f.times > 0 && (!f.exportId || f.exportId === e.id) && due(f));
        if (!rule) return;
        rule.times--;
        if (rule.kind === "storage") throw new AttemptError("Storage error: Access Denied (injected)", false);
        if (rule.kind === "timeout") throw new AttemptError("Run timed out after 4 hours (injected)", true);
        throw new AttemptError("Terminal processing error: serialization failed (injected)", true);
    }

    /** Records the attempt's error under `retry_N`; requeues with a delay while retries remain, else fails the export. */
    private failAttempt(r: RunRecord, err: AttemptError, delayMs: number): void {
        const at = this.model.now();
        r.errors[`retry_${r.retry_number}`] = err.message;
        const e = this.model.exports.get(r.bulk_export_id)!;
        if (err.retryable && r.retry_number < this.model.limits.retries) {
            r.retry_number++;
            moveTo(RUN_TABLE, r, "Created", at);
            r._notBefore = this.model.clock.now() + delayMs;
            return;
        }
        moveTo(RUN_TABLE, r, "Failed", at);
        r.finished_at = at;
        if (!isFinalExportStatus(e.status)) this.model.finishExport(e, "Failed", "Cancelled");
    }
}

/** A storage error of a documented kind is not retried (docs/service.md 7); anything else is. */
function asAttemptError(err: unknown): AttemptError {
    const message = err instanceof Error ? `${(err as { Code?: string }).Code ?? err.name}: ${err.message}` : String(err);
    const kind = classifyStorageError(err);
    if (kind !== "other") return new AttemptError(`Storage error: ${message}`, false);
    return new AttemptError(message, true);
}
