/**
 * The bulk-export model (docs/service.md 2.7-2.9, 3.3, 4.3, 4.4, 7, 8, 9): destinations, exports and their runs per
 * workspace, the tracing projects they read, and the rules of every endpoint. The work itself (spawning,
 * admitting within the limits, writing Parquet, retrying) is the worker's (worker.ts), which moves
 * records through the tables of records.ts; this file answers requests and keeps the store up to date.
 *
 * Decided here, where the material is silent (also in emulator/COVERAGE.md):
 * - an unknown destination or tracing project answers 404 `{"detail": ...}`; a filter that does not
 *   parse answers 400 with the parser's words and position; field rules answer 422;
 * - credentials may be omitted only on a self-hosted installation (docs/service.md 2.7 rule 2): 400 on the cloud;
 * - an export's runs (one per UTC day of its range) exist from its creation, `Created` until admitted;
 * - the installation version (self-hosted, docs/service.md 9) makes fields unknown to it answer 422 `extra_forbidden`;
 * - the cloud's limits (changelog, autumn 2026: 200 scheduled exports per workspace, 250 export creations per
 *   hour) answer 429 `{"detail"}`; the hourly one with `Retry-After` (when the oldest creation of the hour
 *   leaves it), the scheduled one without (it only frees when a schedule is cancelled). Self-hosted
 *   installations have neither by default.
 */
import { randomUUID } from "node:crypto";
import { FILTER_FIELDS, type FilterExpr, FilterSyntaxError, parseFilter, unknownFields } from "../../provider/api/filter";
import {
    DISPLAY_NAME_RE,
    EXPORTABLE_FIELDS,
    FIELD_SINCE,
    isFinalExportStatus,
    normalizeDestinationType,
    type DestinationCreateRequest,
    type DestinationCredentials,
    type ExportCreateRequest,
    type VersionedField,
} from "../../provider/api/schemas/bulkExport";
import type { Clock } from "../core/clock";
import { EmulatorError, badRequest, invalidField, validation } from "../core/errors";
import { validateDestination, type ValidateOptions } from "./destination";
import { dayPartitions, partitionKey, rootKey } from "./layout";
import { makeProject, type TracingProject, type TracingProjectInput } from "./projects";
import { EXPORT_TABLE, RUN_TABLE, moveTo, publicView, type DestinationRecord, type ExportRecord, type RunRecord } from "./records";
import { Store } from "../core/store";
import { DEFAULT_RETENTION, retained, type Retention, type RetentionDays, type TraceTier } from "../tracing/retention";
import { type TracedRun, TracedRuns } from "../tracing/store";

/** The service's figures (docs/service.md 8), all changeable for tests. */
export interface BulkExportLimits {
    retries: number;
    retryDelayMs: number;
    runTimeoutMs: number;
    exportTimeoutMs: number;
    /** A spawned export runs at its end_time plus this (docs/service.md 4.4 rule 3). */
    spawnDelayMs: number;
    runsPerExport: number;
    exportsPerWorkspace: number;
    /** Scheduled exports (`IntervalScheduled`) a workspace may hold; beyond, a create answers 429. null: none. */
    scheduledExportsPerWorkspace: number | null;
    /** Export creations (POST, not spawned windows) a workspace may make in an hour; beyond, 429. null: none. */
    creationsPerHour: number | null;
    /** Experiments an `all_experiments` export reads at most (the most recent ones). null: all. */
    experimentsPerExport: number | null;
    /** Rows per Parquet file (not in the material; decided here). */
    rowsPerFile: number;
    /** Runs the emulator writes at the same time, whatever the limits allow (CPU-bound work). */
    workers: number;
    /** While true, nothing is admitted, started or spawned (tests look at queued exports). */
    paused: boolean;
}

export const DEFAULT_LIMITS: BulkExportLimits = {
    retries: 20,
    retryDelayMs: 30_000,
    runTimeoutMs: 4 * 3_600_000,
    exportTimeoutMs: 72 * 3_600_000,
    spawnDelayMs: 10 * 60_000,
    runsPerExport: 45,
    exportsPerWorkspace: 15,
    scheduledExportsPerWorkspace: 200,
    creationsPerHour: 250,
    experimentsPerExport: 250,
    rowsPerFile: 50_000,
    workers: 2,
    paused: false,
};

