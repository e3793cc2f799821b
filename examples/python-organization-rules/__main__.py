"""The organization's rules as code, the Python twin of examples/organization-rules through the native plugin:
monthly caps on the workspace's traces, the organization's and the workspace's retention (the audit project's
own tier wins), an auditor invited with read access, and the hybrid cluster deployments run on; the audit project
and the team's deployment tagged team=audit, and a role that reads only the projects of that tag (an access
policy). Destroying the stack takes the tags off (their key and value stay: another stack may use them)."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
workspace_id = pulumi.Config("langsmith").require("workspaceId")
stack = pulumi.get_stack()

traces = langsmith.UsageLimit("traces", limit_type="monthly_traces", limit_value=config.get_int("monthlyTraces") or 1_000_000)
long_lived = langsmith.UsageLimit("long-lived", limit_type="monthly_longlived_traces", limit_value=50_000)

org_retention = langsmith.OrganizationRetention("org-retention", default_trace_tier="shortlived")
retention = langsmith.WorkspaceRetention("retention", default_trace_tier="shortlived", long_lived_ttl_days=180)
# Its own tier wins over the default; made after the retention so that nothing applied to all projects overrides it.
audit = langsmith.TracingProject(
    "audit",
    trace_tier="longlived",
    description="Traces kept for the auditors",
    tags={"team": "audit"},
    opts=pulumi.ResourceOptions(depends_on=[retention]),
)

# The team's agent, tagged like its project (docs/tags.md).
agent = langsmith.Deployment(
    "agent",
    source="github",
    source_config={
        "integration_id": config.get("integrationId") or "2d3c9a7e-5b1f-4c8e-9a6d-0f1e2d3c4b5a",
        "repo_url": "https://github.com/acme/audit-agent",
    },
    source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
    tags={"team": "audit"},
)

# A role that reads only the projects tagged team=audit (docs/accessPolicy.md).
audit_only = langsmith.AccessPolicy(
    "audit-only",
    name=f"audit-projects-only-{stack}",
    effect="allow",
    condition_groups=[{"permission": "projects:read", "resource_type": "project", "conditions": [{"key": "team", "value": "audit"}]}],
)
reader = langsmith.Role(
    "audit-reader",
    name=f"audit reader {stack}",
    permissions=["projects:read", "runs:read"],
    access_policy_ids=[audit_only.id],
)

auditor = langsmith.OrganizationMember(
    "auditor",
    email=config.get("auditor") or "auditor@example.com",
    role_id="ORGANIZATION_VIEWER",
    workspace_ids=[workspace_id],
    workspace_role_id="WORKSPACE_VIEWER",
)

cluster = langsmith.Listener("cluster", compute_id=config.get("cluster") or "prod-eks", k8s_namespaces=["agents", "batch"])

pulumi.export("limits", {"traces": traces.id, "longLived": long_lived.id})
pulumi.export(
    "retentionOf",
    {"organization": org_retention.default_trace_tier, "workspace": retention.default_trace_tier, "audit": audit.trace_tier},
)
pulumi.export("auditorStatus", auditor.status)
pulumi.export("listenerId", cluster.id)
pulumi.export("deploymentId", agent.id)
pulumi.export("readerRoleId", reader.id)
