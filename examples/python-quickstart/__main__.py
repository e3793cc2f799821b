"""A LangSmith deployment built from a GitHub repository, and an AgentServerCheck that proves, after every
new revision, that the deployed agent server honours `interrupt`: the Python twin of examples/quickstart and
examples/github-deployment, through the native plugin `pulumi-resource-langsmith`. Settings: Pulumi.yaml."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
openai_api_key = config.get_secret("openaiApiKey")

agent = langsmith.Deployment(
    "agent",
    name=config.get("name") or f"py-{pulumi.get_stack()}",
    source="github",
    source_config=langsmith.DeploymentSourceConfigArgs(
        integration_id=config.require("integrationId"),
        repo_url=config.get("repoUrl") or "https://github.com/acme/support-agent",
        build_on_push=False,
    ),
    # Input types accept dicts too.
    source_revision_config={"repo_ref": config.get("repoRef") or "main", "graph_config_path": "langgraph.json"},
    secrets=[langsmith.DeploymentSecretArgs(name="OPENAI_API_KEY", value=openai_api_key)] if openai_api_key else [],
)

if config.get_bool("check") is not False:
    check = langsmith.AgentServerCheck(
        "interrupt-check",
        url=agent.custom_url.apply(lambda u: u or ""),
        assistant_id="agent",
        revision_id=agent.latest_revision_id,  # every new revision is checked
    )
    pulumi.export("checkFirstRun", check.first_run_status)
    pulumi.export("checkSecondRun", check.second_run_status)

# A look-up (read only): the last five revisions, latest first.
recent = langsmith.get_deployment_revisions_output(deployment_id=agent.id, limit=5)
pulumi.export("revisions", recent.revisions.apply(lambda rs: [f"{r.id} {r.status}" for r in rs]))

pulumi.export("deploymentId", agent.id)
pulumi.export("url", agent.custom_url)
pulumi.export("revisionId", agent.latest_revision_id)
pulumi.export("revisionStatus", agent.revision_status)
