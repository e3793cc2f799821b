/**
 * Agent-server routes (spec 4.2; real-service notes 3), served per deployment under
 * `/__agents/{deployment_id}` (the github deployments' `custom_url`): only while the deployment has a
 * DEPLOYED revision, 404 before and after. Authentication is `x-api-key` alone (what the official SDK
 * sends; the spec does not show the deployed server's auth), checked by the server's auth layer.
 */
import { z } from "zod";
import { EmulatorError } from "../errors";
import { parse, type RequestContext, type Router } from "../http";
import type { ControlPlaneModel } from "../controlPlane/model";
import { MULTITASK_STRATEGIES, type AgentServerModel } from "./model";

export const AGENTS_PREFIX = "/__agents";
const P = `${AGENTS_PREFIX}/{deployment_id}`;

const ThreadCreateSchema = z.object({ thread_id: z.string().uuid().nullish(), metadata: z.record(z.string(), z.unknown()).nullish() }).passthrough();
const MessageSchema = z.object({ role: z.string().optional(), type: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]) }).passthrough();
const RunCreateSchema = z
    .object({
        assistant_id: z.string().min(1),
        input: z.object({ messages: z.array(MessageSchema).optional() }).passthrough().nullish(),
        multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
    })
    .passthrough();

export function agentServerRoutes(router: Router, model: AgentServerModel, controlPlane: ControlPlaneModel): void {
    /** The deployment id of a request, once its server is known to answer. */
    const serving = (c: RequestContext) => {
        const id = c.params.deployment_id;
        if (!controlPlane.servingDeployment(id)) throw new EmulatorError(404, { detail: `No agent server is deployed at ${AGENTS_PREFIX}/${id}` });
        return id;
    };
    router
        .on("GET", `${P}/ok`, (c) => (serving(c), { status: 200, body: { ok: true } }))
        .on("POST", `${P}/threads`, (c) => ({ status: 200, body: model.createThread(serving(c), parse(ThreadCreateSchema, c.body ?? {}, "body") as never) }))
        .on("GET", `${P}/threads/{thread_id}`, (c) => ({ status: 200, body: model.getThread(serving(c), c.params.thread_id) }))
        .on("GET", `${P}/threads/{thread_id}/state`, (c) => ({ status: 200, body: model.state(serving(c), c.params.thread_id) }))
        .on("POST", `${P}/threads/{thread_id}/runs`, (c) => ({
            status: 200,
            body: model.createRun(serving(c), c.params.thread_id, parse(RunCreateSchema, c.body, "body") as never),
        }))
        .on("GET", `${P}/threads/{thread_id}/runs/{run_id}`, (c) => ({ status: 200, body: model.getRun(serving(c), c.params.thread_id, c.params.run_id) }))
        .on("GET", `${P}/threads/{thread_id}/runs/{run_id}/join`, async (c) => ({
            status: 200,
            body: await model.join(serving(c), c.params.thread_id, c.params.run_id),
        }))
        .on("POST", `${P}/threads/{thread_id}/runs/{run_id}/cancel`, (c) => {
            model.cancelRun(serving(c), c.params.thread_id, c.params.run_id, c.query.get("action") ?? "interrupt");
            return { status: 202 };
        });
}
