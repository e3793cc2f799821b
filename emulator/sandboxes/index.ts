/**
 * The sandboxes area (docs/service.md R17.2): the description's `/v2/sandboxes/snapshots[/{snapshot_id}]` and
 * `/v2/sandboxes/boxes[/{name}]` (with a box's `.../snapshot` capture), served on the API's host under `/api`, where
 * the official clients send them (`{endpoint}/api/v2/sandboxes`), model.ts keeping them. The box operations no
 * resource needs (start, stop, status, service URLs, batch delete, usage) answer 501. Not to be confused with
 * emulator/sandbox/ (the `--sandbox` launcher).
 */
import type { z } from "zod";
import { BoxCreateRequestSchema, SnapshotCaptureRequestSchema, SnapshotCreateRequestSchema } from "../../provider/api/schemas/sandboxes";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { pagination, parse, type RequestContext, type Router } from "../core/http";
import { EmulatorError } from "../core/errors";
import { Sandboxes, sandboxError } from "./model";

export interface SandboxesArea extends Area {
    readonly model: Sandboxes;
}

const BASE = "/api/v2/sandboxes";

/**
 * What a route refuses as unreadable (a body the schema refuses, or one that is no JSON): 400 in the sandboxes' error
 * shape, naming each field (their operations list 400, and answer every error as `sandboxes.ErrorResponse`).
 */
function asSandboxRefusal(e: unknown): unknown {
    if (!(e instanceof EmulatorError) || e.status !== 422) return e;
    const detail = (e.body as { detail?: unknown }).detail;
    const words = Array.isArray(detail) ? detail.map((d: { loc: unknown[]; msg: string }) => `${d.loc.join(".")}: ${d.msg}`).join("; ") : String(detail);
    return sandboxError(400, "invalid_request", words);
}
const body = <T>(schema: z.ZodType<T>, raw: unknown): T => parse(schema, raw, "body");
const refusal = { refusal: asSandboxRefusal };

const listQuery = (c: RequestContext) => ({ ...pagination(c.query), nameContains: c.query.get("name_contains") ?? undefined });

export function sandboxesArea(o: { clock: Clock; stateDir?: string; buildMs: () => number }): SandboxesArea {
    const model = new Sandboxes(o.clock, o.buildMs, o.stateDir);
    return {
        name: "sandboxes",
        model,
        register(router: Router) {
            router
                .on(
                    "POST",
                    `${BASE}/snapshots`,
                    (c) => ({ status: 201, body: model.createSnapshot(c.tenantId, body(SnapshotCreateRequestSchema, c.body)) }),
                    refusal,
                )
                .on("GET", `${BASE}/snapshots`, (c) => ({ status: 200, body: model.listSnapshots(c.tenantId, listQuery(c)) }), refusal)
                .on("GET", `${BASE}/snapshots/{snapshot_id}`, (c) => ({ status: 200, body: model.getSnapshot(c.tenantId, c.params.snapshot_id) }), refusal)
                .on("DELETE", `${BASE}/snapshots/{snapshot_id}`, (c) => (model.deleteSnapshot(c.tenantId, c.params.snapshot_id), { status: 204 }), refusal)
                .on("POST", `${BASE}/boxes`, (c) => ({ status: 201, body: model.createBox(c.tenantId, body(BoxCreateRequestSchema, c.body)) }), refusal)
                .on("GET", `${BASE}/boxes`, (c) => ({ status: 200, body: model.listBoxes(c.tenantId, listQuery(c)) }), refusal)
                .on("GET", `${BASE}/boxes/{name}`, (c) => ({ status: 200, body: model.getBox(c.tenantId, c.params.name) }), refusal)
                .on("DELETE", `${BASE}/boxes/{name}`, (c) => (model.deleteBox(c.tenantId, c.params.name), { status: 204 }), refusal)
                .on(
                    "POST",
                    `${BASE}/boxes/{name}/snapshot`,
                    (c) => ({ status: 201, body: model.captureSnapshot(c.tenantId, c.params.name, body(SnapshotCaptureRequestSchema, c.body)) }),
                    refusal,
                );
        },
        reset: () => model.reset(),
        // The official clients send `X-Tenant-Id` only when given a workspace: without it, the key's own.
        keyWorkspace: [/^\/api\/v2\/sandboxes\//],
        notEmulated: [
            /^\/api\/v2\/sandboxes\/(usage|internal|registries|templates)/,
            /^\/api\/v2\/sandboxes\/boxes\/[^/]+\/(start|stop|status|service-url)/,
            /^\/api\/v2\/sandboxes\/boxes\/batch-delete/,
        ],
    };
}
