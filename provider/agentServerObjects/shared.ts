/**
 * What the resources that live on a deployed agent server (Assistant, Cron) share: the run configuration both
 * declare; their errors name the server's address; their import id names it too (the server is the resource's
 * `url`, which an id alone does not give); what the server answers empty is read as absent.
 */
import { any, list, map, number, object, string, type OnChange } from "../kit/declare";

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

/**
 * `o` without the values the server answers for "none": nulls, empty strings, lists and objects. Only `o`'s own
 * entries: the values inside a map are the program's (a metadata value `""` is a value).
 */
export function withoutEmpty(o: Record<string, unknown>): Record<string, unknown> {
    const empty = (v: unknown) =>
        v === undefined || v === null || v === "" || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Object.keys(v as object).length);
    return Object.fromEntries(Object.entries(o).filter(([, v]) => !empty(v)));
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
