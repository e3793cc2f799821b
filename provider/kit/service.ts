/**
 * The LangSmith service a provider talks to: a `Service` is made from the configuration its `configure()`
 * is handed (stack config, else the environment) and held by that provider, which passes the clients it
 * makes down to each operation: no module keeps a configuration. Clients are shared by configuration (one
 * connection pool each), and each API's client decides its own headers (api/controlPlane.ts,
 * api/bulkExport.ts).
 */
import { ExamplesClient } from "../api/examples";
import type * as pulumi from "@pulumi/pulumi";
import { AccessPoliciesClient } from "../api/accessPolicies";
import { TokensClient } from "../api/tokens";
import { AgentServerClient } from "../api/agentServer";
import { GatewayPoliciesClient } from "../api/gatewayPolicies";
import { ChartsClient } from "../api/charts";
import { BulkExportClient } from "../api/bulkExport";
import { ControlPlaneClient } from "../api/controlPlane";
import { DataPlanesClient } from "../api/dataPlanes";
import { SandboxesClient } from "../api/sandboxes";
import { OrganizationClient } from "../api/organization";
import { OrgSettingsClient } from "../api/orgSettings";
import { ModelPricesClient } from "../api/modelPrices";
import { PlatformClient } from "../api/platform";
import { PromptsClient } from "../api/prompts";
import { RulesClient } from "../api/rules";
import { EvaluationClient } from "../api/evaluation";
import { FeedbackFormulasClient } from "../api/feedbackFormulas";
import { ProjectViewsClient } from "../api/projectViews";
import { TagsClient } from "../api/tags";
import { TracingClient } from "../api/tracing";
import type { ClientSources, HttpClientOptions } from "../api/client";
import { ConfigError, resolveServiceConfig, type ConfigSource, type ServiceConfig } from "../config";
import { AuthenticationError, PermissionDeniedError } from "../api/errors";
import { reported, type Checked } from "./check";
import { known } from "./unknown";
import { engineAddress } from "./watchdog";
import { operationWorkspace, workspaceFailures } from "./workspace";

/**
 * The service as one provider was configured to reach it: `config()` resolves the configuration when an
 * operation first needs it (a missing key fails that operation, with the fix), and the clients come from it.
 */
export class Service {
    /**
     * `source`: the stack config handed to `configure()`; absent: the environment alone. `workspaceId`: a
     * workspace of a function's own (`in`), in place of the provider's.
     */
    constructor(
        readonly source?: ConfigSource,
        readonly workspaceId?: string,
    ) {}

    /** This service in workspace `workspaceId` (a look-up's argument); absent: as it is. */
    in(workspaceId: string | undefined): Service {
        const bad = workspaceFailures(workspaceId);
        if (bad.length) throw new ConfigError(bad[0].reason);
        return workspaceId ? new Service(this.source, workspaceId) : this;
    }

    /**
     * The configuration, in the workspace of this service (`in`), else of the resource operation in progress
     * (kit/workspace.ts), else the provider's: every client below is made from it, so every request of a
     * resource's operation goes to the resource's workspace.
     */
    config(): ServiceConfig {
        const cfg = resolveServiceConfig(this.source);
        const ws = this.workspaceId ?? operationWorkspace();
        if (!ws) return cfg;
        const source = { setting: "workspaceId", text: "the workspaceId argument" };
        return { ...cfg, workspaceId: ws, sources: cfg.sources && { ...cfg.sources, workspaceId: source } };
    }

    controlPlane(): ControlPlaneClient {
        return controlPlaneClient(this.config());
    }

    tracing(): BulkExportClient {
        return bulkExportClient(this.config());
    }

    /** The tracing API's projects (sessions). */
    projects(): TracingClient {
        return tracingClient(this.config());
    }

    /** A dataset's examples, versions, tags and share (docs/service.md R14). */
    examples(): ExamplesClient {
        return tracingApiClient("examples", this.config(), (o) => ExamplesClient.connect(o));
    }

    /** The prompt hub of the workspace (docs/service.md R8): repositories, commits, tags. */
    prompts(): PromptsClient {
        return promptsClient(this.config());
    }

    /** The automations: saved evaluators, run rules, alert rules. */
    rules(): RulesClient {
        return rulesClient(this.config());
    }

    /** Evaluation and review in the workspace (docs/service.md R9): feedback configs, annotation queues. */
    evaluation(): EvaluationClient {
        return evaluationClient(this.config());
    }

