"""Everything `langsmith-emulator --sandbox` prints a key for, in one Python program through the native plugin
`pulumi-resource-langsmith` (examples/yaml-sandbox is its YAML twin): a Deployment built from GitHub through the
printed integration, a TracingProject for its traces, an ExportDestination in the sandbox's bucket, a daily
ScheduledExport of the sandbox's generated tracing project from its first day, and a BulkExport of that
project's whole range. Paste the sandbox's lines in this directory, then `pulumi up`. Settings: Pulumi.yaml."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()

agent = langsmith.Deployment(
    "agent",
    name=f"sandbox-{pulumi.get_stack()}",
    source="github",
    source_config=langsmith.DeploymentSourceConfigArgs(
        integration_id=config.require("integrationId"),
        repo_url="https://github.com/acme/support-agent",
        build_on_push=False,
    ),
    source_revision_config=langsmith.DeploymentSourceRevisionConfigArgs(repo_ref="main", graph_config_path="langgraph.json"),
)

# Where the deployed agent's traced code writes (LANGSMITH_PROJECT=<projectName>).
traces = langsmith.TracingProject("agent-traces", description="Traces of the sandbox's agent")

bucket = langsmith.ExportDestination(
    "bucket",
    display_name=f"sandbox {pulumi.get_stack()}",
    config=langsmith.ExportDestinationConfigArgs(
        bucket_name=config.require("bucket"),
        prefix="sandbox",
        endpoint_url=config.require("s3Endpoint"),
        region=config.require("s3Region"),
        # MinIO addresses buckets by path.
        addressing_style="path",
    ),
    credentials=langsmith.ExportDestinationCredentialsArgs(
        access_key_id=config.require("s3AccessKeyId"),
        secret_access_key=config.require_secret("s3SecretAccessKey"),
    ),
)

# The sandbox's generated project: exported every day from its first one, and once over its whole range.
daily = langsmith.ScheduledExport(
    "daily",
    destination_id=bucket.id,
    session_id=config.require("tracingProjectId"),
    start_time=config.require("exportStart"),
    interval_hours=24,
)
everything = langsmith.BulkExport(
    "whole-range",
    destination_id=bucket.id,
    session_id=config.require("tracingProjectId"),
    start_time=config.require("exportStart"),
    end_time=config.require("exportEnd"),
)

pulumi.export("url", agent.custom_url)
pulumi.export("revisionStatus", agent.revision_status)
pulumi.export("projectName", traces.name)
pulumi.export("destinationId", bucket.id)
pulumi.export("scheduleExportId", daily.export_id)
pulumi.export("exportId", everything.id)
pulumi.export("rowsWritten", everything.rows_written)