export interface BulkExportOptions {
    clock: Clock;
    /** Keeps the area's objects on disk there (../core/store.ts, `bulk-export.json`); absent: memory only. */
    stateDir?: string;
    /** Where destinations without `endpoint_url` (AWS-style) are written; default real AWS. */
    awsEndpoint?: string;
    /** Which installation `/api/v1/bulk-exports` belongs to (the tracing API has no `/api-host` prefix). */
    installation?: "cloud" | "self-hosted";
    /** Self-hosted application version, e.g. `0.10.100`; absent: the newest. */
    installationVersion?: string;
    limits?: Partial<BulkExportLimits>;
    projects?: TracingProjectInput[];
}

interface Snapshot {
    destinations: DestinationRecord[];
    exports: ExportRecord[];
    runs: RunRecord[];
    projects: TracingProject[];
}

export class BulkExportModel {
    destinations = new Map<string, DestinationRecord>();
    exports = new Map<string, ExportRecord>();
    runs = new Map<string, RunRecord>();
    projects = new Map<string, TracingProject>();
    /** The runs traced into the projects by clients (tracing/store.ts), exported beside the generated ones. */
    readonly traced: TracedRuns;
    limits: BulkExportLimits;
    readonly store: Store<Snapshot>;
    /** Called after a change the worker should look at. */
    onChange: () => void = () => undefined;
    /** A workspace's days of retention per tier (tracing/retention.ts): the organization's settings, once wired. */
    retentionDays: RetentionDays = DEFAULT_RETENTION;

    /** Creation times (emulator clock) of each workspace's exports in the last hour. */
    private creations = new Map<string, number[]>();

    constructor(readonly o: BulkExportOptions) {
        this.limits = this.initialLimits();
        this.store = new Store<Snapshot>(o.stateDir, "bulk-export.json");
        this.traced = new TracedRuns(o.stateDir);
        this.traced.retentionAt = (tenantId, sessionId) => this.retentionNow(tenantId, sessionId);
        const saved = this.store.load();
        if (saved) this.restore(saved);
        for (const p of o.projects ?? []) this.addProject(p);
    }

    /** The service's figures; a self-hosted installation has no cloud limits unless given. */
    private initialLimits(): BulkExportLimits {
        const cloudOnly =
            this.o.installation === "self-hosted" ? { scheduledExportsPerWorkspace: null, creationsPerHour: null, experimentsPerExport: null } : {};
        return { ...DEFAULT_LIMITS, ...cloudOnly, ...this.o.limits };
    }

    get clock(): Clock {
        return this.o.clock;
    }

    now(): string {
        return this.clock.iso();
    }

    /** Whether the service still keeps a traced run, by the retention it got when written (tracing/retention.ts). */
    keeps(run: TracedRun): boolean {
        return retained(run, (this.traced.retentionOf(run) ?? this.retentionNow(run.tenant_id, run.session_id)).days, this.clock.now());
    }

    /** The retention a run written now into a project gets: the project's tier, and the days the workspace keeps that tier now. */
    retentionNow(tenantId: string, sessionId: string): Retention {
        const tier = (this.projects.get(sessionId)?.session?.trace_tier ?? "longlived") as TraceTier;
        return { tier, days: this.retentionDays(tenantId, tier) };
    }

    reset(): void {
        this.destinations.clear();
        this.exports.clear();
        this.runs.clear();
        this.projects.clear();
        this.traced.reset();
        this.limits = this.initialLimits();
        this.creations.clear();
        for (const p of this.o.projects ?? []) this.addProject(p);
        this.save();
    }

    save(): void {
        this.store.save({
            destinations: [...this.destinations.values()],
            exports: [...this.exports.values()],
            runs: [...this.runs.values()],
            projects: [...this.projects.values()],
        });
    }

    private restore(s: Snapshot): void {
        for (const d of s.destinations) this.destinations.set(d.id, d);
        for (const e of s.exports) this.exports.set(e.id, e);
        for (const r of s.runs) this.runs.set(r.id, r);
        for (const p of s.projects) this.projects.set(p.session_id, p);
    }

    // ---- tracing projects ----

    addProject(input: TracingProjectInput): TracingProject {
        const p = makeProject(input);
        this.projects.set(p.session_id, p);
        this.save();
        return p;
    }

