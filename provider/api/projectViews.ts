/**
 * A tracing project's saved views (docs/service.md R5 "Saved views"): `/api/v1/sessions/{session_id}/views[/{id}]`
 * and `.../{id}/rename` on the tracing API. A create is sent once: after a lost answer the project's view of that name
 * made since our attempt is ours. An update and a rename are PATCHes that say what they set (idempotent).
 */
import { z } from "zod";
import type { HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import { createdSince, createOnce } from "./reconcile";
import { TracingApiClient, at, tracingHttp } from "./tracingApi";
import { type View, type ViewCreateRequest, type ViewRenameRequest, ViewSchema, type ViewUpdateRequest } from "./schemas/projectViews";

const views = (sessionId: string, ...parts: string[]) => at("/api/v1/sessions", sessionId, "views", ...parts);

export class ProjectViewsClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): ProjectViewsClient {
        return new ProjectViewsClient(tracingHttp(o));
    }

    /** The project's views (every type). */
    list(sessionId: string): Promise<View[]> {
        return this.get(views(sessionId), z.array(ViewSchema));
    }

    /** The view, or undefined when it (or its project) is gone. */
    tryGet(sessionId: string, id: string): Promise<View | undefined> {
        return this.get(views(sessionId, id), ViewSchema).catch(undefinedOn404);
    }

    /** The project's views of that exact name (the service does not keep names unique). */
    async named(sessionId: string, name: string): Promise<View[]> {
        return (await this.list(sessionId)).filter((v) => v.display_name === name);
    }

    async create(sessionId: string, body: ViewCreateRequest): Promise<View> {
        const since = Date.now();
        const ours = async () => (await this.named(sessionId, body.display_name)).find((v) => createdSince(this.http, v.created_at, since));
        const { value } = await createOnce(() => this.send("POST", views(sessionId), body, ViewSchema), ours, this.http.reconcileOptions(this.deadline));
        return value;
    }

    /** Sets what `body` gives (null clears). */
    update(sessionId: string, id: string, body: ViewUpdateRequest): Promise<View> {
        return this.send("PATCH", views(sessionId, id), body, ViewSchema, { idempotent: true });
    }

    /** The service's rename: the name (and the description), nothing else. */
    rename(sessionId: string, id: string, body: ViewRenameRequest): Promise<View> {
        return this.send("PATCH", views(sessionId, id, "rename"), body, ViewSchema, { idempotent: true });
    }

    /** Deletes it; one already gone (or its project) is done. */
    delete(sessionId: string, id: string): Promise<void> {
        return this.remove(views(sessionId, id));
    }
}
