"""Resource tags and the access they govern, the Python twin of examples/organization-tags (docs/tags.md,
docs/accessPolicy.md): a tracing project and a deployment tagged team=<team>, an access policy that lets a role read
only that team's projects, and the role that holds it."""

import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
team = config.get("team") or "support"
stack = pulumi.get_stack()

traces = langsmith.TracingProject("traces", name=f"{team}-bot-{stack}", tags={"team": team, "env": "prod"})

agent = langsmith.Deployment(
    "agent",
    name=f"{team}-agent-{stack}",
    source="github",
    source_config={
        "integration_id": config.get("integrationId") or "2d3c9a7e-5b1f-4c8e-9a6d-0f1e2d3c4b5a",
        "repo_url": "https://github.com/langchain-ai/langgraph-example",
        "build_on_push": False,
    },
    source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
    tags={"team": team},
)

team_only = langsmith.AccessPolicy(
    "team-only",
    name=f"{team}-projects-only",
    description=f"Reads only the projects tagged team={team}",
    effect="allow",
    condition_groups=[{"permission": "projects:read", "resource_type": "project", "conditions": [{"key": "team", "value": team}]}],
)

reader = langsmith.Role(
    "reader",
    name=f"{team} reader",
    description=f"Reads the {team} team's traces",
    permissions=["projects:read", "runs:read"],
    access_policy_ids=[team_only.id],
)

tagged = langsmith.get_tracing_projects_output(tag={"key": "team", "value": team})

pulumi.export("projectId", traces.id)
pulumi.export("deploymentId", agent.id)
pulumi.export("roleId", reader.id)
pulumi.export("teamProjects", tagged.projects.apply(lambda ps: [p.name for p in ps]))
