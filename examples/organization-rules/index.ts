/**
 * The organization's rules as code: how much the workspace may trace a month (all traces, and the long-lived
 * ones), how long traces are kept (the organization's default tier, the workspace's own and its long-lived
 * days; the audit project keeps its traces long-lived whatever the default says), an auditor invited with
 * read access to the workspace, and the hybrid cluster deployments of container images run on. Destroying the
 * stack lifts the caps, puts the retention defaults back, cancels the invitation (or ends the membership) and
 * deletes the listener.
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
const audit = new langsmith.TracingProject("audit", { traceTier: "longlived", description: "Traces kept for the auditors" }, { dependsOn: [retention] });

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
