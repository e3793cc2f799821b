/**
 * Small rules about wire values that the provider and the emulator both apply, in one place: what an
 * http(s) URL is, what a uuid is, which values count as the same, and the text of a chat message. No Pulumi import.
 */

/**
 * The URL when `value` is an http(s) URL with a host (`https://host...`, parsed by WHATWG URL), else
 * undefined: `minio:9000`, `ftp://x` and the host-less `http:/x` (which WHATWG would repair) are not.
 */
export function httpUrl(value: string): URL | undefined {
    let url: URL;
    try {
        url = new URL(value);
    } catch {
        return undefined;
    }
    return (url.protocol === "http:" || url.protocol === "https:") && /^https?:\/\/[^/\s]+/i.test(value) ? url : undefined;
}

/** Absent and null are the same value (what a lookup by natural key compares). */
/** A uuid in its canonical form, any case (the service answers lower case). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether two JSON values are equal, object keys in any order (a server may answer them reordered: Postgres' JSONB does). */
export function sameJson(a: unknown, b: unknown): boolean {
    const sorted = (v: unknown): unknown =>
        Array.isArray(v)
            ? v.map(sorted)
            : v !== null && typeof v === "object"
              ? Object.fromEntries(
                    Object.keys(v)
                        .sort()
                        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
                )
              : v;
    return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

export const same = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null);

/** The text of a message's content: the string, or the text of each block of a list, joined by spaces. */
export function messageText(content: unknown): string {
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((b) => (typeof b === "string" ? b : ((b as { text?: string })?.text ?? ""))).join(" ");
    return "";
}