    project(tenantId: string, sessionId: string): TracingProject {
        const p = this.projects.get(sessionId);
        if (!p || (p.tenant_id && p.tenant_id !== tenantId)) throw new EmulatorError(404, { detail: `Tracing project ${sessionId} not found` });
        return p;
    }

    // ---- destinations ----

    async createDestination(tenantId: string, body: DestinationCreateRequest, installation: "cloud" | "self-hosted"): Promise<Partial<DestinationRecord>> {
        const selfHosted = installation === "self-hosted" || this.o.installation === "self-hosted";
        if (normalizeDestinationType(body.destination_type ?? "s3") !== "s3") {
            throw invalidField(["body", "destination_type"], "Input should be 's3'", "literal_error");
        }
        checkDisplayName(body.display_name);
        if (body.config.aws_role_arn) throw badRequest("aws_role_arn is only available on LangSmith SaaS hosted on GCP: give credentials instead.");
        if (body.credentials?.session_token != null) this.requireVersion("session_token", ["body", "credentials", "session_token"]);
        if (!body.credentials && !selfHosted) {
            throw badRequest("Credentials are required: environment credentials are only available on self-hosted installations.");
        }
        const config = { ...body.config, prefix: body.config.prefix ?? "", include_bucket_in_prefix: body.config.include_bucket_in_prefix ?? false };
        if (!config.bucket_name) throw invalidField(["body", "config", "bucket_name"], "Field required", "missing");
        await validateDestination({ config: { ...config, bucket_name: config.bucket_name }, credentials: body.credentials }, this.validateOptions());
        const now = this.now();
        const d: DestinationRecord = {
            id: randomUUID(),
            tenant_id: tenantId,
            destination_type: "s3",
            display_name: body.display_name,
            config: { ...config, bucket_name: config.bucket_name },
            credentials_keys: credentialKeys(body.credentials),
            created_at: now,
            updated_at: now,
            _credentials: body.credentials ? this.store.seal(body.credentials) : undefined,
        };
        this.destinations.set(d.id, d);
        this.save();
        return publicView(d);
    }

    listDestinations(tenantId: string): Array<Partial<DestinationRecord>> {
        return [...this.destinations.values()].filter((d) => d.tenant_id === tenantId).map(publicView);
    }

    destination(tenantId: string, id: string): DestinationRecord {
        const d = this.destinations.get(id);
        if (!d || d.tenant_id !== tenantId) throw new EmulatorError(404, { detail: `Bulk export destination ${id} not found` });
        return d;
    }

    /** Credential rotation: validated like a new destination, then stored in place of the old ones. */
    async rotateCredentials(tenantId: string, id: string, credentials: DestinationCredentials): Promise<Partial<DestinationRecord>> {
        const d = this.destination(tenantId, id);
        if (credentials.session_token != null) this.requireVersion("session_token", ["body", "credentials", "session_token"]);
        await validateDestination({ config: d.config, credentials }, this.validateOptions());
        d._credentials = this.store.seal(credentials);
        d.credentials_keys = credentialKeys(credentials);
        d.updated_at = this.now();
        this.save();
        return publicView(d);
    }

    /**
     * DELETE (a later addition, docs/service.md R5: the service's changelog, September 2026): refused while an export that
     * has not finished (created, running, or a scheduled one still spawning) uses the destination. The
     * material gives neither the status nor the words of the refusal: 409 `{"detail"}` naming the exports
     * is decided here. Finished exports keep their destination id; their files stay in the bucket.
     */
    deleteDestination(tenantId: string, id: string): void {
        this.destination(tenantId, id);
        const using = [...this.exports.values()].filter((e) => e.bulk_export_destination_id === id && !isFinalExportStatus(e.status));
        if (using.length) {
            const list = using.map((e) => `${e.id} (${e.status})`).join(", ");
            throw new EmulatorError(409, {
                detail: `Bulk export destination ${id} is still used by exports that have not finished: ${list}. Cancel them or wait for them to finish.`,
            });
        }
        this.destinations.delete(id);
        this.save();
    }

    /** The destination's credentials in clear, for the worker only. */
    credentialsOf(d: DestinationRecord): DestinationCredentials | undefined {
        return d._credentials ? this.store.open<DestinationCredentials>(d._credentials) : undefined;
    }

    validateOptions(): ValidateOptions {
        return { awsEndpoint: this.o.awsEndpoint };
    }

