/**
 * THE list of what this package serves: every resource (its declaration, the frozen forwarder module its
 * dynamic resources store a require of, and its provider) and every function. Both front doors (the dynamic
 * resource classes, the native plugin), the schema generator (kit/schema.ts), the docs check and the tests
 * read it. Adding a resource is a folder and a line here (and its forwarder in providers/, and its exports
 * in index.ts). A provider is wrapped by `autonamed` (kit/autoname.ts) where its declaration names a field so.
 */
import { autonamed } from "./kit/autoname";
import { workspace } from "./workspace/declare";
import { workspaceProvider } from "./workspace/provider";
import type * as pulumi from "@pulumi/pulumi";
import { agentServerCheck } from "./agentServerCheck/declare";
import { agentServerCheckProvider } from "./agentServerCheck/provider";
import { assistant } from "./assistant/declare";
import { assistantProvider } from "./assistant/provider";
import { bulkExport } from "./bulkExport/declare";
import { bulkExportProvider } from "./bulkExport/provider";
import { dataset } from "./dataset/declare";
import { getDataset, getDatasetFunction } from "./dataset/lookups";
import { datasetProvider } from "./dataset/provider";
import { cron } from "./cron/declare";
import { cronProvider } from "./cron/provider";
import { deployment } from "./deployment/declare";
import { getDeployment, getDeploymentFunction, getDeploymentRevisions, getDeploymentRevisionsFunction } from "./deployment/lookups";
import { deploymentProvider } from "./deployment/provider";
import { exportDestination } from "./exportDestination/declare";
import { exportDestinationProvider } from "./exportDestination/provider";
import type { FunctionDeclaration, FunctionInputs, ResourceDeclaration } from "./kit/declare";
import type { Service } from "./kit/service";
import { scheduledExport } from "./scheduledExport/declare";
import { scheduledExportProvider } from "./scheduledExport/provider";
import { serviceKey } from "./serviceKey/declare";
import { serviceKeyProvider } from "./serviceKey/provider";
import { role } from "./role/declare";
import { roleProvider } from "./role/provider";
import { tracingProject } from "./tracingProject/declare";
import { getTracingProject, getTracingProjectFunction } from "./tracingProject/lookups";
import { tracingProjectProvider } from "./tracingProject/provider";
import { workspaceMember } from "./workspaceMember/declare";
import { workspaceMemberProvider } from "./workspaceMember/provider";
import { workspaceSecret } from "./workspaceSecret/declare";
import { workspaceSecretProvider } from "./workspaceSecret/provider";
import agentServerCheckForwarder = require("./providers/agentServerCheck");
import assistantForwarder = require("./providers/assistant");
import bulkExportForwarder = require("./providers/bulkExport");
import cronForwarder = require("./providers/cron");
import datasetForwarder = require("./providers/dataset");
import deploymentForwarder = require("./providers/deployment");
import exportDestinationForwarder = require("./providers/exportDestination");
import scheduledExportForwarder = require("./providers/scheduledExport");
import serviceKeyForwarder = require("./providers/serviceKey");
import tracingProjectForwarder = require("./providers/tracingProject");
import workspaceForwarder = require("./providers/workspace");
import roleForwarder = require("./providers/role");
import workspaceMemberForwarder = require("./providers/workspaceMember");
import workspaceSecretForwarder = require("./providers/workspaceSecret");

/** A resource this package serves. */
export interface Registered<D extends ResourceDeclaration = ResourceDeclaration> {
    declaration: D;
    /**
     * The provider object Pulumi serializes into the state of each dynamic resource: the exports of the
     * frozen module `providers/<type>` (providers/forward.ts says why a module of its own).
     */
    forwarder: pulumi.dynamic.ResourceProvider;
    /** The implementation, as a dynamic provider (the native plugin serves the same object). */
    provider: pulumi.dynamic.ResourceProvider;
}

/** The resources, by the type name the forwarders and `require("pulumi-langsmith/impl").forward` use. */
export const RESOURCES = {
    deployment: { declaration: deployment, forwarder: deploymentForwarder, provider: autonamed(deployment, deploymentProvider) },
    exportDestination: { declaration: exportDestination, forwarder: exportDestinationForwarder, provider: exportDestinationProvider },
    scheduledExport: { declaration: scheduledExport, forwarder: scheduledExportForwarder, provider: scheduledExportProvider },
    bulkExport: { declaration: bulkExport, forwarder: bulkExportForwarder, provider: bulkExportProvider },
    agentServerCheck: { declaration: agentServerCheck, forwarder: agentServerCheckForwarder, provider: agentServerCheckProvider },
    tracingProject: { declaration: tracingProject, forwarder: tracingProjectForwarder, provider: autonamed(tracingProject, tracingProjectProvider) },
    dataset: { declaration: dataset, forwarder: datasetForwarder, provider: autonamed(dataset, datasetProvider) },
    assistant: { declaration: assistant, forwarder: assistantForwarder, provider: assistantProvider },
    cron: { declaration: cron, forwarder: cronForwarder, provider: cronProvider },
    workspace: { declaration: workspace, forwarder: workspaceForwarder, provider: workspaceProvider },
    serviceKey: { declaration: serviceKey, forwarder: serviceKeyForwarder, provider: serviceKeyProvider },
    role: { declaration: role, forwarder: roleForwarder, provider: roleProvider },
    workspaceSecret: { declaration: workspaceSecret, forwarder: workspaceSecretForwarder, provider: workspaceSecretProvider },
    workspaceMember: { declaration: workspaceMember, forwarder: workspaceMemberForwarder, provider: workspaceMemberProvider },
} as const satisfies Record<string, Registered>;

/** A function this package serves: its declaration, and how it runs against the configured service (its arguments typed by each entry). */
export interface RegisteredFunction {
    declaration: FunctionDeclaration;
    run(service: Service, args: never): Promise<unknown>;
}

/** The functions (look-ups), by name: their token is `langsmith:index:<name>`. */
export const FUNCTIONS = {
    getDeployment: {
        declaration: getDeploymentFunction,
        run: (s: Service, a: FunctionInputs<typeof getDeploymentFunction>) => getDeployment(s.in(a.workspaceId).controlPlane(), a),
    },
    getDeploymentRevisions: {
        declaration: getDeploymentRevisionsFunction,
        run: (s: Service, a: FunctionInputs<typeof getDeploymentRevisionsFunction>) => getDeploymentRevisions(s.in(a.workspaceId).controlPlane(), a),
    },
    getTracingProject: {
        declaration: getTracingProjectFunction,
        run: (s: Service, a: FunctionInputs<typeof getTracingProjectFunction>) => getTracingProject(s.in(a.workspaceId).projects(), a),
    },
    getDataset: {
        declaration: getDatasetFunction,
        run: (s: Service, a: FunctionInputs<typeof getDatasetFunction>) => getDataset(s.in(a.workspaceId).projects(), a),
    },
} as const satisfies Record<string, RegisteredFunction>;

export type ResourceType = keyof typeof RESOURCES;
