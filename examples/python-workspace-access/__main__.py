"""Who may do what in a team's workspace: the workspace, a custom role whose holders may write its secrets
(`workspaces:manage-secrets`, the permission a secret write needs), the secret the team's online evaluators read,
and the team lead, a member holding that role (invited when not yet in the organization). Renaming the team
renames the workspace in place; a new `leadRole` changes the member's role in place."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
team = config.get("team") or "support"

workspace = langsmith.Workspace("team", display_name=f"{team} team")
keeper = langsmith.Role(
    "secret-keeper",
    name=f"{team} secret keeper",
    description="Reads the workspace and writes its secrets",
    permissions=["workspaces:read", "workspaces:manage-secrets"],
)
openai = langsmith.WorkspaceSecret(
    "openai",
    key="OPENAI_API_KEY",
    value=config.require_secret("openaiApiKey"),
    workspace_id=workspace.id,
)
lead_role = config.get("leadRole") or "keeper"
lead = langsmith.WorkspaceMember(
    "lead",
    email=config.require("leadEmail"),
    role_id=keeper.id if lead_role == "keeper" else lead_role,
    workspace_id=workspace.id,
)

pulumi.export("workspaceId", workspace.id)
pulumi.export("roleId", keeper.id)
pulumi.export("leadStatus", lead.status)