    // ---- exports ----

    createExport(tenantId: string, body: ExportCreateRequest): Partial<ExportRecord> {
        if (body.interval_hours != null) this.requireVersion("interval_hours", ["body", "interval_hours"]);
        if (body.export_fields != null) this.requireVersion("export_fields", ["body", "export_fields"]);
        const { start, end } = checkRange(body);
        checkFields(body.export_fields);
        checkFilter(body.filter);
        this.destination(tenantId, body.bulk_export_destination_id);
        const sessions = this.sessionsRead(tenantId, body);
        this.admitCreation(tenantId, body.interval_hours != null);
        const now = this.now();
        const e: ExportRecord = {
            id: randomUUID(),
            tenant_id: tenantId,
            bulk_export_destination_id: body.bulk_export_destination_id,
            session_id: body.session_id ?? null,
            all_experiments: body.all_experiments ?? false,
            start_time: body.start_time,
            end_time: body.end_time ?? null,
            filter: body.filter ?? null,
            format: "Parquet",
            format_version: body.format_version ?? "v1",
            compression: body.compression ?? this.defaultCompression(),
            interval_hours: body.interval_hours ?? null,
            export_fields: body.export_fields ?? null,
            source_bulk_export_id: null,
            status: "Created",
            created_at: now,
            updated_at: now,
            finished_at: null,
            _history: [{ status: "Created", at: now }],
        };
        this.exports.set(e.id, e);
        if (e.interval_hours != null) {
            e._nextWindow = start;
            moveTo(EXPORT_TABLE, e, "IntervalScheduled", now);
        } else this.addRuns(e, start, end!, sessions);
        this.save();
        this.onChange();
        return publicView(e);
    }

    /**
     * The tracing projects an export reads: its `session_id`, or with `all_experiments` (a later addition,
     * docs/service.md R5) every experiment of the workspace, the most recent `experimentsPerExport` (250 on the cloud).
     * Exactly one of the two (422); `all_experiments` is for one-off exports; none to read is a 400.
     */
    private sessionsRead(tenantId: string, body: ExportCreateRequest): string[] {
        if (body.all_experiments) {
            if (body.session_id != null) throw invalidField(["body", "all_experiments"], "Give either session_id or all_experiments, not both");
            if (body.interval_hours != null) throw invalidField(["body", "all_experiments"], "all_experiments is for one-off exports (interval_hours is set)");
            const cap = this.limits.experimentsPerExport ?? Infinity;
            const experiments = [...this.projects.values()]
                .filter((p) => p.experiment && (!p.tenant_id || p.tenant_id === tenantId))
                .sort((a, b) => Date.parse(b.start) - Date.parse(a.start))
                .slice(0, cap);
            if (!experiments.length) throw badRequest("The workspace has no experiments to export.");
            return experiments.map((p) => p.session_id);
        }
        if (body.session_id == null) throw invalidField(["body", "session_id"], "Field required (or set all_experiments)", "missing");
        return [this.project(tenantId, body.session_id).session_id];
    }

    /** The cloud's limits on creations (see the top of this file): 429 beyond, else counted. */
    private admitCreation(tenantId: string, scheduled: boolean): void {
        const { scheduledExportsPerWorkspace: maxScheduled, creationsPerHour: perHour } = this.limits;
        if (scheduled && maxScheduled != null) {
            const held = [...this.exports.values()].filter((e) => e.tenant_id === tenantId && e.status === "IntervalScheduled").length;
            if (held >= maxScheduled) {
                throw new EmulatorError(429, {
                    detail: `Scheduled export limit reached: a workspace may have at most ${maxScheduled} scheduled exports (it has ${held}). Cancel one to create another.`,
                });
            }
        }
        const now = this.clock.now();
        const recent = (this.creations.get(tenantId) ?? []).filter((t) => t > now - 3_600_000);
        if (perHour != null && recent.length >= perHour) {
            const retryAfter = Math.max(1, Math.ceil((recent[recent.length - perHour] + 3_600_000 - now) / 1000));
            throw new EmulatorError(
                429,
                { detail: `Rate limit exceeded: at most ${perHour} bulk exports may be created per hour.` },
                { "retry-after": String(retryAfter) },
            );
        }
        recent.push(now);
        this.creations.set(tenantId, recent);
    }

