/**
 * What every resource implementation shares at run time inside the provider process: the stack config
 * handed to `configure()`, and one client per API and service configuration (so one connection pool each).
 */
import type * as pulumi from "@pulumi/pulumi";
import { BulkExportClient } from "../api/bulkExport";
import { ControlPlaneClient } from "../api/controlPlane";
import { HttpClient, type ClientSources, type HttpClientOptions } from "../api/client";
import { resolveServiceConfig, type ConfigSource, type ServiceConfig } from "../config";
import { AuthenticationError, PermissionDeniedError } from "../api/errors";
import { reported, type Checked } from "./check";
import { engineAddress } from "./watchdog";

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
 * throws ConfigError, with the fix. Given the `api` the resource talks to, a key the service refuses fails the
 * preview as well (`keyRefused`).
 */
export async function checkWithConfig(run: (cfg: ServiceConfig) => Checked, api?: ServiceApi): Promise<pulumi.dynamic.CheckResult> {
    const cfg = serviceConfig();
    const r = await reported(run(cfg));
    if (!cfg.workspaceId) {
        const reason =
            "no LangSmith workspace id: set it with `pulumi config set langsmith:workspaceId <id>` or in LANGSMITH_WORKSPACE_ID " +
            "(LangSmith: Settings -> Workspaces); every request names the workspace (X-Tenant-Id)";
        return { ...r, failures: [...(r.failures ?? []), { property: "", reason }] };
    }
    // Only for arguments without faults: a preview refusing bad input sends nothing.
    const refused = api && !r.failures?.length && engineAddress() ? await keyRefused(cfg, api) : undefined;
    return refused ? { ...r, failures: [...(r.failures ?? []), { property: "", reason: refused }] } : r;
}

/** The API a resource talks to: the control plane (deployments) or the tracing API (bulk export). */
export type ServiceApi = "controlPlane" | "tracing";

/** The answers of `keyRefused`, one per API and configuration: one read per provider process. */
const keyChecks = new Map<string, Promise<string | undefined>>();

/**
 * Whether the service refuses the API key (or the workspace), found by one cheap authenticated read within
 * a few seconds, so that `pulumi preview` says so instead of the first create of `pulumi up`: the refusal
 * in words, or undefined when the read succeeds and when it says nothing (the service cannot be reached,
 * another error): a preview offline goes on. Only inside a Pulumi engine (tests calling `check` read nothing).
 */
function keyRefused(cfg: ServiceConfig, api: ServiceApi): Promise<string | undefined> {
    const key = JSON.stringify([api, api === "controlPlane" ? cfg.controlPlaneUrl : cfg.endpoint, cfg.workspaceId, cfg.apiKey]);
    if (!keyChecks.has(key)) {
        const deadline = Date.now() + KEY_CHECK_MS;
        const read = api === "controlPlane" ? controlPlaneClient(cfg).withDeadline(deadline).listDeployments({ limit: 1 }) : bulkExportClient(cfg).withDeadline(deadline).listDestinations();
        keyChecks.set(key, read.then(() => undefined, (e) => (e instanceof AuthenticationError || e instanceof PermissionDeniedError ? e.message : undefined)));
    }
    return keyChecks.get(key)!;
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
