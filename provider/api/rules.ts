/**
 * The automations (docs/service.md R10): saved evaluators (`/api/v1/platform/evaluators`), run rules
 * (`/api/v1/runs/rules`) and alert rules (`/api/v1/platform/alerts/{session_id}`), on the tracing API. Creates are
 * sent once: after a lost answer an evaluator is looked up by its name (one per name in a workspace), a run rule by
 * its name and project or dataset, made since our attempt; an alert rule, which no list holds, by the id its create
 * named (docs/service.md R10.3), and when that id is not found the create is reported, never sent again (the HTTP
 * client resends no create).
 */
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce, createdSince, isAmbiguous, lookAgain, mayStillRun } from "./reconcile";
import {
    type Alert,
    AlertSchema,
    type AlertWriteRequest,
    type Evaluator,
    type EvaluatorCreateRequest,
    EvaluatorSchema,
    type EvaluatorUpdateRequest,
    type RunRule,
    RunRuleSchema,
    type RunRuleWriteRequest,
} from "./schemas/rules";

const EVALUATORS = "/api/v1/platform/evaluators";
const RULES = "/api/v1/runs/rules";
const ALERTS = "/api/v1/platform/alerts";
const at = (base: string, ...parts: string[]) => [base, ...parts.map(encodeURIComponent)].join("/");
const Nothing = z.unknown();
/** The most evaluators one page of the list answers (docs/service.md R10.1). */
const EVALUATOR_PAGE = 100;
const EvaluatorPageSchema = z.object({ evaluators: z.array(EvaluatorSchema) }).passthrough();

export class RulesClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): RulesClient {
        return new RulesClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    withDeadline(deadline: number): RulesClient {
        return new RulesClient(this.http, deadline);
    }

    private get<T>(p: string, schema: z.ZodType<T>, query?: Record<string, string | number>): Promise<T> {
        return this.http.request("GET", p, { schema, query, deadline: this.deadline }).then((r) => r.data);
    }

