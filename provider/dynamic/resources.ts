/**
 * The resource classes TypeScript programs declare, each made from its registered declaration
 * (resource.ts), with the names of their argument types. Their documentation: docs/<resource>.md.
 */
import type { ArgShape, Args, ArgValue } from "../kit/declare";
import type { exportArguments } from "../tracing/traceExport/declare";
import { RESOURCES } from "../registry";
import { dynamicResource } from "./resource";

type Declared<T extends keyof typeof RESOURCES> = (typeof RESOURCES)[T]["declaration"];
type InputsOf<T extends keyof typeof RESOURCES> = Declared<T>["inputs"];

/** A LangSmith deployment (control plane): docs/deployment.md. */
export const Deployment = dynamicResource(RESOURCES.deployment);
export type Deployment = InstanceType<typeof Deployment>;
export type DeploymentArgs = Args<Declared<"deployment">>;
export type DeploymentSourceConfig = ArgValue<InputsOf<"deployment">["sourceConfig"]>;
export type DeploymentSourceRevisionConfig = ArgValue<InputsOf<"deployment">["sourceRevisionConfig"]>;
export type DeploymentSecret = ArgValue<InputsOf<"deployment">["secrets"]["items"]>;
export type DeploymentSecretReference = ArgValue<InputsOf<"deployment">["secretReferences"]["items"]>;
export type DeploymentTimeouts = ArgValue<InputsOf<"deployment">["timeouts"]>;

/** A bucket bulk export writes to: docs/exportDestination.md. */
export const ExportDestination = dynamicResource(RESOURCES.exportDestination);
export type ExportDestination = InstanceType<typeof ExportDestination>;
export type ExportDestinationArgs = Args<Declared<"exportDestination">>;
export type ExportDestinationConfig = ArgValue<InputsOf<"exportDestination">["config"]>;
export type ExportDestinationCredentials = ArgValue<InputsOf<"exportDestination">["credentials"]>;

/** An export every `intervalHours`: docs/scheduledExport.md. */
export const ScheduledExport = dynamicResource(RESOURCES.scheduledExport);
export type ScheduledExport = InstanceType<typeof ScheduledExport>;
export type ScheduledExportArgs = Args<Declared<"scheduledExport">>;

/** A one-off export of traces: docs/bulkExport.md. */
export const BulkExport = dynamicResource(RESOURCES.bulkExport);
export type BulkExport = InstanceType<typeof BulkExport>;
export type BulkExportArgs = Args<Declared<"bulkExport">>;
export type BulkExportTimeouts = ArgValue<InputsOf<"bulkExport">["timeouts"]>;

/** What ScheduledExport and BulkExport both take. */
export type ExportArgs = Omit<ArgShape<ReturnType<typeof exportArguments<"update", false>>>, "sessionId">;

/** A check that a deployed agent server honours `interrupt`: docs/agentServerCheck.md. */
export const AgentServerCheck = dynamicResource(RESOURCES.agentServerCheck);
export type AgentServerCheck = InstanceType<typeof AgentServerCheck>;
export type AgentServerCheckArgs = Args<Declared<"agentServerCheck">>;

/** A tracing project: docs/tracingProject.md. */
export const TracingProject = dynamicResource(RESOURCES.tracingProject);
export type TracingProject = InstanceType<typeof TracingProject>;
export type TracingProjectArgs = Args<Declared<"tracingProject">>;

/** A dataset: docs/dataset.md. */
export const Dataset = dynamicResource(RESOURCES.dataset);
export type Dataset = InstanceType<typeof Dataset>;
export type DatasetArgs = Args<Declared<"dataset">>;

/** A dataset's examples, from a file of the repository or a list, synced by content: docs/datasetExamples.md. */
export const DatasetExamples = dynamicResource(RESOURCES.datasetExamples);
export type DatasetExamples = InstanceType<typeof DatasetExamples>;
export type DatasetExamplesArgs = Args<Declared<"datasetExamples">>;

/** One example of a dataset, declared in the program: docs/example.md. */
export const Example = dynamicResource(RESOURCES.example);
export type Example = InstanceType<typeof Example>;
export type ExampleArgs = Args<Declared<"example">>;

/** A tag on a version of a dataset: docs/datasetVersionTag.md. */
export const DatasetVersionTag = dynamicResource(RESOURCES.datasetVersionTag);
export type DatasetVersionTag = InstanceType<typeof DatasetVersionTag>;
export type DatasetVersionTagArgs = Args<Declared<"datasetVersionTag">>;

