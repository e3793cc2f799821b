// Benchmark program (npm run bench native): `deployments:count` Deployments through the dynamic resources;
// its twin bench/programs/deployments-py makes the same ones through the native plugin.
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
for (let i = 0; i < config.requireNumber("count"); i++) {
    new langsmith.Deployment(`agent-${i}`, {
        name: `bench-${pulumi.getStack()}-${i}`,
        source: "github",
        sourceConfig: { integrationId: config.require("integrationId"), repoUrl: "https://github.com/acme/agent", buildOnPush: false },
        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
        secrets: [{ name: "OPENAI_API_KEY", value: config.requireSecret("openaiApiKey") }],
    });
}
