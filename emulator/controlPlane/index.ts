/**
 * The control-plane area (docs/service.md 4.1): its model, routes and admin routes, registered with the server as
 * one Area. The endpoint groups docs/service.md 4.1 names without describing them answer 501.
 */
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import type { Dialect } from "../core/dialect";
import { controlPlaneAdminRoutes } from "./admin";
import { DEFAULT_DATA_PLANE_TIMING, DataPlanes, type DataPlaneTiming } from "./dataPlanes";
import { Listeners } from "./listeners";
import { ControlPlaneModel } from "./model";
import { DEFAULT_TIMING, mergeTiming, type ControlPlaneTiming } from "./revisions";
import { controlPlaneRoutes } from "./routes";

export interface ControlPlaneArea extends Area {
    readonly model: ControlPlaneModel;
    readonly listeners: Listeners;
    readonly dataPlanes: DataPlanes;
}

export function controlPlaneArea(o: {
    clock: Clock;
    timing?: Partial<ControlPlaneTiming>;
    deploymentUrl: (d: { id: string }) => string;
    dialect: Dialect;
    stateDir?: string;
}): ControlPlaneArea {
    const model = new ControlPlaneModel({ clock: o.clock, timing: o.timing, deploymentUrl: o.deploymentUrl, stateDir: o.stateDir });
    const listeners = new Listeners(o.clock, (ws, id) => model.deploymentsOnListener(ws, id), o.stateDir);
    // The organization's data planes, named by listeners and deployments of any workspace (docs/service.md R17.1);
    // at `speed: immediate` they are active at once, as deployments are.
    const dataPlaneTiming = (): DataPlaneTiming =>
        model.timing.speed === "immediate" ? { requestedMs: 0, provisioningMs: 0, deprovisioningMs: 0 } : DEFAULT_DATA_PLANE_TIMING;
    const dataPlanes = new DataPlanes(
        o.clock,
        dataPlaneTiming,
        (id) => [
            ...listeners.inDataPlane(id).map((l) => ({ kind: "listener" as const, name: l.compute_id, workspaceId: l.tenant_id ?? "" })),
            ...model.deploymentsInDataPlane(id).map((d) => ({ kind: "deployment" as const, name: d.name, workspaceId: d.tenantId })),
        ],
        o.stateDir,
    );
    return {
        name: "control plane",
        model,
        listeners,
        dataPlanes,
        register(router) {
            controlPlaneRoutes(router, model, o.dialect, listeners, dataPlanes);
            controlPlaneAdminRoutes(router, model);
        },
        reset() {
            model.reset();
            listeners.reset();
            dataPlanes.reset();
            model.timing = mergeTiming(DEFAULT_TIMING, o.timing);
        },
        // docs/service.md 4.1: groups named without paths or payloads; the real API's bulk DELETE.
        notEmulated: [/^\/v1\//, /^\/v2\/auth/],
    };
}
