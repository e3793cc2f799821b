/**
 * Typed client of the control plane (spec 4.1, with the real service's pagination, `name_contains`
 * filter and redeploy endpoint). All HTTP policy lives in HttpClient; this file adds the endpoints and
 * the reconciliation that makes creating requests safe after an ambiguous failure:
 * - POST /v2/deployments: look the deployment up by exact name and adopt it if it exists;
 * - PATCH: read the deployment and its latest revision, and send the PATCH again only if the change is
 *   not there.
 */
import { HttpClient, path } from "./client";
import { ConnectionError, NotFoundError, ServerError } from "./errors";
import {
    DeploymentListSchema,
    DeploymentSchema,
    RevisionListSchema,
    RevisionSchema,
    graphConfigPathOf,
    type Deployment,
    type DeploymentCreateRequest,
    type DeploymentList,
    type DeploymentPatchRequest,
    type Revision,
    type RevisionList,
} from "./schemas/controlPlane";

/** Page size used when walking lists (the service allows 1..100). */
const PAGE = 100;

/** True for a failure after which the request may or may not have been applied. */
export function isAmbiguous(e: unknown): boolean {
    if (e instanceof ConnectionError) return e.ambiguous;
    // 429, 501 and 503 say "not processed"; other 5xx may come after the work was done.
    return e instanceof ServerError && e.status !== 503 && e.status !== 501;
}

export interface ListDeploymentsOptions {
    limit?: number;
    offset?: number;
    nameContains?: string;
}

export class ControlPlaneClient {
    constructor(readonly http: HttpClient) {}

    /**
     * Creates a deployment. If the POST fails ambiguously, the deployment is looked up by exact name:
     * found, it is returned (with `adopted: true`); not found, the original error is thrown.
     */
    async createDeployment(body: DeploymentCreateRequest): Promise<{ deployment: Deployment; adopted: boolean }> {
        try {
            const { data } = await this.http.request("POST", "/v2/deployments", {
                body,
                schema: DeploymentSchema,
                expect: [200, 201],
                secrets: body.secrets.map((s) => s.value),
            });
            return { deployment: data, adopted: false };
        } catch (e) {
            if (!isAmbiguous(e)) throw e;
            const existing = await this.findDeploymentByName(body.name);
            if (existing) return { deployment: existing, adopted: true };
            throw e;
        }
    }

    async getDeployment(id: string): Promise<Deployment> {
        return (await this.http.request("GET", path`/v2/deployments/${id}`, { schema: DeploymentSchema })).data;
    }

    /** GET that answers undefined instead of throwing when the deployment does not exist. */
    async tryGetDeployment(id: string): Promise<Deployment | undefined> {
        return this.getDeployment(id).catch(undefinedOn404);
    }

    async listDeployments(o: ListDeploymentsOptions = {}): Promise<DeploymentList> {
        const query = { limit: o.limit, offset: o.offset, name_contains: o.nameContains };
        return (await this.http.request("GET", "/v2/deployments", { query, schema: DeploymentListSchema })).data;
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
            await this.http.request("DELETE", path`/v2/deployments/${id}`, { expect: [200, 202, 204] });
            return true;
        } catch (e) {
            if (e instanceof NotFoundError) return false;
            throw e;
        }
    }

    async listRevisions(id: string, o: { limit?: number; offset?: number; status?: string[] } = {}): Promise<RevisionList> {
        const query = { limit: o.limit, offset: o.offset, status: o.status?.join(",") };
        return (await this.http.request("GET", path`/v2/deployments/${id}/revisions`, { query, schema: RevisionListSchema })).data;
    }

    async getRevision(id: string, revisionId: string): Promise<Revision> {
        return (await this.http.request("GET", path`/v2/deployments/${id}/revisions/${revisionId}`, { schema: RevisionSchema }))
            .data;
    }

    /** GET that answers undefined instead of throwing when the revision (or deployment) does not exist. */
    async tryGetRevision(id: string, revisionId: string): Promise<Revision | undefined> {
        return this.getRevision(id, revisionId).catch(undefinedOn404);
    }

    /** The latest revision (lists are sorted latest first), or undefined when there is none. */
    async latestRevision(id: string): Promise<Revision | undefined> {
        return (await this.listRevisions(id, { limit: 1 })).resources[0];
    }

    /** Rolls back to (redeploys) an earlier revision; the service answers with the deployment. */
    async redeployRevision(id: string, revisionId: string): Promise<Deployment> {
        return (
            await this.http.request("POST", path`/v2/deployments/${id}/revisions/${revisionId}/redeploy`, {
                schema: DeploymentSchema,
                expect: [200, 201],
            })
        ).data;
    }
}

function undefinedOn404(e: unknown): undefined {
    if (e instanceof NotFoundError) return undefined;
    throw e;
}

/** Whether every non-null field of a PATCH body is already reflected by the deployment. */
export function patchIsApplied(
    body: DeploymentPatchRequest,
    current: Deployment,
    latest: Revision | undefined,
    previousRevisionId?: string | null,
): boolean {
    for (const [k, v] of Object.entries(body.source_config ?? {})) {
        if (v === null || v === undefined) continue;
        const have = (current.source_config as Record<string, unknown> | null | undefined)?.[k];
        if (JSON.stringify(have) !== JSON.stringify(v)) return false;
    }
    const rc = body.source_revision_config;
    const makesRevision =
        (rc && Object.values(rc).some((v) => v !== null && v !== undefined)) || (body.secrets?.length ?? 0) > 0;
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
