/**
 * The objects on a deployed agent server (docs/service.md R3, R6): assistants and crons, at the server's own
 * address (a deployment's `custom_url`), with the LangSmith API key as `x-api-key` and no workspace header
 * (the server belongs to one). Built on the one HTTP policy (client.ts): a create is never sent twice blindly.
 * An assistant is created under an id made here, so a lost answer is looked up by that id; a cron's id is the
 * server's, so a lost answer is looked up as the identical cron made since the first attempt.
 */
import { randomUUID } from "node:crypto";
import { HttpClient, type HttpClientOptions } from "./client";
import { ApiError, ConflictError, undefinedOn404 } from "./errors";
import { createdSince, createOnce } from "./reconcile";
import { sameJson } from "./values";
import {
    AssistantListSchema,
    AssistantSchema,
    CronListSchema,
    CronSchema,
    type Assistant,
    type AssistantCreateRequest,
    type AssistantUpdateRequest,
    type Cron,
    type CronCreateRequest,
    type CronUpdateRequest,
    resolvedAssistantId,
} from "./schemas/agentServer";
import { z } from "zod";

/** The most objects one search asks for (the server's own limit is 1000). */
const PAGE = 100;

/** What identifies a cron without its id: where it runs, and what it runs when. */
export interface CronIdentity {
    assistantId: string;
    threadId?: string;
    schedule: string;
    payload?: Record<string, unknown>;
}

/** The address did not answer `GET /ok` as an agent server does; `status` is what it answered, if it answered. */
export class NotAnAgentServerError extends Error {
    constructor(
        message: string,
        readonly status?: number,
    ) {
        super(message);
        this.name = "NotAnAgentServerError";
    }
}

export class AgentServerClient {
    /** Each request retries within the client's budget (`retryBudgetMs`): every operation here is one or two quick calls. */
    constructor(readonly http: HttpClient) {}