    /** The workspace's feedback formulas (docs/service.md R9.5). */
    feedbackFormulas(): FeedbackFormulasClient {
        return tracingApiClient("feedback formulas", this.config(), (o) => FeedbackFormulasClient.connect(o));
    }

    /** The saved views of the workspace's tracing projects (docs/service.md R5 "Saved views"). */
    projectViews(): ProjectViewsClient {
        return tracingApiClient("project views", this.config(), (o) => ProjectViewsClient.connect(o));
    }

    /** Dashboards and their charts (docs/service.md R16), of the workspace or of the organization, asked from the workspace. */
    charts(): ChartsClient {
        return tracingApiClient("charts", this.config(), (o) => ChartsClient.connect(o));
    }

    /** The workspace's resource tags (docs/service.md R13): tag keys, values, taggings. */
    tags(): TagsClient {
        return tagsClient(this.config());
    }

    /** The workspace's model price map (docs/service.md R15). */
    modelPrices(): ModelPricesClient {
        return tracingApiClient("model prices", this.config(), (o) => ModelPricesClient.connect(o));
    }

    /** The workspace's platform tools, Fleet MCP servers and features' models (docs/service.md R18). */
    platform(): PlatformClient {
        return tracingApiClient("platform", this.config(), (o) => PlatformClient.connect(o));
    }

    /** The organization's access policies and their attachment to roles (docs/service.md R13.8): no workspace is named. */
    accessPolicies(): AccessPoliciesClient {
        return apiClient("access policies", this.config(), undefined, (o) => AccessPoliciesClient.connect(o));
    }

    /** The organization's data planes (docs/service.md R17.1): no workspace is named. */
    dataPlanes(): DataPlanesClient {
        return apiClient("data planes", this.config(), undefined, (o) => DataPlanesClient.connect(o));
    }

    /** The workspace's sandbox snapshots and boxes (docs/service.md R17.2). */
    sandboxes(): SandboxesClient {
        return tracingApiClient("sandboxes", this.config(), (o) => SandboxesClient.connect(o));
    }

    /** The organization's LLM gateway policies (docs/service.md R19.1): no workspace is named. */
    gatewayPolicies(): GatewayPoliciesClient {
        return apiClient("gateway policies", this.config(), undefined, (o) => GatewayPoliciesClient.connect(o));
    }

    /** The organization's service accounts and tokens (docs/service.md R21): no workspace is named but a workspace API key's. */
    tokens(): TokensClient {
        return apiClient("tokens", this.config(), undefined, (o) => TokensClient.connect(o));
    }

    /** The agent server at `url` (a deployment's `customUrl`), reached with this configuration's API key. */
    agentServer(url: string): AgentServerClient {
        return agentServerClient(this.config(), url);
    }

    /** Organization administration (docs/service.md R7): workspaces, roles, service keys; no workspace is named. */
    organization(): OrganizationClient {
        return organizationClient(this.config(), undefined);
    }

    /** The organization's SSO settings and own settings (docs/service.md R20): no workspace is named. */
    orgSettings(): OrgSettingsClient {
        return OrgSettingsClient.of(this.organization());
    }

    /** The members and secrets of workspace `workspaceId` (else the configured one): the same API, with `X-Tenant-Id`. */
    workspaceAdmin(workspaceId?: string): OrganizationClient {
        const cfg = this.config();
        return organizationClient(cfg, workspaceId ?? cfg.workspaceId);
    }

    /** A resource's `check` against this configuration (`checkWithConfig`). */
    check(run: (cfg: ServiceConfig) => Checked, api?: ServiceApi): Promise<pulumi.dynamic.CheckResult> {
        return checkWithConfig(this.config(), run, api);
    }
}

/**
 * A resource's `check` against the provider configuration: `run` checks the arguments (it may read the
 * configuration: which installation), and a configuration every call to the service needs but lacks
 * (the workspace id, sent as X-Tenant-Id) fails the preview too, before any API call. A missing API key
 * throws ConfigError, with the fix. Given the `api` the resource talks to, a key the service refuses fails the
 * preview as well (`keyRefused`).
 */
