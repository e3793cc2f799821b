/**
 * Typed client of the control plane (docs/service.md 4.1, with the real service's pagination, `name_contains`
 * filter and redeploy endpoint). All HTTP policy lives in HttpClient; this file adds the endpoints and
 * the reconciliation that makes creating requests safe after an ambiguous failure (the HTTP client never
 * resends those itself):
 * - POST /v2/deployments: look the deployment up by exact name; adopt it only if it is ours (same
 *   source, same repository or image, created at or after our first attempt), else send once more;
 * - PATCH: read the deployment and its latest revision, and send the PATCH again only if the change is
 *   not there.
 */
import { HttpClient, path, type HttpClientOptions } from "./client";
import { ConflictError, NotFoundError, undefinedOn404 } from "./errors";
import { createOnce, createdSince, isAmbiguous } from "./reconcile";
import { same } from "./values";
import {
    DeploymentListSchema,
    DeploymentSchema,
    RevisionListSchema,
    RevisionSchema,
    graphConfigPathOf,
    normalizeSource,
    type Deployment,
    type DeploymentCreateRequest,
    type DeploymentList,
    type DeploymentPatchRequest,
    type Revision,
    type RevisionList,
} from "./schemas/controlPlane";
import { ListenerListSchema, ListenerSchema, type Listener, type ListenerCreateRequest, type ListenerPatchRequest } from "./schemas/listeners";

/** Page size used when walking lists (the service allows 1..100). */
const PAGE = 100;

export { isAmbiguous };

export interface ListDeploymentsOptions {
    limit?: number;
    offset?: number;
    nameContains?: string;
}

