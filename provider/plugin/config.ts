/**
 * The native plugin's provider configuration: what the engine sends (Configure's `args` and `variables`,
 * CheckConfig's and DiffConfig's olds and news) read as the same `langsmith:*` keys the dynamic resources
 * read from stack config, with the same environment fallbacks (provider/config.ts). Pure functions: the
 * gRPC server (server.ts) calls them.
 */
import { unwrapRpcSecret } from "@pulumi/pulumi/runtime/rpc";
import { ConfigError, resolveServiceConfig, type ConfigSource } from "../config";
import { credentialsRefused } from "../kit/service";
import { containsUnknown } from "../kit/unknown";

/** A value with Pulumi's secret marker (`{<sig>: <secret sig>, value}`) removed. */
export const unwrapSecret = (v: unknown): unknown => unwrapRpcSecret(v);

/**
 * The provider's inputs as a config source: `args` keys (`apiKey`) and legacy `variables` keys
 * (`langsmith:config:apiKey`) both answer `get("langsmith:apiKey")`.
 */
export function configSource(args: Record<string, unknown>, variables: ReadonlyMap<string, string> | Iterable<[string, string]> = []): ConfigSource {
    const values = new Map<string, string>();
    for (const [k, v] of variables) {
        const m = /^langsmith:(?:config:)?(\w+)$/.exec(k);
        if (m) values.set(m[1], v);
    }
    for (const [k, raw] of Object.entries(args)) {
        const v = unwrapSecret(raw);
        if (typeof v === "string") values.set(k, v);
        else if (typeof v === "number" || typeof v === "boolean") values.set(k, String(v));
    }
    return { get: (key) => values.get(key.replace(/^langsmith:/, "")) };
}

export interface ConfigFailure {
    property: string;
    reason: string;
}

/**
 * CheckConfig: the configuration resolves (stack config, then the environment), or why not, naming the key;
 * and the service takes its credentials (kit/service.ts `credentialsRefused`: one read, the engine reports a
 * refusal for the provider, once, before any resource is checked). An explicit provider whose settings are
 * Outputs not known yet at preview (another resource's output) is not checked then: the engine previews the
 * resources under it with unknown outputs, and checks the configuration again once it is known, before any
 * resource under it is created.
 */
export async function checkConfig(news: Record<string, unknown>): Promise<ConfigFailure[]> {
    if (Object.values(news).some((v) => containsUnknown(unwrapSecret(v)))) return [];
    try {
        const refused = await credentialsRefused(resolveServiceConfig(configSource(news)));
        return refused ? [{ property: "", reason: refused }] : [];
    } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        return [{ property: e.key ?? "", reason: e.message }];
    }
}

/**
 * DiffConfig: which keys changed. A changed key never replaces a resource (a rotated API key, another URL
 * of the same service): the resources are updated or refreshed through the new configuration.
 */
export function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
    const keys = new Set([...Object.keys(olds), ...Object.keys(news)].filter((k) => k !== "version"));
    return [...keys].filter((k) => JSON.stringify(unwrapSecret(olds[k]) ?? null) !== JSON.stringify(unwrapSecret(news[k]) ?? null)).sort();
}
