"""A team's workspace, the service key its CI uses (scoped to that workspace only) and its tracing project.
The key is a secret output; the team's stack (examples/python-workspace-team) reads it through a stack
reference. Rotate it by moving keyExpiresAt: the new key is made before the old one is deleted."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
team = config.get("team") or "support"

workspace = langsmith.Workspace("team", display_name=f"{team} ({pulumi.get_stack()})")
ci_key = langsmith.ServiceKey(
    "ci",
    description=f"CI of the {team} team",
    workspace_ids=[workspace.id],
    role_id="WORKSPACE_ADMIN",
    expires_at=config.require("keyExpiresAt"),
)
traces = langsmith.TracingProject("traces", workspace_id=workspace.id, description=f"Traces of the {team} agent")

pulumi.export("workspaceId", workspace.id)
pulumi.export("ciKeyId", ci_key.id)
pulumi.export("ciKeySecret", ci_key.key)
pulumi.export("projectId", traces.id)
pulumi.export("projectCreatedAt", traces.created_at)
