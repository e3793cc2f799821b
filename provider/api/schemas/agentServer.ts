/**
 * The wire contract of the objects that live on a deployed agent server (docs/service.md R3, R6): assistants
 * (a graph with its configuration, versioned: every update makes a new version) and crons (scheduled runs of
 * an assistant, on one thread or on a new thread each time). What the provider sends, and what the server
 * answers (tolerant of fields this provider does not read), as the official clients `@langchain/langgraph-sdk`
 * and Python `langgraph-sdk` send and read them.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { UUID_RE } from "../values";

const nullableString = z.string().nullish();
const jsonObject = z.record(z.string(), z.unknown());

/** What a stateless cron does with the thread of each run once it is done. */
export const ON_RUN_COMPLETED = ["delete", "keep"] as const;

/** An assistant's `config`: the run configuration its runs start with. */
export const AssistantConfigSchema = z
    .object({
        tags: z.array(z.string()).nullish(),
        recursion_limit: z.number().int().nullish(),
        configurable: jsonObject.nullish(),
    })
    .passthrough();

/** POST /assistants body. `assistant_id` is chosen by the provider, so a lost answer is looked up by it. */
export interface AssistantCreateRequest {
    assistant_id: string;
    graph_id: string;
    if_exists: "raise" | "do_nothing";
    name?: string;
    description?: string | null;
    config?: Record<string, unknown>;
    context?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
}

/** PATCH /assistants/{id} body: what is given replaces the current version's value in a new version. */
export interface AssistantUpdateRequest {
    name?: string;
    description?: string | null;
    config?: Record<string, unknown>;
    context?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
}

/** An assistant (or one of its versions) as the server answers it. */
export const AssistantSchema = z
    .object({
        assistant_id: z.string(),
        graph_id: z.string(),
        name: z.string().nullish(),
        description: nullableString,
        config: AssistantConfigSchema.nullish(),
        context: z.unknown().nullish(),
        metadata: jsonObject.nullish(),
        version: z.number().int(),
        created_at: z.string(),
        updated_at: nullableString,
    })
    .passthrough();
export type Assistant = z.infer<typeof AssistantSchema>;
export const AssistantListSchema = z.array(AssistantSchema);

/** POST /runs/crons and /threads/{thread_id}/runs/crons body. */
export interface CronCreateRequest {
    assistant_id: string;
    schedule: string;
    timezone?: string;
    input?: Record<string, unknown>;
    config?: Record<string, unknown>;
    context?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
    end_time?: string;
    enabled?: boolean;
    on_run_completed?: (typeof ON_RUN_COMPLETED)[number];
}

/** PATCH /runs/crons/{cron_id} body: the fields the official clients' `update` sends; absent ones stay. */
export type CronUpdateRequest = Partial<Omit<CronCreateRequest, "assistant_id" | "end_time">> & { end_time?: string | null };

/** A cron as the server answers it: the run it starts is its `payload`. */
export const CronSchema = z
    .object({
        cron_id: z.string(),
        assistant_id: z.string().nullish(),
        thread_id: nullableString,
        schedule: z.string(),
        timezone: nullableString,
        end_time: nullableString,
        enabled: z.boolean().nullish(),
        on_run_completed: z.enum(ON_RUN_COMPLETED).nullish(),
        payload: jsonObject.nullish(),
        metadata: jsonObject.nullish(),
        next_run_date: nullableString,
        created_at: z.string(),
        updated_at: nullableString,
    })
    .passthrough();
export type Cron = z.infer<typeof CronSchema>;
export const CronListSchema = z.array(CronSchema);

// ---- the assistants a server makes itself ----

/** The namespace the server derives system assistant ids in (`NAMESPACE_GRAPH` of langgraph-api's graph.py). */
export const NAMESPACE_GRAPH = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

/** RFC 4122 version-5 uuid of `name` in `namespace` (Python's `uuid.uuid5`). */
export function uuid5(namespace: string, name: string): string {
    const h = createHash("sha1")
        .update(Buffer.from(namespace.replace(/-/g, ""), "hex"))
        .update(name, "utf8")
        .digest();
    h[6] = (h[6] & 0x0f) | 0x50;
    h[8] = (h[8] & 0x3f) | 0x80;
    const x = h.subarray(0, 16).toString("hex");
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The system assistant of a graph: the same id on every server. */
export const systemAssistantId = (graph: string) => uuid5(NAMESPACE_GRAPH, graph);

/** A run's or a cron's `assistant_id` as the server resolves it: an assistant id as it is, a graph's name as its system assistant. */
export const resolvedAssistantId = (idOrGraph: string): string => (UUID_RE.test(idOrGraph) ? idOrGraph.toLowerCase() : systemAssistantId(idOrGraph));
