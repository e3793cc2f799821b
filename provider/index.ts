/**
 * pulumi-langsmith: Pulumi resources for LangSmith: Deployment (control plane), and the bulk export of
 * traces to S3-compatible buckets (ExportDestination, ScheduledExport, BulkExport), and a check that a
 * deployed agent server honours `interrupt` (AgentServerCheck); and look-ups of deployments and their
 * revisions (getDeployment, getDeploymentRevisions).
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
import { agentServerCheckProvider } from "./agentServerCheck/provider";
import { bulkExportProvider, exportDestinationProvider, scheduledExportProvider } from "./traceExport/index";
import { deploymentProvider } from "./deployment/index";

export {
    Deployment,
    type DeploymentArgs,
    type DeploymentSecret,
    type DeploymentSecretReference,
    type DeploymentSourceConfig,
    type DeploymentSourceRevisionConfig,
    type DeploymentTimeouts,
} from "./dynamic/deployment";
export type { DeploymentInputs, DeploymentOutputs } from "./deployment/index";
export { ExportDestination, type ExportDestinationArgs, type ExportDestinationConfig, type ExportDestinationCredentials } from "./dynamic/exportDestination";
export { ScheduledExport, type ScheduledExportArgs } from "./dynamic/scheduledExport";
export { BulkExport, type BulkExportArgs, type BulkExportTimeouts } from "./dynamic/bulkExport";
export type { ExportArgs } from "./dynamic/exports";
export { AgentServerCheck, type AgentServerCheckArgs } from "./dynamic/agentServerCheck";
export {
    getDeployment,
    getDeploymentRevisions,
    type GetDeploymentArgs,
    type GetDeploymentResult,
    type GetDeploymentRevisionsArgs,
    type GetDeploymentRevisionsResult,
    type RevisionInfo,
} from "./dynamic/functions";
export { ConfigError, REGION_ENDPOINTS, REGION_URLS, resolveServiceConfig, type ConfigSources, type ServiceConfig, type SettingSource } from "./config";
export * as api from "./api";

/** The raw dynamic providers (what the resource classes forward to), for direct tests. */
export const providers = {
    deployment: deploymentProvider,
    exportDestination: exportDestinationProvider,
    scheduledExport: scheduledExportProvider,
    bulkExport: bulkExportProvider,
    agentServerCheck: agentServerCheckProvider,
};
