/**
 * The agent-server area (docs/service.md 2.6, 3.2, 4.2): an agent server per deployed deployment under
 * `/__agents/{deployment_id}`, its model, routes and admin routes, registered with the server as one Area.
 * With a state directory, the model saves itself after every change and reads it back on start
 * (`agent-server.json`).
 */
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import type { ControlPlaneModel } from "../controlPlane/model";
import { Store } from "../core/store";
import { agentServerAdminRoutes } from "./admin";
import { AgentServerModel, type AgentServerSettings } from "./model";
import { AGENTS_PREFIX, agentServerRoutes } from "./routes";

export interface AgentServerArea extends Area {
    readonly model: AgentServerModel;
}

export function agentServerArea(o: {
    clock: Clock;
    controlPlane: ControlPlaneModel;
    settings?: Partial<AgentServerSettings>;
    stateDir?: string;
}): AgentServerArea {
    const model = new AgentServerModel(o.clock, o.settings, new Store(o.stateDir, "agent-server.json"));
    return {
        name: "agent server",
        model,
        register(router) {
            agentServerRoutes(router, model, o.controlPlane);
            agentServerAdminRoutes(router, model);
        },
        reset: () => model.reset(),
        // The deployed server's own auth is not shown (docs/service.md 5): the API key alone, as the official SDK sends it.
        tenantless: [new RegExp(`^${AGENTS_PREFIX}/`)],
    };
}
