// ${DESCRIPTION}: one LangSmith deployment built from a GitHub repository, awaited until DEPLOYED.
// `pulumi up` creates it, `pulumi preview --refresh --expect-no-changes` checks it for drift, `pulumi destroy`
// deletes it. Every argument of Deployment: docs/deployment.md in the pulumi-langsmith repository.
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const agent = new langsmith.Deployment("agent", {
    name: pulumi.getProject(),
    source: "github",
    sourceConfig: {
        integrationId: config.require("githubIntegrationId"),
        repoUrl: config.require("repoUrl"),
        deploymentType: "dev",
        buildOnPush: false,
    },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
});

export const url = agent.customUrl;
export const revision = agent.latestRevisionId;
