/**
 * THE list of what this package serves: every resource (its declaration, the frozen forwarder module its
 * dynamic resources store a require of, and its provider) and every function. Both front doors (the dynamic
 * resource classes, the native plugin), the schema generator (kit/schema.ts), the docs check and the tests
 * read it. Adding a resource is a folder in its service area's (controlPlane/, agentServer/, tracing/,
 * organization/, prompts/, evaluation/) and a line here (and its forwarder in dynamic/frozen/, and its exports in index.ts). A provider is wrapped by `autonamed` (kit/autoname.ts) where its declaration names a field so,
 * and by `adoptable` (kit/adoption.ts) where it can take an object over.
 */
import { adoptable } from "./kit/adoption";
import { readAsRecorded } from "./kit/asRecorded";
import { autonamed } from "./kit/autoname";
import { canonicalJson } from "./kit/diff";
import { tagged } from "./kit/tags";
import { workspace } from "./organization/workspace/declare";
import { workspaceProvider } from "./organization/workspace/provider";
import type * as pulumi from "@pulumi/pulumi";
import { agentServerCheck } from "./agentServer/agentServerCheck/declare";
import { agentServerCheckProvider } from "./agentServer/agentServerCheck/provider";
import { assistant } from "./agentServer/assistant/declare";
import { assistantProvider } from "./agentServer/assistant/provider";
import { bulkExport } from "./tracing/bulkExport/declare";
import { bulkExportProvider } from "./tracing/bulkExport/provider";
import { dataset } from "./tracing/dataset/declare";
import { getDataset, getDatasetFunction } from "./tracing/dataset/lookups";
import { datasetProvider } from "./tracing/dataset/provider";
import { cron } from "./agentServer/cron/declare";
import { cronIdentity, cronProvider } from "./agentServer/cron/provider";
import { deployment } from "./controlPlane/deployment/declare";
import { getDeployment, getDeploymentFunction, getDeploymentRevisions, getDeploymentRevisionsFunction } from "./controlPlane/deployment/lookups";
import { deploymentProvider } from "./controlPlane/deployment/provider";
import { exportDestination } from "./tracing/exportDestination/declare";
import { exportDestinationProvider } from "./tracing/exportDestination/provider";
import type { FunctionDeclaration, FunctionInputs, ResourceDeclaration } from "./kit/declare";
import type { Service } from "./kit/service";
import { scheduledExport } from "./tracing/scheduledExport/declare";
import { scheduledExportProvider } from "./tracing/scheduledExport/provider";
import { serviceKey } from "./organization/serviceKey/declare";
import { serviceKeyProvider } from "./organization/serviceKey/provider";
import { role } from "./organization/role/declare";
import { roleProvider } from "./organization/role/provider";
import { tracingProject } from "./tracing/tracingProject/declare";
import {
    getTracingProject,
    getTracingProjectFunction,
    getTracingProjects,
    getTracingProjectsFunction,
    type GetTracingProjectsArgs,
} from "./tracing/tracingProject/lookups";
import {
    getRole,
    getRoleFunction,
    getServiceKey,
    getServiceKeyFunction,
    getWorkspace,
    getWorkspaceFunction,
    getWorkspaces,
    getWorkspacesFunction,
} from "./organization/lookups";
import { getPrompt, getPromptFunction } from "./prompts/prompt/lookups";
import { tracingProjectProvider } from "./tracing/tracingProject/provider";
import { normalEmail, workspaceMember } from "./organization/workspaceMember/declare";
import { workspaceMemberProvider } from "./organization/workspaceMember/provider";
import { workspaceSecret } from "./organization/workspaceSecret/declare";
import { workspaceSecretProvider } from "./organization/workspaceSecret/provider";
import { prompt } from "./prompts/prompt/declare";
import { promptProvider } from "./prompts/prompt/provider";
import { promptTag } from "./prompts/promptTag/declare";
import { promptTagProvider } from "./prompts/promptTag/provider";
import { promptVersion } from "./prompts/promptVersion/declare";
import { promptWebhook } from "./prompts/promptWebhook/declare";
import { modelConfiguration } from "./prompts/modelConfiguration/declare";
import { modelConfigurationProvider } from "./prompts/modelConfiguration/provider";
import { promptWebhookIdentity, promptWebhookProvider } from "./prompts/promptWebhook/provider";
import { promptVersionIdentity, promptVersionProvider } from "./prompts/promptVersion/provider";
import { feedbackConfig } from "./evaluation/feedbackConfig/declare";
import { feedbackConfigProvider } from "./evaluation/feedbackConfig/provider";
import { annotationQueue } from "./evaluation/annotationQueue/declare";
import { annotationQueueProvider } from "./evaluation/annotationQueue/provider";
import {
    getAnnotationQueue,
    getAnnotationQueueFunction,
    getEvaluator,
    getEvaluatorFunction,
    getFeedbackConfig,
    getFeedbackConfigFunction,
} from "./evaluation/lookups";
import { getCron, getCronFunction } from "./agentServer/cron/lookups";
import { getBulkExport, getBulkExportFunction } from "./tracing/traceExport/lookups";
import { getListener, getListenerFunction } from "./controlPlane/listener/lookups";
import agentServerCheckForwarder = require("./dynamic/frozen/agentServerCheck");
import assistantForwarder = require("./dynamic/frozen/assistant");
import bulkExportForwarder = require("./dynamic/frozen/bulkExport");
import cronForwarder = require("./dynamic/frozen/cron");
import datasetForwarder = require("./dynamic/frozen/dataset");
import deploymentForwarder = require("./dynamic/frozen/deployment");
import exportDestinationForwarder = require("./dynamic/frozen/exportDestination");
import scheduledExportForwarder = require("./dynamic/frozen/scheduledExport");
import serviceKeyForwarder = require("./dynamic/frozen/serviceKey");
import tracingProjectForwarder = require("./dynamic/frozen/tracingProject");
import workspaceForwarder = require("./dynamic/frozen/workspace");
import roleForwarder = require("./dynamic/frozen/role");
import workspaceMemberForwarder = require("./dynamic/frozen/workspaceMember");
import workspaceSecretForwarder = require("./dynamic/frozen/workspaceSecret");
import promptForwarder = require("./dynamic/frozen/prompt");
import promptVersionForwarder = require("./dynamic/frozen/promptVersion");
import promptTagForwarder = require("./dynamic/frozen/promptTag");
import promptWebhookForwarder = require("./dynamic/frozen/promptWebhook");
import modelConfigurationForwarder = require("./dynamic/frozen/modelConfiguration");
import { usageLimit } from "./organization/usageLimit/declare";
import { usageLimitProvider } from "./organization/usageLimit/provider";
import { workspaceRetention } from "./organization/workspaceRetention/declare";
import { workspaceRetentionProvider } from "./organization/workspaceRetention/provider";
import { organizationRetention } from "./organization/organizationRetention/declare";
import { organizationRetentionProvider } from "./organization/organizationRetention/provider";
import usageLimitForwarder = require("./dynamic/frozen/usageLimit");
import workspaceRetentionForwarder = require("./dynamic/frozen/workspaceRetention");
import organizationRetentionForwarder = require("./dynamic/frozen/organizationRetention");
import { organizationMember } from "./organization/organizationMember/declare";
import { organizationMemberProvider } from "./organization/organizationMember/provider";
import organizationMemberForwarder = require("./dynamic/frozen/organizationMember");
import { listener } from "./controlPlane/listener/declare";
import { listenerProvider } from "./controlPlane/listener/provider";
import listenerForwarder = require("./dynamic/frozen/listener");
import { evaluator } from "./evaluation/evaluator/declare";
import { evaluatorProvider } from "./evaluation/evaluator/provider";
import { runRule } from "./evaluation/runRule/declare";
import { runRuleProvider } from "./evaluation/runRule/provider";
import { alertRule } from "./evaluation/alertRule/declare";
import { alertRuleProvider } from "./evaluation/alertRule/provider";
import evaluatorForwarder = require("./dynamic/frozen/evaluator");
import runRuleForwarder = require("./dynamic/frozen/runRule");
import alertRuleForwarder = require("./dynamic/frozen/alertRule");
import feedbackConfigForwarder = require("./dynamic/frozen/feedbackConfig");
import annotationQueueForwarder = require("./dynamic/frozen/annotationQueue");
import { tagKey } from "./organization/tagKey/declare";
import { tagKeyProvider } from "./organization/tagKey/provider";
import { tagValue } from "./organization/tagValue/declare";
import { tagValueProvider } from "./organization/tagValue/provider";
import { tagging } from "./organization/tagging/declare";
import { taggingProvider } from "./organization/tagging/provider";
import tagKeyForwarder = require("./dynamic/frozen/tagKey");
import tagValueForwarder = require("./dynamic/frozen/tagValue");
import taggingForwarder = require("./dynamic/frozen/tagging");
import { accessPolicy } from "./organization/accessPolicy/declare";
import { accessPolicyProvider } from "./organization/accessPolicy/provider";
import accessPolicyForwarder = require("./dynamic/frozen/accessPolicy");
import { dataPlane } from "./controlPlane/dataPlane/declare";
import { dataPlaneProvider } from "./controlPlane/dataPlane/provider";
import { getDataPlane, getDataPlaneFunction } from "./controlPlane/dataPlane/lookups";
import dataPlaneForwarder = require("./dynamic/frozen/dataPlane");
import { sandboxSnapshot } from "./controlPlane/sandboxSnapshot/declare";
import { sandboxSnapshotProvider } from "./controlPlane/sandboxSnapshot/provider";
import sandboxSnapshotForwarder = require("./dynamic/frozen/sandboxSnapshot");
import { ssoSettings } from "./organization/ssoSettings/declare";
import { ssoSettingsProvider } from "./organization/ssoSettings/provider";
import ssoSettingsForwarder = require("./dynamic/frozen/ssoSettings");
import { organizationSettings } from "./organization/organizationSettings/declare";
import { organizationSettingsProvider } from "./organization/organizationSettings/provider";
import organizationSettingsForwarder = require("./dynamic/frozen/organizationSettings");
import { hubHandle } from "./organization/hubHandle/declare";
import { hubHandleProvider } from "./organization/hubHandle/provider";
import hubHandleForwarder = require("./dynamic/frozen/hubHandle");
import { getOrganization, getOrganizationFunction, getSsoSettings, getSsoSettingsFunction } from "./organization/edgeLookups";
import { serviceAccount } from "./organization/serviceAccount/declare";
import { serviceAccountProvider } from "./organization/serviceAccount/provider";
import { getServiceAccount, getServiceAccountFunction } from "./organization/serviceAccount/lookups";
import serviceAccountForwarder = require("./dynamic/frozen/serviceAccount");
import { personalAccessToken } from "./organization/personalAccessToken/declare";
import { personalAccessTokenProvider } from "./organization/personalAccessToken/provider";
import personalAccessTokenForwarder = require("./dynamic/frozen/personalAccessToken");
import { apiKey } from "./organization/apiKey/declare";
import { apiKeyProvider } from "./organization/apiKey/provider";
import apiKeyForwarder = require("./dynamic/frozen/apiKey");
import { scimToken } from "./organization/scimToken/declare";
import { scimTokenProvider } from "./organization/scimToken/provider";
import scimTokenForwarder = require("./dynamic/frozen/scimToken");
import { datasetExamples } from "./tracing/datasetExamples/declare";
import { datasetExamplesProvider } from "./tracing/datasetExamples/provider";
import datasetExamplesForwarder = require("./dynamic/frozen/datasetExamples");
import { getDatasetVersion, getDatasetVersionFunction, getExamples, getExamplesFunction } from "./tracing/datasetExamples/lookups";
import { example } from "./tracing/example/declare";
import { exampleProvider } from "./tracing/example/provider";
import exampleForwarder = require("./dynamic/frozen/example");
import { datasetVersionTag } from "./tracing/datasetVersionTag/declare";
import { datasetVersionTagProvider } from "./tracing/datasetVersionTag/provider";
import datasetVersionTagForwarder = require("./dynamic/frozen/datasetVersionTag");
import { datasetShare } from "./tracing/datasetShare/declare";
import { datasetShareProvider } from "./tracing/datasetShare/provider";
import datasetShareForwarder = require("./dynamic/frozen/datasetShare");
import { modelPriceMap } from "./tracing/modelPrice/declare";
import { getModelPrice, getModelPriceFunction } from "./tracing/modelPrice/lookups";
import { gatewayPolicy, type GatewayPolicyInputs } from "./gateway/gatewayPolicy/declare";
import { gatewayPolicyProvider } from "./gateway/gatewayPolicy/provider";
import { identityOf, matchersOf } from "./gateway/gatewayPolicy/wire";
import { gatewayPolicyCheck } from "./gateway/gatewayPolicyCheck/declare";
import { gatewayPolicyCheckProvider } from "./gateway/gatewayPolicyCheck/provider";
import { getGatewayPolicies, getGatewayPoliciesFunction } from "./gateway/lookups";
import gatewayPolicyForwarder = require("./dynamic/frozen/gatewayPolicy");
import gatewayPolicyCheckForwarder = require("./dynamic/frozen/gatewayPolicyCheck");
import { modelPriceMapProvider } from "./tracing/modelPrice/provider";
import modelPriceMapForwarder = require("./dynamic/frozen/modelPriceMap");
import { feedbackFormula } from "./evaluation/feedbackFormula/declare";
import { getFeedbackFormula, getFeedbackFormulaFunction } from "./evaluation/feedbackFormula/lookups";
import { feedbackFormulaProvider } from "./evaluation/feedbackFormula/provider";
import feedbackFormulaForwarder = require("./dynamic/frozen/feedbackFormula");
import { projectView } from "./tracing/projectView/declare";
import { projectViewProvider } from "./tracing/projectView/provider";
import projectViewForwarder = require("./dynamic/frozen/projectView");
import { dashboard } from "./tracing/dashboard/declare";
import { dashboardProvider } from "./tracing/dashboard/provider";
import { getDashboard, getDashboardFunction } from "./tracing/dashboard/lookups";
import { chart } from "./tracing/chart/declare";
import { chartProvider } from "./tracing/chart/provider";
import { getChart, getChartFunction } from "./tracing/chart/lookups";
import dashboardForwarder = require("./dynamic/frozen/dashboard");
import chartForwarder = require("./dynamic/frozen/chart");
import { tool } from "./platform/tool/declare";
import { toolProvider } from "./platform/tool/provider";
import toolForwarder = require("./dynamic/frozen/tool");
import { mcpServer } from "./platform/mcpServer/declare";
import { mcpServerProvider } from "./platform/mcpServer/provider";
import mcpServerForwarder = require("./dynamic/frozen/mcpServer");
import { defaultModel } from "./platform/defaultModel/declare";
import { defaultModelProvider } from "./platform/defaultModel/provider";
import defaultModelForwarder = require("./dynamic/frozen/defaultModel");
import { getMcpServer, getMcpServerFunction, getTool, getToolFunction } from "./platform/lookups";