export class ControlPlaneClient {
    /**
     * @param deadline epoch ms after which no request of this client is retried (see `withDeadline`);
     * undefined: the HTTP client's default budget per request.
     */
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the control plane at `o.baseUrl`, which takes the API key as `X-Api-Key` (and the workspace as `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): ControlPlaneClient {
        return new ControlPlaneClient(new HttpClient({ ...o, apiKeyHeader: "X-Api-Key" }));
    }

    /** The same client whose requests retry no later than `deadline` (epoch ms): one per operation. */
    withDeadline(deadline: number): ControlPlaneClient {
        return new ControlPlaneClient(this.http, deadline);
    }

    /**
     * Creates a deployment. After an unclean outcome of the POST (ambiguous, or a 409 on our name right
     * after an ambiguous attempt), the deployment is looked up by exact name and adopted when it is ours
     * (`adopted: true`); when none is found the POST is sent once more; anything else is thrown as is.
     */
    async createDeployment(body: DeploymentCreateRequest): Promise<{ deployment: Deployment; adopted: boolean }> {
        const firstAttempt = Date.now();
        const post = async () =>
            (
                await this.http.request("POST", "/v2/deployments", {
                    body,
                    schema: DeploymentSchema,
                    expect: [200, 201],
                    secrets: body.secrets.map((s) => s.value),
                    deadline: this.deadline,
                })
            ).data;
        // A 409 on the second attempt is most likely our first attempt showing up late.
        const { value, adopted } = await createOnce(post, () => this.findOurDeployment(body, firstAttempt), {
            reconcileAlso: (e) => e instanceof ConflictError,
            ...this.http.reconcileOptions(this.deadline),
        });
        return { deployment: value, adopted };
    }

    /**
     * The deployment our create made, if one exists: exact name, same source, same repository (github)
     * or image (external_docker), created at or after our first attempt (by the server's clock, corrected
     * by the difference measured from its `Date` header). Anything else holding the name is someone
     * else's, and is never adopted.
     */
    private async findOurDeployment(body: DeploymentCreateRequest, firstAttemptLocalMs: number): Promise<Deployment | undefined> {
        const found = await this.findDeploymentByName(body.name);
        if (!found) return undefined;
        if ((normalizeSource(found.source) ?? found.source) !== (normalizeSource(body.source) ?? body.source)) return undefined;
        if (!same(found.source_config?.repo_url, body.source_config.repo_url)) return undefined;
        if (!same(found.source_revision_config?.image_uri, body.source_revision_config.image_uri)) return undefined;
        return createdSince(this.http, found.created_at, firstAttemptLocalMs) ? found : undefined;
    }

    async getDeployment(id: string): Promise<Deployment> {
        return (await this.http.request("GET", path`/v2/deployments/${id}`, { schema: DeploymentSchema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined instead of throwing when the deployment does not exist. */
    async tryGetDeployment(id: string): Promise<Deployment | undefined> {
        return this.getDeployment(id).catch(undefinedOn404);
    }

    async listDeployments(o: ListDeploymentsOptions = {}): Promise<DeploymentList> {
        const query = { limit: o.limit, offset: o.offset, name_contains: o.nameContains };
        return (await this.http.request("GET", "/v2/deployments", { query, schema: DeploymentListSchema, deadline: this.deadline })).data;
    }

    /** Walks every page of the list. */
    async listAllDeployments(nameContains?: string): Promise<Deployment[]> {
        const all: Deployment[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const page = await this.listDeployments({ limit: PAGE, offset, nameContains });
            all.push(...page.resources);
            if (page.resources.length < PAGE) return all;
        }
    }

    /** The service has no exact-name filter: list with `name_contains`, then match the name exactly. */
    async findDeploymentByName(name: string): Promise<Deployment | undefined> {
        return (await this.listAllDeployments(name)).find((d) => d.name === name);
    }

    /**
     * PATCHes a deployment. After an ambiguous failure the deployment and its latest revision are read:
     * when the change is already there (and, for a revision-making PATCH, a revision newer than
     * `previousRevisionId` exists) it is not sent again.
     */
    async patchDeployment(id: string, body: DeploymentPatchRequest, previousRevisionId?: string | null): Promise<Deployment> {
        const send = async () =>
            (
                await this.http.request("PATCH", path`/v2/deployments/${id}`, {
                    body,
                    schema: DeploymentSchema,
                    secrets: (body.secrets ?? []).map((s) => s.value),
                    deadline: this.deadline,
                })
            ).data;
        try {
            return await send();
        } catch (e) {
            if (!isAmbiguous(e)) throw e;
            const current = await this.getDeployment(id);
            const latest = current.latest_revision_id ? await this.getRevision(id, current.latest_revision_id) : undefined;
            if (patchIsApplied(body, current, latest, previousRevisionId)) return current;
            return await send();
        }
    }

    /** DELETE; answers false when the deployment was already gone (404). */
    async deleteDeployment(id: string): Promise<boolean> {
        try {
            await this.http.request("DELETE", path`/v2/deployments/${id}`, { expect: [200, 202, 204], deadline: this.deadline });
            return true;
        } catch (e) {
            if (e instanceof NotFoundError) return false;
            throw e;
        }
    }

    async listRevisions(id: string, o: { limit?: number; offset?: number; status?: string[] } = {}): Promise<RevisionList> {
        const query = { limit: o.limit, offset: o.offset, status: o.status?.join(",") };
        return (await this.http.request("GET", path`/v2/deployments/${id}/revisions`, { query, schema: RevisionListSchema, deadline: this.deadline })).data;
    }

    async getRevision(id: string, revisionId: string): Promise<Revision> {
        return (await this.http.request("GET", path`/v2/deployments/${id}/revisions/${revisionId}`, { schema: RevisionSchema, deadline: this.deadline })).data;
    }

    /** GET that answers undefined instead of throwing when the revision (or deployment) does not exist. */
    async tryGetRevision(id: string, revisionId: string): Promise<Revision | undefined> {
        return this.getRevision(id, revisionId).catch(undefinedOn404);
    }

    /** The latest revision (lists are sorted latest first), or undefined when there is none. */
    async latestRevision(id: string): Promise<Revision | undefined> {
        return (await this.listRevisions(id, { limit: 1 })).resources[0];
    }

    /**
     * Rolls back to (redeploys) an earlier revision: a new revision with its configuration, no rebuild; the
     * service answers with the deployment. Never sent twice blindly: after an ambiguous failure, a latest
     * revision other than `latestBefore`, with the target's configuration and made at or after our first
     * attempt, is ours.
     */
    async redeployRevision(id: string, revisionId: string, latestBefore?: string | null): Promise<Deployment> {
        const send = async () =>
            (
                await this.http.request("POST", path`/v2/deployments/${id}/revisions/${revisionId}/redeploy`, {
                    schema: DeploymentSchema,
                    expect: [200, 201],
                    deadline: this.deadline,
                })
            ).data;
        const ours = (since: number) => async () => {
            const [latest, target] = await Promise.all([this.latestRevision(id), this.getRevision(id, revisionId)]);
            const config = (r: Revision) =>
                JSON.stringify([
                    r.source_revision_config?.repo_ref ?? null,
                    graphConfigPathOf(r.source_revision_config),
                    r.source_revision_config?.image_uri ?? null,
                ]);
            if (!latest || latest.id === latestBefore || latest.id === revisionId || !createdSince(this.http, latest.created_at, since)) return undefined;
            return config(latest) === config(target) ? this.getDeployment(id) : undefined;
        };
        return (await createOnce(send, ours(Date.now()), this.http.reconcileOptions(this.deadline))).value;
    }

    // ---- listeners (docs/service.md R12) ----

    /** The workspace's listeners, every page. */
    async listListeners(): Promise<Listener[]> {
        const all: Listener[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const page = (
                await this.http.request("GET", "/v2/listeners", { query: { limit: PAGE, offset }, schema: ListenerListSchema, deadline: this.deadline })
            ).data.resources;
            all.push(...page);
            if (page.length < PAGE) return all;
        }
    }

    /** The listener, or undefined when the workspace has none of that id. */
    tryGetListener(id: string): Promise<Listener | undefined> {
        return this.http
            .request("GET", path`/v2/listeners/${id}`, { schema: ListenerSchema, deadline: this.deadline })
            .then((r) => r.data)
            .catch(undefinedOn404);
    }

    /** Registers a listener; `compute_id` is unique in a workspace, so a lost answer is looked up by it (a 409 on the resend: ours). */
    async createListener(body: ListenerCreateRequest): Promise<Listener> {
        const { value } = await createOnce(
            async () => (await this.http.request("POST", "/v2/listeners", { body, schema: ListenerSchema, expect: [200, 201], deadline: this.deadline })).data,
            async () => (await this.listListeners()).find((l) => l.compute_id === body.compute_id),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: (e) => e instanceof ConflictError },
        );
        return value;
    }

    /** Changes a listener's namespaces (**decided** path: docs/service.md R12). */
    async patchListener(id: string, body: ListenerPatchRequest): Promise<Listener> {
        return (await this.http.request("PATCH", path`/v2/listeners/${id}`, { body, schema: ListenerSchema, deadline: this.deadline })).data;
    }

    /** Deletes a listener (**decided** path); one already gone is done. The service refuses (409) while deployments use it. */
    async deleteListener(id: string): Promise<void> {
        await this.http.request("DELETE", path`/v2/listeners/${id}`, { expect: [200, 202, 204], deadline: this.deadline }).catch(undefinedOn404);
    }
}

/** Whether every non-null field of a PATCH body is already reflected by the deployment. */
export function patchIsApplied(body: DeploymentPatchRequest, current: Deployment, latest: Revision | undefined, previousRevisionId?: string | null): boolean {
    for (const [k, v] of Object.entries(body.source_config ?? {})) {
        if (v === null || v === undefined) continue;
        const have = (current.source_config as Record<string, unknown> | null | undefined)?.[k];
        if (JSON.stringify(have) !== JSON.stringify(v)) return false;
    }
    const rc = body.source_revision_config;
    const makesRevision = (rc && Object.values(rc).some((v) => v !== null && v !== undefined)) || (body.secrets?.length ?? 0) > 0;
    if (rc) {
        const seen = latest?.source_revision_config ?? current.source_revision_config;
        if (rc.repo_ref != null && seen?.repo_ref !== rc.repo_ref) return false;
        if (rc.image_uri != null && seen?.image_uri !== rc.image_uri) return false;
        const wantPath = rc.langgraph_config_path ?? rc.graph_config_path;
        if (wantPath != null && graphConfigPathOf(seen) !== wantPath) return false;
    }
    if (makesRevision && previousRevisionId && current.latest_revision_id === previousRevisionId) return false;
    return true;
}
