/**
 * What every resource implementation shares at run time inside the provider process: the stack config
 * handed to `configure()`, one API client per service configuration, Pulumi's unknown-value sentinel,
 * and the error that makes Pulumi record a half-made resource instead of orphaning it.
 */
import { ControlPlaneClient } from "../api/controlPlane";
import { HttpClient, type HttpClientOptions } from "../api/client";
import { resolveServiceConfig, type ConfigSource, type ServiceConfig } from "../config";

/** The value Pulumi passes to check/diff for anything not known yet during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value is, or contains, Pulumi's unknown sentinel. */
export function containsUnknown(v: unknown): boolean {
    if (v === UNKNOWN) return true;
    if (Array.isArray(v)) return v.some(containsUnknown);
    if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
    return false;
}

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

/**
 * Thrown by create/update when the remote object exists but did not reach the wanted state. The
 * dynamic-provider host turns `id` + `properties` into Pulumi's "resource initialization failed" answer,
 * so the resource is recorded in the state (with these properties) and the next `pulumi up` updates it.
 * `properties` must carry `__provider`, or the recorded resource could not be refreshed or deleted.
 */
export class ResourceInitError extends Error {
    constructor(
        message: string,
        readonly id: string,
        readonly properties: Record<string, unknown>,
        readonly reasons: string[] = [message],
    ) {
        super(message);
        this.name = "ResourceInitError";
    }
}
