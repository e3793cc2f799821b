/**
 * Agent-server routes of assistants and their versions (assistants.ts has the rules), in the LangGraph
 * server's words: ids it reads as uuids answer 422 "Invalid assistant ID: must be a UUID" otherwise (a graph
 * name is no assistant id here, unlike in a run), DELETE answers 204 (`?delete_threads=true` also deletes
 * the threads whose metadata names the assistant), searches answer `X-Pagination-Total` and, when more
 * follow, `X-Pagination-Next`.
 */
import { z } from "zod";
import type { RequestContext, Router } from "../core/http";
import { requireUuid } from "./assistants";
import type { AgentServerModel } from "./model";
import { ConfigSchema, JsonObject, parseBody } from "./validation";

const Fields = {
    graph_id: z.string(),
    config: ConfigSchema.nullish(),
    context: JsonObject.nullish(),
    metadata: JsonObject.nullish(),
    name: z.string().nullish(),
    description: z.string().nullish(),
};
const CreateSchema = z.looseObject({ ...Fields, assistant_id: z.string().nullish(), if_exists: z.enum(["raise", "do_nothing"]).nullish() });
const PatchSchema = z.looseObject({ ...Fields, graph_id: z.string().nullish() });
const Page = { limit: z.number().int().min(1).max(1000).optional(), offset: z.number().int().min(0).optional() };
const SELECT = ["assistant_id", "graph_id", "name", "description", "config", "context", "created_at", "updated_at", "metadata", "version"] as const;
const Filters = { graph_id: z.string().nullish(), name: z.string().nullish(), metadata: JsonObject.nullish() };
const SearchSchema = z.looseObject({
    ...Filters,
    ...Page,
    sort_by: z.enum(["assistant_id", "created_at", "updated_at", "name", "graph_id"]).nullish(),
    sort_order: z.enum(["asc", "desc"]).nullish(),
    select: z.array(z.enum(SELECT)).nullish(),
});
const CountSchema = z.looseObject(Filters);
const VersionsSchema = z.looseObject({ metadata: JsonObject.nullish(), ...Page });
const LatestSchema = z.looseObject({ version: z.number().int().nullish() });

/** The pagination headers of a search page, as the server sets them. */
export function pageHeaders(offset: number, returned: number, total: number): Record<string, string> {
    const next = offset + returned < total ? offset + returned : undefined;
    return next === undefined
        ? { "x-pagination-total": String(offset + returned) }
        : { "x-pagination-total": String(next + 1), "x-pagination-next": String(next) };
}

export function assistantRoutes(router: Router, model: AgentServerModel, serving: (c: RequestContext) => string, P: string): void {
    const a = model.assistants;
    /** The deployment and the assistant id of a request. */
    const ids = (c: RequestContext) => {
        const id = requireUuid(c.params.assistant_id, "assistant");
        return [serving(c), id] as const;
    };
    const changed = <T>(value: T) => (model.save(), value);
    router
        .on("POST", `${P}/assistants`, (c) => {
            const body = parseBody(CreateSchema, c.body);
            const assistantId = body.assistant_id == null ? undefined : requireUuid(body.assistant_id, "assistant");
            return { status: 200, body: changed(a.create(serving(c), { ...body, assistant_id: assistantId })) };
        })
        .on("POST", `${P}/assistants/search`, (c) => {
            const q = parseBody(SearchSchema, c.body);
            const { items, total } = a.search(serving(c), q);
            return { status: 200, body: items, headers: pageHeaders(q.offset ?? 0, items.length, total) };
        })
        .on("POST", `${P}/assistants/count`, (c) => ({ status: 200, body: a.count(serving(c), parseBody(CountSchema, c.body)) }))
        .on("GET", `${P}/assistants/{assistant_id}`, (c) => ({ status: 200, body: a.get(...ids(c)) }))
        .on("PATCH", `${P}/assistants/{assistant_id}`, (c) => {
            const body = parseBody(PatchSchema, c.body);
            return { status: 200, body: changed(a.patch(...ids(c), body)) };
        })
        .on("DELETE", `${P}/assistants/{assistant_id}`, (c) => {
            model.deleteAssistant(...ids(c), c.query.get("delete_threads")?.toLowerCase() === "true");
            return { status: 204 };
        })
        .on("POST", `${P}/assistants/{assistant_id}/versions`, (c) => {
            const [deploymentId, id] = ids(c);
            return { status: 200, body: a.versions(deploymentId, id, parseBody(VersionsSchema, c.body)) };
        })
        .on("POST", `${P}/assistants/{assistant_id}/latest`, (c) => {
            const { version } = parseBody(LatestSchema, c.body);
            return { status: 200, body: changed(a.setLatest(...ids(c), version ?? undefined)) };
        });
}
