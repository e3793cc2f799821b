// A LangSmith deployment built from a GitHub repository, and an AgentServerCheck that proves, after
// every new revision, that the deployed agent server honours `interrupt` (opt-in: each check makes two
// model runs, which cost tokens on a real deployment). Stack config:
//   github-deployment:name           deployment name                       (default gh-<stack>)
//   github-deployment:integrationId  the workspace's GitHub integration id            required
//   github-deployment:repoUrl        repository URL                                   required
//   github-deployment:repoRef        branch, or a tag as refs/tags/<tag>   (default main)
//   github-deployment:graph          the graph name langgraph.json declares (default agent)
//   github-deployment:openaiApiKey   handed to the deployment as OPENAI_API_KEY (set with --secret)
//   github-deployment:check          run the AgentServerCheck              (default true)
//   github-deployment:adoptId        take over this existing deployment instead of creating one
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const repoRef = config.get("repoRef") ?? "main";
const openaiApiKey = config.getSecret("openaiApiKey");

const agent = new langsmith.Deployment("agent", {
    name: config.get("name") ?? `gh-${pulumi.getStack()}`,
    source: "github",
    sourceConfig: {
        integrationId: config.require("integrationId"),
        repoUrl: config.require("repoUrl"),
        // A tag never moves: nothing to build on push.
        buildOnPush: !repoRef.startsWith("refs/tags/"),
    },
    sourceRevisionConfig: { repoRef, graphConfigPath: "langgraph.json" },
    secrets: openaiApiKey ? [{ name: "OPENAI_API_KEY", value: openaiApiKey }] : [],
    adoptId: config.get("adoptId"),
});

const check =
    config.getBoolean("check") === false
        ? undefined
        : new langsmith.AgentServerCheck("interrupt-check", {
              url: agent.customUrl.apply((u) => u ?? ""),
              assistantId: config.get("graph") ?? "agent",
              revisionId: agent.latestRevisionId,
          });

export const deploymentId = agent.id;
export const url = agent.customUrl;
export const revisionId = agent.latestRevisionId;
export const checkFirstRun = check?.firstRunStatus;
export const checkSecondRun = check?.secondRunStatus;
export const checkMs = check?.durationMs;
