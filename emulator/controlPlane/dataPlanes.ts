/**
 * The organization's data planes (BYOC, docs/service.md R17.1): the description's `/orgs/current/data-planes`, served
 * at `/api/v1/orgs/current/data-planes` (real-service-notes §9), with `GET` and `DELETE .../{id}` (**decided**: §9
 * lists the path, the description only the collection). Kept in `--state-dir` (`data-planes.json`).
 *
 * A create answers 202 with the data plane `requested`; its status moves with the emulator's clock (core/clock.ts):
 * `requested` for `requestedMs`, `provisioning` for `provisioningMs`, then `active` (or `provisioning_failed` for a
 * name `failNames` holds: the tests' fault). A delete is refused (409) unless it is `active` or failed (§9), and while
 * a listener or deployment names it (409, naming them); it is then `deprovisioning` for `deprovisioningMs` and gone
 * (404, no longer listed). At `speed: immediate` every phase takes no time. The name is unique in the organization
 * (409); a region the service does not offer, or a body it cannot read, is 400 (the description lists no 422).
 */
import { randomUUID } from "node:crypto";
import { DATA_PLANE_DELETABLE, DATA_PLANE_REGIONS, type DataPlaneCreateRequest, type DataPlaneStatus } from "../../provider/api/schemas/dataPlanes";
import type { Clock } from "../core/clock";
import { platformError } from "../core/errors";
import { Store } from "../core/store";

interface DataPlaneRecord extends Omit<DataPlaneCreateRequest, "external_id"> {
    id: string;
    /** When it was requested, and (once deleted) when its delete was accepted, in clock ms. */
    requestedAt: number;
    deletedAt?: number;
    failed: boolean;
}

/** How long each phase takes (ms). */
export interface DataPlaneTiming {
    requestedMs: number;
    provisioningMs: number;
    deprovisioningMs: number;
}
export const DEFAULT_DATA_PLANE_TIMING: DataPlaneTiming = { requestedMs: 500, provisioningMs: 2000, deprovisioningMs: 500 };

/** Who names a data plane: the listeners and deployments in it, by workspace. */
export type InDataPlane = (id: string) => Array<{ kind: "listener" | "deployment"; name: string; workspaceId: string }>;

export class DataPlanes {
    private readonly store: Store<{ dataPlanes: DataPlaneRecord[] }>;
    private records: DataPlaneRecord[];
    /** Names whose provisioning fails (a test's fault). */
    readonly failNames = new Set<string>();

    constructor(
        private readonly clock: Clock,
        private readonly timing: () => DataPlaneTiming,
        private readonly using: InDataPlane,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "data-planes.json");
        this.records = this.store.load()?.dataPlanes ?? [];
    }

    reset(): void {
        this.records = [];
        this.failNames.clear();
        this.save();
    }

    private save(): void {
        this.store.save({ dataPlanes: this.records });
    }

    /** A record's status now, and since when (clock ms); undefined once gone. */
    private state(r: DataPlaneRecord): { status: DataPlaneStatus; since: number } | undefined {
        const t = this.timing();
        const now = this.clock.now();
        if (r.deletedAt !== undefined) return now < r.deletedAt + t.deprovisioningMs ? { status: "deprovisioning", since: r.deletedAt } : undefined;
        const provisioning = r.requestedAt + t.requestedMs;
        const settled = provisioning + t.provisioningMs;
        if (now < provisioning) return { status: "requested", since: r.requestedAt };
        if (now < settled) return { status: "provisioning", since: provisioning };
        return { status: r.failed ? "provisioning_failed" : "active", since: settled };
    }

    private view(r: DataPlaneRecord) {
        const s = this.state(r)!;
        const workspaces = [...new Set(this.using(r.id).map((u) => u.workspaceId))].map((id) => ({ id }));
        return {
            id: r.id,
            name: r.name,
            region: r.region,
            status: s.status,
            status_updated_at: this.clock.iso(s.since),
            created_at: this.clock.iso(r.requestedAt),
            ...(s.status === "active" ? { api_url: `https://${r.id.slice(0, 8)}.${r.region}.byoc.emulator.invalid` } : {}),
            workspaces,
        };
    }

    private live(): DataPlaneRecord[] {
        return this.records.filter((r) => this.state(r) !== undefined);
    }

    /** The description's list: active first, then newest first (at most 50). */
    list() {
        const rank = (r: DataPlaneRecord) => (this.state(r)?.status === "active" ? 0 : 1);
        const sorted = [...this.live()].sort((a, b) => rank(a) - rank(b) || b.requestedAt - a.requestedAt);
        return { data_planes: sorted.slice(0, 50).map((r) => this.view(r)) };
    }

    get(id: string) {
        const r = this.live().find((x) => x.id === id);
        if (!r) throw platformError(404, `Data plane ${id} not found`);
        return this.view(r);
    }

    /** The status of data plane `id`, or undefined when the organization has none (for the listeners and deployments naming one). */
    statusOf(id: string): DataPlaneStatus | undefined {
        const r = this.live().find((x) => x.id === id);
        return r && this.state(r)?.status;
    }

    create(body: DataPlaneCreateRequest) {
        if (!(DATA_PLANE_REGIONS as readonly string[]).includes(body.region))
            throw platformError(400, `region ${body.region} is not offered for data planes; one of: ${DATA_PLANE_REGIONS.join(", ")}`);
        if (!/^arn:aws:iam::\d{12}:role\/[\w+=,.@/-]+$/.test(body.role_arn)) throw platformError(400, `role_arn ${body.role_arn} is not an IAM role ARN`);
        const taken = this.live().find((r) => r.name === body.name);
        if (taken) throw platformError(409, `A data plane named ${body.name} already exists (${taken.id})`);
        const { external_id: _, ...kept } = body;
        const r: DataPlaneRecord = { ...kept, id: randomUUID(), requestedAt: this.clock.now(), failed: this.failNames.has(body.name) };
        this.records.push(r);
        this.save();
        return this.view(r);
    }

    delete(id: string): void {
        const r = this.live().find((x) => x.id === id);
        if (!r) throw platformError(404, `Data plane ${id} not found`);
        const status = this.state(r)!.status;
        if (status === "deprovisioning") return;
        if (!DATA_PLANE_DELETABLE.includes(status)) throw platformError(409, `Data plane ${id} is ${status}: it can be deleted once active or failed`);
        const users = this.using(id);
        if (users.length)
            throw platformError(
                409,
                `Data plane ${id} is still used by ${users.map((u) => `${u.kind} ${u.name} (workspace ${u.workspaceId})`).join(", ")}; delete them first`,
            );
        r.deletedAt = this.clock.now();
        this.save();
    }

    /** Refuses (400) a listener's or deployment's data plane that the organization does not have active. */
    requireActive(id: string): void {
        const status = this.statusOf(id);
        if (status !== "active") throw platformError(400, status ? `Data plane ${id} is ${status}, not active` : `Data plane ${id} not found`);
    }
}
