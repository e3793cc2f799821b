/**
 * pulumi-langsmith: Pulumi resources for LangSmith: Deployment (control plane), the objects on a deployed
 * agent server (Assistant, Cron) and a check that it honours `interrupt` (AgentServerCheck); the bulk export of
 * traces to S3-compatible buckets (ExportDestination, ScheduledExport, BulkExport); tracing projects and
 * datasets (TracingProject, Dataset); the organization's workspaces (Workspace); prompts promoted by tags (Prompt,
 * PromptVersion, PromptTag, PromptWebhook) and the playground's model configurations (ModelConfiguration); evaluation and
 * review (FeedbackConfig, AnnotationQueue); automations (Evaluator, RunRule, AlertRule); usage limits and retention
 * (UsageLimit, WorkspaceRetention, OrganizationRetention), the organization's members (OrganizationMember), the
 * listeners of hybrid installations (Listener); resource tags (TagKey, TagValue, Tagging, and the `tags` argument of
 * the objects the service tags) and the access policies over them (AccessPolicy); and look-ups (getDeployment,
 * getDeploymentRevisions, getTracingProject, getDataset, getTracingProjects, getPrompt, getWorkspace, getWorkspaces,
 * getRole, getServiceKey, getAnnotationQueue, getFeedbackConfig, getListener).
 *
 * ```ts
 * import * as langsmith from "pulumi-langsmith";
 * const agent = new langsmith.Deployment("agent", {
 *     name: "my-agent",
 *     source: "github",
 *     sourceConfig: { integrationId, repoUrl: "https://github.com/acme/agent" },
 *     sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
 * });
 * ```
 */
import { RESOURCES } from "./registry";

export {
    AccessPolicy,
    AgentServerCheck,
    AnnotationQueue,
    Assistant,
    BulkExport,
    Cron,
    Dataset,
    Deployment,
    ExportDestination,
    Listener,
    ModelConfiguration,
    OrganizationMember,
    OrganizationRetention,
    FeedbackConfig,
    Evaluator,
    RunRule,
    AlertRule,
    Prompt,
    PromptTag,
    PromptVersion,
    PromptWebhook,
    Role,
    ScheduledExport,
    ServiceKey,
    TagKey,
    Tagging,
    TagValue,
    TracingProject,
    UsageLimit,
    Workspace,
    WorkspaceMember,
    WorkspaceRetention,
    WorkspaceSecret,
    type AccessPolicyArgs,
    type AgentServerCheckArgs,
    type AnnotationQueueArgs,
    type AssistantArgs,
    type BulkExportArgs,
    type BulkExportTimeouts,
    type CronArgs,
    type DatasetArgs,
    type DeploymentArgs,
    type DeploymentSecret,
    type DeploymentSecretReference,
    type DeploymentSourceConfig,
    type DeploymentSourceRevisionConfig,
    type DeploymentTimeouts,
    type ExportArgs,
    type ExportDestinationArgs,
    type ExportDestinationConfig,
    type ExportDestinationCredentials,
    type FeedbackConfigArgs,
    type ModelConfigurationArgs,
    type EvaluatorArgs,
    type RunRuleArgs,
    type AlertRuleArgs,
    type PromptArgs,
    type PromptTagArgs,
    type PromptVersionArgs,
    type PromptWebhookArgs,
    type RoleArgs,
    type RunConfig,
    type ScheduledExportArgs,
    type ServiceKeyArgs,
    type TagKeyArgs,
    type TaggingArgs,
    type TagValueArgs,
    type TracingProjectArgs,
    type WorkspaceArgs,
    type WorkspaceMemberArgs,
    type WorkspaceSecretArgs,
    type UsageLimitArgs,
    type WorkspaceRetentionArgs,
    type OrganizationRetentionArgs,
    type OrganizationMemberArgs,
    type ListenerArgs,
} from "./dynamic/resources";
export type { DeploymentInputs, DeploymentOutputs } from "./controlPlane/deployment/declare";
export {
    getAnnotationQueue,
    getDataset,
    getDeployment,
    getDeploymentRevisions,
    getFeedbackConfig,
    getListener,
    getPrompt,
    getRole,
    getServiceKey,
    getTracingProject,
    getTracingProjects,
    getWorkspace,
    getWorkspaces,
    type GetPromptArgs,
    type GetPromptResult,
    type GetRoleArgs,
    type GetRoleResult,
    type GetServiceKeyArgs,
    type GetServiceKeyResult,
    type GetTracingProjectsArgs,
    type GetTracingProjectsResult,
    type GetWorkspaceArgs,
    type GetWorkspaceResult,
    type GetWorkspacesArgs,
    type GetWorkspacesResult,
    type GetDatasetArgs,
    type GetDatasetResult,
    type GetDeploymentArgs,
    type GetDeploymentResult,
    type GetDeploymentRevisionsArgs,
    type GetDeploymentRevisionsResult,
    type GetTracingProjectArgs,
    type GetTracingProjectResult,
    type GetAnnotationQueueArgs,
    type GetAnnotationQueueResult,
    type GetFeedbackConfigArgs,
    type GetFeedbackConfigResult,
    type GetListenerArgs,
    type GetListenerResult,
    type RevisionInfo,
} from "./dynamic/functions";
export { ConfigError, REGION_ENDPOINTS, REGION_URLS, resolveServiceConfig, type ConfigSources, type ServiceConfig, type SettingSource } from "./config";
export * as api from "./api";

/** The raw dynamic providers (what the resource classes forward to), for direct tests. */
export const providers = Object.fromEntries(Object.entries(RESOURCES).map(([type, r]) => [type, r.provider])) as {
    [T in keyof typeof RESOURCES]: (typeof RESOURCES)[T]["provider"];
};
