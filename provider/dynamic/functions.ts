/**
 * The functions programs call to look up deployments and their revisions (the Terraform provider's data
 * sources): `getDeployment` and `getDeploymentRevisions`, each returning an Output, with their arguments
 * and results. They read the same configuration as the resources (`langsmith:*` stack config, else the
 * `LANGSMITH_*` environment variables). Their work is provider/impl/functions.ts; docs/functions.md.
 */
import * as pulumi from "@pulumi/pulumi";
import type { DeploymentSourceRevisionConfig } from "./deployment";

export interface GetDeploymentArgs {
    /** The deployment's id. */
    id: string;
}

/** A deployment as the control plane answers it now. */
export interface GetDeploymentResult {
    id: string;
    name: string;
    /** `github` or `external_docker`. */
    source: string;
    /** Deployment status (READY, AWAITING_DATABASE, ...). */
    status: string;
    latestRevisionId?: string;
    /** The revision that serves (the newest DEPLOYED one). */
    activeRevisionId?: string;
    customUrl?: string;
    createdAt?: string;
    updatedAt?: string;
    /** The latest revision's configuration. */
    sourceRevisionConfig: DeploymentSourceRevisionConfig;
}

export interface GetDeploymentRevisionsArgs {
    deploymentId: string;
    /** Only revisions in these statuses (e.g. `["DEPLOYED"]`); absent: all. */
    statuses?: string[];
    /** At most this many, latest first; absent: all. */
    limit?: number;
}

/** One revision of a deployment. */
export interface RevisionInfo {
    id: string;
    /** Revision status (DEPLOYED, BUILD_FAILED, ...). */
    status: string;
    createdAt: string;
    sourceRevisionConfig: DeploymentSourceRevisionConfig;
    repoCommitSha?: string;
}

export interface GetDeploymentRevisionsResult {
    deploymentId: string;
    /** Latest first. */
    revisions: RevisionInfo[];
}

/** The client of the program's configuration, loaded on first call (the package's main entry stays light). */
async function client() {
    const { resolveServiceConfig } = await import("../config");
    const { controlPlaneClient } = await import("../kit/service");
    // runtime.getConfig reads secret values (the API key) without the warning Config#get gives.
    return controlPlaneClient(resolveServiceConfig({ get: (key) => pulumi.runtime.getConfig(key) }));
}

/** Arguments whose every field may be an Output (a resource's `id`, say), as resource arguments may. */
type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Looks up a deployment by id. */
export function getDeployment(args: InputArgs<GetDeploymentArgs>): pulumi.Output<GetDeploymentResult> {
    return pulumi.output(args).apply(async (a) => (await import("../deployment/lookups")).getDeployment(await client(), a));
}

/** Lists a deployment's revisions, latest first. */
export function getDeploymentRevisions(args: InputArgs<GetDeploymentRevisionsArgs>): pulumi.Output<GetDeploymentRevisionsResult> {
    return pulumi.output(args).apply(async (a) => (await import("../deployment/lookups")).getDeploymentRevisions(await client(), a));
}
