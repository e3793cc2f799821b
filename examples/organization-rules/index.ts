/**
 * The organization's rules as code: how much the workspace may trace a month (all traces, and the long-lived
 * ones), how long traces are kept (the organization's default tier, the workspace's own and its long-lived
 * days; the audit project keeps its traces long-lived whatever the default says), an auditor invited with
 * read access to the workspace, and the hybrid cluster deployments of container images run on; the audit project
 * and the team's deployment tagged `team: audit`, and a role that reads only the projects of that tag (an access
 * policy). Destroying the stack lifts the caps, puts the retention defaults back, cancels the invitation (or ends
 * the membership), deletes the listener, and takes the tags off (their key and value stay: another stack may use
 * them).
 */
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const workspaceId = new pulumi.Config("langsmith").require("workspaceId");

const traces = new langsmith.UsageLimit("traces", { limitType: "monthly_traces", limitValue: config.getNumber("monthlyTraces") ?? 1_000_000 });
const longLived = new langsmith.UsageLimit("long-lived", { limitType: "monthly_longlived_traces", limitValue: 50_000 });

const orgRetention = new langsmith.OrganizationRetention("org-retention", { defaultTraceTier: "shortlived" });
const retention = new langsmith.WorkspaceRetention("retention", { defaultTraceTier: "shortlived", longLivedTtlDays: 180 });
// Its own tier wins over the default; made after the retention so that nothing applied to all projects overrides it.
const audit = new langsmith.TracingProject(
    "audit",
    { traceTier: "longlived", description: "Traces kept for the auditors", tags: { team: "audit" } },
    { dependsOn: [retention] },
);

// The team's agent, tagged like its project (docs/tags.md).
const agent = new langsmith.Deployment("agent", {
    source: "github",
    sourceConfig: { integrationId: config.get("integrationId") ?? "2d3c9a7e-5b1f-4c8e-9a6d-0f1e2d3c4b5a", repoUrl: "https://github.com/acme/audit-agent" },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
    tags: { team: "audit" },
});

// A role that reads only the projects tagged team=audit (docs/accessPolicy.md).
const auditOnly = new langsmith.AccessPolicy("audit-only", {
    name: `audit-projects-only-${pulumi.getStack()}`,
    effect: "allow",
    conditionGroups: [{ permission: "projects:read", resourceType: "project", conditions: [{ key: "team", value: "audit" }] }],
});
const reader = new langsmith.Role("audit-reader", {
    name: `audit reader ${pulumi.getStack()}`,
    permissions: ["projects:read", "runs:read"],
    accessPolicyIds: [auditOnly.id],
});

const auditor = new langsmith.OrganizationMember("auditor", {
    email: config.get("auditor") ?? "auditor@example.com",
    roleId: "ORGANIZATION_VIEWER",
    workspaceIds: [workspaceId],
    workspaceRoleId: "WORKSPACE_VIEWER",
});

const cluster = new langsmith.Listener("cluster", { computeId: config.get("cluster") ?? "prod-eks", k8sNamespaces: ["agents", "batch"] });

export const limits = { traces: traces.id, longLived: longLived.id };
export const retentionOf = { organization: orgRetention.defaultTraceTier, workspace: retention.defaultTraceTier, audit: audit.traceTier };
export const auditorStatus = auditor.status;
export const listenerId = cluster.id;
export const deploymentId = agent.id;
export const readerRoleId = reader.id;