/** A public share of a dataset: docs/datasetShare.md. */
export const DatasetShare = dynamicResource(RESOURCES.datasetShare);
export type DatasetShare = InstanceType<typeof DatasetShare>;
export type DatasetShareArgs = Args<Declared<"datasetShare">>;

/** An assistant on a deployed agent server: docs/assistant.md. */
export const Assistant = dynamicResource(RESOURCES.assistant);
export type Assistant = InstanceType<typeof Assistant>;
export type AssistantArgs = Args<Declared<"assistant">>;
/** A run configuration (an assistant's, a cron's runs'). */
export type RunConfig = ArgValue<InputsOf<"assistant">["config"]>;

/** A scheduled run of an assistant: docs/cron.md. */
export const Cron = dynamicResource(RESOURCES.cron);
export type Cron = InstanceType<typeof Cron>;
export type CronArgs = Args<Declared<"cron">>;

/** A workspace of the organization: docs/workspace.md. */
export const Workspace = dynamicResource(RESOURCES.workspace);
export type Workspace = InstanceType<typeof Workspace>;
export type WorkspaceArgs = Args<Declared<"workspace">>;
/** An organization's service key (its secret `key` an output): docs/serviceKey.md. */
export const ServiceKey = dynamicResource(RESOURCES.serviceKey);
export type ServiceKey = InstanceType<typeof ServiceKey>;
export type ServiceKeyArgs = Args<Declared<"serviceKey">>;
/** A secret of a workspace: docs/workspaceSecret.md. */
export const WorkspaceSecret = dynamicResource(RESOURCES.workspaceSecret);
export type WorkspaceSecret = InstanceType<typeof WorkspaceSecret>;
export type WorkspaceSecretArgs = Args<Declared<"workspaceSecret">>;

/** A custom workspace role of the organization: docs/role.md. */
export const Role = dynamicResource(RESOURCES.role);
export type Role = InstanceType<typeof Role>;
export type RoleArgs = Args<Declared<"role">>;

/** A member of a workspace (or a pending invitation to it): docs/workspaceMember.md. */
export const WorkspaceMember = dynamicResource(RESOURCES.workspaceMember);
export type WorkspaceMember = InstanceType<typeof WorkspaceMember>;
export type WorkspaceMemberArgs = Args<Declared<"workspaceMember">>;

/** A prompt of the prompt hub: docs/prompt.md. */
export const Prompt = dynamicResource(RESOURCES.prompt);
export type Prompt = InstanceType<typeof Prompt>;
export type PromptArgs = Args<Declared<"prompt">>;

/** A version (commit) of a prompt: docs/promptVersion.md. */
export const PromptVersion = dynamicResource(RESOURCES.promptVersion);
export type PromptVersion = InstanceType<typeof PromptVersion>;
export type PromptVersionArgs = Args<Declared<"promptVersion">>;

/** A commit tag of a prompt: docs/promptTag.md. */
export const PromptTag = dynamicResource(RESOURCES.promptTag);
export type PromptTag = InstanceType<typeof PromptTag>;
export type PromptTagArgs = Args<Declared<"promptTag">>;

/** A URL the prompt hub calls on commits and tag moves: docs/promptWebhook.md. */
export const PromptWebhook = dynamicResource(RESOURCES.promptWebhook);
export type PromptWebhook = InstanceType<typeof PromptWebhook>;
export type PromptWebhookArgs = Args<Declared<"promptWebhook">>;

/** A model configuration saved in the playground: docs/modelConfiguration.md. */
export const ModelConfiguration = dynamicResource(RESOURCES.modelConfiguration);
export type ModelConfiguration = InstanceType<typeof ModelConfiguration>;
export type ModelConfigurationArgs = Args<Declared<"modelConfiguration">>;

/** A monthly cap on a workspace's traces: docs/usageLimit.md. */
export const UsageLimit = dynamicResource(RESOURCES.usageLimit);
export type UsageLimit = InstanceType<typeof UsageLimit>;
export type UsageLimitArgs = Args<Declared<"usageLimit">>;

/** A workspace's retention settings: docs/workspaceRetention.md. */
export const WorkspaceRetention = dynamicResource(RESOURCES.workspaceRetention);
export type WorkspaceRetention = InstanceType<typeof WorkspaceRetention>;
export type WorkspaceRetentionArgs = Args<Declared<"workspaceRetention">>;

/** The organization's retention settings: docs/organizationRetention.md. */
export const OrganizationRetention = dynamicResource(RESOURCES.organizationRetention);
export type OrganizationRetention = InstanceType<typeof OrganizationRetention>;
export type OrganizationRetentionArgs = Args<Declared<"organizationRetention">>;

