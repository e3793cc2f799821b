// What tests/e2e/interrupted.test.ts kills the `pulumi` CLI in the middle of, through the TypeScript resources:
// two deployments, a destination, a scheduled export and a one-off export (the Python twin: ../interrupted-py).
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const prefix = config.require("prefix");

for (let i = 0; i < (config.getNumber("deployments") ?? 2); i++) {
    new langsmith.Deployment(
        `d${i}`,
        {
            name: `${prefix}-d${i}`,
            source: "github",
            sourceConfig: { integrationId: config.require("integrationId"), repoUrl: "https://github.com/acme/agent" },
            sourceRevisionConfig: { repoRef: config.get("repoRef") ?? "main", graphConfigPath: "langgraph.json" },
        },
        { deleteBeforeReplace: config.getBoolean("deleteBeforeReplace"), customTimeouts: { create: config.get("createTimeout") } },
    );
}

const destination = new langsmith.ExportDestination("bucket", {
    displayName: `${prefix} traces`,
    config: { bucketName: config.require("bucket"), prefix, endpointUrl: config.require("s3Endpoint"), addressingStyle: "path" },
    credentials: { accessKeyId: config.require("s3AccessKeyId"), secretAccessKey: config.requireSecret("s3SecretAccessKey") },
});

// The two exports are made once `exports` is true.
if (config.getBoolean("exports")) {
    new langsmith.ScheduledExport("schedule", {
        destinationId: destination.id,
        sessionId: config.require("tracingProjectId"),
        startTime: config.require("exportStart"),
        intervalHours: 6,
        filter: config.get("filter"),
    });
    new langsmith.BulkExport("once", {
        destinationId: destination.id,
        sessionId: config.require("tracingProjectId"),
        startTime: config.require("exportStart"),
        endTime: config.require("exportEnd"),
        // The test holds the export back (the emulator's worker paused) while it kills the CLI.
        waitForCompletion: false,
    });
}
