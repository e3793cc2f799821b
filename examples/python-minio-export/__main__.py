"""Trace bulk export from a self-hosted LangSmith into an S3-compatible bucket (MinIO), in Python: a
destination whose credentials are Pulumi secrets and a scheduled export of one tracing project, through the
native plugin `pulumi-resource-langsmith` (the Python twin of examples/self-hosted-minio). Settings:
Pulumi.yaml."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()

destination = langsmith.ExportDestination(
    "bucket",
    display_name=config.get("displayName") or f"traces {pulumi.get_stack()}",
    config=langsmith.ExportDestinationConfigArgs(
        bucket_name=config.require("bucket"),
        prefix=config.get("prefix") or "langsmith",
        endpoint_url=config.require("s3Endpoint"),
        # MinIO and most S3-compatible servers address buckets by path.
        addressing_style="path",
    ),
    credentials=langsmith.ExportDestinationCredentialsArgs(
        access_key_id=config.require("s3AccessKeyId"),
        secret_access_key=config.require_secret("s3SecretAccessKey"),
    ),
)

schedule = langsmith.ScheduledExport(
    "hourly",
    destination_id=destination.id,
    session_id=config.require("tracingProjectId"),
    start_time=config.require("exportStart"),
    interval_hours=config.get_int("intervalHours") or 24,
    filter=config.get("filter"),
)

pulumi.export("destinationId", destination.id)
pulumi.export("exportId", schedule.export_id)
pulumi.export("scheduleStatus", schedule.status)
pulumi.export("effectiveStartTime", schedule.effective_start_time)
