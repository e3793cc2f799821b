/**
 * Typed client of bulk export on the tracing API (`{base_url}`: docs/service.md 4.3, plus the real service's
 * destination PATCH, the destination reads and the run reads). All HTTP policy lives in HttpClient (made
 * with `apiKeyHeader: "X-API-Key"`); this file adds the endpoints and the reconciliation that keeps a create
 * from being sent twice blindly: after an ambiguous failure (see `isAmbiguous`) the object is looked up by
 * what defines it and adopted when it was made at or after our first attempt; if none is found the create
 * is sent once more; should the first one take effect after all (an export), the late twin is cancelled.
 *   - a destination is found by display name, bucket, prefix and endpoint;
 *   - an export by destination, tracing project, time range, interval and filter.
 * Creates answer 200 (the public description) or 201: both are accepted.
 */
import { HttpClient, path, type HttpClientOptions } from "./client";
import { ApiError, NotFoundError, undefinedOn404 } from "./errors";
import { canonicalFilter } from "./filter";
import { createOnce, createdSince, lookAgain } from "./reconcile";
import { same } from "./values";
import {
    DestinationListSchema,
    DestinationSchema,
    ExportListSchema,
    ExportRunListSchema,
    ExportRunSchema,
    ExportSchema,
    isFinalExportStatus,
    normalizeDestinationType,
    type BulkExportRecord,
    type Destination,
    type DestinationCreateRequest,
    type DestinationUpdateRequest,
    type ExportCreateRequest,
    type ExportRun,
} from "./schemas/bulkExport";

const BASE = "/api/v1/bulk-exports";
/** How the service words a 429 for the scheduled-export quota (the emulator's words; the real ones are not published). */
export const SCHEDULED_QUOTA = /scheduled export limit/i;

