/**
 * What every resource implementation shares at run time inside the provider process: the stack config
 * handed to `configure()`, and one client per API and service configuration (so one connection pool each).
 */
import type * as pulumi from "@pulumi/pulumi";
import { BulkExportClient } from "../api/bulkExport";
import { ControlPlaneClient } from "../api/controlPlane";
import { HttpClient, type ClientSources, type HttpClientOptions } from "../api/client";
import { resolveServiceConfig, type ConfigSource, type ServiceConfig } from "../config";
import { reported, type Checked } from "./common/validate";

let stackConfig: ConfigSource | undefined;

/** Called through the dynamic provider's `configure()`: keeps the stack config for this process. */
export function configure(req: { config: ConfigSource }): void {
    stackConfig = req.config;
}

export function serviceConfig(): ServiceConfig {
    return resolveServiceConfig(stackConfig);
}

/**
 * A resource's `check` against the provider configuration: `run` checks the arguments (it may read the
 * configuration: which installation), and a configuration every call to the service needs but lacks
 * (the workspace id, sent as X-Tenant-Id) fails the preview too, before any API call. A missing API key
 * throws ConfigError, with the fix.
 */
export async function checkWithConfig(run: (cfg: ServiceConfig) => Checked): Promise<pulumi.dynamic.CheckResult> {
    const cfg = serviceConfig();
    const r = await reported(run(cfg));
    if (cfg.workspaceId) return r;
    const reason =
        "no LangSmith workspace id: set it with `pulumi config set langsmith:workspaceId <id>` or in LANGSMITH_WORKSPACE_ID " +
        "(LangSmith: Settings -> Workspaces); every request names the workspace (X-Tenant-Id)";
    return { ...r, failures: [...(r.failures ?? []), { property: "", reason }] };
}

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
export function controlPlaneClient(cfg: ServiceConfig = serviceConfig()): ControlPlaneClient {
    return cached(["control plane", cfg.controlPlaneUrl, cfg.workspaceId, cfg.apiKey, cfg.sources], () => {
        const sources = clientSources(cfg, "controlPlaneUrl");
        return new ControlPlaneClient(new HttpClient({ baseUrl: cfg.controlPlaneUrl, apiKey: cfg.apiKey, tenantId: cfg.workspaceId, sources, ...clientOverrides }));
    });
}

/** The bulk-export client of a service configuration: the tracing API, `X-API-Key` (spec 5). */
export function bulkExportClient(cfg: ServiceConfig = serviceConfig()): BulkExportClient {
    return cached(["bulk export", cfg.endpoint, cfg.workspaceId, cfg.apiKey, cfg.sources], () => {
        const sources = clientSources(cfg, "endpoint");
        const http = new HttpClient({ baseUrl: cfg.endpoint, apiKey: cfg.apiKey, tenantId: cfg.workspaceId, apiKeyHeader: "X-API-Key", sources, ...clientOverrides });
        return new BulkExportClient(http);
    });
}
