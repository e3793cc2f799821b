/**
 * Agent-server routes (docs/service.md 4.2; R3), served per deployment under
 * `/__agents/{deployment_id}` (the github deployments' `custom_url`): only while the deployment has a
 * DEPLOYED revision, 404 before and after. Authentication is `x-api-key` alone (what the official SDK
 * sends; the deployed server's auth is not published: docs/service.md 5), checked by the server's auth layer.
 *
 * Runs start four ways, each through the model's one `createRun` (so the multitask rules hold for all):
 * in the background (`POST .../runs`), waited on (`.../runs/wait`: the thread's values at the end),
 * streamed (`.../runs/stream`: server-sent events, stream.ts), and stateless (`POST /runs/wait`,
 * `/runs/stream`). A created run's address is in `Content-Location`, which the official clients read.
 * Assistants' routes are in assistantRoutes.ts, crons' in cronRoutes.ts.
 *
 * Every request first finds its deployment served, then lets the model catch up (`sync`: due cron fires,
 * system assistants, gone deployments). Bodies are refused in the server's own dialect (validation.ts).
 */
import { z } from "zod";
import { EmulatorError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import type { ControlPlaneModel } from "../controlPlane/model";
import { assistantRoutes } from "./assistantRoutes";
import { requireUuid } from "./assistants";
import { cronRoutes } from "./cronRoutes";
import { MULTITASK_STRATEGIES, type AgentServerModel } from "./model";
import { STREAM_MODES, runEvents, type StreamMode } from "./stream";
import { parseBody } from "./validation";

export const AGENTS_PREFIX = "/__agents";
const P = `${AGENTS_PREFIX}/{deployment_id}`;

const ThreadCreateSchema = z.object({ thread_id: z.string().uuid().nullish(), metadata: z.record(z.string(), z.unknown()).nullish() }).passthrough();
const MessageSchema = z
    .object({ role: z.string().optional(), type: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]) })
    .passthrough();
const RunCreateSchema = z
    .object({
        assistant_id: z.string().min(1),
        input: z
            .object({ messages: z.array(MessageSchema).optional() })
            .passthrough()
            .nullish(),
        multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
        stream_mode: z.union([z.enum(STREAM_MODES), z.array(z.enum(STREAM_MODES))]).nullish(),
    })
    .passthrough();
type RunCreate = z.infer<typeof RunCreateSchema>;
const Paging = { limit: z.number().int().min(1).max(1000).optional(), offset: z.number().int().min(0).optional() };
const ThreadSearchSchema = z
    .object({
        ids: z.array(z.string()).nullish(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
        values: z.record(z.string(), z.unknown()).nullish(),
        status: z.enum(["idle", "busy", "interrupted", "error"]).nullish(),
        sort_by: z.enum(["thread_id", "status", "created_at", "updated_at"]).nullish(),
        sort_order: z.enum(["asc", "desc"]).nullish(),
        ...Paging,
    })
    .passthrough();
const RunListQuery = z.object({
    limit: z.coerce.number().int().min(1).max(1000).default(10),
    offset: z.coerce.number().int().min(0).default(0),
    status: z.enum(["pending", "running", "success", "error", "timeout", "interrupted"]).optional(),
});

export function agentServerRoutes(router: Router, model: AgentServerModel, controlPlane: ControlPlaneModel): void {
    const served = (id: string) => controlPlane.isServing(id);
    /** The deployment id of a request, once its server is known to answer and its model has caught up. */
    const serving = (c: RequestContext) => {
        const id = c.params.deployment_id;
        const d = controlPlane.servingDeployment(id);
        if (!d) {
            model.sweep(served);
            throw new EmulatorError(404, { detail: `No agent server is deployed at ${AGENTS_PREFIX}/${id}` });
        }
        model.sync(d, served);
        return id;
    };
    router
        .on("GET", `${P}/ok`, (c) => (serving(c), { status: 200, body: { ok: true } }))
        .on("POST", `${P}/threads/search`, (c) => ({ status: 200, body: model.searchThreads(serving(c), parseBody(ThreadSearchSchema, c.body)) }))
        .on("POST", `${P}/threads`, (c) => ({ status: 200, body: model.createThread(serving(c), parseBody(ThreadCreateSchema, c.body) as never) }))
        .on("GET", `${P}/threads/{thread_id}`, (c) => ({ status: 200, body: model.getThread(serving(c), c.params.thread_id) }))
        .on("DELETE", `${P}/threads/{thread_id}`, (c) => {
            const id = serving(c);
            requireUuid(c.params.thread_id, "thread");
            model.deleteThread(id, c.params.thread_id);
            return { status: 204 };
        })
        .on("GET", `${P}/threads/{thread_id}/state`, (c) => ({ status: 200, body: model.state(serving(c), c.params.thread_id) }));
    runRoutes(router, model, serving);
    assistantRoutes(router, model, serving, P);
    cronRoutes(router, model, serving, P);
}

/** The runs of an agent server: started (stateless or on a thread), waited for, streamed, listed, read, joined, cancelled. */
function runRoutes(router: Router, model: AgentServerModel, serving: (c: RequestContext) => string): void {
    /** Starts a run as `POST .../runs` does (`threadId` undefined: stateless), with where it lives. */
    const start = (c: RequestContext, threadId: string | undefined) => {
        const body = parseBody(RunCreateSchema, c.body);
        const id = serving(c);
        const run = model.createRun(id, threadId, body as never);
        const location = threadId ? `/threads/${threadId}/runs/${run.run_id}` : `/runs/${run.run_id}`;
        return { id, run, body, headers: { "content-location": location } };
    };
    const wait = async (c: RequestContext, threadId: string | undefined) => {
        const { id, run, headers } = start(c, threadId);
        return { status: 200, headers, body: await model.join(id, run.thread_id, run.run_id) };
    };
    const stream = (c: RequestContext, threadId: string | undefined) => {
        const { id, run, body, headers } = start(c, threadId);
        return { status: 200, headers, events: runEvents(model, id, run.thread_id, run.run_id, modesOf(body)) };
    };
    router
        .on("POST", `${P}/runs/wait`, (c) => wait(c, undefined))
        .on("POST", `${P}/runs/stream`, (c) => stream(c, undefined))
        .on("POST", `${P}/threads/{thread_id}/runs/wait`, (c) => wait(c, c.params.thread_id))
        .on("POST", `${P}/threads/{thread_id}/runs/stream`, (c) => stream(c, c.params.thread_id))
        .on("GET", `${P}/threads/{thread_id}/runs`, (c) => {
            const q = parse(RunListQuery, Object.fromEntries(c.query), "query");
            return { status: 200, body: model.listRuns(serving(c), c.params.thread_id, q) };
        })
        .on("POST", `${P}/threads/{thread_id}/runs`, (c) => {
            const { run, headers } = start(c, c.params.thread_id);
            return { status: 200, headers, body: run };
        })
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

/** The stream modes asked for (one or a list; default `values`, as the server's). */
function modesOf(body: RunCreate): StreamMode[] {
    const m = body.stream_mode;
    return m == null ? ["values"] : Array.isArray(m) ? m : [m];
}
