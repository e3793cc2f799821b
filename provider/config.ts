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
 *
 * Each key is looked up in stack config first, then in the environment. Of the three ways to say where
 * the control plane is, at most one may be set in the stack config and at most one in the environment;
 * stack config wins over the environment.
 */
export interface ConfigSource {
    get(key: string): string | undefined;
}

export interface ServiceConfig {
    apiKey: string;
    workspaceId?: string;
    controlPlaneUrl: string;
}

export const REGION_URLS: Readonly<Record<string, string>> = {
    us: "https://api.host.langchain.com",
    eu: "https://eu.api.host.langchain.com",
};

/** Thrown when the configuration is missing or contradictory; the message says how to fix it. */
export class ConfigError extends Error {
    constructor(message: string) {
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
} as const;

/** Resolves the service configuration; throws ConfigError with the fix when it cannot. */
export function resolveServiceConfig(stack: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
    const fromStack = (k: keyof typeof KEYS) => nonEmpty(stack?.get(KEYS[k][0]));
    const fromEnv = (k: keyof typeof KEYS) => nonEmpty(env[KEYS[k][1]]);
    const either = (k: keyof typeof KEYS) => fromStack(k) ?? fromEnv(k);

    const apiKey = either("apiKey");
    if (!apiKey) {
        throw new ConfigError(
            "No LangSmith API key: set it with `pulumi config set --secret langsmith:apiKey <key>` " +
                "or in the environment variable LANGSMITH_API_KEY.",
        );
    }
    const controlPlaneUrl = locate(fromStack, "stack config") ?? locate(fromEnv, "environment") ?? REGION_URLS.us;
    return { apiKey, workspaceId: either("workspaceId"), controlPlaneUrl };
}

function locate(get: (k: keyof typeof KEYS) => string | undefined, where: string): string | undefined {
    const url = get("controlPlaneUrl");
    const host = get("selfHostedUrl");
    const region = get("region");
    const set = [url && "controlPlaneUrl", host && "selfHostedUrl", region && "region"].filter(Boolean);
    if (set.length > 1) {
        throw new ConfigError(`Set only one of ${set.join(", ")} in the ${where}: they all say where the control plane is.`);
    }
    if (url) return checkUrl(url, "controlPlaneUrl");
    if (host) return checkUrl(host, "selfHostedUrl").replace(/\/+$/, "") + "/api-host";
    if (region) {
        const r = REGION_URLS[region.toLowerCase()];
        if (!r) throw new ConfigError(`Unknown region ${JSON.stringify(region)}: use one of ${Object.keys(REGION_URLS).join(", ")}.`);
        return r;
    }
    return undefined;
}

function checkUrl(value: string, name: string): string {
    let u: URL;
    try {
        u = new URL(value);
    } catch {
        throw new ConfigError(`${name} ${JSON.stringify(value)} is not a URL (expected e.g. https://langsmith.example.com).`);
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") throw new ConfigError(`${name} must be an http(s) URL.`);
    return value.replace(/\/+$/, "");
}

function nonEmpty(v: string | undefined): string | undefined {
    return v === undefined || v.trim() === "" ? undefined : v.trim();
}
