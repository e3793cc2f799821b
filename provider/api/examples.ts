/**
 * A dataset's examples, versions, tags and share (docs/service.md R14), under `/api/v1`: read whole at a version
 * (paged), written in the service's bulk calls (batches, never one request per example), one example made, changed,
 * deleted; a version read by time or tag, a tag put; a share made, read, removed. Creates carry ids made here: a
 * lost answer is looked up by them instead of being sent again blindly (reconcile.ts), and a bulk create is all or
 * nothing (R14.1), so its first example says whether it was made.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { HttpClientOptions } from "./client";
import { NotFoundError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    DatasetShareSchema,
    DatasetVersionListSchema,
    DatasetVersionSchema,
    ExampleListSchema,
    ExampleSchema,
    type DatasetShare,
    type DatasetVersion,
    type Example,
    type ExampleCreate,
    type ExampleUpdate,
    type ExampleUpdateWithId,
} from "./schemas/examples";
import { TracingApiClient, at, tracingHttp } from "./tracingApi";

const EXAMPLES = "/api/v1/examples";
const DATASETS = "/api/v1/datasets";
/** The largest page `GET /examples` answers. */
const PAGE = 100;
/** Pages of a dataset's examples read at once. */
const PARALLEL_PAGES = 4;
/** At most this many examples, or this many bytes of them, in one bulk request (a 10,000-example file is a few requests). */
const BATCH_ROWS = 1_000;
const BATCH_BYTES = 4_000_000;
/** Ids per `DELETE /examples?example_ids=` (each 49 bytes of query: a URL well under common 16 KB limits). */
const DELETE_BATCH = 100;
const Anything = z.unknown();

/** `items` cut into batches of at most `rows` items and about `bytes` of JSON each. */
export function batches<T>(items: T[], rows = BATCH_ROWS, bytes = BATCH_BYTES): T[][] {
    const out: T[][] = [];
    let current: T[] = [];
    let size = 0;
    for (const item of items) {
        const n = JSON.stringify(item).length;
        if (current.length && (current.length >= rows || size + n > bytes)) {
            out.push(current);
            current = [];
            size = 0;
        }
        current.push(item);
        size += n;
    }
    if (current.length) out.push(current);
    return out;
}

