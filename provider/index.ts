/**
 * pulumi-langsmith: Pulumi resources for LangSmith Deployment (control plane).
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
import { deploymentProvider } from "./impl/deployment";

export {
    Deployment,
    type DeploymentArgs,
    type DeploymentSecret,
    type DeploymentSourceConfig,
    type DeploymentSourceRevisionConfig,
    type DeploymentTimeouts,
} from "./resources/deployment";
export type { DeploymentInputs, DeploymentOutputs } from "./impl/deployment";
export { ConfigError, REGION_ENDPOINTS, REGION_URLS, resolveServiceConfig, type ServiceConfig } from "./config";
export * as api from "./api";

/** The raw dynamic providers (what the resource classes forward to), for direct tests. */
export const providers = {
    deployment: deploymentProvider,
};