/** A resource this package serves. */
export interface Registered<D extends ResourceDeclaration = ResourceDeclaration> {
    declaration: D;
    /**
     * The provider object Pulumi serializes into the state of each dynamic resource: the exports of the
     * frozen module `pulumi-langsmith/providers/<type>` (dynamic/frozen/forward.ts says why a module of its own).
     */
    forwarder: pulumi.dynamic.ResourceProvider;
    /** The implementation, as a dynamic provider (the native plugin serves the same object). */
    provider: pulumi.dynamic.ResourceProvider;
}

/** A prompt's resource tags: its `tags` are the hub's labels, and the service tags its repository id. */
const PROMPT_TAGS = { resourceType: "prompt", field: "resourceTags", objectId: (_id: string, outs: Record<string, any>) => outs.promptId as string } as const;

/** What most resources' objects are known by: their name (kit/adoption.ts). */
const byName = (i: Record<string, any>) => i.name as string | undefined;

/**
 * The resources as declared here, before `RESOURCES` wraps each provider's read (below). Each provider that can take
 * an object over (LANGSMITH_ADOPT_IDS, or a running export) is wrapped by `adoptable` with what its objects are
 * known by, so that it never takes one a resource of the stack holds (kit/adoption.ts); a service key's adoption
 * makes a new key and deletes the one named, so it has nothing to guard.
 */
