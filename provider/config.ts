/**
 * Where the provider finds the service: stack configuration (`langsmith:*`, passed to the dynamic
 * provider's `configure()` at run time), then the environment. Nothing here is ever captured in the
 * serialized provider or written to a resource's inputs: the API key lives only in the memory of the
 * provider process.
 *
 * The keys are the table `KEYS` below (the native plugin's schema describes its configuration from it).
 * Each key is looked up in stack config first, then in the environment. Of the three ways to say where
 * the control plane is, at most one may be set in the stack config and at most one in the environment;
 * stack config wins over the environment. The tracing API is a second address, not a fourth way: by
 * default it follows the region (or is the self-hosted installation's host itself), and `endpoint` sets it
 * beside any of the three.
 *
 * The resolved configuration records where each value came from (`sources`: the stack config key, the
 * environment variable, or the default and why it applies), so that an error of a request that got no
 * answer, or was refused for its credentials, names the setting to fix (api/client.ts, `sources`).
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
    /**
     * Where each value came from, for the errors of a request that got no answer or was refused (401, 403):
     * they name the setting to fix. Words and key names only, never a value.
     */
    sources?: ConfigSources;
}

/** Where a resolved value came from. */
export interface SettingSource {
    /**
     * The setting that gave the value: a stack config key (`langsmith:region`), an environment variable
     * (`LANGSMITH_REGION`), or `default` when none did.
     */
    setting: string;
    /** The same in words an error carries: `stack config langsmith:apiKey`; a default or derived value says why. */
    text: string;
}