async function checkWithConfig(cfg: ServiceConfig, run: (cfg: ServiceConfig) => Checked, api?: ServiceApi): Promise<pulumi.dynamic.CheckResult> {
    const r = await reported(run(cfg));
    // An organization's objects (workspaces, roles, service keys) live in no workspace.
    if (!cfg.workspaceId && api !== "organization") {
        const reason =
            "no LangSmith workspace id: set it with `pulumi config set langsmith:workspaceId <id>` or in LANGSMITH_WORKSPACE_ID " +
            "(LangSmith: Settings -> Workspaces), or give the resource a workspaceId; every request names the workspace (X-Tenant-Id)";
        return { ...r, failures: [...(r.failures ?? []), { property: "", reason }] };
    }
    // Only for arguments without faults: a preview refusing bad input sends nothing. A workspace not known
    // yet (a Workspace made in the same program) is not read.
    const refused = api && !r.failures?.length && known(cfg.workspaceId) && engineAddress() ? await keyRefused(cfg, api) : undefined;
    return refused ? { ...r, failures: [...(r.failures ?? []), { property: "", reason: refused }] } : r;
}

/** The API a resource talks to: the control plane (deployments), the tracing API (bulk export), or the organization's administration. */
export type ServiceApi = "controlPlane" | "tracing" | "organization";

/** The answers of `keyRefused`, one per API and configuration: one read per provider process. */
const keyChecks = new Map<string, Promise<string | undefined>>();

/** What each API is called in a refusal, and where it is. */
const API_NAMES: Record<ServiceApi, string> = {
    controlPlane: "the control plane",
    tracing: "the tracing API",
    organization: "the tracing API (the organization's workspaces)",
};

/**
 * Whether the service refuses the API key (or the workspace), found by one cheap authenticated read within
 * a few seconds, so that `pulumi preview` says so instead of the first create of `pulumi up`: the refusal
 * in words, or undefined when the read succeeds and when it says nothing (the service cannot be reached,
 * another error): a preview offline goes on. Only inside a Pulumi engine (tests calling `check` read nothing).
 * The refusal is the provider's configuration's, and says so, naming the address it was tried against (the
 * API error's `to ...`): the native plugin reports it for the provider (`credentialsRefused`); a resource
 * reports it only for an API or a workspace of its own, or in a TypeScript program, which has no provider resource.
 */
function keyRefused(cfg: ServiceConfig, api: ServiceApi): Promise<string | undefined> {
    const key = JSON.stringify([api, api === "controlPlane" ? cfg.controlPlaneUrl : cfg.endpoint, cfg.workspaceId, cfg.apiKey]);
    if (!keyChecks.has(key)) {
        const deadline = Date.now() + KEY_CHECK_MS;
        const read: Promise<unknown> =
            api === "controlPlane"
                ? controlPlaneClient(cfg).withDeadline(deadline).listDeployments({ limit: 1 })
                : api === "organization"
                  ? organizationClient(cfg, undefined).withDeadline(deadline).listWorkspaces()
                  : bulkExportClient(cfg).withDeadline(deadline).listDestinations();
        const refusal = (e: unknown) =>
            e instanceof AuthenticationError || e instanceof PermissionDeniedError
                ? `LangSmith refused this provider's credentials (checked with one read of ${API_NAMES[api]}, before any change): ${e.message}`
                : undefined;
        keyChecks.set(
            key,
            read.then(() => undefined, refusal),
        );
    }
    return keyChecks.get(key)!;
}

/**
 * The provider's own check of its credentials (the native plugin's CheckConfig, which the engine asks before any
 * resource's check and reports for the provider: once, not against whichever resource came first). The provider
 * does not know which APIs its resources talk to, so it reads the one its configuration points at: the tracing
 * API (in its workspace, or the organization's workspaces without one), but when that address is only the US
 * cloud's default beside a control plane set elsewhere (an emulator, a proxy: deployments only, README
 * "Configuration"), the control plane. The resources then check only what this did not (`checkWithConfig`: the
 * answers are shared).
 */
export function credentialsRefused(cfg: ServiceConfig): Promise<string | undefined> {
    const elsewhere = cfg.sources?.endpoint.setting === "default" && cfg.sources.controlPlaneUrl.setting !== "default";
    const api: ServiceApi | undefined = elsewhere ? (cfg.workspaceId ? "controlPlane" : undefined) : cfg.workspaceId ? "tracing" : "organization";
    return api && engineAddress() ? keyRefused(cfg, api) : Promise.resolve(undefined);
}

/** How long the preview's key check may take before it gives up saying nothing (ms). */
const KEY_CHECK_MS = 3_000;

/** Extra client options for tests and benchmarks (fast retries, a MockAgent). Never set in production. */
let clientOverrides: Partial<HttpClientOptions> = {};
export function setClientOverrides(o: Partial<HttpClientOptions>): void {
    clientOverrides = o;
    clients.clear();
}

