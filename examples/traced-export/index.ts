// A tracing project for an agent, the dataset its evaluations run over, the bucket its traces go to, and an
// hourly export of the project into that bucket as Parquet, starting when the project is made. Your traced code (trace.py beside this file,
// or any code using the official langsmith clients) writes into the project by its name; each hour the
// service exports the hour that just ended. The keys `langsmith-emulator --sandbox` prints are the ones
// this program reads, so it runs against the emulator as it is:
//   npx langsmith-emulator --sandbox          # then paste the lines it prints, here
//   pulumi up
//   LANGSMITH_PROJECT=$(pulumi stack output projectName) python trace.py   # after the printed `export LANGSMITH_...` line
// Settings (stack config):
//   traced-export:projectName        the tracing project's name               (default: support-agent-<stack>)
//   traced-export:bucket             bucket name                                              required
//   traced-export:s3Endpoint         an S3-compatible server, e.g. http://127.0.0.1:9000   (default: AWS S3)
//   traced-export:s3Region           the bucket's region                                  (default: none)
//   traced-export:s3AccessKeyId      storage access key id                                    required
//   traced-export:s3SecretAccessKey  storage secret key (set with --secret)                   required
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();

const project = new langsmith.TracingProject("agent", {
    name: config.get("projectName") ?? `support-agent-${pulumi.getStack()}`,
    description: "Traces of the support agent",
    metadata: { team: "support" },
});

// What the agent's evaluations run over; its examples are data the SDKs write (client.create_examples). No
// `name`: it is named after the resource, `golden-<7 hex>`, the same at every `up` of this stack.
const golden = new langsmith.Dataset("golden", {
    description: "Questions the support agent must answer",
    dataType: "kv",
    inputsSchema: { type: "object", properties: { customer: { type: "string" }, question: { type: "string" } }, required: ["question"] },
});

const bucket = new langsmith.ExportDestination("bucket", {
    displayName: `agent traces ${pulumi.getStack()}`,
    config: {
        bucketName: config.require("bucket"),
        prefix: "agent-traces",
        endpointUrl: config.get("s3Endpoint"),
        region: config.get("s3Region"),
        // MinIO and most S3-compatible servers address buckets by path.
        addressingStyle: config.get("s3Endpoint") ? "path" : undefined,
    },
    credentials: {
        accessKeyId: config.require("s3AccessKeyId"),
        secretAccessKey: config.requireSecret("s3SecretAccessKey"),
    },
});

// The project's id is not known until it is made: the export waits for it, in the same `pulumi up`.
const hourly = new langsmith.ScheduledExport("hourly", {
    destinationId: bucket.id,
    sessionId: project.id,
    startTime: project.createdAt,
    intervalHours: 1,
});

export const projectName = project.name;
export const projectId = project.id;
export const datasetName = golden.name;
export const datasetId = golden.id;
export const exportId = hourly.exportId;