export class BulkExportClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the tracing API at `o.baseUrl`, which takes the API key as `X-API-Key` (docs/service.md 5; and the workspace as `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): BulkExportClient {
        return new BulkExportClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    /** The same client whose requests retry no later than `deadline` (epoch ms): one per operation. */
    withDeadline(deadline: number): BulkExportClient {
        return new BulkExportClient(this.http, deadline);
    }

    // ---- destinations ----

    /** Creates a destination (the service validates it by writing a test file); never sent twice blindly. */
    async createDestination(body: DestinationCreateRequest): Promise<{ destination: Destination; adopted: boolean }> {
        const wire = { ...body, destination_type: normalizeDestinationType(body.destination_type) ?? "s3" };
        const secrets = [body.credentials?.secret_access_key, body.credentials?.session_token].filter((s): s is string => !!s);
        const send = async () =>
            (
                await this.http.request("POST", `${BASE}/destinations`, {
                    body: wire,
                    schema: DestinationSchema,
                    expect: [200, 201],
                    secrets,
                    deadline: this.deadline,
                })
            ).data;
        const ours = (since: number) => async () =>
            (await this.listDestinations()).find((d) => destinationAsked(d, body) && createdSince(this.http, d.created_at, since));
        const { value, adopted } = await createOnce(send, ours(Date.now()), this.http.reconcileOptions(this.deadline));
        return { destination: value, adopted };
    }

    /** A destination the service holds that `body` would make again (same display name, bucket, prefix and endpoint), if any. */
    async findDestinationLike(body: DestinationCreateRequest): Promise<Destination | undefined> {
        return (await this.listDestinations()).find((d) => destinationAsked(d, body));
    }

    async listDestinations(): Promise<Destination[]> {
        return (await this.http.request("GET", `${BASE}/destinations`, { schema: DestinationListSchema, deadline: this.deadline })).data;
    }

    async getDestination(id: string): Promise<Destination> {
        return (await this.http.request("GET", path`/api/v1/bulk-exports/destinations/${id}`, { schema: DestinationSchema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined when the destination does not exist. */
    async tryGetDestination(id: string): Promise<Destination | undefined> {
        return this.getDestination(id).catch(undefinedOn404);
    }

    /** Replaces the credentials of a destination (rotation without a new destination). Idempotent. */
    async updateDestinationCredentials(id: string, body: DestinationUpdateRequest): Promise<Destination> {
        const secrets = [body.credentials.secret_access_key, body.credentials.session_token].filter((s): s is string => !!s);
        return (
            await this.http.request("PATCH", path`/api/v1/bulk-exports/destinations/${id}`, {
                body,
                schema: DestinationSchema,
                secrets,
                deadline: this.deadline,
            })
        ).data;
    }

    /**
     * DELETE of a destination, a later addition (docs/service.md R5: newer material mentions one, refused while
     * an export uses it). Answers what happened: deleted, already gone (404), or not offered by this
     * service (405, 501). Other refusals are thrown.
     */
    async deleteDestination(id: string): Promise<"deleted" | "gone" | "unsupported"> {
        try {
            await this.http.request("DELETE", path`/api/v1/bulk-exports/destinations/${id}`, { expect: [200, 202, 204], deadline: this.deadline });
            return "deleted";
        } catch (e) {
            if (e instanceof NotFoundError) return "gone";
            if (e instanceof ApiError && (e.status === 405 || e.status === 501)) return "unsupported";
            throw e;
        }
    }

    // ---- exports ----

    /**
     * Creates a one-off or scheduled export; never sent twice blindly. The cloud's hourly limit on creations
     * (429) is waited out until the deadline; its limit on scheduled exports per workspace is a quota that
     * frees only when one is cancelled: thrown at once (`SCHEDULED_QUOTA`).
     */
    async createExport(body: ExportCreateRequest): Promise<{ export: BulkExportRecord; adopted: boolean; lateTwinCancelled?: BulkExportRecord }> {
        const send = async () =>
            (await this.http.request("POST", BASE, { body, schema: ExportSchema, expect: [200, 201], deadline: this.deadline, quota429: SCHEDULED_QUOTA }))
                .data;
        const since = Date.now();
        const ours = async () => (await this.listExports()).find((e) => exportAsked(e, body) && createdSince(this.http, e.created_at, since));
        const { value, adopted, sentTwice } = await createOnce(send, ours, this.http.reconcileOptions(this.deadline));
        const lateTwinCancelled = sentTwice ? await this.cancelLateTwin(body, value, since) : undefined;
        return { export: value, adopted, lateTwinCancelled };
    }

    /**
     * After a create sent twice (the first answer lost, nothing seen for `settleMs`), the first request may
     * still take effect: for `settleMs` more, a second running export identical to `kept` is looked for and
     * cancelled at once (two would export every window twice). Answers the cancelled one, if any.
     */
    private async cancelLateTwin(body: ExportCreateRequest, kept: BulkExportRecord, since: number): Promise<BulkExportRecord | undefined> {
        const twin = async () =>
            (await this.listExports()).find(
                (e) => e.id !== kept.id && !isFinalExportStatus(e.status) && exportAsked(e, body) && createdSince(this.http, e.created_at, since),
            );
        const late = await lookAgain(twin, this.http.reconcileOptions(this.deadline));
        if (!late) return undefined;
        return this.cancelExport(late.id).catch(async (e) => {
            if (e instanceof Error && /cannot be cancelled/.test(e.message)) return this.getExport(late.id);
            throw e;
        });
    }

    /**
     * An export the service holds that `body` would make again and that has not ended (Created, Running, or
     * a schedule's IntervalScheduled): the one an interrupted run made, or nothing. A second one would export
     * the same windows again.
     */
    async findRunningExport(body: ExportCreateRequest): Promise<BulkExportRecord | undefined> {
        return (await this.listExports()).find((e) => !isFinalExportStatus(e.status) && exportAsked(e, body));
    }

    /** Every export of the workspace, spawned ones included (they carry `source_bulk_export_id`). */
    async listExports(): Promise<BulkExportRecord[]> {
        return (await this.http.request("GET", BASE, { schema: ExportListSchema, deadline: this.deadline })).data;
    }

    async getExport(id: string): Promise<BulkExportRecord> {
        return (await this.http.request("GET", path`/api/v1/bulk-exports/${id}`, { schema: ExportSchema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined when the export does not exist. */
    async tryGetExport(id: string): Promise<BulkExportRecord | undefined> {
        return this.getExport(id).catch(undefinedOn404);
    }

    /**
     * PATCH `{status: "Cancelled"}`: stops a non-final export (a scheduled one spawns no more). Idempotent, so
     * retried through a 503 or a lost answer as a GET is: a cancel sent twice is one (the second, after a first
     * that was done, answers 400 "cannot be cancelled", which the callers take as done).
     */
    async cancelExport(id: string): Promise<BulkExportRecord> {
        return (
            await this.http.request("PATCH", path`/api/v1/bulk-exports/${id}`, {
                body: { status: "Cancelled" },
                schema: ExportSchema,
                idempotent: true,
                deadline: this.deadline,
            })
        ).data;
    }

    async listExportRuns(exportId: string): Promise<ExportRun[]> {
        return (await this.http.request("GET", path`/api/v1/bulk-exports/${exportId}/runs`, { schema: ExportRunListSchema, deadline: this.deadline })).data;
    }

    async getExportRun(exportId: string, runId: string): Promise<ExportRun> {
        return (await this.http.request("GET", path`/api/v1/bulk-exports/${exportId}/runs/${runId}`, { schema: ExportRunSchema, deadline: this.deadline }))
            .data;
    }

    /** The runs of the exports a scheduled export spawned. */
    async listSpawnedRuns(sourceExportId: string): Promise<ExportRun[]> {
        return (
            await this.http.request("GET", `${BASE}/runs`, {
                query: { source_bulk_export_id: sourceExportId },
                schema: ExportRunListSchema,
                deadline: this.deadline,
            })
        ).data;
    }
}

/** Whether `d` is the destination `body` asks for: what a person tells destinations apart by (its display name) and where it writes. */
const destinationAsked = (d: Destination, body: DestinationCreateRequest) =>
    d.display_name === body.display_name &&
    same(d.config.bucket_name, body.config.bucket_name) &&
    same(d.config.prefix ?? "", body.config.prefix ?? "") &&
    same(d.config.endpoint_url, body.config.endpoint_url);

/**
 * Whether `e` is the export `body` asks for (not one a schedule spawned): the same destination, project (or
 * every experiment), range, interval, filter (by its parsed form when it parses), fields (as a set), format
 * and compression (compared when asked: the service's default differs by installation).
 */
function exportAsked(e: BulkExportRecord, body: ExportCreateRequest): boolean {
    const fields = (f: readonly string[] | null | undefined) => (f?.length ? [...f].sort().join(",") : null);
    return (
        e.bulk_export_destination_id === body.bulk_export_destination_id &&
        same(e.session_id, body.session_id) &&
        !!e.all_experiments === !!body.all_experiments &&
        sameTime(e.start_time, body.start_time) &&
        sameTime(e.end_time, body.end_time) &&
        same(e.interval_hours, body.interval_hours) &&
        sameFilter(e.filter, body.filter) &&
        same(fields(e.export_fields), fields(body.export_fields)) &&
        same(e.format_version ?? "v1", body.format_version ?? "v1") &&
        (body.compression === undefined || same(e.compression, body.compression)) &&
        !e.source_bulk_export_id
    );
}

/** Filters compared as the service means them (whitespace, quotes); one that does not parse, as written. */
const sameFilter = (a: string | null | undefined, b: string | null | undefined) => same(a, b) || (!!a && !!b && canonicalFilter(a) === canonicalFilter(b));

/** Timestamps compared as instants (`...Z` and `+00:00` forms are the same). */
const sameTime = (a: string | null | undefined, b: string | null | undefined) => (a ?? null) === (b ?? null) || (!!a && !!b && Date.parse(a) === Date.parse(b));