const DECLARED = {
    deployment: {
        declaration: deployment,
        forwarder: deploymentForwarder,
        provider: adoptable(deployment, autonamed(deployment, tagged(deploymentProvider, { resourceType: "deployment" })), byName, {
            holds: "its revisions and what its agent server holds (threads, runs, assistants, crons)",
        }),
    },
    exportDestination: {
        declaration: exportDestination,
        forwarder: exportDestinationForwarder,
        provider: adoptable(exportDestination, exportDestinationProvider, (i) => canonicalJson([i.displayName, i.config])),
    },
    scheduledExport: { declaration: scheduledExport, forwarder: scheduledExportForwarder, provider: adoptable(scheduledExport, scheduledExportProvider) },
    bulkExport: { declaration: bulkExport, forwarder: bulkExportForwarder, provider: adoptable(bulkExport, bulkExportProvider) },
    agentServerCheck: { declaration: agentServerCheck, forwarder: agentServerCheckForwarder, provider: agentServerCheckProvider },
    tracingProject: {
        declaration: tracingProject,
        forwarder: tracingProjectForwarder,
        provider: adoptable(tracingProject, autonamed(tracingProject, tagged(tracingProjectProvider, { resourceType: "project" })), byName, {
            holds: "its traced runs and their feedback",
        }),
    },
    dataset: {
        declaration: dataset,
        forwarder: datasetForwarder,
        provider: adoptable(dataset, autonamed(dataset, tagged(datasetProvider, { resourceType: "dataset" })), byName, { holds: "its examples" }),
    },
    datasetExamples: {
        declaration: datasetExamples,
        forwarder: datasetExamplesForwarder,
        provider: adoptable(datasetExamples, datasetExamplesProvider, (i) => i.datasetId),
    },
    example: { declaration: example, forwarder: exampleForwarder, provider: adoptable(example, exampleProvider) },
    // A tag is a pointer the service cannot remove: a create moves it (and warns), so no identity guards it.
    datasetVersionTag: {
        declaration: datasetVersionTag,
        forwarder: datasetVersionTagForwarder,
        provider: adoptable(datasetVersionTag, datasetVersionTagProvider),
    },
    datasetShare: {
        declaration: datasetShare,
        forwarder: datasetShareForwarder,
        provider: adoptable(datasetShare, datasetShareProvider, (i) => i.datasetId),
    },
    assistant: { declaration: assistant, forwarder: assistantForwarder, provider: adoptable(assistant, assistantProvider, (i) => `${i.url}|${i.assistantId}`) },
    cron: { declaration: cron, forwarder: cronForwarder, provider: adoptable(cron, cronProvider, cronIdentity) },
    workspace: {
        declaration: workspace,
        forwarder: workspaceForwarder,
        provider: adoptable(workspace, workspaceProvider, (i) => i.displayName, {
            holds: "everything in it (projects and their runs, datasets, deployments, keys, members)",
        }),
    },
    serviceKey: { declaration: serviceKey, forwarder: serviceKeyForwarder, provider: serviceKeyProvider },
    role: { declaration: role, forwarder: roleForwarder, provider: adoptable(role, roleProvider, byName) },
    workspaceSecret: {
        declaration: workspaceSecret,
        forwarder: workspaceSecretForwarder,
        provider: adoptable(workspaceSecret, workspaceSecretProvider, (i) => i.key),
    },
    workspaceMember: {
        declaration: workspaceMember,
        forwarder: workspaceMemberForwarder,
        provider: adoptable(workspaceMember, workspaceMemberProvider, (i) => String(normalEmail(i.email))),
    },
    prompt: { declaration: prompt, forwarder: promptForwarder, provider: adoptable(prompt, tagged(promptProvider, PROMPT_TAGS), (i) => i.handle) },
    promptVersion: {
        declaration: promptVersion,
        forwarder: promptVersionForwarder,
        provider: adoptable(promptVersion, promptVersionProvider, promptVersionIdentity),
    },
    promptTag: {
        declaration: promptTag,
        forwarder: promptTagForwarder,
        provider: adoptable(promptTag, promptTagProvider, (i) => `${i.promptHandle}:${i.name}`),
    },
    promptWebhook: {
        declaration: promptWebhook,
        forwarder: promptWebhookForwarder,
        provider: adoptable(promptWebhook, promptWebhookProvider, promptWebhookIdentity),
    },
    modelConfiguration: {
        declaration: modelConfiguration,
        forwarder: modelConfigurationForwarder,
        provider: adoptable(modelConfiguration, modelConfigurationProvider, byName),
    },
    usageLimit: { declaration: usageLimit, forwarder: usageLimitForwarder, provider: adoptable(usageLimit, usageLimitProvider, (i) => i.limitType) },
    workspaceRetention: {
        declaration: workspaceRetention,
        forwarder: workspaceRetentionForwarder,
        provider: adoptable(workspaceRetention, workspaceRetentionProvider),
    },
    organizationRetention: {
        declaration: organizationRetention,
        forwarder: organizationRetentionForwarder,
        provider: adoptable(organizationRetention, organizationRetentionProvider),
    },
    organizationMember: {
        declaration: organizationMember,
        forwarder: organizationMemberForwarder,
        provider: adoptable(organizationMember, organizationMemberProvider, (i) => String(normalEmail(i.email))),
    },
    listener: { declaration: listener, forwarder: listenerForwarder, provider: adoptable(listener, listenerProvider, (i) => i.computeId) },
    evaluator: { declaration: evaluator, forwarder: evaluatorForwarder, provider: adoptable(evaluator, evaluatorProvider, byName) },
    runRule: { declaration: runRule, forwarder: runRuleForwarder, provider: adoptable(runRule, runRuleProvider) },
    alertRule: {
        declaration: alertRule,
        forwarder: alertRuleForwarder,
        provider: adoptable(alertRule, alertRuleProvider, (i) => i.requestedAlertId, { replacedBeside: true }),
    },
    feedbackConfig: {
        declaration: feedbackConfig,
        forwarder: feedbackConfigForwarder,
        provider: adoptable(feedbackConfig, feedbackConfigProvider, (i) => i.feedbackKey),
    },
    annotationQueue: {
        declaration: annotationQueue,
        forwarder: annotationQueueForwarder,
        provider: adoptable(annotationQueue, annotationQueueProvider, byName, { holds: "the runs queued in it, with their reviews" }),
    },
    tagKey: { declaration: tagKey, forwarder: tagKeyForwarder, provider: adoptable(tagKey, tagKeyProvider, (i) => i.key) },
    tagValue: { declaration: tagValue, forwarder: tagValueForwarder, provider: adoptable(tagValue, tagValueProvider, (i) => `${i.tagKeyId}/${i.value}`) },
    tagging: {
        declaration: tagging,
        forwarder: taggingForwarder,
        provider: adoptable(tagging, taggingProvider, (i) => `${i.resourceType}/${i.resourceId}/${i.tagValueId}`),
    },
    accessPolicy: { declaration: accessPolicy, forwarder: accessPolicyForwarder, provider: adoptable(accessPolicy, accessPolicyProvider, byName) },
    dataPlane: { declaration: dataPlane, forwarder: dataPlaneForwarder, provider: adoptable(dataPlane, dataPlaneProvider, byName) },
    sandboxSnapshot: {
        declaration: sandboxSnapshot,
        forwarder: sandboxSnapshotForwarder,
        provider: adoptable(sandboxSnapshot, sandboxSnapshotProvider, byName),
    },
    // One per organization: known by that alone.
    ssoSettings: { declaration: ssoSettings, forwarder: ssoSettingsForwarder, provider: adoptable(ssoSettings, ssoSettingsProvider, () => "current") },
    organizationSettings: {
        declaration: organizationSettings,
        forwarder: organizationSettingsForwarder,
        provider: adoptable(organizationSettings, organizationSettingsProvider),
    },
    hubHandle: { declaration: hubHandle, forwarder: hubHandleForwarder, provider: adoptable(hubHandle, hubHandleProvider) },
    serviceAccount: { declaration: serviceAccount, forwarder: serviceAccountForwarder, provider: adoptable(serviceAccount, serviceAccountProvider, byName) },
    // A token's adoption makes a new token and deletes the one named (its secret cannot be read back), as a service key's: nothing to guard.
    personalAccessToken: { declaration: personalAccessToken, forwarder: personalAccessTokenForwarder, provider: personalAccessTokenProvider },
    apiKey: { declaration: apiKey, forwarder: apiKeyForwarder, provider: apiKeyProvider },
    scimToken: { declaration: scimToken, forwarder: scimTokenForwarder, provider: scimTokenProvider },
    modelPriceMap: { declaration: modelPriceMap, forwarder: modelPriceMapForwarder, provider: adoptable(modelPriceMap, modelPriceMapProvider, byName) },
    feedbackFormula: {
        declaration: feedbackFormula,
        forwarder: feedbackFormulaForwarder,
        provider: adoptable(feedbackFormula, feedbackFormulaProvider, (i) => `${i.datasetId ?? i.sessionId}/${i.feedbackKey}`),
    },
    projectView: {
        declaration: projectView,
        forwarder: projectViewForwarder,
        provider: adoptable(projectView, projectViewProvider, (i) => `${i.sessionId}/${i.displayName}`),
    },
    dashboard: {
        declaration: dashboard,
        forwarder: dashboardForwarder,
        provider: adoptable(dashboard, dashboardProvider, (i) => `${i.scope ?? "workspace"}/${i.title}`, { holds: "its charts" }),
    },
    chart: { declaration: chart, forwarder: chartForwarder, provider: adoptable(chart, chartProvider, (i) => `${i.dashboardId}/${i.title}`) },
    tool: { declaration: tool, forwarder: toolForwarder, provider: adoptable(tool, toolProvider, (i) => i.handle) },
    mcpServer: { declaration: mcpServer, forwarder: mcpServerForwarder, provider: adoptable(mcpServer, mcpServerProvider, byName) },
    // A feature's models exist once per workspace: a create takes them over (tookOver), so no identity guards it.
    defaultModel: { declaration: defaultModel, forwarder: defaultModelForwarder, provider: adoptable(defaultModel, defaultModelProvider) },
    // A gateway policy is known by its family and matchers: the service keeps one of each (docs/service.md R19.1).
    gatewayPolicy: {
        declaration: gatewayPolicy,
        forwarder: gatewayPolicyForwarder,
        provider: adoptable(gatewayPolicy, gatewayPolicyProvider, (i) => identityOf(i.policyType, matchersOf(i as GatewayPolicyInputs))),
    },
    gatewayPolicyCheck: { declaration: gatewayPolicyCheck, forwarder: gatewayPolicyCheckForwarder, provider: gatewayPolicyCheckProvider },
} as const satisfies Record<string, Registered>;

