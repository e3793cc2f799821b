/**
 * The functions programs call to look up what they do not manage (the Terraform providers' data sources):
 * `getDeployment`, `getDeploymentRevisions`, `getTracingProject(s)`, `getDataset`, `getPrompt`, `getWorkspace(s)`,
 * `getRole`, `getServiceKey`, `getAnnotationQueue`, `getFeedbackConfig`, `getListener`, and what traffic and the
 * service's clock change, which no resource's outputs hold (`getEvaluator`, `getCron`, `getBulkExport`), a dataset's
 * versions and examples (`getDatasetVersion`, `getExamples`), each returning an Output, with their arguments and results. They read the same configuration as the resources (`langsmith:*` stack config, else the
 * `LANGSMITH_*` environment variables). Their work is provider/controlPlane/deployment/lookups.ts; docs/functions.md.
 */
import * as pulumi from "@pulumi/pulumi";
import type { GetFeedbackFormulaResult } from "../evaluation/feedbackFormula/lookups";
import type { GetAnnotationQueueResult, GetFeedbackConfigResult } from "../evaluation/lookups";
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
export type { GetTracingProjectsArgs } from "../tracing/tracingProject/lookups";
export type GetTracingProjectsResult = Awaited<ReturnType<typeof import("../tracing/tracingProject/lookups").getTracingProjects>>;
export type GetPromptArgs = FunctionArgs<typeof FUNCTIONS.getPrompt.declaration>;
export type GetPromptResult = FunctionResult<typeof FUNCTIONS.getPrompt.declaration>;
export type GetWorkspaceArgs = FunctionArgs<typeof FUNCTIONS.getWorkspace.declaration>;
export type GetWorkspaceResult = FunctionResult<typeof FUNCTIONS.getWorkspace.declaration>;
export type GetWorkspacesArgs = FunctionArgs<typeof FUNCTIONS.getWorkspaces.declaration>;
export type GetWorkspacesResult = Awaited<ReturnType<typeof import("../organization/lookups").getWorkspaces>>;
export type GetRoleArgs = FunctionArgs<typeof FUNCTIONS.getRole.declaration>;
export type GetRoleResult = FunctionResult<typeof FUNCTIONS.getRole.declaration>;
export type GetSsoSettingsResult = FunctionResult<typeof FUNCTIONS.getSsoSettings.declaration>;
export type GetOrganizationResult = FunctionResult<typeof FUNCTIONS.getOrganization.declaration>;
export type GetServiceKeyArgs = FunctionArgs<typeof FUNCTIONS.getServiceKey.declaration>;
export type GetServiceKeyResult = FunctionResult<typeof FUNCTIONS.getServiceKey.declaration>;
export type GetServiceAccountArgs = FunctionArgs<typeof FUNCTIONS.getServiceAccount.declaration>;
export type GetServiceAccountResult = FunctionResult<typeof FUNCTIONS.getServiceAccount.declaration>;
export type GetAnnotationQueueArgs = FunctionArgs<typeof FUNCTIONS.getAnnotationQueue.declaration>;
export type { GetAnnotationQueueResult, GetFeedbackConfigResult } from "../evaluation/lookups";
export type GetFeedbackConfigArgs = FunctionArgs<typeof FUNCTIONS.getFeedbackConfig.declaration>;
export type GetDataPlaneArgs = FunctionArgs<typeof FUNCTIONS.getDataPlane.declaration>;
export type GetDataPlaneResult = FunctionResult<typeof FUNCTIONS.getDataPlane.declaration>;
export type GetListenerArgs = FunctionArgs<typeof FUNCTIONS.getListener.declaration>;
export type GetListenerResult = FunctionResult<typeof FUNCTIONS.getListener.declaration>;
export type GetEvaluatorArgs = FunctionArgs<typeof FUNCTIONS.getEvaluator.declaration>;
export type GetEvaluatorResult = FunctionResult<typeof FUNCTIONS.getEvaluator.declaration>;
export type GetCronArgs = FunctionArgs<typeof FUNCTIONS.getCron.declaration>;
export type GetCronResult = FunctionResult<typeof FUNCTIONS.getCron.declaration>;
export type GetDatasetVersionArgs = FunctionArgs<typeof FUNCTIONS.getDatasetVersion.declaration>;
export type GetDatasetVersionResult = FunctionResult<typeof FUNCTIONS.getDatasetVersion.declaration>;
export type GetExamplesArgs = FunctionArgs<typeof FUNCTIONS.getExamples.declaration>;
export type GetExamplesResult = FunctionResult<typeof FUNCTIONS.getExamples.declaration>;
export type GetBulkExportArgs = FunctionArgs<typeof FUNCTIONS.getBulkExport.declaration>;
export type GetBulkExportResult = FunctionResult<typeof FUNCTIONS.getBulkExport.declaration>;
export type GetGatewayPoliciesArgs = FunctionArgs<typeof FUNCTIONS.getGatewayPolicies.declaration>;
export type GetGatewayPoliciesResult = FunctionResult<typeof FUNCTIONS.getGatewayPolicies.declaration>;
export type GetModelPriceArgs = FunctionArgs<typeof FUNCTIONS.getModelPrice.declaration>;
export type GetModelPriceResult = FunctionResult<typeof FUNCTIONS.getModelPrice.declaration>;
export type GetFeedbackFormulaArgs = FunctionArgs<typeof FUNCTIONS.getFeedbackFormula.declaration>;
export type { GetFeedbackFormulaResult } from "../evaluation/feedbackFormula/lookups";
export type GetDashboardArgs = FunctionArgs<typeof FUNCTIONS.getDashboard.declaration>;
export type GetDashboardResult = FunctionResult<typeof FUNCTIONS.getDashboard.declaration>;
export type GetChartArgs = FunctionArgs<typeof FUNCTIONS.getChart.declaration>;
export type GetChartResult = FunctionResult<typeof FUNCTIONS.getChart.declaration>;
export type GetToolArgs = FunctionArgs<typeof FUNCTIONS.getTool.declaration>;
export type GetToolResult = FunctionResult<typeof FUNCTIONS.getTool.declaration>;
export type GetMcpServerArgs = FunctionArgs<typeof FUNCTIONS.getMcpServer.declaration>;
export type GetMcpServerResult = FunctionResult<typeof FUNCTIONS.getMcpServer.declaration>;

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