export class ExamplesClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): ExamplesClient {
        return new ExamplesClient(tracingHttp(o));
    }

    withDeadline(deadline: number): ExamplesClient {
        return new ExamplesClient(this.http, deadline);
    }

    /**
     * Every example of the dataset at `asOf` (a time or a tag; absent: now). Pages are read four at a time, all at one
     * version (now's is read first and named), so that writes meanwhile neither shift nor repeat a page.
     */
    async list(datasetId: string, asOf?: string): Promise<Example[]> {
        const at = asOf ?? (await this.version(datasetId))?.as_of;
        const page = (offset: number) => this.get(EXAMPLES, ExampleListSchema, { dataset: datasetId, as_of: at, limit: PAGE, offset });
        // A dataset without a version has no example; one the workspace lacks answers its 404 here.
        if (at === undefined) return page(0);
        const all: Example[] = [];
        for (let offset = 0; ; offset += PAGE * PARALLEL_PAGES) {
            const pages = await Promise.all(Array.from({ length: PARALLEL_PAGES }, (_, i) => page(offset + i * PAGE)));
            all.push(...pages.flat());
            if (pages.some((p) => p.length < PAGE)) return all;
        }
    }

    /** Makes examples in bulk, in batches; each row gets an id made here unless it has one. Answers the ids, in order. */
    async createMany(rows: ExampleCreate[]): Promise<string[]> {
        const withIds = rows.map((r) => ({ ...r, id: r.id ?? randomUUID() }));
        for (const batch of batches(withIds)) {
            const send = () => this.send("POST", `${EXAMPLES}/bulk`, batch, ExampleListSchema);
            await createOnce(send, async () => ((await this.tryGetOne(batch[0].id)) ? [] : undefined), this.http.reconcileOptions(this.deadline));
        }
        return withIds.map((r) => r.id);
    }

    /** Changes examples in bulk, in batches (a change sent twice changes nothing more: idempotent). */
    async updateMany(changes: ExampleUpdateWithId[]): Promise<void> {
        for (const batch of batches(changes)) await this.send("PATCH", `${EXAMPLES}/bulk`, batch, Anything, { idempotent: true });
    }

    /**
     * Deletes examples, a hundred ids a request. The service refuses a whole request naming one it does not hold
     * (404, R14.1): one deleted meanwhile (by a first attempt whose answer was lost, or by someone else) has the rest
     * deleted by a second request naming only those still there.
     */
    async deleteMany(datasetId: string, ids: string[]): Promise<void> {
        for (let i = 0; i < ids.length; i += DELETE_BATCH) {
            const batch = ids.slice(i, i + DELETE_BATCH);
            try {
                await this.remove(EXAMPLES, { example_ids: batch });
            } catch (e) {
                if (!(e instanceof NotFoundError)) throw e;
                const left = await this.get(EXAMPLES, ExampleListSchema, { dataset: datasetId, id: batch, limit: PAGE });
                if (left.length) await this.remove(EXAMPLES, { example_ids: left.map((x) => x.id) });
            }
        }
    }

    /** Makes one example under an id made here (a lost answer is looked up by it). */
    async createOne(body: ExampleCreate): Promise<Example> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const send = () => this.send("POST", EXAMPLES, wire, ExampleSchema);
        return (await createOnce(send, () => this.tryGetOne(wire.id), this.http.reconcileOptions(this.deadline))).value;
    }

    tryGetOne = (id: string): Promise<Example | undefined> => this.get(at(EXAMPLES, id), ExampleSchema).catch(undefinedOn404);

    async updateOne(id: string, body: ExampleUpdate): Promise<void> {
        await this.send("PATCH", at(EXAMPLES, id), body, Anything, { idempotent: true });
    }

    deleteOne = (id: string): Promise<void> => this.remove(at(EXAMPLES, id));

    // ---- versions, tags, share ----

    /** The version current at a time or named by a tag (absent both: the latest); undefined when there is none. */
    version(datasetId: string, by: { asOf?: string; tag?: string } = {}): Promise<DatasetVersion | undefined> {
        return this.get(at(DATASETS, datasetId, "version"), DatasetVersionSchema, { as_of: by.asOf, tag: by.tag }).catch(undefinedOn404);
    }

    /** Every version of the dataset, newest first. */
    async versions(datasetId: string): Promise<DatasetVersion[]> {
        const all: DatasetVersion[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const page = await this.get(at(DATASETS, datasetId, "versions"), DatasetVersionListSchema, { limit: PAGE, offset });
            all.push(...page);
            if (page.length < PAGE) return all;
        }
    }

    /** Puts `tag` on the version current at `asOf` (moved if another had it): idempotent. */
    tag(datasetId: string, tag: string, asOf: string): Promise<DatasetVersion> {
        return this.send("PUT", at(DATASETS, datasetId, "tags"), { tag, as_of: asOf }, DatasetVersionSchema, { idempotent: true });
    }

    /** The dataset's share, if shared. */
    share(datasetId: string): Promise<DatasetShare | undefined> {
        return this.get(at(DATASETS, datasetId, "share"), DatasetShareSchema.nullable())
            .then((s) => s ?? undefined)
            .catch(undefinedOn404);
    }

    /** Shares the dataset (a shared one keeps its token: idempotent). */
    shareDataset(datasetId: string): Promise<DatasetShare> {
        return this.send("PUT", at(DATASETS, datasetId, "share"), undefined, DatasetShareSchema, { idempotent: true });
    }

    unshare = (datasetId: string): Promise<void> => this.remove(at(DATASETS, datasetId, "share"));
}