    private send<T>(method: string, p: string, body: unknown, schema: z.ZodType<T>, secrets: readonly string[] = []): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201], deadline: this.deadline, secrets }).then((r) => r.data);
    }

    private async remove(p: string): Promise<void> {
        await this.http.request("DELETE", p, { expect: [200, 202, 204], schema: Nothing, deadline: this.deadline }).catch(undefinedOn404);
    }

    // ---- saved evaluators ----

    /** Every saved evaluator of the workspace, a page at a time (the description: "Maximum number of results (1-100)"). */
    async listEvaluators(): Promise<Evaluator[]> {
        const all: Evaluator[] = [];
        for (let offset = 0; ; offset += EVALUATOR_PAGE) {
            const page = (await this.get(EVALUATORS, EvaluatorPageSchema, { limit: EVALUATOR_PAGE, offset })).evaluators;
            all.push(...page);
            if (page.length < EVALUATOR_PAGE) return all;
        }
    }

    tryGetEvaluator(id: string): Promise<Evaluator | undefined> {
        return this.get(at(EVALUATORS, id), EvaluatorSchema).catch(undefinedOn404);
    }

    /** The workspace's evaluator of that name (one per name), if any. */
    async evaluatorNamed(name: string): Promise<Evaluator | undefined> {
        return (await this.listEvaluators()).find((e) => e.name === name);
    }

    /**
     * Makes one; after a lost answer (or a 409 on our second attempt) the one of that name is ours: the caller looked
     * for one of that name first (an older one is refused there, never taken for ours).
     */
    async createEvaluator(body: EvaluatorCreateRequest): Promise<Evaluator> {
        const { value } = await createOnce(
            async () => (await this.send("POST", EVALUATORS, body, z.object({ evaluator: EvaluatorSchema }))).evaluator,
            async () => (body.name === undefined ? undefined : this.evaluatorNamed(body.name)),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: (e) => e instanceof ConflictError },
        );
        return value;
    }

    async updateEvaluator(id: string, body: EvaluatorUpdateRequest): Promise<Evaluator> {
        return (await this.send("PATCH", at(EVALUATORS, id), body, z.object({ evaluator: EvaluatorSchema }))).evaluator;
    }

    /** Deletes it; the service refuses one a rule still uses (409, naming the rule). One already gone is done. */
    deleteEvaluator(id: string): Promise<void> {
        return this.remove(at(EVALUATORS, id));
    }

    // ---- run rules ----

    listRules(q: { sessionId?: string; datasetId?: string; id?: string } = {}): Promise<RunRule[]> {
        const query: Record<string, string> = {};
        if (q.sessionId) query.session_id = q.sessionId;
        if (q.datasetId) query.dataset_id = q.datasetId;
        if (q.id) query.id = q.id;
        return this.get(RULES, z.array(RunRuleSchema), query);
    }

    /** A rule by id: the service has no GET of one, so the list filtered by its id. */
    async tryGetRule(id: string): Promise<RunRule | undefined> {
        return (await this.listRules({ id })).find((r) => r.id === id);
    }

    /** Makes one; after a lost answer, the rule of that name on that project or dataset made since our attempt is ours. */
    async createRule(body: RunRuleWriteRequest, secrets: readonly string[] = []): Promise<RunRule> {
        const since = Date.now();
        const { value } = await createOnce(
            () => this.send("POST", RULES, body, RunRuleSchema, secrets),
            async () =>
                (await this.listRules({ sessionId: body.session_id ?? undefined, datasetId: body.dataset_id ?? undefined })).find(
                    (r) => r.display_name === body.display_name && createdSince(this.http, r.created_at as string | undefined, since),
                ),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    updateRule(id: string, body: RunRuleWriteRequest, secrets: readonly string[] = []): Promise<RunRule> {
        return this.send("PATCH", at(RULES, id), body, RunRuleSchema, secrets);
    }

    deleteRule(id: string): Promise<void> {
        return this.remove(at(RULES, id));
    }

    // ---- alert rules ----

    tryGetAlert(sessionId: string, id: string): Promise<Alert | undefined> {
        return this.get(at(ALERTS, sessionId, id), AlertSchema).catch(undefinedOn404);
    }

    /**
     * Makes one; after a lost answer, the alert under the id the rule names (`body.rule.id`: docs/service.md R10.3) is
     * this create's (looked for again for a while when the request may still be running). Not found, it is not sent
     * again: a service that gave it another id would then hold two, and no list can tell; the error says so.
     */
    async createAlert(sessionId: string, body: AlertWriteRequest, secrets: readonly string[] = []): Promise<Alert> {
        try {
            return await this.send("POST", at(ALERTS, sessionId), body, AlertSchema, secrets);
        } catch (e) {
            const id = body.rule.id;
            if (!isAmbiguous(e)) throw e;
            const find = async () => (id === undefined ? undefined : this.tryGetAlert(sessionId, id));
            const found = (await find()) ?? (mayStillRun(e) ? await lookAgain(find, this.http.reconcileOptions(this.deadline)) : undefined);
            if (found) return found;
            throw new Error(
                `the answer to the create of alert rule ${JSON.stringify(body.rule.name)} on project ${sessionId} was lost (${e instanceof Error ? e.message : String(e)}), ` +
                    `and ${id === undefined ? "the create named no id to look it up by" : `no alert ${id} (the id it asked for) is on the project`}: ` +
                    "the service may still have made it, under another id. It was not sent again (the service lists no alerts, so a second could not be told from the first): " +
                    "look at the project's alerts in LangSmith: one made there under another id is this create's, to delete. The next `pulumi up` asks for the same id again, and takes in an alert that holds it.",
            );
        }
    }

    async updateAlert(sessionId: string, id: string, body: AlertWriteRequest, secrets: readonly string[] = []): Promise<void> {
        await this.send("PATCH", at(ALERTS, sessionId, id), body, Nothing, secrets);
    }

    deleteAlert(sessionId: string, id: string): Promise<void> {
        return this.remove(at(ALERTS, sessionId, id));
    }
}