/** A member of the organization (or a pending invitation to it): docs/organizationMember.md. */
export const OrganizationMember = dynamicResource(RESOURCES.organizationMember);
export type OrganizationMember = InstanceType<typeof OrganizationMember>;
export type OrganizationMemberArgs = Args<Declared<"organizationMember">>;

/** A listener of a hybrid installation (the compute deployments run on): docs/listener.md. */
export const Listener = dynamicResource(RESOURCES.listener);
export type Listener = InstanceType<typeof Listener>;
export type ListenerArgs = Args<Declared<"listener">>;
/** A saved evaluator (LLM-as-judge or code) run rules score with: docs/evaluator.md. */
export const Evaluator = dynamicResource(RESOURCES.evaluator);
export type Evaluator = InstanceType<typeof Evaluator>;
export type EvaluatorArgs = Args<Declared<"evaluator">>;

/** An automation on a tracing project: filter, sample, queue, dataset, webhooks, evaluators: docs/runRule.md. */
export const RunRule = dynamicResource(RESOURCES.runRule);
export type RunRule = InstanceType<typeof RunRule>;
export type RunRuleArgs = Args<Declared<"runRule">>;

/** An alert on a tracing project's runs: docs/alertRule.md. */
export const AlertRule = dynamicResource(RESOURCES.alertRule);
export type AlertRule = InstanceType<typeof AlertRule>;
export type AlertRuleArgs = Args<Declared<"alertRule">>;
/** What scores a feedback key takes: docs/feedbackConfig.md. */
export const FeedbackConfig = dynamicResource(RESOURCES.feedbackConfig);
export type FeedbackConfig = InstanceType<typeof FeedbackConfig>;
export type FeedbackConfigArgs = Args<Declared<"feedbackConfig">>;

/** A review queue of traced runs: docs/annotationQueue.md. */
export const AnnotationQueue = dynamicResource(RESOURCES.annotationQueue);
export type AnnotationQueue = InstanceType<typeof AnnotationQueue>;
export type AnnotationQueueArgs = Args<Declared<"annotationQueue">>;
/** A resource-tag key of a workspace: docs/tagKey.md. */
export const TagKey = dynamicResource(RESOURCES.tagKey);
export type TagKey = InstanceType<typeof TagKey>;
export type TagKeyArgs = Args<Declared<"tagKey">>;

/** A value of a resource-tag key: docs/tagValue.md. */
export const TagValue = dynamicResource(RESOURCES.tagValue);
export type TagValue = InstanceType<typeof TagValue>;
export type TagValueArgs = Args<Declared<"tagValue">>;

/** A tag value on one object: docs/tagging.md. */
export const Tagging = dynamicResource(RESOURCES.tagging);
export type Tagging = InstanceType<typeof Tagging>;
export type TaggingArgs = Args<Declared<"tagging">>;

/** An access policy of the organization (by resource tags): docs/accessPolicy.md. */
export const AccessPolicy = dynamicResource(RESOURCES.accessPolicy);
export type AccessPolicy = InstanceType<typeof AccessPolicy>;
export type AccessPolicyArgs = Args<Declared<"accessPolicy">>;

/** A data plane of the organization's hybrid (BYOC) installation: docs/dataPlane.md. */
export const DataPlane = dynamicResource(RESOURCES.dataPlane);
export type DataPlane = InstanceType<typeof DataPlane>;
export type DataPlaneArgs = Args<Declared<"dataPlane">>;

/** A sandbox snapshot sandboxes start from: docs/sandboxSnapshot.md. */
export const SandboxSnapshot = dynamicResource(RESOURCES.sandboxSnapshot);
export type SandboxSnapshot = InstanceType<typeof SandboxSnapshot>;
export type SandboxSnapshotArgs = Args<Declared<"sandboxSnapshot">>;
/** The organization's SAML single sign-on: docs/ssoSettings.md. */
export const SsoSettings = dynamicResource(RESOURCES.ssoSettings);
export type SsoSettings = InstanceType<typeof SsoSettings>;
export type SsoSettingsArgs = Args<Declared<"ssoSettings">>;

/** The organization's own settings: docs/organizationSettings.md. */
export const OrganizationSettings = dynamicResource(RESOURCES.organizationSettings);
export type OrganizationSettings = InstanceType<typeof OrganizationSettings>;
export type OrganizationSettingsArgs = Args<Declared<"organizationSettings">>;

