/**
 * The platform area (docs/service.md R18): the workspace's tool registry (tools.ts), its Fleet MCP servers
 * (mcpServers.ts) and its features' models (features.ts), on the description's `/v1/platform/...` paths (routed
 * under `/api`: core/server.ts routedPath), per workspace (`X-Tenant-Id`).
 */
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import type { Router } from "../core/http";
import { Features } from "./features";
import { McpServers } from "./mcpServers";
import { PlatformTools } from "./tools";

export interface PlatformArea extends Area {
    readonly tools: PlatformTools;
    readonly mcpServers: McpServers;
    readonly features: Features;
}

export function platformArea(o: { clock: Clock; stateDir?: string }): PlatformArea {
    const tools = new PlatformTools(o.clock, o.stateDir);
    const mcpServers = new McpServers(o.clock, o.stateDir);
    const features = new Features(o.stateDir);
    return {
        name: "platform",
        tools,
        mcpServers,
        features,
        register(router: Router) {
            tools.register(router);
            mcpServers.register(router);
            features.register(router);
        },
        reset() {
            tools.reset();
            mcpServers.reset();
            features.reset();
        },
    };
}