/**
 * The resources, by the type name the forwarders and `require("pulumi-langsmith/impl").forward` use: each provider's
 * read answers what its diff finds unchanged as the state records it, so that a refresh of a clean stack changes
 * nothing (kit/asRecorded.ts).
 */
export const RESOURCES = Object.fromEntries(
    Object.entries(DECLARED).map(([type, r]) => [type, { ...r, provider: readAsRecorded(r.declaration, r.provider) }]),
) as unknown as typeof DECLARED;

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
    getDatasetVersion: {
        declaration: getDatasetVersionFunction,
        run: (s: Service, a: FunctionInputs<typeof getDatasetVersionFunction>) => getDatasetVersion(s.in(a.workspaceId).examples(), a),
    },
    getExamples: {
        declaration: getExamplesFunction,
        run: (s: Service, a: FunctionInputs<typeof getExamplesFunction>) => getExamples(s.in(a.workspaceId).examples(), a),
    },
    getTracingProjects: {
        declaration: getTracingProjectsFunction,
        run: (s: Service, a: GetTracingProjectsArgs) => getTracingProjects(s.in(a.workspaceId).projects(), s.in(a.workspaceId).tags(), a),
    },
    getPrompt: {
        declaration: getPromptFunction,
        run: (s: Service, a: FunctionInputs<typeof getPromptFunction>) => getPrompt(s.in(a.workspaceId).prompts(), a),
    },
    getWorkspace: { declaration: getWorkspaceFunction, run: (s: Service, a: FunctionInputs<typeof getWorkspaceFunction>) => getWorkspace(s.organization(), a) },
    getWorkspaces: {
        declaration: getWorkspacesFunction,
        run: (s: Service, a: FunctionInputs<typeof getWorkspacesFunction>) => getWorkspaces(s.organization(), a),
    },
    getRole: { declaration: getRoleFunction, run: (s: Service, a: FunctionInputs<typeof getRoleFunction>) => getRole(s.organization(), a) },
    getSsoSettings: { declaration: getSsoSettingsFunction, run: (s: Service) => getSsoSettings(s.orgSettings()) },
    getOrganization: { declaration: getOrganizationFunction, run: (s: Service) => getOrganization(s.orgSettings()) },
    getServiceKey: {
        declaration: getServiceKeyFunction,
        run: (s: Service, a: FunctionInputs<typeof getServiceKeyFunction>) => getServiceKey(s.organization(), a),
    },
    getServiceAccount: {
        declaration: getServiceAccountFunction,
        run: (s: Service, a: FunctionInputs<typeof getServiceAccountFunction>) => getServiceAccount(s.tokens(), a),
    },
    getAnnotationQueue: {
        declaration: getAnnotationQueueFunction,
        run: (s: Service, a: FunctionInputs<typeof getAnnotationQueueFunction>) => getAnnotationQueue(s.in(a.workspaceId).evaluation(), a),
    },
    getFeedbackConfig: {
        declaration: getFeedbackConfigFunction,
        run: (s: Service, a: FunctionInputs<typeof getFeedbackConfigFunction>) => getFeedbackConfig(s.in(a.workspaceId).evaluation(), a),
    },
    getDataPlane: {
        declaration: getDataPlaneFunction,
        run: (s: Service, a: FunctionInputs<typeof getDataPlaneFunction>) => getDataPlane(s.dataPlanes(), a),
    },
    getListener: {
        declaration: getListenerFunction,
        run: (s: Service, a: FunctionInputs<typeof getListenerFunction>) => getListener(s.in(a.workspaceId).controlPlane(), a),
    },
    getEvaluator: {
        declaration: getEvaluatorFunction,
        run: (s: Service, a: FunctionInputs<typeof getEvaluatorFunction>) => getEvaluator(s.in(a.workspaceId).rules(), a),
    },
    getCron: { declaration: getCronFunction, run: (s: Service, a: FunctionInputs<typeof getCronFunction>) => getCron(s.agentServer(a.url), a) },
    getBulkExport: {
        declaration: getBulkExportFunction,
        run: (s: Service, a: FunctionInputs<typeof getBulkExportFunction>) => getBulkExport(s.in(a.workspaceId).tracing(), a),
    },
    getTool: {
        declaration: getToolFunction,
        run: (s: Service, a: FunctionInputs<typeof getToolFunction>) => getTool(s.in(a.workspaceId).platform(), a),
    },
    getMcpServer: {
        declaration: getMcpServerFunction,
        run: (s: Service, a: FunctionInputs<typeof getMcpServerFunction>) => getMcpServer(s.in(a.workspaceId).platform(), a),
    },
    getModelPrice: {
        declaration: getModelPriceFunction,
        run: (s: Service, a: FunctionInputs<typeof getModelPriceFunction>) => getModelPrice(s.in(a.workspaceId).modelPrices(), a),
    },
    getFeedbackFormula: {
        declaration: getFeedbackFormulaFunction,
        run: (s: Service, a: FunctionInputs<typeof getFeedbackFormulaFunction>) => getFeedbackFormula(s.in(a.workspaceId).feedbackFormulas(), a),
    },
    getDashboard: {
        declaration: getDashboardFunction,
        run: (s: Service, a: FunctionInputs<typeof getDashboardFunction>) => getDashboard(s.in(a.workspaceId).charts(), a),
    },
    getChart: { declaration: getChartFunction, run: (s: Service, a: FunctionInputs<typeof getChartFunction>) => getChart(s.in(a.workspaceId).charts(), a) },
    getGatewayPolicies: {
        declaration: getGatewayPoliciesFunction,
        run: (s: Service, a: FunctionInputs<typeof getGatewayPoliciesFunction>) => getGatewayPolicies(s.gatewayPolicies(), a),
    },
} as const satisfies Record<string, RegisteredFunction>;

export type ResourceType = keyof typeof RESOURCES;
