// The team's own infrastructure in the workspace the platform team made (examples/workspace-admin): an hourly
// export of the team's tracing project into its bucket. The workspace and the project come from the admin
// stack's outputs (a stack reference, which needs read access to that stack's state, not its secrets); the only
// LangSmith credential is the service key in `langsmith:apiKey`.
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const admin = new pulumi.StackReference(config.require("adminStack"));
const workspaceId = admin.requireOutput("workspaceId").apply((id) => id as string);

const bucket = new langsmith.ExportDestination("bucket", {
    workspaceId,
    displayName: `team traces ${pulumi.getStack()}`,
    config: {
        bucketName: config.require("bucket"),
        prefix: "team-traces",
        endpointUrl: config.get("s3Endpoint"),
        addressingStyle: config.get("s3Endpoint") ? "path" : undefined,
    },
    credentials: { accessKeyId: config.require("s3AccessKeyId"), secretAccessKey: config.requireSecret("s3SecretAccessKey") },
});

const hourly = new langsmith.ScheduledExport("hourly", {
    workspaceId,
    destinationId: bucket.id,
    sessionId: admin.requireOutput("projectId").apply((id) => id as string),
    startTime: admin.requireOutput("projectCreatedAt").apply((t) => t as string),
    intervalHours: 1,
});

export const destinationId = bucket.id;
export const exportId = hourly.exportId;