/** Runs the registered look-up `name` against the program's configuration (the plugin's Invoke runs the same). */
function invoke<R>(name: keyof typeof FUNCTIONS, args: pulumi.Input<object>): pulumi.Output<R> {
    return pulumi.output(args).apply(async (a: object) => {
        const { FUNCTIONS: registered } = await import("../registry");
        return (await registered[name].run(await service(), a as never)) as R;
    });
}

/** Lists the workspace's tracing projects by name prefix, resource tag, or both. */
export const getTracingProjects = (
    args: pulumi.Input<import("../tracing/tracingProject/lookups").GetTracingProjectsArgs>,
): pulumi.Output<GetTracingProjectsResult> => invoke("getTracingProjects", args);

/** Looks up a prompt of the workspace's hub by its handle. */
export const getPrompt = (args: GetPromptArgs): pulumi.Output<GetPromptResult> => invoke("getPrompt", args);

/** Looks up a workspace of the organization by id or by name. */
export const getWorkspace = (args: GetWorkspaceArgs): pulumi.Output<GetWorkspaceResult> => invoke("getWorkspace", args);

/** Lists the organization's workspaces, by name prefix if given. */
export const getWorkspaces = (args: GetWorkspacesArgs = {}): pulumi.Output<GetWorkspacesResult> => invoke("getWorkspaces", args);

/** Looks up a role (custom or built-in) by id or by name. */
export const getRole = (args: GetRoleArgs): pulumi.Output<GetRoleResult> => invoke("getRole", args);

