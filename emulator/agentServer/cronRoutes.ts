/**
 * Agent-server routes of crons (crons.ts has the rules), in the LangGraph server's words: a stateless cron
 * (`POST /runs/crons`) and a thread's (`POST /threads/{id}/runs/crons`), read (`GET /runs/crons/{id}`: the
 * server has it, the official clients do not call it), changed (PATCH: the fields the JS client's `update`
 * sends), deleted (204), searched and counted. Ids the server reads as uuids answer 422 otherwise; an
 * `assistant_id` that is neither a served graph's name nor a uuid answers 404 "Assistant 'x' not found".
 */
import { z } from "zod";
import { EmulatorError } from "../core/errors";
import type { RequestContext, Router } from "../core/http";
import { pageHeaders } from "./assistantRoutes";
import { requireUuid } from "./assistants";
import { MULTITASK_STRATEGIES, type AgentServerModel } from "./model";
import { ConfigSchema, JsonObject, parseBody } from "./validation";

const STREAM_MODES = ["values", "messages", "messages-tuple", "tasks", "checkpoints", "updates", "events", "debug", "custom"] as const;
const NodeList = z.union([z.literal("*"), z.array(z.string())]);
/** What a cron's runs take (CronPatch's fields; creates add `schedule` and `assistant_id`). */
const RunFields = {
    schedule: z.string().optional(),
    timezone: z.string().nullish(),
    end_time: z.string().nullish(),
    input: z.union([z.array(JsonObject), JsonObject]).nullish(),
    metadata: JsonObject.nullish(),
    config: ConfigSchema.nullish(),
    context: JsonObject.nullish(),
    webhook: z.string().min(1).max(65536).nullish(),
    interrupt_before: NodeList.nullish(),
    interrupt_after: NodeList.nullish(),
    on_run_completed: z.enum(["delete", "keep"]).nullish(),
    enabled: z.boolean().nullish(),
    stream_mode: z.union([z.enum(STREAM_MODES), z.array(z.enum(STREAM_MODES))]).nullish(),
    stream_subgraphs: z.boolean().nullish(),
    stream_resumable: z.boolean().nullish(),
    durability: z.enum(["sync", "async", "exit"]).nullish(),
};
const CreateSchema = z.looseObject({ ...RunFields, schedule: z.string(), assistant_id: z.string() });
const ThreadCreateSchema = z.looseObject({
    ...RunFields,
    schedule: z.string(),
    assistant_id: z.string(),
    multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
});
const PatchSchema = z.looseObject(RunFields);
const SORT_BY = ["cron_id", "assistant_id", "thread_id", "next_run_date", "end_time", "created_at", "updated_at"] as const;
const SELECT = [
    "cron_id",
    "assistant_id",
    "thread_id",
    "on_run_completed",
    "end_time",
    "schedule",
    "timezone",
    "created_at",
    "updated_at",
    "user_id",
    "payload",
    "next_run_date",
    "metadata",
    "enabled",
] as const;
const Filters = { assistant_id: z.string().nullish(), thread_id: z.string().nullish(), metadata: JsonObject.nullish() };
const SearchSchema = z.looseObject({
    ...Filters,
    enabled: z.boolean().nullish(),
    limit: z.number().int().min(1).max(1000).optional(),
    offset: z.number().int().min(0).optional(),
    sort_by: z.enum(SORT_BY).nullish(),
    sort_order: z.enum(["asc", "desc"]).nullish(),
    select: z.array(z.enum(SELECT)).nullish(),
});
const CountSchema = z.looseObject(Filters);

/** The filters' ids checked as the server checks them (uuids; a graph name is not taken here). */
function filterIds<T extends { assistant_id?: string | null; thread_id?: string | null }>(q: T): T {
    return {
        ...q,
        assistant_id: q.assistant_id ? requireUuid(q.assistant_id, "assistant") : q.assistant_id,
        thread_id: q.thread_id ? requireUuid(q.thread_id, "thread") : q.thread_id,
    };
}

/** A run's `assistant_id`: a served graph's name, or a uuid; anything else is a 404, as the server answers. */
function assistantRef(model: AgentServerModel, assistantId: string): string {
    if (model.settings.graphs.includes(assistantId)) return assistantId;
    try {
        return requireUuid(assistantId, "assistant");
    } catch {
        throw new EmulatorError(404, { detail: `Assistant '${assistantId}' not found` });
    }
}

export function cronRoutes(router: Router, model: AgentServerModel, serving: (c: RequestContext) => string, P: string): void {
    const crons = model.crons;
    const changed = <T>(value: T) => (model.save(), value);
    const cronId = (c: RequestContext) => requireUuid(c.params.cron_id, "cron");
    router
        .on("POST", `${P}/runs/crons`, (c) => {
            const body = parseBody(CreateSchema, c.body);
            const id = serving(c);
            return { status: 200, body: changed(crons.create(id, undefined, { ...body, assistant_id: assistantRef(model, body.assistant_id) })) };
        })
        .on("POST", `${P}/threads/{thread_id}/runs/crons`, (c) => {
            const threadId = requireUuid(c.params.thread_id, "thread");
            const body = parseBody(ThreadCreateSchema, c.body);
            const id = serving(c);
            return { status: 200, body: changed(crons.create(id, threadId, { ...body, assistant_id: assistantRef(model, body.assistant_id) })) };
        })
        .on("POST", `${P}/runs/crons/search`, (c) => {
            const q = filterIds(parseBody(SearchSchema, c.body));
            const { items, total } = crons.search(serving(c), q);
            return { status: 200, body: items, headers: pageHeaders(q.offset ?? 0, items.length, total) };
        })
        .on("POST", `${P}/runs/crons/count`, (c) => ({ status: 200, body: crons.count(serving(c), filterIds(parseBody(CountSchema, c.body))) }))
        .on("GET", `${P}/runs/crons/{cron_id}`, (c) => {
            const id = cronId(c);
            return { status: 200, body: crons.get(serving(c), id) };
        })
        .on("PATCH", `${P}/runs/crons/{cron_id}`, (c) => {
            const id = cronId(c);
            const body = parseBody(PatchSchema, c.body);
            return { status: 200, body: changed(crons.patch(serving(c), id, body)) };
        })
        .on("DELETE", `${P}/runs/crons/{cron_id}`, (c) => {
            const id = cronId(c);
            crons.delete(serving(c), id);
            model.save();
            return { status: 204 };
        });
}
