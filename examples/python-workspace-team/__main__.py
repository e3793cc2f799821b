"""The team's own infrastructure in the workspace the platform team made (examples/python-workspace-admin): an
hourly export of the team's tracing project into its bucket. Its only LangSmith credential is the admin stack's
service key, read through a stack reference into an explicit provider: when the admin stack rotates the key, the
next run of this stack uses the new one, with nothing to copy by hand."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
admin = pulumi.StackReference(config.require("adminStack"))
url = config.require("langsmithUrl")
team = langsmith.Provider(
    "team",
    api_key=admin.require_output("ciKeySecret"),
    control_plane_url=url,
    endpoint=url,
    workspace_id=admin.require_output("workspaceId"),
)
opts = pulumi.ResourceOptions(provider=team)

bucket = langsmith.ExportDestination(
    "bucket",
    display_name=f"team traces {pulumi.get_stack()}",
    config={
        "bucket_name": config.require("bucket"),
        "prefix": "team-traces",
        "endpoint_url": config.get("s3Endpoint"),
        "addressing_style": "path" if config.get("s3Endpoint") else None,
    },
    credentials={"access_key_id": config.require("s3AccessKeyId"), "secret_access_key": config.require_secret("s3SecretAccessKey")},
    opts=opts,
)
hourly = langsmith.ScheduledExport(
    "hourly",
    destination_id=bucket.id,
    session_id=admin.require_output("projectId"),
    start_time=admin.require_output("projectCreatedAt"),
    interval_hours=1,
    opts=opts,
)
pulumi.export("destinationId", bucket.id)
pulumi.export("exportId", hourly.export_id)