    /** A client of the agent server at `o.baseUrl`: the API key as `x-api-key` (what the official SDKs send), no workspace header. */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader" | "tenantId">): AgentServerClient {
        return new AgentServerClient(new HttpClient({ ...o, apiKeyHeader: "x-api-key" }));
    }

    get url(): string {
        return this.http.baseUrl;
    }

    /**
     * Whether the address answers as an agent server does (`GET /ok` answers `{"ok": true}`); otherwise throws
     * what answered there (a web page, another API's 404, nothing at all), before anything is sent that creates.
     */
    async ok(): Promise<void> {
        try {
            await this.http.request("GET", "/ok", { schema: z.object({ ok: z.literal(true) }).passthrough() });
        } catch (e) {
            const what = e instanceof Error ? e.message : String(e);
            const status = e instanceof ApiError ? e.status : undefined;
            throw new NotAnAgentServerError(`${this.url} does not answer as an agent server (a deployment's customUrl): GET ${this.url}/ok: ${what}`, status);
        }
    }

    // ---- assistants ----

    /**
     * Creates an assistant under `body.assistant_id` (made here when absent; a 409 when the server holds one of
     * that id); a lost answer is looked up by it, never resent blindly.
     */
    async createAssistant(body: Omit<AssistantCreateRequest, "assistant_id" | "if_exists"> & { assistant_id?: string }): Promise<Assistant> {
        const wire: AssistantCreateRequest = { ...body, assistant_id: body.assistant_id ?? randomUUID(), if_exists: "raise" };
        const send = async () => (await this.http.request("POST", "/assistants", { body: wire, schema: AssistantSchema })).data;
        // A 409 on the second attempt is the first one's assistant, made late: looked up, as after a lost answer.
        const o = { ...this.http.reconcileOptions(), reconcileAlso: (e: unknown) => e instanceof ConflictError };
        return (await createOnce(send, () => this.tryGetAssistant(wire.assistant_id), o)).value;
    }

    async getAssistant(id: string): Promise<Assistant> {
        return (await this.http.request("GET", `/assistants/${encodeURIComponent(id)}`, { schema: AssistantSchema })).data;
    }

    tryGetAssistant(id: string): Promise<Assistant | undefined> {
        return this.getAssistant(id).catch(undefinedOn404);
    }

    /** Makes a new version of the assistant with the given fields; the server makes it the current one. */
    async updateAssistant(id: string, body: AssistantUpdateRequest): Promise<Assistant> {
        const p = `/assistants/${encodeURIComponent(id)}`;
        return (await this.http.request("PATCH", p, { body, schema: AssistantSchema })).data;
    }

    /** Deletes an assistant (its threads stay); one already gone is done. */
    async deleteAssistant(id: string): Promise<void> {
        const p = `/assistants/${encodeURIComponent(id)}`;
        await this.http.request("DELETE", p, { expect: [200, 202, 204] }).catch(undefinedOn404);
    }

    /** The assistant's versions, newest first. */
    async assistantVersions(id: string, limit = PAGE): Promise<Assistant[]> {
        const p = `/assistants/${encodeURIComponent(id)}/versions`;
        return (await this.http.request("POST", p, { body: { limit, offset: 0 }, schema: AssistantListSchema })).data;
    }

    // ---- crons ----

    /**
     * Creates a cron, on `threadId` when given (its runs share that thread) or stateless (a new thread per run).
     * After a lost answer, the identical cron made since the first attempt is taken as ours (the same assistant,
     * thread, schedule and input, and whatever else `same` asks of it).
     */
    async createCron(body: CronCreateRequest, threadId?: string, same: (c: Cron) => boolean = () => true): Promise<Cron> {
        const p = threadId ? `/threads/${encodeURIComponent(threadId)}/runs/crons` : "/runs/crons";
        const since = Date.now();
        const send = async () => (await this.http.request("POST", p, { body, schema: CronSchema })).data;
        const identity = { assistantId: body.assistant_id, threadId, schedule: body.schedule, payload: body.input };
        const findOurs = async () => (await this.findCrons(identity)).find((c) => same(c) && createdSince(this.http, c.created_at, since));
        return (await createOnce(send, findOurs, this.http.reconcileOptions())).value;
    }

    /**
     * The cron of this id; undefined when it is gone. `GET /runs/crons/{id}` (current servers); a server without
     * it (405: the path serves PATCH and DELETE only) is searched among `where`'s crons instead.
     */
    async tryGetCron(id: string, where: { assistantId?: string; threadId?: string } = {}): Promise<Cron | undefined> {
        const p = `/runs/crons/${encodeURIComponent(id)}`;
        try {
            return (await this.http.request("GET", p, { schema: CronSchema })).data;
        } catch (e) {
            if (!(e instanceof ApiError && e.status === 405)) return undefinedOn404(e);
            const filters = { assistant_id: where.assistantId && resolvedAssistantId(where.assistantId), thread_id: where.threadId };
            return (await this.searchCrons(filters)).find((c) => c.cron_id === id);
        }
    }

    /** The crons that run what `identity` says when it says (an earlier run's, or another's, identical cron). */
    async findCrons(identity: CronIdentity): Promise<Cron[]> {
        const assistant = resolvedAssistantId(identity.assistantId);
        const crons = await this.searchCrons({ assistant_id: assistant, thread_id: identity.threadId });
        return crons.filter(
            (c) =>
                c.assistant_id === assistant &&
                c.schedule === identity.schedule &&
                (c.thread_id ?? undefined) === identity.threadId &&
                sameJson(c.payload?.input ?? {}, identity.payload ?? {}),
        );
    }

    /** Every cron matching the filters, page after page. */
    private async searchCrons(filters: { assistant_id?: string; thread_id?: string }): Promise<Cron[]> {
        const all: Cron[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const body = { ...filters, limit: PAGE, offset };
            const page = (await this.http.request("POST", "/runs/crons/search", { body, schema: CronListSchema })).data;
            all.push(...page);
            if (page.length < PAGE) return all;
        }
    }

    /** Changes the given fields of a cron (absent ones stay). */
    async updateCron(id: string, body: CronUpdateRequest): Promise<Cron> {
        const p = `/runs/crons/${encodeURIComponent(id)}`;
        return (await this.http.request("PATCH", p, { body, schema: CronSchema })).data;
    }

    /** Deletes a cron; one already gone is done. */
    async deleteCron(id: string): Promise<void> {
        const p = `/runs/crons/${encodeURIComponent(id)}`;
        await this.http.request("DELETE", p, { expect: [200, 202, 204] }).catch(undefinedOn404);
    }
}
