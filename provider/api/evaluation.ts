/**
 * Evaluation and review (docs/service.md R9): a workspace's feedback configs (named by their feedback key) and its
 * annotation queues, under `/api/v1`. Every create is sent once: a lost answer is looked up (a config by its key, a
 * queue by the id made here and sent with it) instead of being sent again blindly. The runs in a queue are data:
 * nothing here reads or changes them.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import { TracingApiClient, at, sortedJson, tracingHttp } from "./tracingApi";
import {
    AnnotationQueueSchema,
    FeedbackConfigSchema,
    type AnnotationQueue,
    type AnnotationQueueCreateRequest,
    type AnnotationQueueUpdateRequest,
    type FeedbackConfig,
    type FeedbackConfigCreateRequest,
    type FeedbackConfigUpdateRequest,
} from "./schemas/evaluation";

const CONFIGS = "/api/v1/feedback-configs";
const QUEUES = "/api/v1/annotation-queues";
export class EvaluationClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): EvaluationClient {
        return new EvaluationClient(tracingHttp(o));
    }

    withDeadline(deadline: number): EvaluationClient {
        return new EvaluationClient(this.http, deadline);
    }

    // ---- feedback configs ----

    /** The key's config, or undefined. */
    async tryGetFeedbackConfig(key: string): Promise<FeedbackConfig | undefined> {
        const found = await this.get(CONFIGS, z.array(FeedbackConfigSchema), { key, limit: 100 });
        return found.find((c) => c.feedback_key === key);
    }

    /**
     * Makes the key's config. After a lost answer, the key's config is ours when it says what ours says (a 409 on a
     * second attempt is then our first one's).
     */
    async createFeedbackConfig(body: FeedbackConfigCreateRequest): Promise<FeedbackConfig> {
        const ours = async () => {
            const c = await this.tryGetFeedbackConfig(body.feedback_key);
            return c && sortedJson(c.feedback_config, { dropNulls: true }) === sortedJson(body.feedback_config, { dropNulls: true }) ? c : undefined;
        };
        const { value } = await createOnce(() => this.send("POST", CONFIGS, body, FeedbackConfigSchema), ours, {
            ...this.http.reconcileOptions(this.deadline),
            reconcileAlso: (e) => e instanceof ConflictError,
        });
        return value;
    }

    /** Changes the key's config (a PATCH says it whole: idempotent). */
    updateFeedbackConfig(body: FeedbackConfigUpdateRequest): Promise<FeedbackConfig> {
        return this.send("PATCH", CONFIGS, body, FeedbackConfigSchema, { idempotent: true });
    }

    /** Deletes the key's config; one already gone is done. */
    deleteFeedbackConfig(key: string): Promise<void> {
        return this.remove(CONFIGS, { feedback_key: key });
    }

    // ---- annotation queues ----

    tryGetQueue(id: string): Promise<AnnotationQueue | undefined> {
        return this.get(at(QUEUES, id), AnnotationQueueSchema).catch(undefinedOn404);
    }

    /** The workspace's queues of that exact name (names are not unique), up to 100. */
    queuesNamed(name: string): Promise<AnnotationQueue[]> {
        return this.get(QUEUES, z.array(AnnotationQueueSchema), { name, limit: 100 }).then((qs) => qs.filter((q) => q.name === name));
    }

    /** Makes a queue under an id made here: a lost answer is looked up by it, never sent again blindly. */
    async createQueue(body: AnnotationQueueCreateRequest): Promise<AnnotationQueue> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const { value } = await createOnce(
            () => this.send("POST", QUEUES, wire, AnnotationQueueSchema),
            () => this.tryGetQueue(wire.id),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    /**
     * Changes what `body` names (absent fields stay; the runs in the queue are never touched) and answers the queue
     * read after (the description's PATCH answers no body to rely on).
     */
    async updateQueue(id: string, body: AnnotationQueueUpdateRequest): Promise<AnnotationQueue> {
        await this.send("PATCH", at(QUEUES, id), body, z.unknown(), { idempotent: true });
        return this.get(at(QUEUES, id), AnnotationQueueSchema);
    }

    /** Deletes a queue (and the runs in it); one already gone is done. */
    deleteQueue(id: string): Promise<void> {
        return this.remove(at(QUEUES, id));
    }
}
