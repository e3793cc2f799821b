/**
 * The wire contract of sandbox snapshots and the boxes started from them (docs/service.md R17.2): the description's
 * `/v2/sandboxes/snapshots[/{snapshot_id}]` (`sandboxes.CreateSnapshotPayload`, `sandboxes.SnapshotResponse`) and
 * `/v2/sandboxes/boxes[/{name}]` with a box's `.../snapshot` capture (`sandboxes.CaptureSnapshotPayload`). A
 * snapshot is built asynchronously: `building` until `ready` or `failed` (**decided**: the description says "async
 * build" and leaves the words out). Requests are strict; answers tolerant.
 */
import { z } from "zod";

export const SNAPSHOT_PENDING = ["pending", "building"] as const;
export const SNAPSHOT_DONE = ["ready"] as const;
export const SNAPSHOT_FAILED = ["failed"] as const;

/** POST /v2/sandboxes/snapshots body: a snapshot built from a Docker image. */
export const SnapshotCreateRequestSchema = z
    .object({
        name: z.string().min(1),
        docker_image: z.string().min(1),
        fs_capacity_bytes: z.number().int().positive(),
        registry_id: z.string().min(1).optional(),
    })
    .strict();
export type SnapshotCreateRequest = z.infer<typeof SnapshotCreateRequestSchema>;

/** POST /v2/sandboxes/boxes/{name}/snapshot body: a snapshot captured from a box. */
export const SnapshotCaptureRequestSchema = z
    .object({
        name: z.string().min(1),
        checkpoint: z.string().min(1).optional(),
        include_memory: z.boolean().optional(),
    })
    .strict();
export type SnapshotCaptureRequest = z.infer<typeof SnapshotCaptureRequestSchema>;

/** A snapshot as answered (`sandboxes.SnapshotResponse`). */
export const SnapshotSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        status: z.string(),
        status_message: z.string().nullish(),
        docker_image: z.string().nullish(),
        image_digest: z.string().nullish(),
        fs_capacity_bytes: z.number().nullish(),
        fs_used_bytes: z.number().nullish(),
        memory_snapshot_size_bytes: z.number().nullish(),
        registry_id: z.string().nullish(),
        source_sandbox_id: z.string().nullish(),
        created_at: z.string(),
        updated_at: z.string().nullish(),
    })
    .passthrough();
export type Snapshot = z.infer<typeof SnapshotSchema>;

export const SnapshotListSchema = z.object({ snapshots: z.array(SnapshotSchema).nullish(), offset: z.number().nullish() }).passthrough();

/** POST /v2/sandboxes/boxes body (`sandboxes.CreateClaimPayload`), the part this provider and its tests send. */
export const BoxCreateRequestSchema = z
    .object({
        name: z.string().min(1).optional(),
        snapshot_id: z.string().min(1).optional(),
        snapshot_name: z.string().min(1).optional(),
        vcpus: z.number().int().positive().optional(),
        mem_bytes: z.number().int().positive().optional(),
        fs_capacity_bytes: z.number().int().positive().optional(),
        idle_ttl_seconds: z.number().int().nonnegative().optional(),
        delete_after_stop_seconds: z.number().int().nonnegative().optional(),
    })
    .passthrough();
export type BoxCreateRequest = z.infer<typeof BoxCreateRequestSchema>;

/** A box as answered (`sandboxes.ClaimResponse`). */
export const BoxSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        status: z.string(),
        snapshot_id: z.string().nullish(),
        created_at: z.string(),
    })
    .passthrough();
export type Box = z.infer<typeof BoxSchema>;

export const BoxListSchema = z.object({ sandboxes: z.array(BoxSchema).nullish(), offset: z.number().nullish() }).passthrough();
