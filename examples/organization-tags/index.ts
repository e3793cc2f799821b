/**
 * Resource tags and the access they govern (docs/tags.md, docs/accessPolicy.md): a tracing project and a deployment
 * tagged `team: <team>` (the key and value are made or reused), an access policy that lets a role read only the
 * projects of that team, and the role that holds it. Removing a tag takes it off; the key and value stay.
 */
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const team = config.get("team") ?? "support";

const traces = new langsmith.TracingProject("traces", { name: `${team}-bot-${pulumi.getStack()}`, tags: { team, env: "prod" } });

const agent = new langsmith.Deployment("agent", {
    name: `${team}-agent-${pulumi.getStack()}`,
    source: "github",
    sourceConfig: {
        integrationId: config.get("integrationId") ?? "2d3c9a7e-5b1f-4c8e-9a6d-0f1e2d3c4b5a",
        repoUrl: "https://github.com/langchain-ai/langgraph-example",
        buildOnPush: false,
    },
    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
    tags: { team },
});

const teamOnly = new langsmith.AccessPolicy("team-only", {
    name: `${team}-projects-only`,
    description: `Reads only the projects tagged team=${team}`,
    effect: "allow",
    conditionGroups: [{ permission: "projects:read", resourceType: "project", conditions: [{ key: "team", value: team }] }],
});

const reader = new langsmith.Role("reader", {
    name: `${team} reader`,
    description: `Reads the ${team} team's traces`,
    permissions: ["projects:read", "runs:read"],
    accessPolicyIds: [teamOnly.id],
});

/** The projects the role may read, found by their tag. */
const tagged = langsmith.getTracingProjects({ tag: { key: "team", value: team } });

export const projectId = traces.id;
export const deploymentId = agent.id;
export const roleId = reader.id;
export const teamProjects = tagged.projects.apply((ps) => ps.map((p) => p.name));