/** A workspace's prompt hub handle, set once: docs/hubHandle.md. */
export const HubHandle = dynamicResource(RESOURCES.hubHandle);
export type HubHandle = InstanceType<typeof HubHandle>;
export type HubHandleArgs = Args<Declared<"hubHandle">>;
/** A service account of the organization (its tokens: PersonalAccessToken): docs/serviceAccount.md. */
export const ServiceAccount = dynamicResource(RESOURCES.serviceAccount);
export type ServiceAccount = InstanceType<typeof ServiceAccount>;
export type ServiceAccountArgs = Args<Declared<"serviceAccount">>;

/** A personal access token, of a service account or the provider's identity (its secret `key` an output): docs/personalAccessToken.md. */
export const PersonalAccessToken = dynamicResource(RESOURCES.personalAccessToken);
export type PersonalAccessToken = InstanceType<typeof PersonalAccessToken>;
export type PersonalAccessTokenArgs = Args<Declared<"personalAccessToken">>;

/** A workspace API key (its secret `key` an output): docs/apiKey.md. */
export const ApiKey = dynamicResource(RESOURCES.apiKey);
export type ApiKey = InstanceType<typeof ApiKey>;
export type ApiKeyArgs = Args<Declared<"apiKey">>;

/** A SCIM bearer token of the organization (its secret `token` an output): docs/scimToken.md. */
export const ScimToken = dynamicResource(RESOURCES.scimToken);
export type ScimToken = InstanceType<typeof ScimToken>;
export type ScimTokenArgs = Args<Declared<"scimToken">>;

/** An entry of the workspace's model price map (the cost of traced LLM runs): docs/modelPriceMap.md. */
export const ModelPriceMap = dynamicResource(RESOURCES.modelPriceMap);
export type ModelPriceMap = InstanceType<typeof ModelPriceMap>;
export type ModelPriceMapArgs = Args<Declared<"modelPriceMap">>;
/** A weighted sum or average of feedback keys: docs/feedbackFormula.md. */
export const FeedbackFormula = dynamicResource(RESOURCES.feedbackFormula);
export type FeedbackFormula = InstanceType<typeof FeedbackFormula>;
export type FeedbackFormulaArgs = Args<Declared<"feedbackFormula">>;

/** A saved view of a tracing project: docs/projectView.md. */
export const ProjectView = dynamicResource(RESOURCES.projectView);
export type ProjectView = InstanceType<typeof ProjectView>;
export type ProjectViewArgs = Args<Declared<"projectView">>;
/** A dashboard (a chart section) of a workspace or of the organization: docs/dashboard.md. */
export const Dashboard = dynamicResource(RESOURCES.dashboard);
export type Dashboard = InstanceType<typeof Dashboard>;
export type DashboardArgs = Args<Declared<"dashboard">>;

/** A chart of a dashboard: docs/chart.md. */
export const Chart = dynamicResource(RESOURCES.chart);
export type Chart = InstanceType<typeof Chart>;
export type ChartArgs = Args<Declared<"chart">>;

/** A tool of the workspace's platform tool registry, by handle: docs/tool.md. */
export const Tool = dynamicResource(RESOURCES.tool);
export type Tool = InstanceType<typeof Tool>;
export type ToolArgs = Args<Declared<"tool">>;

/** A remote MCP server of the workspace's Fleet (URL, headers, OAuth provider secret): docs/mcpServer.md. */
export const McpServer = dynamicResource(RESOURCES.mcpServer);
export type McpServer = InstanceType<typeof McpServer>;
export type McpServerArgs = Args<Declared<"mcpServer">>;

/** A feature's default model and disabled models in a workspace: docs/defaultModel.md. */
export const DefaultModel = dynamicResource(RESOURCES.defaultModel);
export type DefaultModel = InstanceType<typeof DefaultModel>;
export type DefaultModelArgs = Args<Declared<"defaultModel">>;
/** A policy of the organization's LLM gateway (spend cap, rate limit, guard): docs/gatewayPolicy.md. */
export const GatewayPolicy = dynamicResource(RESOURCES.gatewayPolicy);
export type GatewayPolicy = InstanceType<typeof GatewayPolicy>;
export type GatewayPolicyArgs = Args<Declared<"gatewayPolicy">>;

/** Proof at `pulumi up` that the LLM gateway enforces a GatewayPolicy: docs/gatewayPolicyCheck.md. */
export const GatewayPolicyCheck = dynamicResource(RESOURCES.gatewayPolicyCheck);
export type GatewayPolicyCheck = InstanceType<typeof GatewayPolicyCheck>;
export type GatewayPolicyCheckArgs = Args<Declared<"gatewayPolicyCheck">>;
