// Benchmark program of `npm run bench preview`: one destination and `scheduled-exports:count` scheduled
// exports of one tracing project, each with its own filter (as a platform team exporting per agent).
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const destination = new langsmith.ExportDestination("bucket", {
    displayName: "bench",
    config: { bucketName: config.require("bucket"), prefix: "bench", endpointUrl: config.require("endpointUrl"), addressingStyle: "path" },
    credentials: { accessKeyId: config.require("accessKeyId"), secretAccessKey: config.requireSecret("secretAccessKey") },
});
for (let i = 0; i < (config.getNumber("count") ?? 50); i++) {
    new langsmith.ScheduledExport(`export-${i}`, {
        destinationId: destination.id,
        sessionId: config.require("sessionId"),
        startTime: config.require("startTime"),
        intervalHours: 24,
        filter: `and(eq(run_type, "llm"), eq(metadata_key, "agent-${i}"))`,
        exportFields: ["id", "trace_id", "name", "start_time", "end_time", "total_tokens"],
    });
}
