/**
 * Sandbox snapshots and the boxes started from them (docs/service.md R17.2), kept in `--state-dir`
 * (`sandboxes.json`), per workspace. A snapshot is `building` for `buildMs` of the emulator's clock, then `ready`
 * (or `failed`, with a `status_message`, for an image `failImages` holds: the tests' fault). A box starts from a
 * ready snapshot (by id or name; neither: the default blueprint) and is `ready` at once (**decided**: the emulator
 * runs nothing in it). A box may be captured into a new snapshot. A snapshot a box uses is never deleted: 409
 * naming the boxes (**decided**: the description lists no status for it; nothing is lost). Names are unique in a
 * workspace (409 for a box, as the description lists; 400 for a snapshot, whose create lists no 409).
 */
import { randomUUID } from "node:crypto";
import type { BoxCreateRequest, SnapshotCaptureRequest, SnapshotCreateRequest } from "../../provider/api/schemas/sandboxes";
import type { Clock } from "../core/clock";
import { EmulatorError } from "../core/errors";
import { Store } from "../core/store";

interface SnapshotRecord {
    id: string;
    tenantId: string;
    name: string;
    docker_image: string | null;
    fs_capacity_bytes: number | null;
    registry_id: string | null;
    source_sandbox_id: string | null;
    include_memory: boolean;
    createdAt: number;
    failed: boolean;
}
interface BoxRecord {
    id: string;
    tenantId: string;
    name: string;
    snapshot_id: string | null;
    createdAt: number;
}
interface State {
    snapshots: SnapshotRecord[];
    boxes: BoxRecord[];
}

/** The sandboxes' error body (`sandboxes.ErrorResponse`). */
export const sandboxError = (status: number, error: string, message: string) => new EmulatorError(status, { detail: { error, message } });

export class Sandboxes {
    private s: State;
    private readonly store: Store<State>;
    /** Images whose build fails (a test's fault). */
    readonly failImages = new Set<string>();

