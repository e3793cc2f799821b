// A team's workspace and what the platform team puts in it: the service key the team's CI uses (scoped to
// this workspace only), the team's deployment and its tracing project. The key is a secret output: the
// team's stack (examples/workspace-team) is run with it, read from this stack:
//   pulumi stack output --show-secrets ciKey      # then, in the team's stack:
//   pulumi config set --secret langsmith:apiKey <that key>
// Rotate the key by moving keyExpiresAt: the new key is made before the old one is deleted, so the team's
// CI, given the new one, never finds itself without a working key.
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const team = config.get("team") ?? "support";

const workspace = new langsmith.Workspace("team", { displayName: `${team} (${pulumi.getStack()})` });

const ciKey = new langsmith.ServiceKey("ci", {
    description: `CI of the ${team} team`,
    workspaceIds: [workspace.id],
    roleId: "WORKSPACE_ADMIN",
    expiresAt: config.require("keyExpiresAt"),
});

const agent = new langsmith.Deployment("agent", {
    workspaceId: workspace.id,
    source: "github",
    sourceConfig: {
        integrationId: config.require("integrationId"),
        repoUrl: "https://github.com/langchain-ai/langgraph-example",
        deploymentType: "dev",
    },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
});

const traces = new langsmith.TracingProject("traces", { workspaceId: workspace.id, description: `Traces of the ${team} agent` });

export const workspaceId = workspace.id;
export const ciKeyId = ciKey.id;
export const ciKeySecret = ciKey.key;
export const deploymentName = agent.name;
export const projectId = traces.id;
export const projectCreatedAt = traces.createdAt;
