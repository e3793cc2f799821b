/**
 * The control plane's listeners (docs/service.md R12): the compute of a hybrid installation that deployments
 * of `external_docker` images run on, kept in `--state-dir` (`listeners.json`). `compute_type` (`k8s`) and
 * `compute_id` (unique in a workspace: 409) are fixed once made; the namespaces change by `PATCH` (**decided**:
 * the update and delete paths are not published). A deployment names a listener by `source_config.listener_id`
 * (400 for an unknown one, or a `listener_config.k8s_namespace` it does not list: **decided**); a listener still
 * named by a deployment is neither deleted nor stripped of that deployment's namespace (409, the deployments
 * named). A listener may name the organization's data plane its cluster belongs to (`data_plane_id`, fixed once
 * made; **decided**: docs/service.md R17.1), which must be active (400; dataPlanes.ts).
 */
import { randomUUID } from "node:crypto";
import type { Listener, ListenerCreateRequest, ListenerPatchRequest } from "../../provider/api/schemas/listeners";
import type { Clock } from "../core/clock";
import { EmulatorError, badRequest, conflict } from "../core/errors";
import { Store } from "../core/store";

/** A deployment on a listener: its name and namespace there. */
export type OnListener = (tenantId: string, listenerId: string) => Array<{ name: string; namespace?: string }>;

export class Listeners {
    private readonly store: Store<{ listeners: Listener[] }>;
    private listeners: Listener[];

    constructor(
        private readonly clock: Clock,
        private readonly using: OnListener,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "listeners.json");
        this.listeners = this.store.load()?.listeners ?? [];
    }

    reset(): void {
        this.listeners = [];
        this.save();
    }

    private save(): void {
        this.store.save({ listeners: this.listeners });
    }

    list(tenantId: string): Listener[] {
        return this.listeners.filter((l) => l.tenant_id === tenantId);
    }

    get(tenantId: string, id: string): Listener {
        const l = this.list(tenantId).find((x) => x.id === id);
        if (!l) throw new EmulatorError(404, { detail: `Listener ID ${id} not found.` });
        return l;
    }

    create(tenantId: string, body: ListenerCreateRequest): Listener {
        const taken = this.list(tenantId).find((l) => l.compute_id === body.compute_id);
        if (taken) throw conflict(`A listener with compute_id ${body.compute_id} already exists in this workspace (${taken.id}).`);
        const now = this.clock.iso();
        const l: Listener = { id: randomUUID(), tenant_id: tenantId, ...body, version: null, created_at: now, updated_at: now };
        this.listeners.push(l);
        this.save();
        return l;
    }

    patch(tenantId: string, id: string, body: ListenerPatchRequest): Listener {
        const l = this.get(tenantId, id);
        const kept = body.compute_config.k8s_namespaces;
        const stranded = this.using(tenantId, id).filter((d) => d.namespace && !kept.includes(d.namespace));
        if (stranded.length)
            throw conflict(`Listener ${id}: namespaces still used by deployments: ${stranded.map((d) => `${d.name} (${d.namespace})`).join(", ")}.`);
        l.compute_config = body.compute_config;
        l.updated_at = this.clock.iso();
        this.save();
        return l;
    }

    delete(tenantId: string, id: string): void {
        this.get(tenantId, id);
        const users = this.using(tenantId, id);
        if (users.length) throw conflict(`Listener ${id} is still used by deployments: ${users.map((d) => d.name).join(", ")}; delete them first.`);
        this.listeners = this.listeners.filter((l) => l.id !== id);
        this.save();
    }

    /** The listeners of every workspace registered in data plane `id` (docs/service.md R17.1). */
    inDataPlane(id: string): Listener[] {
        return this.listeners.filter((l) => l.data_plane_id === id);
    }

    /** Refuses (400) a deployment's listener that the workspace does not have, or a namespace it does not list. */
    requireFor(tenantId: string, listenerId: string, namespace: string | null | undefined, dataPlaneId?: string | null): void {
        const l = this.list(tenantId).find((x) => x.id === listenerId);
        if (!l) throw badRequest(`Listener ID ${listenerId} not found.`);
        if (dataPlaneId && l.data_plane_id !== dataPlaneId)
            throw badRequest(
                `Listener ${listenerId} is not registered in data plane ${dataPlaneId} (${l.data_plane_id ? `it is in ${l.data_plane_id}` : "it is in none"}).`,
            );
        const names = l.compute_config.k8s_namespaces ?? [];
        if (namespace && !names.includes(namespace))
            throw badRequest(`Namespace ${namespace} is not one of listener ${listenerId}'s (${names.join(", ") || "none"}).`);
    }
}
