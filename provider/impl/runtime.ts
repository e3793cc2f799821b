/**
 * What every resource implementation shares at run time inside the provider process: the stack config
 * handed to `configure()`, and one client per API and service configuration (so one connection pool each).
 */
import { BulkExportClient } from "../api/bulkExport";
import { ControlPlaneClient } from "../api/controlPlane";
import { HttpClient, type HttpClientOptions } from "../api/client";
import { resolveServiceConfig, type ConfigSource, type ServiceConfig } from "../config";

let stackConfig: ConfigSource | undefined;

/** Called through the dynamic provider's `configure()`: keeps the stack config for this process. */
export function configure(req: { config: ConfigSource }): void {
    stackConfig = req.config;
}

export function serviceConfig(): ServiceConfig {
    return resolveServiceConfig(stackConfig);
}

/** Extra client options for tests and benchmarks (fast retries, a MockAgent). Never set in production. */
let clientOverrides: Partial<HttpClientOptions> = {};
export function setClientOverrides(o: Partial<HttpClientOptions>): void {
    clientOverrides = o;
    clients.clear();
    bulkClients.clear();
}

const clients = new Map<string, ControlPlaneClient>();
/** One control-plane client (and so one connection pool) per service configuration. */
export function controlPlaneClient(cfg: ServiceConfig = serviceConfig()): ControlPlaneClient {
    const key = JSON.stringify([cfg.controlPlaneUrl, cfg.workspaceId, cfg.apiKey]);
    let c = clients.get(key);
    if (!c) {
        c = new ControlPlaneClient(
            new HttpClient({ baseUrl: cfg.controlPlaneUrl, apiKey: cfg.apiKey, tenantId: cfg.workspaceId, ...clientOverrides }),
        );
        clients.set(key, c);
    }
    return c;
}

const bulkClients = new Map<string, BulkExportClient>();
/** One bulk-export client per tracing-API endpoint and credentials (`X-API-Key`, spec 5). */
export function bulkExportClient(cfg: ServiceConfig = serviceConfig()): BulkExportClient {
    const key = JSON.stringify([cfg.endpoint, cfg.workspaceId, cfg.apiKey]);
    let c = bulkClients.get(key);
    if (!c) {
        c = new BulkExportClient(
            new HttpClient({ baseUrl: cfg.endpoint, apiKey: cfg.apiKey, tenantId: cfg.workspaceId, apiKeyHeader: "X-API-Key", ...clientOverrides }),
        );
        bulkClients.set(key, c);
    }
    return c;
}
