// One LangSmith deployment. Every knob is stack config, so the same program serves the
// quickstart and the e2e tests:
//   quickstart:name          deployment name            (default quickstart-<stack>)
//   quickstart:source        github (the cloud) | external_docker (self-hosted: langsmith:selfHostedUrl)
//                                                       (default github)
//   quickstart:deploymentType dev | prod | ...          (github; default dev; a change replaces)
//   quickstart:repoRef       branch or refs/tags/...    (default main)
//   quickstart:imageUri      image, for external_docker
//   quickstart:buildOnPush   true | false               (default false)
//   quickstart:agentSecret   a secret handed to the deployment as OPENAI_API_KEY (set with --secret)
//   quickstart:withSecret    false: no secret at all                      (default true)
//   quickstart:secretReferences  JSON list of {name, secretName, secretKey}: variables from Kubernetes
//                                Secrets (external_docker only; no values, so set it with --plaintext:
//                                '[{"name":"DB_PASSWORD","secretName":"agent-db","secretKey":"password"}]')
//   quickstart:rollbackToRevisionId  an earlier revision to run again, no rebuild (the `revisions` output
//                                lists them); remove it to build sourceRevisionConfig again
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const source = config.get("source") ?? "github";

const agent = new langsmith.Deployment("agent", {
    name: config.get("name") ?? `quickstart-${pulumi.getStack()}`,
    source: source as "github" | "external_docker",
    sourceConfig:
        source === "github"
            ? {
                  integrationId: config.get("integrationId") ?? "2d3c9a7e-5b1f-4c8e-9a6d-0f1e2d3c4b5a",
                  repoUrl: config.get("repoUrl") ?? "https://github.com/langchain-ai/langgraph-example",
                  buildOnPush: config.getBoolean("buildOnPush") ?? false,
                  deploymentType: config.get("deploymentType") ?? "dev",
              }
            : {},
    sourceRevisionConfig:
        source === "github" ? { repoRef: config.get("repoRef") ?? "main", graphConfigPath: "langgraph.json" } : { imageUri: config.require("imageUri") },
    secrets: config.getBoolean("withSecret") === false ? [] : [{ name: "OPENAI_API_KEY", value: config.getSecret("agentSecret") ?? "sk-not-a-real-key" }],
    secretReferences: config.getObject<langsmith.DeploymentSecretReference[]>("secretReferences"),
    rollbackToRevisionId: config.get("rollbackToRevisionId"),
});

// Look-ups (read only): the last five revisions, latest first, and the one that serves now.
const recent = langsmith.getDeploymentRevisions({ deploymentId: agent.id, limit: 5 });
export const revisions = recent.revisions.apply((rs) => rs.map((r) => `${r.id} ${r.status}`));
export const servingRevisionId = langsmith.getDeployment({ id: agent.id }).activeRevisionId;

export const deploymentId = agent.id;
export const revisionId = agent.latestRevisionId;
export const revisionStatus = agent.revisionStatus;
export const url = agent.customUrl;