    /** An export spawned by a scheduled one for the window [start, end) (docs/service.md 4.4). */
    spawn(parent: ExportRecord, start: number, end: number): ExportRecord {
        const now = this.now();
        const e: ExportRecord = {
            ...parent,
            id: randomUUID(),
            start_time: new Date(start).toISOString(),
            end_time: new Date(end).toISOString(),
            interval_hours: null,
            source_bulk_export_id: parent.id,
            status: "Created",
            created_at: now,
            updated_at: now,
            finished_at: null,
            _history: [{ status: "Created", at: now }],
            _nextWindow: undefined,
        };
        this.exports.set(e.id, e);
        this.addRuns(e, start, end);
        return e;
    }

    /** One run per UTC day of the range (docs/service.md 2.8), for each tracing project the export reads (a spawned window: its own). */
    private addRuns(e: ExportRecord, start: number, end: number, sessions = [e.session_id!]): void {
        for (const sessionId of sessions) this.addProjectRuns(e, sessionId, start, end);
    }

    private addProjectRuns(e: ExportRecord, sessionId: string, start: number, end: number): void {
        const d = this.destinations.get(e.bulk_export_destination_id);
        const placement = { exportId: e.id, tenantId: e.tenant_id, sessionId };
        for (const day of dayPartitions(start, end)) {
            const at = e.created_at;
            const from = new Date(day.start).toISOString();
            const to = new Date(day.end).toISOString();
            const r: RunRecord = {
                id: randomUUID(),
                bulk_export_id: e.id,
                status: "Created",
                retry_number: 0,
                errors: {},
                created_at: at,
                updated_at: at,
                finished_at: null,
                start_time: from,
                end_time: to,
                metadata: {
                    prefix: d ? rootKey(d.config) : "",
                    start_time: from,
                    end_time: to,
                    result: { rows_written: 0, exported_files: [], export_path: d ? partitionKey(d.config, placement, day) : "", latest_cursor: null },
                },
                _history: [{ status: "Created", at }],
                _cursor: 0,
                _sessionId: sessionId,
            };
            this.runs.set(r.id, r);
        }
    }

    listExports(tenantId: string): Array<Partial<ExportRecord>> {
        return [...this.exports.values()].filter((e) => e.tenant_id === tenantId).map(publicView);
    }

    export(tenantId: string, id: string): ExportRecord {
        const e = this.exports.get(id);
        if (!e || e.tenant_id !== tenantId) throw new EmulatorError(404, { detail: `Bulk export ${id} not found` });
        return e;
    }

    /** PATCH `{status: "Cancelled"}`: a final export answers 400; a scheduled one's spawned exports go on. */
    cancelExport(tenantId: string, id: string): Partial<ExportRecord> {
        const e = this.export(tenantId, id);
        if (isFinalExportStatus(e.status)) throw badRequest(`Bulk export ${id} is ${e.status} and cannot be cancelled.`);
        this.finishExport(e, "Cancelled", "Cancelled");
        this.save();
        this.onChange();
        return publicView(e);
    }

    /** Ends an export and every run of it that is not final yet. */
    finishExport(e: ExportRecord, status: "Completed" | "Failed" | "Cancelled" | "TimedOut", runsTo: "Cancelled" | "TimedOut"): void {
        const now = this.now();
        moveTo(EXPORT_TABLE, e, status, now);
        e.finished_at = now;
        for (const r of this.runsOf(e.id)) {
            if (RUN_TABLE.terminal.includes(r.status)) continue;
            moveTo(RUN_TABLE, r, runsTo, now);
            r.finished_at = now;
        }
    }

    runsOf(exportId: string): RunRecord[] {
        return [...this.runs.values()].filter((r) => r.bulk_export_id === exportId);
    }

    listRuns(tenantId: string, exportId: string): Array<Partial<RunRecord>> {
        this.export(tenantId, exportId);
        return this.runsOf(exportId).map(publicView);
    }

    run(tenantId: string, exportId: string, runId: string): Partial<RunRecord> {
        this.export(tenantId, exportId);
        const r = this.runs.get(runId);
        if (!r || r.bulk_export_id !== exportId) throw new EmulatorError(404, { detail: `Bulk export run ${runId} not found` });
        return publicView(r);
    }

