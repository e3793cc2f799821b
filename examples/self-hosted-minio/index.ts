// Trace bulk export from a self-hosted LangSmith into an S3-compatible bucket (MinIO): a destination
// whose credentials are Pulumi secrets, a scheduled export of one tracing project (an existing one, or one
// this program makes), and optionally a one-off export of a past range and one of every experiment of the
// workspace. Every knob is stack config, so the same program serves docs/sandbox.md and the e2e tests (the keys
// `langsmith-emulator --sandbox` prints are the ones it reads):
//   self-hosted-minio:s3Endpoint         the S3-compatible server, e.g. http://127.0.0.1:9000     required
//   self-hosted-minio:bucket             bucket name                                             required
//   self-hosted-minio:prefix             key prefix inside the bucket              (default langsmith)
//   self-hosted-minio:s3AccessKeyId      storage access key id                                   required
//   self-hosted-minio:s3SecretAccessKey  storage secret key (set with --secret)                  required
//   self-hosted-minio:tracingProjectId   the tracing project's id (uuid)      required, unless tracingProjectName
//   self-hosted-minio:tracingProjectName make a tracing project of this name here and export it instead
//   self-hosted-minio:exportStart        where the schedule begins (ISO 8601)                    required
//   self-hosted-minio:intervalHours      hours per exported window                 (default 24)
//   self-hosted-minio:filter             trace filter, e.g. eq(run_type, "llm")    (default: every run)
//   self-hosted-minio:exportFields       JSON list of columns, e.g. ["id","name"]  (default: all)
//   self-hosted-minio:compression        Parquet codec: none, gzip, snappy, zstandard (default: the service's)
//   self-hosted-minio:oneOffEnd          also export [exportStart, oneOffEnd) once   (default: no)
//   self-hosted-minio:allExperimentsEnd  also export every experiment of the workspace over
//                                        [exportStart, allExperimentsEnd) once       (default: no)
//   self-hosted-minio:imageUri           also deploy this agent image (external_docker) (default: no)
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();

const destination = new langsmith.ExportDestination("bucket", {
    displayName: `traces ${pulumi.getStack()}`,
    config: {
        bucketName: config.require("bucket"),
        prefix: config.get("prefix") ?? "langsmith",
        endpointUrl: config.require("s3Endpoint"),
        // MinIO and most S3-compatible servers address buckets by path.
        addressingStyle: "path",
        includeBucketInPrefix: config.getBoolean("includeBucketInPrefix") ?? false,
    },
    credentials: {
        accessKeyId: config.require("s3AccessKeyId"),
        secretAccessKey: config.requireSecret("s3SecretAccessKey"),
    },
});

// What every export here shares; `common` adds the tracing project the schedule and the backfill read.
const shared = {
    destinationId: destination.id,
    startTime: config.require("exportStart"),
    filter: config.get("filter"),
    exportFields: config.getObject<string[]>("exportFields"),
    compression: config.get("compression", { allowedValues: ["none", "gzip", "snappy", "zstandard"] }),
};
// The tracing project: an existing one by id, or one made here, whose id the exports read once it exists
// (unknown at the first preview; Pulumi deletes the exports before it).
const projectName = config.get("tracingProjectName");
const tracing = projectName ? new langsmith.TracingProject("traces", { name: projectName }) : undefined;
const common = { ...shared, sessionId: tracing ? tracing.id : config.require("tracingProjectId") };

const schedule = new langsmith.ScheduledExport("hourly", { ...common, intervalHours: config.getNumber("intervalHours") ?? 24 });

const oneOffEnd = config.get("oneOffEnd");
const backfill = oneOffEnd ? new langsmith.BulkExport("backfill", { ...common, endTime: oneOffEnd }) : undefined;

// Every experiment of the workspace (tracing projects of runs over a dataset) instead of one project: each
// is written under its own session_id= prefix.
const allExperimentsEnd = config.get("allExperimentsEnd");
const experiments = allExperimentsEnd ? new langsmith.BulkExport("experiments", { ...shared, allExperiments: true, endTime: allExperimentsEnd }) : undefined;

// A self-hosted installation deploys container images (external_docker), not GitHub repositories.
const imageUri = config.get("imageUri");
const agent = imageUri
    ? new langsmith.Deployment("agent", { name: `agent-${pulumi.getStack()}`, source: "external_docker", sourceRevisionConfig: { imageUri } })
    : undefined;

export const destinationId = destination.id;
export const tracingProjectId = tracing?.id;
export const deploymentId = agent?.id;
export const exportId = schedule.exportId;
export const scheduleStatus = schedule.status;
export const effectiveStartTime = schedule.effectiveStartTime;
export const backfillStatus = backfill?.status;
export const backfillRows = backfill?.rowsWritten;
export const experimentsRows = experiments?.rowsWritten;
