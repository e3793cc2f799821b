"""The program of tests/e2e/upgrade.test.ts's native-plugin front door: the twin of programs/upgrade-ts, written
against pulumi_langsmith 0.1.0's API (every name given), run by the 0.1.0 SDK and plugin first, then previewed
unchanged by this version's. Settings: those of upgrade-ts, in the project upgrade-py."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
suffix = config.require("suffix")

agent = langsmith.Deployment(
    "agent",
    name=f"pyupgrade-{suffix}",
    source="github",
    source_config=langsmith.DeploymentSourceConfigArgs(
        integration_id=config.require("integrationId"), repo_url="https://github.com/acme/support-agent", build_on_push=False
    ),
    source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
    secrets=[langsmith.DeploymentSecretArgs(name="OPENAI_API_KEY", value=config.require_secret("openaiApiKey"))],
)
url = agent.custom_url.apply(lambda u: u or "")

support = langsmith.Assistant(
    "support",
    url=url,
    graph_id="agent",
    name="support",
    config=langsmith.RunConfigArgs(configurable={"model": "gpt-4o"}, tags=["support"]),
    metadata={"team": "support"},
)
digest = langsmith.Cron(
    "digest",
    url=url,
    assistant_id=support.assistant_id,
    schedule="0 9 * * 1-5",
    input={"messages": [{"role": "user", "content": "Summarise yesterday's tickets."}]},
    on_run_completed="keep",
)
check = langsmith.AgentServerCheck("check", url=url, assistant_id=support.assistant_id, revision_id=agent.latest_revision_id)

project = langsmith.TracingProject("traces", name=f"pytraces-{suffix}", description="Traces of the support agent", metadata={"team": "support"})
golden = langsmith.Dataset(
    "golden",
    name=f"pygolden-{suffix}",
    data_type="kv",
    inputs_schema={"type": "object", "properties": {"question": {"type": "string"}}, "required": ["question"]},
)
bucket = langsmith.ExportDestination(
    "bucket",
    display_name=f"pytraces {suffix}",
    config=langsmith.ExportDestinationConfigArgs(
        bucket_name=config.require("bucket"), prefix=f"py-{suffix}", endpoint_url=config.require("s3Endpoint"), addressing_style="path"
    ),
    credentials=langsmith.ExportDestinationCredentialsArgs(
        access_key_id=config.require("s3AccessKeyId"), secret_access_key=config.require_secret("s3SecretAccessKey")
    ),
)
hourly = langsmith.ScheduledExport("hourly", destination_id=bucket.id, session_id=project.id, start_time=project.created_at, interval_hours=1)

pulumi.export("deploymentId", agent.id)
pulumi.export("assistantId", support.assistant_id)
pulumi.export("cronId", digest.cron_id)
pulumi.export("checkFirstRun", check.first_run_status)
pulumi.export("datasetId", golden.id)
pulumi.export("exportId", hourly.export_id)