/** Clients by API, base URL, credentials and where they came from (named in errors): one connection pool each. */
const clients = new Map<string, unknown>();
function cached<T>(key: unknown[], make: () => T): T {
    const k = JSON.stringify(key);
    if (!clients.has(k)) clients.set(k, make());
    return clients.get(k) as T;
}

/** Where a client's address (the control plane or the tracing API) and credentials came from, for its errors. */
function clientSources(cfg: ServiceConfig, address: "controlPlaneUrl" | "endpoint"): ClientSources {
    return { baseUrl: cfg.sources?.[address].text, apiKey: cfg.sources?.apiKey.text, tenantId: cfg.sources?.workspaceId?.text };
}

/** The control-plane client of a service configuration. */
export function controlPlaneClient(cfg: ServiceConfig): ControlPlaneClient {
    return cached(["control plane", cfg.controlPlaneUrl, cfg.workspaceId, cfg.apiKey, cfg.sources], () =>
        ControlPlaneClient.connect({
            baseUrl: cfg.controlPlaneUrl,
            apiKey: cfg.apiKey,
            tenantId: cfg.workspaceId,
            sources: clientSources(cfg, "controlPlaneUrl"),
            ...clientOverrides,
        }),
    );
}

/** The tracing-projects client of a service configuration: the tracing API. */
export function tracingClient(cfg: ServiceConfig): TracingClient {
    return cached(["tracing projects", cfg.endpoint, cfg.workspaceId, cfg.apiKey, cfg.sources], () =>
        TracingClient.connect({
            baseUrl: cfg.endpoint,
            apiKey: cfg.apiKey,
            tenantId: cfg.workspaceId,
            sources: clientSources(cfg, "endpoint"),
            ...clientOverrides,
        }),
    );
}

/** The prompt-hub client of a service configuration: the tracing API. */
export function promptsClient(cfg: ServiceConfig): PromptsClient {
    return tracingApiClient("prompts", cfg, (o) => PromptsClient.connect(o));
}

/** A client of the tracing API's objects (`X-API-Key`, the workspace's `X-Tenant-Id`), cached per kind, address, workspace and key. */
function tracingApiClient<T>(kind: string, cfg: ServiceConfig, connect: (o: Parameters<typeof PromptsClient.connect>[0]) => T): T {
    return apiClient(kind, cfg, cfg.workspaceId, connect);
}

/** A client of the API at `endpoint` speaking to workspace `tenantId` (none: the organization), cached per kind, address, workspace and key. */
function apiClient<T>(kind: string, cfg: ServiceConfig, tenantId: string | undefined, connect: (o: Parameters<typeof PromptsClient.connect>[0]) => T): T {
    return cached([kind, cfg.endpoint, tenantId, cfg.apiKey, cfg.sources], () =>
        connect({ baseUrl: cfg.endpoint, apiKey: cfg.apiKey, tenantId, sources: clientSources(cfg, "endpoint"), ...clientOverrides }),
    );
}

/** The automations client of a service configuration: the tracing API. */
export function rulesClient(cfg: ServiceConfig): RulesClient {
    return tracingApiClient("rules", cfg, (o) => RulesClient.connect(o));
}

/** The evaluation client of a service configuration: the tracing API. */
export function evaluationClient(cfg: ServiceConfig): EvaluationClient {
    return tracingApiClient("evaluation", cfg, (o) => EvaluationClient.connect(o));
}

/** The resource-tags client of a service configuration: the tracing API, in its workspace. */
export function tagsClient(cfg: ServiceConfig): TagsClient {
    return tracingApiClient("tags", cfg, (o) => TagsClient.connect(o));
}

/** The bulk-export client of a service configuration: the tracing API. */
export function bulkExportClient(cfg: ServiceConfig): BulkExportClient {
    return tracingApiClient("bulk export", cfg, (o) => BulkExportClient.connect(o));
}

/** The client of the agent server at `url`, with the API key of a service configuration (no workspace: the server belongs to one). */
export function agentServerClient(cfg: ServiceConfig, url: string): AgentServerClient {
    return cached(["agent server", url, cfg.apiKey, cfg.sources], () =>
        AgentServerClient.connect({ baseUrl: url, apiKey: cfg.apiKey, sources: { apiKey: cfg.sources?.apiKey.text }, ...clientOverrides }),
    );
}

/** The organization-administration client of a service configuration; `tenantId`: the workspace its workspace paths speak to. */
export function organizationClient(cfg: ServiceConfig, tenantId: string | undefined): OrganizationClient {
    return apiClient("organization", cfg, tenantId, (o) => OrganizationClient.connect(o));
}
