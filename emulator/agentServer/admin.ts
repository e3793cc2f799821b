/**
 * Test-only `/__admin` endpoints of the agent-server area:
 *
 * | Method | Path | Does |
 * |---|---|---|
 * | GET, PUT | /__admin/agent-server | read or change `{stepMs, graphs, ignoreInterrupt, dropPartialOutput, reorderMessages, cronsPaused, cronRunsFail}`: the built-in graph's pace, the graph names served, and the fault switches (model.ts says what each does) |
 */
import { z } from "zod";
import { parse, type Router } from "../core/http";
import type { AgentServerModel } from "./model";

const SettingsSchema = z
    .object({
        stepMs: z.number().min(1),
        graphs: z.array(z.string().min(1)).min(1),
        ignoreInterrupt: z.boolean(),
        dropPartialOutput: z.boolean(),
        reorderMessages: z.boolean(),
        cronsPaused: z.boolean(),
        cronRunsFail: z.boolean(),
    })
    .partial()
    .strict();

export function agentServerAdminRoutes(router: Router, model: AgentServerModel): void {
    const pub = { public: true };
    router
        .on("GET", "/__admin/agent-server", () => ({ status: 200, body: model.settings }), pub)
        .on("PUT", "/__admin/agent-server", (c) => ({ status: 200, body: model.updateSettings(parse(SettingsSchema, c.body, "body")) }), pub);
}
