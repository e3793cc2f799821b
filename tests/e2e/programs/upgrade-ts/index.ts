// The program of tests/e2e/upgrade.test.ts's TypeScript front door: one of nearly every resource, written
// against pulumi-langsmith 0.1.0's API (every name given: 0.1.0 requires them), run by 0.1.0 first, then
// previewed unchanged by this version. Settings (stack config of project upgrade-ts): suffix (of every
// name), integrationId, bucket, s3Endpoint, s3AccessKeyId, s3SecretAccessKey (secret), openaiApiKey (secret).
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const suffix = config.require("suffix");

const agent = new langsmith.Deployment("agent", {
    name: `upgrade-${suffix}`,
    source: "github",
    sourceConfig: { integrationId: config.require("integrationId"), repoUrl: "https://github.com/acme/support-agent", buildOnPush: false },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
    secrets: [{ name: "OPENAI_API_KEY", value: config.requireSecret("openaiApiKey") }],
});
const url = agent.customUrl.apply((u) => u ?? "");

const support = new langsmith.Assistant("support", {
    url,
    graphId: "agent",
    name: "support",
    config: { configurable: { model: "gpt-4o" }, tags: ["support"] },
    metadata: { team: "support" },
});
const digest = new langsmith.Cron("digest", {
    url,
    assistantId: support.assistantId,
    schedule: "0 9 * * 1-5",
    input: { messages: [{ role: "user", content: "Summarise yesterday's tickets." }] },
    onRunCompleted: "keep",
});
const check = new langsmith.AgentServerCheck("check", { url, assistantId: support.assistantId, revisionId: agent.latestRevisionId });

const project = new langsmith.TracingProject("traces", { name: `traces-${suffix}`, description: "Traces of the support agent", metadata: { team: "support" } });
const golden = new langsmith.Dataset("golden", {
    name: `golden-${suffix}`,
    dataType: "kv",
    inputsSchema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
});
const bucket = new langsmith.ExportDestination("bucket", {
    displayName: `traces ${suffix}`,
    config: { bucketName: config.require("bucket"), prefix: suffix, endpointUrl: config.require("s3Endpoint"), addressingStyle: "path" },
    credentials: { accessKeyId: config.require("s3AccessKeyId"), secretAccessKey: config.requireSecret("s3SecretAccessKey") },
});
const hourly = new langsmith.ScheduledExport("hourly", { destinationId: bucket.id, sessionId: project.id, startTime: project.createdAt, intervalHours: 1 });

export const deploymentId = agent.id;
export const assistantId = support.assistantId;
export const cronId = digest.cronId;
export const checkFirstRun = check.firstRunStatus;
export const datasetId = golden.id;
export const exportId = hourly.exportId;
