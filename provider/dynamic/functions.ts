/**
 * The functions programs call to look up deployments and their revisions (the Terraform provider's data
 * sources): `getDeployment` and `getDeploymentRevisions`, each returning an Output, with their arguments
 * and results. They read the same configuration as the resources (`langsmith:*` stack config, else the
 * `LANGSMITH_*` environment variables). Their work is provider/controlPlane/deployment/lookups.ts; docs/functions.md.
 */
import * as pulumi from "@pulumi/pulumi";
import type { FunctionArgs, FunctionResult } from "../kit/declare";
import type { FUNCTIONS } from "../registry";

export type GetDeploymentArgs = FunctionArgs<typeof FUNCTIONS.getDeployment.declaration>;
export type GetDeploymentResult = FunctionResult<typeof FUNCTIONS.getDeployment.declaration>;
export type GetDeploymentRevisionsArgs = FunctionArgs<typeof FUNCTIONS.getDeploymentRevisions.declaration>;
export type GetDeploymentRevisionsResult = FunctionResult<typeof FUNCTIONS.getDeploymentRevisions.declaration>;
export type RevisionInfo = GetDeploymentRevisionsResult["revisions"][number];
export type GetTracingProjectArgs = FunctionArgs<typeof FUNCTIONS.getTracingProject.declaration>;
export type GetTracingProjectResult = FunctionResult<typeof FUNCTIONS.getTracingProject.declaration>;
export type GetDatasetArgs = FunctionArgs<typeof FUNCTIONS.getDataset.declaration>;
export type GetDatasetResult = FunctionResult<typeof FUNCTIONS.getDataset.declaration>;

/** The service of the program's configuration, loaded on first call (the package's main entry stays light). */
async function service() {
    const { Service } = await import("../kit/service");
    // runtime.getConfig reads secret values (the API key) without the warning Config#get gives.
    return new Service({ get: (key) => pulumi.runtime.getConfig(key) });
}
/** The control plane, in the look-up's workspace (`workspaceId`, else the provider's). */
const client = async (workspaceId?: string) => (await service()).in(workspaceId).controlPlane();

/** Looks up a deployment by id. */
export function getDeployment(args: GetDeploymentArgs): pulumi.Output<GetDeploymentResult> {
    return pulumi.output(args).apply(async (a) => (await import("../controlPlane/deployment/lookups")).getDeployment(await client(a.workspaceId), a));
}

/** Lists a deployment's revisions, latest first. */
export function getDeploymentRevisions(args: GetDeploymentRevisionsArgs): pulumi.Output<GetDeploymentRevisionsResult> {
    return pulumi.output(args).apply(async (a) => (await import("../controlPlane/deployment/lookups")).getDeploymentRevisions(await client(a.workspaceId), a));
}

/** Looks up a tracing project by its exact name. */
export function getTracingProject(args: GetTracingProjectArgs): pulumi.Output<GetTracingProjectResult> {
    return pulumi
        .output(args)
        .apply(async (a) => (await import("../tracing/tracingProject/lookups")).getTracingProject((await service()).in(a.workspaceId).projects(), a));
}

/** Looks up a dataset by its exact name. */
export function getDataset(args: GetDatasetArgs): pulumi.Output<GetDatasetResult> {
    return pulumi.output(args).apply(async (a) => (await import("../tracing/dataset/lookups")).getDataset((await service()).in(a.workspaceId).projects(), a));
}
