/**
 * Where the provider finds the service: stack configuration (`langsmith:*`, passed to the dynamic
 * provider's `configure()` at run time), then the environment. Nothing here is ever captured in the
 * serialized provider or written to a resource's inputs: the API key lives only in the memory of the
 * provider process.
 *
 * | Stack config | Environment | Meaning |
 * |---|---|---|
 * | `langsmith:apiKey` (secret) | `LANGSMITH_API_KEY` | API key, sent as `X-Api-Key` |
 * | `langsmith:workspaceId` | `LANGSMITH_WORKSPACE_ID` | workspace id, sent as `X-Tenant-Id` |
 * | `langsmith:controlPlaneUrl` | `LANGSMITH_CONTROL_PLANE_URL` | full control-plane URL |
 * | `langsmith:selfHostedUrl` | `LANGSMITH_SELF_HOSTED_URL` | self-hosted installation host; `/api-host` is appended |
 * | `langsmith:region` | `LANGSMITH_REGION` | `us` (default) or `eu` cloud |
 * | `langsmith:endpoint` | `LANGSMITH_ENDPOINT` | tracing API (bulk export), with or without `/api/v1` |
 *
 * Each key is looked up in stack config first, then in the environment. Of the three ways to say where
 * the control plane is, at most one may be set in the stack config and at most one in the environment;
 * stack config wins over the environment. The tracing API is a second address, not a fourth way: by
 * default it follows the region (or is the self-hosted installation's host itself), and `endpoint` sets it
 * beside any of the three.
 */
import { httpUrl } from "./api/values";

export interface ConfigSource {
    get(key: string): string | undefined;
}

export interface ServiceConfig {
    apiKey: string;
    workspaceId?: string;
    /** The control plane (deployments), without a trailing slash. */
    controlPlaneUrl: string;
    /** The tracing API host (bulk export), without a trailing slash or `/api/v1`. */
    endpoint: string;
}

export const REGION_URLS: Readonly<Record<string, string>> = {
    us: "https://api.host.langchain.com",
    eu: "https://eu.api.host.langchain.com",
};

/** The tracing API of each cloud region. */
export const REGION_ENDPOINTS: Readonly<Record<string, string>> = {
    us: "https://api.smith.langchain.com",
    eu: "https://eu.api.smith.langchain.com",
};

/**
 * Which installation the tracing API (bulk export) belongs to, when the configuration says: a cloud
 * region's endpoint is the cloud; the host of a self-hosted installation (its control plane under
 * `/api-host`) is self-hosted; any other endpoint (a proxy, the emulator) could be either: undefined.
 */
export function tracingInstallation(cfg: Pick<ServiceConfig, "controlPlaneUrl" | "endpoint">): "cloud" | "self-hosted" | undefined {
    if (Object.values(REGION_ENDPOINTS).includes(cfg.endpoint)) return "cloud";
    if (cfg.controlPlaneUrl === `${cfg.endpoint}/api-host`) return "self-hosted";
    return undefined;
}

/** Thrown when the configuration is missing or contradictory; the message says how to fix it, `key` which key it is about. */
export class ConfigError extends Error {
    constructor(
        message: string,
        readonly key?: ConfigKey,
    ) {
        super(message);
        this.name = "ConfigError";
    }
}

const KEYS = {
    apiKey: ["langsmith:apiKey", "LANGSMITH_API_KEY"],
    workspaceId: ["langsmith:workspaceId", "LANGSMITH_WORKSPACE_ID"],
    controlPlaneUrl: ["langsmith:controlPlaneUrl", "LANGSMITH_CONTROL_PLANE_URL"],
    selfHostedUrl: ["langsmith:selfHostedUrl", "LANGSMITH_SELF_HOSTED_URL"],
    region: ["langsmith:region", "LANGSMITH_REGION"],
    endpoint: ["langsmith:endpoint", "LANGSMITH_ENDPOINT"],
} as const;

/** A configuration key without its `langsmith:` prefix (`apiKey`). */
export type ConfigKey = keyof typeof KEYS;

/** Resolves the service configuration; throws ConfigError with the fix when it cannot. */
export function resolveServiceConfig(stack: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
    const fromStack = (k: ConfigKey) => nonEmpty(stack?.get(KEYS[k][0]));
    const fromEnv = (k: ConfigKey) => nonEmpty(env[KEYS[k][1]]);
    const either = (k: ConfigKey) => fromStack(k) ?? fromEnv(k);

    const apiKey = either("apiKey");
    if (!apiKey) {
        throw new ConfigError(
            "No LangSmith API key: set it with `pulumi config set --secret langsmith:apiKey <key>` " +
                "or in the environment variable LANGSMITH_API_KEY.",
            "apiKey",
        );
    }
    const where = locate(fromStack, "stack config") ?? locate(fromEnv, "environment") ?? { controlPlaneUrl: REGION_URLS.us, endpoint: REGION_ENDPOINTS.us };
    const endpoint = either("endpoint");
    return {
        apiKey,
        workspaceId: either("workspaceId"),
        controlPlaneUrl: where.controlPlaneUrl,
        endpoint: endpoint ? checkUrl(endpoint, "endpoint").replace(/\/api\/v1$/, "") : where.endpoint,
    };
}

/** Where the control plane is, and where the tracing API is unless `endpoint` says otherwise. */
function locate(get: (k: ConfigKey) => string | undefined, where: string): { controlPlaneUrl: string; endpoint: string } | undefined {
    const url = get("controlPlaneUrl");
    const host = get("selfHostedUrl");
    const region = get("region");
    const set = [url && "controlPlaneUrl", host && "selfHostedUrl", region && "region"].filter(Boolean);
    if (set.length > 1) {
        throw new ConfigError(`Set only one of ${set.join(", ")} in the ${where}: they all say where the control plane is.`, set[0] as ConfigKey);
    }
    // A bare control-plane URL (an emulator, a proxy) says nothing of the tracing API: the US cloud's
    // unless `endpoint` is set.
    if (url) return { controlPlaneUrl: checkUrl(url, "controlPlaneUrl"), endpoint: REGION_ENDPOINTS.us };
    if (host) {
        const h = checkUrl(host, "selfHostedUrl");
        return { controlPlaneUrl: `${h}/api-host`, endpoint: h };
    }
    if (region) {
        const r = region.toLowerCase();
        if (!REGION_URLS[r]) throw new ConfigError(`Unknown region ${JSON.stringify(region)}: use one of ${Object.keys(REGION_URLS).join(", ")}.`, "region");
        return { controlPlaneUrl: REGION_URLS[r], endpoint: REGION_ENDPOINTS[r] };
    }
    return undefined;
}

function checkUrl(value: string, name: ConfigKey): string {
    if (!URL.canParse(value)) throw new ConfigError(`${name} ${JSON.stringify(value)} is not a URL (expected e.g. https://langsmith.example.com).`, name);
    if (!httpUrl(value)) throw new ConfigError(`${name} must be an http(s) URL.`, name);
    return value.replace(/\/+$/, "");
}

function nonEmpty(v: string | undefined): string | undefined {
    return v === undefined || v.trim() === "" ? undefined : v.trim();
}
