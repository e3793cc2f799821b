/**
 * The look-ups a program makes of the control plane, the way the official Terraform provider's data
 * sources do: a deployment by id, and its revisions (latest first, filtered by status, up to a limit).
 * One implementation behind both front doors: provider/functions.ts (TypeScript Outputs) and the native
 * plugin's Invoke (provider/plugin/server.ts, Python). Nothing here changes anything on the service.
 */
import type { ControlPlaneClient } from "../../api/controlPlane";
import { normalizeSource, type Deployment, type Revision } from "../../api/schemas/controlPlane";
import { checkFunctionArgs, UUID_RE } from "../../kit/check";
import { list, lookup, number, object, string, type FunctionInputs, type FunctionResult, type Value } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { revisionConfig } from "./declare";
import { revisionConfigInputs } from "./wire";

export const getDeploymentFunction = lookup({
    name: "getDeployment",
    description: "Looks up a deployment by id.",
    args: { id: string("The deployment's id.", { required: true }), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The deployment's id.", { required: true }),
        name: string("Its name.", { required: true }),
        source: string("`github` or `external_docker`.", { required: true }),
        status: string("Deployment status (READY, AWAITING_DATABASE, ...).", { required: true }),
        latestRevisionId: string("Its latest revision."),
        activeRevisionId: string("The revision that serves (the newest DEPLOYED one)."),
        customUrl: string("Its URL."),
        createdAt: string("When it was made."),
        updatedAt: string("When it last changed."),
        sourceRevisionConfig: { ...revisionConfig, required: true, description: "The latest revision's configuration." },
    },
});

const revisionInfoType = object("RevisionInfo", "One revision of a deployment.", {
    id: string("The revision's id.", { required: true }),
    status: string("Revision status (DEPLOYED, BUILD_FAILED, ...).", { required: true }),
    createdAt: string("When it was made.", { required: true }),
    sourceRevisionConfig: { ...revisionConfig, required: true, description: "What it deploys." },
    repoCommitSha: string("The commit it built (source `github`)."),
});

export const getDeploymentRevisionsFunction = lookup({
    name: "getDeploymentRevisions",
    description: "Lists a deployment's revisions, latest first.",
    args: {
        deploymentId: string("The deployment's id.", { required: true }),
        statuses: list('Only revisions in these statuses (e.g. `["DEPLOYED"]`); absent: all.', string("A status.")),
        limit: number("At most this many, latest first; absent: all."),
        workspaceId: lookupWorkspaceIdField,
    },
    result: {
        deploymentId: string("The deployment's id.", { required: true }),
        revisions: list("Latest first.", revisionInfoType, { required: true }),
    },
});

export type GetDeploymentArgs = FunctionInputs<typeof getDeploymentFunction>;
export type GetDeploymentResult = FunctionResult<typeof getDeploymentFunction>;
export type GetDeploymentRevisionsArgs = FunctionInputs<typeof getDeploymentRevisionsFunction>;
export type GetDeploymentRevisionsResult = FunctionResult<typeof getDeploymentRevisionsFunction>;
export type RevisionInfo = Value<typeof revisionInfoType>;

/** The service's page size limit. */
const PAGE = 100;

export async function getDeployment(cp: ControlPlaneClient, args: GetDeploymentArgs): Promise<GetDeploymentResult> {
    checkFunctionArgs("getDeployment", (c) => c.matches(c.str(args.id, "id", true), UUID_RE, "id", "id must be a deployment id (a uuid)"));
    const d = await cp.getDeployment(args.id);
    return {
        id: d.id,
        name: d.name,
        source: normalizeSource(d.source) ?? d.source,
        status: d.status ?? "UNKNOWN",
        latestRevisionId: d.latest_revision_id ?? undefined,
        activeRevisionId: d.active_revision_id ?? undefined,
        customUrl: d.source_config?.custom_url ?? undefined,
        createdAt: d.created_at ?? undefined,
        updatedAt: d.updated_at ?? undefined,
        sourceRevisionConfig: revisionConfigInputs(revisionSource(d), undefined, d),
    };
}

export async function getDeploymentRevisions(cp: ControlPlaneClient, args: GetDeploymentRevisionsArgs): Promise<GetDeploymentRevisionsResult> {
    checkFunctionArgs("getDeploymentRevisions", (c) => {
        c.matches(c.str(args.deploymentId, "deploymentId", true), UUID_RE, "deploymentId", "deploymentId must be a deployment id (a uuid)");
        if (args.limit !== undefined && !(Number.isInteger(args.limit) && args.limit >= 1))
            c.fail("limit", `limit must be a whole number >= 1, not ${JSON.stringify(args.limit)}`);
    });
    const d = await cp.getDeployment(args.deploymentId);
    const source = revisionSource(d);
    const status = args.statuses?.length ? args.statuses.map((s) => s.toUpperCase()) : undefined;
    const wanted = args.limit ?? Infinity;
    const revisions: RevisionInfo[] = [];
    for (let offset = 0; revisions.length < wanted; offset += PAGE) {
        const size = Math.min(PAGE, wanted - revisions.length);
        const page = (await cp.listRevisions(args.deploymentId, { limit: size, offset, status })).resources;
        revisions.push(...page.map((r) => revisionInfo(source, r)));
        if (page.length < size) break;
    }
    return { deploymentId: d.id, revisions };
}

/** The source whose revision fields a deployment's revisions carry (a source this provider does not manage: an image's). */
const revisionSource = (d: Deployment) => normalizeSource(d.source) ?? "external_docker";

function revisionInfo(source: "github" | "external_docker", r: Revision): RevisionInfo {
    return {
        id: r.id,
        status: String(r.status),
        createdAt: r.created_at,
        sourceRevisionConfig: revisionConfigInputs(source, r),
        repoCommitSha: r.source_revision_config?.repo_commit_sha ?? undefined,
    };
}
