/**
 * Feedback formulas (docs/service.md R9.5): `/api/v1/feedback/formulas[/{id}]` on the tracing API. A create is sent
 * once: after a lost answer the formula of that key on that dataset or project, made since our attempt, is ours (a
 * 409 on a second attempt is then our first one's). An update is a PUT of the whole formula (idempotent). The
 * workspace's feedback configs the parts name are read through the evaluation client's look-up.
 */
import { z } from "zod";
import type { HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createdSince, createOnce } from "./reconcile";
import { TracingApiClient, at, tracingHttp } from "./tracingApi";
import { FeedbackFormulaSchema, type FeedbackFormula, type FeedbackFormulaCreateRequest, type FeedbackFormulaUpdateRequest } from "./schemas/feedbackFormulas";

const FORMULAS = "/api/v1/feedback/formulas";
/** A page of the list (the description's limit has no stated maximum: the emulator's is 100). */
const PAGE = 100;

/** Where a formula is: one dataset or one tracing project. */
export interface FormulaScope {
    datasetId?: string;
    sessionId?: string;
}

export class FeedbackFormulasClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): FeedbackFormulasClient {
        return new FeedbackFormulasClient(tracingHttp(o));
    }

    tryGet(id: string): Promise<FeedbackFormula | undefined> {
        return this.get(at(FORMULAS, id), FeedbackFormulaSchema).catch(undefinedOn404);
    }

    /** Every formula of the dataset or project, a page at a time. */
    async list(scope: FormulaScope): Promise<FeedbackFormula[]> {
        const all: FeedbackFormula[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const query = { dataset_id: scope.datasetId, session_id: scope.sessionId, limit: PAGE, offset };
            const page = await this.get(FORMULAS, z.array(FeedbackFormulaSchema), query);
            all.push(...page);
            if (page.length < PAGE) return all;
        }
    }

    /** The formula of that key on the dataset or project, if any. */
    async keyed(scope: FormulaScope, key: string): Promise<FeedbackFormula | undefined> {
        return (await this.list(scope)).find((f) => f.feedback_key === key);
    }

    async create(body: FeedbackFormulaCreateRequest): Promise<FeedbackFormula> {
        const since = Date.now();
        const scope = { datasetId: body.dataset_id ?? undefined, sessionId: body.session_id ?? undefined };
        const ours = async () => {
            const f = await this.keyed(scope, body.feedback_key);
            return f && createdSince(this.http, f.created_at, since) ? f : undefined;
        };
        const { value } = await createOnce(() => this.send("POST", FORMULAS, body, FeedbackFormulaSchema), ours, {
            ...this.http.reconcileOptions(this.deadline),
            reconcileAlso: (e) => e instanceof ConflictError,
        });
        return value;
    }

    /** Says the formula whole (its dataset or project fixed). */
    update(id: string, body: FeedbackFormulaUpdateRequest): Promise<FeedbackFormula> {
        return this.send("PUT", at(FORMULAS, id), body, FeedbackFormulaSchema, { idempotent: true });
    }

    /** Deletes it; one already gone is done. */
    delete(id: string): Promise<void> {
        return this.remove(at(FORMULAS, id));
    }
}
