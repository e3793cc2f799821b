/**
 * What the resources that live on a deployed agent server (Assistant, Cron; AgentServerCheck reads its `url`
 * the same way) share: the run configuration both declare; the check of the server's address, and what an
 * address not known at preview means for a diff; their errors name the server's address; their import id names
 * it too (the server is the resource's `url`, which an id alone does not give); what the server answers empty
 * is read as absent, and an empty value the program gives is taken as absent too (kit/fields.ts `emptiesAsAbsent`).
 */
import { NotAnAgentServerError, type AgentServerClient } from "../../api/agentServer";
import type { Checker } from "../../kit/check";
import { any, list, map, number, object, string, type OnChange } from "../../kit/declare";
import { unknownMeansChanged } from "../../kit/preview";
import { UNKNOWN } from "../../kit/unknown";

/** A run configuration (`config`: what the graph's runs start with), with what a change of it does. */
export const runConfig = <const C extends OnChange>(description: string, onChange: C) =>
    object(
        "RunConfig",
        description,
        {
            configurable: map(
                "The graph's configurable values (model, prompt, tools...), as the graph reads them from `config.configurable`.",
                any("A value."),
            ),
            tags: list("Tags of the runs.", string("A tag.")),
            recursionLimit: number("The most steps a run may take.", { integer: true }),
        },
        { onChange },
    );

/** The agent server's address (`url`): required, an http(s) URL once known. */
export function checkServerUrl(c: Checker, url: unknown): void {
    c.httpUrl(url, "url", `url must be the agent server's http(s) URL (e.g. deployment.customUrl), not ${JSON.stringify(url)}`, true);
}

/**
 * A diff whose `url` is not known yet (a deployment's `customUrl` in the preview of its update: the dynamic
 * provider previews no outputs) says "update", not "replace": a new revision keeps the server's address, and
 * `pulumi up` diffs again once it is known, replacing when it did change. Under the native plugin, whose
 * previews answer the URL an update keeps, an unknown one is a new server (a deployment replaced): "replace".
 */
export function urlMayStay<D extends { replaces: string[]; updates: string[] }>(d: D, news: { url?: unknown }): D {
    if (news.url !== UNKNOWN || !d.replaces.includes("url") || unknownMeansChanged()) return d;
    return { ...d, replaces: d.replaces.filter((k) => k !== "url"), updates: [...d.updates, "url"] };
}

/**
 * What a read found: the object; or, when the server has none of that id, undefined (the resource leaves the
 * stack), once the address has said it is an agent server (`ok`) or that none is there any more (a 404: a
 * deleted deployment, whose objects went with it). Any other answer (a 403, another API's page) is an error:
 * a wrong address never drops the resource from the stack.
 */
export async function foundOrGone<T>(s: AgentServerClient, found: T | undefined): Promise<T | undefined> {
    if (found === undefined) await s.ok().catch((e) => (e instanceof NotAnAgentServerError && e.status === 404 ? undefined : Promise.reject(e)));
    return found;
}

/**
 * Runs one operation of `resource` on the agent server at `url`: a failure says which server and which
 * operation, beside the server's own words (the HTTP client's message: status, detail, method and path).
 */
export async function onAgentServer<T>(resource: string, url: string, op: string, run: () => Promise<T>): Promise<T> {
    try {
        return await run();
    } catch (e) {
        throw new Error(`${resource} on the agent server at ${url}: ${op} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
}

/**
 * The server and the object's id: from the stored `url` (refresh), or from an import id `<url>|<id>` (the
 * engine gives `pulumi import` the id alone).
 */
export function splitImportId(id: string, url: string | undefined, resource: string, form: string): { url: string; objectId: string } {
    if (url) return { url, objectId: id };
    const bar = id.lastIndexOf("|");
    if (bar > 0 && URL.canParse(id.slice(0, bar))) return { url: id.slice(0, bar), objectId: id.slice(bar + 1) };
    throw new Error(
        `${resource}: import it with the id ${form} (the agent server's URL, a bar, then its id on that server), e.g. ` +
            `\`pulumi import langsmith:index:${resource} name 'https://agent.example.com|0b4a...'\`; got ${JSON.stringify(id)}`,
    );
}

/** A map without its null values: the keys a PATCH removed from metadata the server merges (`mergedAway`). */
export function withoutNulls(o: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    return o && Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

/**
 * The metadata a PATCH sends to make the server's hold `news`: the server merges metadata key by key, so a key
 * the program no longer has is sent as null (read back as absent: `withoutNulls`).
 */
export function mergedAway(olds: Record<string, unknown> | undefined, news: Record<string, unknown> | undefined): Record<string, unknown> {
    const removed = Object.keys(olds ?? {}).filter((k) => !(k in (news ?? {})));
    return { ...Object.fromEntries(removed.map((k) => [k, null])), ...news };
}