    /** The runs of every export a scheduled export spawned. */
    spawnedRuns(tenantId: string, sourceId: string): Array<Partial<RunRecord>> {
        this.export(tenantId, sourceId);
        const children = new Set([...this.exports.values()].filter((e) => e.source_bulk_export_id === sourceId).map((e) => e.id));
        return [...this.runs.values()].filter((r) => children.has(r.bulk_export_id)).map(publicView);
    }

    /** What the service writes when an export names no compression: zstandard on the cloud, gzip self-hosted (public docs). */
    private defaultCompression(): "zstandard" | "gzip" {
        return this.o.installation === "self-hosted" ? "gzip" : "zstandard";
    }

    /** On an older self-hosted installation, a field it does not know is refused as the service refuses any. */
    private requireVersion(field: VersionedField, loc: string[]): void {
        const v = this.o.installationVersion;
        if (v && compareVersions(v, FIELD_SINCE[field].application) < 0) throw invalidField(loc, "Extra inputs are not permitted", "extra_forbidden");
    }
}

function credentialKeys(c: DestinationCredentials | null | undefined): string[] {
    return c
        ? Object.entries(c)
              .filter(([, v]) => v != null && v !== "")
              .map(([k]) => k)
        : [];
}

function checkDisplayName(name: string): void {
    if (!DISPLAY_NAME_RE.test(name)) {
        throw invalidField(["body", "display_name"], `String should match pattern '^[a-zA-Z0-9\\-_ ']+$'`, "string_pattern_mismatch");
    }
}

/** start < end for one-off exports; exactly one of end_time and interval_hours (docs/service.md 2.8, 4.4). */
function checkRange(b: ExportCreateRequest): { start: number; end?: number } {
    const start = Date.parse(b.start_time);
    if (Number.isNaN(start)) throw invalidField(["body", "start_time"], "Input should be a valid datetime", "datetime_parsing");
    if (b.interval_hours != null) {
        if (b.end_time != null) throw invalidField(["body", "end_time"], "end_time must be omitted for scheduled exports (interval_hours is set)");
        if (b.interval_hours < 1 || b.interval_hours > 168)
            throw invalidField(["body", "interval_hours"], "interval_hours must be between 1 and 168", "value_error");
        return { start };
    }
    if (b.end_time == null) throw invalidField(["body", "end_time"], "end_time is required for one-off exports (or set interval_hours)");
    const end = Date.parse(b.end_time);
    if (Number.isNaN(end)) throw invalidField(["body", "end_time"], "Input should be a valid datetime", "datetime_parsing");
    if (!(start < end)) throw invalidField(["body", "end_time"], "end_time must be after start_time");
    return { start, end };
}

function checkFields(fields: string[] | null | undefined): void {
    if (fields == null) return;
    const bad = fields.map((f, i) => [f, i] as const).filter(([f]) => !(EXPORTABLE_FIELDS as readonly string[]).includes(f));
    if (bad.length) {
        throw validation(bad.map(([f, i]) => ({ loc: ["body", "export_fields", i], msg: `Field ${f} is not exportable`, type: "value_error" })));
    }
}

/**
 * A filter must parse and read only fields the emulator generates and can evaluate (every exportable
 * field and the query fields): the service refuses a field it does not know; the emulator knows only
 * these (the provider merely warns, since the real service's list is longer). Answers it parsed (none for an
 * empty one); run queries refuse theirs with it too (tracing/query.ts).
 */
export function checkFilter(filter: string | null | undefined): FilterExpr | undefined {
    if (filter == null || filter === "") return undefined;
    let expr: FilterExpr;
    try {
        expr = parseFilter(filter);
    } catch (e) {
        if (e instanceof FilterSyntaxError) throw badRequest(`Invalid filter ${e.message}`);
        throw e;
    }
    const unknown = unknownFields(expr);
    if (unknown.length)
        throw badRequest(`Invalid filter: unknown field ${unknown.map((f) => JSON.stringify(f)).join(", ")} (fields: ${FILTER_FIELDS.join(", ")})`);
    return expr;
}

/** Compares dotted versions numerically (`0.10.9` < `0.10.91`). */
export function compareVersions(a: string, b: string): number {
    const pa = a.split(".").map(Number);
    const pb = b.split(".").map(Number);
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
        const d = (pa[i] ?? 0) - (pb[i] ?? 0);
        if (d !== 0) return Math.sign(d);
    }
    return 0;
}