/** Where each value of a ServiceConfig came from. */
export interface ConfigSources {
    apiKey: SettingSource;
    /** Undefined when no workspace id is set. */
    workspaceId?: SettingSource;
    controlPlaneUrl: SettingSource;
    endpoint: SettingSource;
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

/** One configuration key: where it is looked up (stack config, then the environment), and what it means. */
export interface ConfigKeySpec {
    /** [stack config key, environment variable]. */
    places: readonly [string, string];
    meaning: string;
    secret?: boolean;
}

/** Every configuration key; the native plugin's schema is made from this table too (kit/schema.ts). */
export const KEYS = {
    apiKey: { places: ["langsmith:apiKey", "LANGSMITH_API_KEY"], meaning: "API key, sent as `X-Api-Key`", secret: true },
    workspaceId: { places: ["langsmith:workspaceId", "LANGSMITH_WORKSPACE_ID"], meaning: "workspace id, sent as `X-Tenant-Id`" },
    controlPlaneUrl: { places: ["langsmith:controlPlaneUrl", "LANGSMITH_CONTROL_PLANE_URL"], meaning: "full control-plane URL" },
    selfHostedUrl: { places: ["langsmith:selfHostedUrl", "LANGSMITH_SELF_HOSTED_URL"], meaning: "self-hosted installation host; `/api-host` is appended" },
    region: { places: ["langsmith:region", "LANGSMITH_REGION"], meaning: "`us` (default) or `eu` cloud" },
    endpoint: { places: ["langsmith:endpoint", "LANGSMITH_ENDPOINT"], meaning: "tracing API (bulk export), with or without `/api/v1`" },
} as const satisfies Record<string, ConfigKeySpec>;

/** A configuration key without its `langsmith:` prefix (`apiKey`). */
export type ConfigKey = keyof typeof KEYS;

/** The two places a key is looked up in, in order; the index of each in KEYS. */
const PLACES = [
    { index: 0, name: "stack config", setting: "stack config" },
    { index: 1, name: "environment", setting: "environment variable" },
] as const;
type Place = (typeof PLACES)[number];

/** A value found in one place, and where. */
interface Found {
    value: string;
    source: SettingSource;
}

/** `stack config langsmith:region`, `environment variable LANGSMITH_REGION`. */
function sourceOf(k: ConfigKey, place: Place): SettingSource {
    const setting = KEYS[k].places[place.index];
    return { setting, text: `${place.setting} ${setting}` };
}

/**
 * The provider's workspace id alone (stack config, else the environment), without resolving the rest: what a
 * resource without a `workspaceId` of its own is in (kit/workspace.ts), which a diff reads even where no API
 * key is configured.
 */
export function configuredWorkspaceId(stack: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
    const [place, variable] = KEYS.workspaceId.places;
    return nonEmpty(stack?.get(place)) ?? nonEmpty(env[variable]);
}

/** Resolves the service configuration; throws ConfigError with the fix when it cannot. */
export function resolveServiceConfig(stack: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
    const read =
        (place: Place) =>
        (k: ConfigKey): Found | undefined => {
            const value = nonEmpty(place.index === 0 ? stack?.get(KEYS[k].places[0]) : env[KEYS[k].places[1]]);
            return value === undefined ? undefined : { value, source: sourceOf(k, place) };
        };
    const [fromStack, fromEnv] = PLACES.map(read);
    const either = (k: ConfigKey) => fromStack(k) ?? fromEnv(k);

    const apiKey = either("apiKey");
    if (!apiKey) {
        throw new ConfigError(
            "No LangSmith API key: set it with `pulumi config set --secret langsmith:apiKey <key>` " + "or in the environment variable LANGSMITH_API_KEY.",
            "apiKey",
        );
    }
    const where = locate(fromStack, PLACES[0]) ?? locate(fromEnv, PLACES[1]) ?? usCloudByDefault();
    const endpoint = either("endpoint");
    const workspaceId = either("workspaceId");
    return {
        apiKey: apiKey.value,
        workspaceId: workspaceId?.value,
        controlPlaneUrl: where.controlPlaneUrl.value,
        endpoint: endpoint ? checkUrl(endpoint.value, "endpoint").replace(/\/api\/v1$/, "") : where.endpoint.value,
        sources: {
            apiKey: apiKey.source,
            workspaceId: workspaceId?.source,
            controlPlaneUrl: where.controlPlaneUrl.source,
            endpoint: endpoint?.source ?? where.endpoint.source,
        },
    };
}

/** Where the control plane is, and where the tracing API is unless `endpoint` says otherwise; each with its source. */
interface Location {
    controlPlaneUrl: Found;
    endpoint: Found;
}

/** Said of a tracing API that `endpoint` did not set. */
const NO_ENDPOINT = "since neither langsmith:endpoint nor LANGSMITH_ENDPOINT is set";

/** The US cloud, when no place says where the service is. */
function usCloudByDefault(): Location {
    const none =
        "none of langsmith:controlPlaneUrl, selfHostedUrl, region (nor LANGSMITH_CONTROL_PLANE_URL, LANGSMITH_SELF_HOSTED_URL, LANGSMITH_REGION) is set";
    return {
        controlPlaneUrl: { value: REGION_URLS.us, source: { setting: "default", text: `the US cloud's control plane: the default, since ${none}` } },
        endpoint: { value: REGION_ENDPOINTS.us, source: { setting: "default", text: `the US cloud's tracing API: the default, ${NO_ENDPOINT}` } },
    };
}

/** The location one place (stack config or environment) gives, if it gives one. */
function locate(get: (k: ConfigKey) => Found | undefined, place: Place): Location | undefined {
    const url = get("controlPlaneUrl");
    const host = get("selfHostedUrl");
    const region = get("region");
    const set = [url && "controlPlaneUrl", host && "selfHostedUrl", region && "region"].filter(Boolean);
    if (set.length > 1) {
        throw new ConfigError(`Set only one of ${set.join(", ")} in the ${place.name}: they all say where the control plane is.`, set[0] as ConfigKey);
    }
    if (url) return atControlPlaneUrl(url, place);
    if (host) return atSelfHostedUrl(host);
    if (region) return atRegion(region);
    return undefined;
}

/**
 * A bare control-plane URL (an emulator, a proxy) says nothing of the tracing API: the US cloud's unless
 * `endpoint` is set, which the source says (a newcomer's emulator URL sent bulk export to the cloud).
 */
function atControlPlaneUrl(url: Found, place: Place): Location {
    const fix =
        place.index === 0
            ? "with langsmith:controlPlaneUrl set, set langsmith:endpoint too"
            : "with LANGSMITH_CONTROL_PLANE_URL set, set LANGSMITH_ENDPOINT too";
    return {
        controlPlaneUrl: { value: checkUrl(url.value, "controlPlaneUrl"), source: url.source },
        endpoint: { value: REGION_ENDPOINTS.us, source: { setting: "default", text: `the US cloud's tracing API: the default, ${NO_ENDPOINT}; ${fix}` } },
    };
}

/** A self-hosted installation: its control plane under `/api-host`, its tracing API the host itself. */
function atSelfHostedUrl(host: Found): Location {
    const h = checkUrl(host.value, "selfHostedUrl");
    return {
        controlPlaneUrl: { value: `${h}/api-host`, source: { ...host.source, text: `${host.source.text}, with /api-host appended` } },
        endpoint: { value: h, source: { ...host.source, text: `the self-hosted installation's host, from ${host.source.text}, ${NO_ENDPOINT}` } },
    };
}

/** A cloud region's control plane and tracing API. */
function atRegion(region: Found): Location {
    const r = region.value.toLowerCase();
    if (!REGION_URLS[r]) throw new ConfigError(`Unknown region ${JSON.stringify(region.value)}: use one of ${Object.keys(REGION_URLS).join(", ")}.`, "region");
    const cloud = `the ${r.toUpperCase()} cloud's`;
    return {
        controlPlaneUrl: { value: REGION_URLS[r], source: { ...region.source, text: `${cloud} control plane, from ${region.source.text}` } },
        endpoint: { value: REGION_ENDPOINTS[r], source: { ...region.source, text: `${cloud} tracing API, from ${region.source.text}, ${NO_ENDPOINT}` } },
    };
}

function checkUrl(value: string, name: ConfigKey): string {
    if (!URL.canParse(value)) throw new ConfigError(`${name} ${JSON.stringify(value)} is not a URL (expected e.g. https://langsmith.example.com).`, name);
    if (!httpUrl(value)) throw new ConfigError(`${name} must be an http(s) URL.`, name);
    return value.replace(/\/+$/, "");
}

function nonEmpty(v: string | undefined): string | undefined {
    return v === undefined || v.trim() === "" ? undefined : v.trim();
}
