"""The organization's rules as code, the Python twin of examples/organization-rules through the native plugin:
monthly caps on the workspace's traces, the organization's and the workspace's retention (the audit project's
own tier wins), an auditor invited with read access, and the hybrid cluster deployments run on."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
workspace_id = pulumi.Config("langsmith").require("workspaceId")

traces = langsmith.UsageLimit("traces", limit_type="monthly_traces", limit_value=1_000_000)
long_lived = langsmith.UsageLimit("long-lived", limit_type="monthly_longlived_traces", limit_value=50_000)

org_retention = langsmith.OrganizationRetention("org-retention", default_trace_tier="shortlived")
retention = langsmith.WorkspaceRetention("retention", default_trace_tier="shortlived", long_lived_ttl_days=180)
audit = langsmith.TracingProject(
    "audit",
    trace_tier="longlived",
    description="Traces kept for the auditors",
    opts=pulumi.ResourceOptions(depends_on=[retention]),
)

auditor = langsmith.OrganizationMember(
    "auditor",
    email=config.get("auditor") or "auditor@example.com",
    role_id="ORGANIZATION_VIEWER",
    workspace_ids=[workspace_id],
    workspace_role_id="WORKSPACE_VIEWER",
)

cluster = langsmith.Listener("cluster", compute_id="prod-eks", k8s_namespaces=["agents", "batch"])

pulumi.export("limits", {"traces": traces.id, "longLived": long_lived.id})
pulumi.export("auditorStatus", auditor.status)
pulumi.export("listenerId", cluster.id)
