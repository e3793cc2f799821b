// A LangSmith deployment and what platform teams otherwise configure by hand on its agent server: an
// assistant (the graph with its model and prompt; every change is a new version of it), a cron that runs
// that assistant every weekday morning, and an AgentServerCheck of the assistant
// after every revision. A new revision keeps the assistant and the cron (they live in the server's
// database); a replaced deployment (a new URL) replaces them. Stack config:
//   agent-objects:name           deployment name                               (default objects-<stack>)
//   agent-objects:integrationId  the workspace's GitHub integration id                    required
//   agent-objects:repoUrl        repository URL                 (default https://github.com/acme/support-agent)
//   agent-objects:repoRef        branch, or a tag as refs/tags/<tag>           (default main)
//   agent-objects:model          the model the assistant's graph is configured with (default gpt-4o)
//   agent-objects:schedule       when the digest runs, cron syntax             (default 0 9 * * 1-5)
//   agent-objects:timezone       the schedule's IANA time zone                 (default UTC)
//   agent-objects:digestEnabled  whether the cron runs                         (default true)
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();

const agent = new langsmith.Deployment("agent", {
    name: config.get("name") ?? `objects-${pulumi.getStack()}`,
    source: "github",
    sourceConfig: {
        integrationId: config.require("integrationId"),
        repoUrl: config.get("repoUrl") ?? "https://github.com/acme/support-agent",
        buildOnPush: false,
    },
    sourceRevisionConfig: { repoRef: config.get("repoRef") ?? "main", graphConfigPath: "langgraph.json" },
});
const url = agent.customUrl.apply((u) => u ?? "");

const support = new langsmith.Assistant("support", {
    url,
    graphId: "agent",
    name: "support",
    description: "Answers support tickets",
    config: { configurable: { model: config.get("model") ?? "gpt-4o" }, tags: ["support"] },
    metadata: { team: "support" },
});

// Each run on a thread of its own, kept afterwards so that its answer can be read.
const digest = new langsmith.Cron("daily-digest", {
    url,
    assistantId: support.assistantId,
    schedule: config.get("schedule") ?? "0 9 * * 1-5",
    timezone: config.get("timezone"),
    input: { messages: [{ role: "user", content: "Summarise yesterday's tickets." }] },
    enabled: config.getBoolean("digestEnabled") ?? true,
    onRunCompleted: "keep",
});

// The assistant itself honours `interrupt` (two model runs per check).
const check = new langsmith.AgentServerCheck("interrupt-check", {
    url,
    assistantId: support.assistantId,
    revisionId: agent.latestRevisionId,
});

export const deploymentUrl = agent.customUrl;
export const assistantId = support.assistantId;
export const assistantVersion = support.version;
export const cronId = digest.cronId;
// When it runs next moves at every run: a look-up, not an output (a refresh of a clean stack changes nothing).
export const nextDigest = langsmith.getCron({ url: digest.url, cronId: digest.cronId }).nextRunDate;
export const checkFirstRun = check.firstRunStatus;
