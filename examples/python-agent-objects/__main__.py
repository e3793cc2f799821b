"""A LangSmith deployment, an assistant on its agent server and a stateless cron running that assistant:
the Python twin of examples/agent-objects, through the native plugin `pulumi-resource-langsmith`. A change of
the assistant's model is a new version of the same assistant; a change of the schedule updates the cron in
place; a new revision (another repoRef) changes neither, and its preview shows them unchanged. Settings:
Pulumi.yaml."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()

agent = langsmith.Deployment(
    "agent",
    name=config.get("name") or f"pyobj-{pulumi.get_stack()}",
    source="github",
    source_config=langsmith.DeploymentSourceConfigArgs(
        integration_id=config.require("integrationId"),
        repo_url="https://github.com/acme/support-agent",
        build_on_push=False,
    ),
    source_revision_config={"repo_ref": config.get("repoRef") or "main", "graph_config_path": "langgraph.json"},
)
url = agent.custom_url.apply(lambda u: u or "")

support = langsmith.Assistant(
    "support",
    url=url,
    graph_id="agent",
    name="support",
    config=langsmith.RunConfigArgs(configurable={"model": config.get("model") or "gpt-4o"}, tags=["support"]),
    metadata={"team": "support"},
)

# A new thread for each run, kept afterwards so that its answer can be read.
digest = langsmith.Cron(
    "daily-digest",
    url=url,
    assistant_id=support.assistant_id,
    schedule=config.get("schedule") or "0 9 * * 1-5",
    input={"messages": [{"role": "user", "content": "Summarise yesterday's tickets."}]},
    on_run_completed="keep",
)

pulumi.export("url", agent.custom_url)
pulumi.export("assistantId", support.assistant_id)
pulumi.export("assistantVersion", support.version)
pulumi.export("cronId", digest.cron_id)
# When it runs next moves at every run: a look-up, not an output (a refresh of a clean stack changes nothing).
pulumi.export("nextDigest", langsmith.get_cron_output(url=digest.url, cron_id=digest.cron_id).next_run_date)