    constructor(
        private readonly clock: Clock,
        private readonly buildMs: () => number,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "sandboxes.json");
        this.s = this.store.load() ?? { snapshots: [], boxes: [] };
    }

    reset(): void {
        this.s = { snapshots: [], boxes: [] };
        this.failImages.clear();
        this.save();
    }

    private save(): void {
        this.store.save(this.s);
    }

    private snapshotView(r: SnapshotRecord) {
        const built = r.createdAt + this.buildMs();
        const done = this.clock.now() >= built;
        const status = !done ? "building" : r.failed ? "failed" : "ready";
        return {
            id: r.id,
            name: r.name,
            status,
            ...(status === "failed" ? { status_message: `pulling ${r.docker_image}: manifest unknown` } : {}),
            docker_image: r.docker_image ?? undefined,
            fs_capacity_bytes: r.fs_capacity_bytes ?? undefined,
            ...(r.registry_id ? { registry_id: r.registry_id } : {}),
            ...(r.source_sandbox_id ? { source_sandbox_id: r.source_sandbox_id } : {}),
            ...(status === "ready" ? { image_digest: `sha256:${r.id.replace(/-/g, "").padEnd(64, "0")}`, fs_used_bytes: 0 } : {}),
            ...(status === "ready" && r.include_memory ? { memory_snapshot_size_bytes: 0 } : {}),
            created_at: this.clock.iso(r.createdAt),
            updated_at: this.clock.iso(done ? built : r.createdAt),
        };
    }

    private boxView(b: BoxRecord) {
        return {
            id: b.id,
            name: b.name,
            status: "ready",
            snapshot_id: b.snapshot_id ?? undefined,
            created_at: this.clock.iso(b.createdAt),
            updated_at: this.clock.iso(b.createdAt),
        };
    }

    private snapshotsOf(tenantId: string): SnapshotRecord[] {
        return this.s.snapshots.filter((x) => x.tenantId === tenantId);
    }

    private boxesOf(tenantId: string): BoxRecord[] {
        return this.s.boxes.filter((x) => x.tenantId === tenantId);
    }

    listSnapshots(tenantId: string, q: { limit: number; offset: number; nameContains?: string }) {
        const all = this.snapshotsOf(tenantId).filter((x) => !q.nameContains || x.name.includes(q.nameContains));
        return { snapshots: all.slice(q.offset, q.offset + q.limit).map((r) => this.snapshotView(r)), offset: q.offset };
    }

    private snapshot(tenantId: string, id: string): SnapshotRecord {
        const r = this.snapshotsOf(tenantId).find((x) => x.id === id);
        if (!r) throw sandboxError(404, "not_found", `Snapshot ${id} not found`);
        return r;
    }

    getSnapshot(tenantId: string, id: string) {
        return this.snapshotView(this.snapshot(tenantId, id));
    }

    private addSnapshot(tenantId: string, r: Omit<SnapshotRecord, "id" | "tenantId" | "createdAt" | "failed">) {
        const taken = this.snapshotsOf(tenantId).find((x) => x.name === r.name);
        if (taken) throw sandboxError(400, "name_conflict", `A snapshot named ${r.name} already exists (${taken.id})`);
        const rec: SnapshotRecord = {
            ...r,
            id: randomUUID(),
            tenantId,
            createdAt: this.clock.now(),
            failed: !!r.docker_image && this.failImages.has(r.docker_image),
        };
        this.s.snapshots.push(rec);
        this.save();
        return this.snapshotView(rec);
    }

    createSnapshot(tenantId: string, b: SnapshotCreateRequest) {
        return this.addSnapshot(tenantId, {
            name: b.name,
            docker_image: b.docker_image,
            fs_capacity_bytes: b.fs_capacity_bytes,
            registry_id: b.registry_id ?? null,
            source_sandbox_id: null,
            include_memory: false,
        });
    }

    /** A snapshot captured from box `name` (its image, the box's own snapshot's). */
    captureSnapshot(tenantId: string, name: string, b: SnapshotCaptureRequest) {
        const box = this.box(tenantId, name);
        const from = box.snapshot_id ? this.snapshotsOf(tenantId).find((x) => x.id === box.snapshot_id) : undefined;
        return this.addSnapshot(tenantId, {
            name: b.name,
            docker_image: from?.docker_image ?? null,
            fs_capacity_bytes: from?.fs_capacity_bytes ?? null,
            registry_id: null,
            source_sandbox_id: box.id,
            include_memory: b.include_memory ?? false,
        });
    }

    deleteSnapshot(tenantId: string, id: string): void {
        this.snapshot(tenantId, id);
        const users = this.boxesOf(tenantId).filter((b) => b.snapshot_id === id);
        if (users.length)
            throw sandboxError(409, "snapshot_in_use", `Snapshot ${id} is used by sandboxes: ${users.map((b) => b.name).join(", ")}; delete them first`);
        this.s.snapshots = this.s.snapshots.filter((x) => x.id !== id);
        this.save();
    }

    listBoxes(tenantId: string, q: { limit: number; offset: number; nameContains?: string }) {
        const all = this.boxesOf(tenantId).filter((x) => !q.nameContains || x.name.includes(q.nameContains));
        return { sandboxes: all.slice(q.offset, q.offset + q.limit).map((b) => this.boxView(b)), offset: q.offset };
    }

    private box(tenantId: string, nameOrId: string): BoxRecord {
        const b = this.boxesOf(tenantId).find((x) => x.name === nameOrId || x.id === nameOrId);
        if (!b) throw sandboxError(404, "not_found", `Sandbox ${nameOrId} not found`);
        return b;
    }

    getBox(tenantId: string, name: string) {
        return this.boxView(this.box(tenantId, name));
    }

    /** A box from a ready snapshot (by id or name; 422 for both, 400 for one not ready or not found). */
    createBox(tenantId: string, b: BoxCreateRequest) {
        if (b.snapshot_id && b.snapshot_name) throw sandboxError(422, "invalid_request", "Provide at most one of snapshot_id or snapshot_name");
        const snap = b.snapshot_id
            ? this.snapshotsOf(tenantId).find((x) => x.id === b.snapshot_id)
            : b.snapshot_name
              ? this.snapshotsOf(tenantId).find((x) => x.name === b.snapshot_name)
              : undefined;
        const asked = b.snapshot_id ?? b.snapshot_name;
        if (asked && !snap) throw sandboxError(400, "snapshot_not_found", `Snapshot ${asked} not found`);
        if (snap && this.snapshotView(snap).status !== "ready")
            throw sandboxError(400, "snapshot_not_ready", `Snapshot ${asked} is ${this.snapshotView(snap).status}, not ready`);
        const name = b.name ?? `sandbox-${randomUUID().slice(0, 8)}`;
        if (this.boxesOf(tenantId).some((x) => x.name === name)) throw sandboxError(409, "name_conflict", `Sandbox name '${name}' already in use`);
        const rec: BoxRecord = { id: randomUUID(), tenantId, name, snapshot_id: snap?.id ?? null, createdAt: this.clock.now() };
        this.s.boxes.push(rec);
        this.save();
        return this.boxView(rec);
    }

    deleteBox(tenantId: string, name: string): void {
        const b = this.box(tenantId, name);
        this.s.boxes = this.s.boxes.filter((x) => x.id !== b.id);
        this.save();
    }
}
