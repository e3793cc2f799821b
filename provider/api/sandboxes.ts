/**
 * Sandbox snapshots of the workspace and the boxes that use them (docs/service.md R17.2), at
 * `/api/v2/sandboxes/...` where the official clients send them (`{endpoint}/api/v2/sandboxes`). A create is sent
 * once: a lost answer is looked up by the snapshot's name (unique in the workspace).
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    BoxListSchema,
    SnapshotListSchema,
    SnapshotSchema,
    type Box,
    type Snapshot,
    type SnapshotCaptureRequest,
    type SnapshotCreateRequest,
} from "./schemas/sandboxes";

const BASE = "/api/v2/sandboxes";
const Nothing = z.unknown();
const PAGE = 100;

export class SandboxesClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the API at `o.baseUrl` (`X-API-Key`, the workspace's `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): SandboxesClient {
        return new SandboxesClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    withDeadline(deadline: number): SandboxesClient {
        return new SandboxesClient(this.http, deadline);
    }

    private call<T>(method: string, p: string, schema: z.ZodType<T>, body?: unknown, o: { idempotent?: boolean } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201, 204], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    /** Every snapshot of the workspace (paged), or those whose name contains `nameContains`. */
    async listSnapshots(nameContains?: string): Promise<Snapshot[]> {
        const out: Snapshot[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const q = new URLSearchParams({ limit: String(PAGE), offset: String(offset), ...(nameContains ? { name_contains: nameContains } : {}) });
            const page = (await this.call("GET", `${BASE}/snapshots?${q}`, SnapshotListSchema)).snapshots ?? [];
            out.push(...page);
            if (page.length < PAGE) return out;
        }
    }

    tryGetSnapshot(id: string): Promise<Snapshot | undefined> {
        return this.call("GET", `${BASE}/snapshots/${encodeURIComponent(id)}`, SnapshotSchema).catch(undefinedOn404);
    }

    async findSnapshot(name: string): Promise<Snapshot | undefined> {
        return (await this.listSnapshots(name)).find((s) => s.name === name);
    }

    /** A snapshot built from an image, or (`fromBox`) captured from a running box. */
    async createSnapshot(body: SnapshotCreateRequest | SnapshotCaptureRequest, fromBox?: string): Promise<Snapshot> {
        const path = fromBox ? `${BASE}/boxes/${encodeURIComponent(fromBox)}/snapshot` : `${BASE}/snapshots`;
        const { value } = await createOnce(
            () => this.call("POST", path, SnapshotSchema, body),
            () => this.findSnapshot(body.name),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    /** Deletes a snapshot; one already gone is done. */
    async deleteSnapshot(id: string): Promise<void> {
        await this.call("DELETE", `${BASE}/snapshots/${encodeURIComponent(id)}`, Nothing, undefined, { idempotent: true }).catch(undefinedOn404);
    }

    /** Every box of the workspace (paged). */
    async listBoxes(): Promise<Box[]> {
        const out: Box[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const page = (await this.call("GET", `${BASE}/boxes?limit=${PAGE}&offset=${offset}`, BoxListSchema)).sandboxes ?? [];
            out.push(...page);
            if (page.length < PAGE) return out;
        }
    }
}
