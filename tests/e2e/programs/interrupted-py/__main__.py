"""What tests/e2e/interrupted.test.ts kills the `pulumi` CLI in the middle of, through the native plugin: two
deployments, a destination, a scheduled export and a one-off export.
Every key is required but `deployments` (2), `repoRef`, `filter`, `deleteBeforeReplace` and `createTimeout` (the
deployments' resource options) and `exports` (the two exports are made once it is true)."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
prefix = config.require("prefix")

for i in range(config.get_int("deployments") or 2):
    langsmith.Deployment(
        f"d{i}",
        name=f"{prefix}-d{i}",
        source="github",
        source_config={"integration_id": config.require("integrationId"), "repo_url": "https://github.com/acme/agent"},
        source_revision_config={"repo_ref": config.get("repoRef") or "main", "graph_config_path": "langgraph.json"},
        opts=pulumi.ResourceOptions(
            delete_before_replace=config.get_bool("deleteBeforeReplace"),
            custom_timeouts=pulumi.CustomTimeouts(create=config.get("createTimeout")),
        ),
    )

destination = langsmith.ExportDestination(
    "bucket",
    display_name=f"{prefix} traces",
    config={"bucket_name": config.require("bucket"), "prefix": prefix, "endpoint_url": config.require("s3Endpoint"), "addressing_style": "path"},
    credentials={"access_key_id": config.require("s3AccessKeyId"), "secret_access_key": config.require_secret("s3SecretAccessKey")},
)

if config.get_bool("exports"):
    langsmith.ScheduledExport(
        "schedule",
        destination_id=destination.id,
        session_id=config.require("tracingProjectId"),
        start_time=config.require("exportStart"),
        interval_hours=6,
        filter=config.get("filter"),
    )
    langsmith.BulkExport(
        "once",
        destination_id=destination.id,
        session_id=config.require("tracingProjectId"),
        start_time=config.require("exportStart"),
        end_time=config.require("exportEnd"),
        # The test holds the export back (the emulator's worker paused) while it kills the CLI.
        wait_for_completion=False,
    )
