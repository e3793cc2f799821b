/**
 * The functions programs call to look up deployments and their revisions (the Terraform provider's data
 * sources): `getDeployment` and `getDeploymentRevisions`, each returning an Output, with their arguments
 * and results. They read the same configuration as the resources (`langsmith:*` stack config, else the
 * `LANGSMITH_*` environment variables). Their work is provider/deployment/lookups.ts; docs/functions.md.
 */
import * as pulumi from "@pulumi/pulumi";
import type { FunctionArgs, FunctionResult } from "../kit/declare";
import type { FUNCTIONS } from "../registry";

export type GetDeploymentArgs = FunctionArgs<typeof FUNCTIONS.getDeployment>;
export type GetDeploymentResult = FunctionResult<typeof FUNCTIONS.getDeployment>;
export type GetDeploymentRevisionsArgs = FunctionArgs<typeof FUNCTIONS.getDeploymentRevisions>;
export type GetDeploymentRevisionsResult = FunctionResult<typeof FUNCTIONS.getDeploymentRevisions>;
export type RevisionInfo = GetDeploymentRevisionsResult["revisions"][number];

/** The client of the program's configuration, loaded on first call (the package's main entry stays light). */
async function client() {
    const { resolveServiceConfig } = await import("../config");
    const { controlPlaneClient } = await import("../kit/service");
    // runtime.getConfig reads secret values (the API key) without the warning Config#get gives.
    return controlPlaneClient(resolveServiceConfig({ get: (key) => pulumi.runtime.getConfig(key) }));
}

/** Looks up a deployment by id. */
export function getDeployment(args: GetDeploymentArgs): pulumi.Output<GetDeploymentResult> {
    return pulumi.output(args).apply(async (a) => (await import("../deployment/lookups")).getDeployment(await client(), a));
}

/** Lists a deployment's revisions, latest first. */
export function getDeploymentRevisions(args: GetDeploymentRevisionsArgs): pulumi.Output<GetDeploymentRevisionsResult> {
    return pulumi.output(args).apply(async (a) => (await import("../deployment/lookups")).getDeploymentRevisions(await client(), a));
}