/** Looks up a service key by id or by description (never the key itself). */
export const getServiceKey = (args: GetServiceKeyArgs): pulumi.Output<GetServiceKeyResult> => invoke("getServiceKey", args);
/** The organization's SSO settings: docs/functions.md. */
export const getSsoSettings = (): pulumi.Output<GetSsoSettingsResult> => invoke("getSsoSettings", {});
/** The organization, its settings and its plan's limits: docs/functions.md. */
export const getOrganization = (): pulumi.Output<GetOrganizationResult> => invoke("getOrganization", {});

/** Looks up a service account by id or by name. */
export const getServiceAccount = (args: GetServiceAccountArgs): pulumi.Output<GetServiceAccountResult> => invoke("getServiceAccount", args);

/** Looks up an annotation queue by id or by name. */
export const getAnnotationQueue = (args: GetAnnotationQueueArgs): pulumi.Output<GetAnnotationQueueResult> => invoke("getAnnotationQueue", args);

/** Looks up what scores a feedback key takes. */
export const getFeedbackConfig = (args: GetFeedbackConfigArgs): pulumi.Output<GetFeedbackConfigResult> => invoke("getFeedbackConfig", args);

/** Looks up a listener by id or by its cluster's compute id. */
export const getListener = (args: GetListenerArgs): pulumi.Output<GetListenerResult> => invoke("getListener", args);
/** A data plane of the organization by id or name: docs/functions.md. */
export const getDataPlane = (args: GetDataPlaneArgs): pulumi.Output<GetDataPlaneResult> => invoke("getDataPlane", args);

/** Looks up a saved evaluator by id or by name, with the feedback keys its scores were stored under. */
export const getEvaluator = (args: GetEvaluatorArgs): pulumi.Output<GetEvaluatorResult> => invoke("getEvaluator", args);

/** Looks up a cron of an agent server by its id, with when it runs next. */
export const getCron = (args: GetCronArgs): pulumi.Output<GetCronResult> => invoke("getCron", args);

/** Looks up a version of a dataset: the one a tag names, or the one current at a time. */
export const getDatasetVersion = (args: GetDatasetVersionArgs): pulumi.Output<GetDatasetVersionResult> => invoke("getDatasetVersion", args);

/** Reads how many examples a dataset holds at a version, and their hashes (never the data). */
export const getExamples = (args: GetExamplesArgs): pulumi.Output<GetExamplesResult> => invoke("getExamples", args);

/** Looks up an export by its id: its status and the windows a scheduled one spawned. */
export const getBulkExport = (args: GetBulkExportArgs): pulumi.Output<GetBulkExportResult> => invoke("getBulkExport", args);

/** Looks up an entry of the workspace's model price map (its own or a built-in one) by id or by name. */
export const getModelPrice = (args: GetModelPriceArgs): pulumi.Output<GetModelPriceResult> => invoke("getModelPrice", args);
/** The organization's LLM gateway policies with their current spend: docs/functions.md. */
export const getGatewayPolicies = (args: GetGatewayPoliciesArgs = {}): pulumi.Output<GetGatewayPoliciesResult> => invoke("getGatewayPolicies", args);
/** Looks up a feedback formula by id, or by its key on a dataset or tracing project. */
export const getFeedbackFormula = (args: GetFeedbackFormulaArgs): pulumi.Output<GetFeedbackFormulaResult> => invoke("getFeedbackFormula", args);
/** Looks up a dashboard by id or by title, with the charts it holds now. */
export const getDashboard = (args: GetDashboardArgs): pulumi.Output<GetDashboardResult> => invoke("getDashboard", args);

/** Looks up a chart by id, with its series and its data over a window. */
export const getChart = (args: GetChartArgs): pulumi.Output<GetChartResult> => invoke("getChart", args);

/** Looks up a tool of the workspace's platform tool registry by handle or id. */
export const getTool = (args: GetToolArgs): pulumi.Output<GetToolResult> => invoke("getTool", args);

/** Looks up a Fleet MCP server of the workspace by name or id (its secrets not answered). */
export const getMcpServer = (args: GetMcpServerArgs): pulumi.Output<GetMcpServerResult> => invoke("getMcpServer", args);
