/**
 * Objects that exist once per scope (docs/service.md R11: a workspace's retention settings, its usage limit of a
 * type, the organization's retention settings): two resources of one program for one scope would both be
 * created, and each put its own in turn at every `up`. Their declarations say `oncePerScope`, so the front doors
 * hand their check the resource's identity (autoname.ts: the plugin's URN; the dynamic class's project, stack,
 * type and logical name), and `onlyOnePerScope` refuses, at preview, a resource whose scope another resource of
 * the program holds.
 *
 * What a scope's holder is, is noted per provider process (one `pulumi preview` or `up`: the native plugin, or the
 * dynamic-provider host), by identity: the first resource checked for a scope holds it, and a later check of
 * that same resource (the preview's and the update's of one `up`, in one process or two) finds itself, never
 * another; a resource checked with another scope than before gives its old one up. A scope not known yet (a
 * `Workspace` made in the same program) is not claimed. Not seen: two resources that reach one scope through
 * two providers' plugins (a process each), or, through the dynamic class, two of one type and logical name under
 * different parents (one identity).
 */
import { createHash } from "node:crypto";
import type { Checker } from "./check";
import { known } from "./unknown";
import { logicalName } from "./autoname";

/** The resource (its identity) holding each scope, and the scope each identity holds. */
const holders = new Map<string, string>();
const held = new Map<string, string>();

/** Notes that `identity` holds `scope`; answers the other resource's identity when one holds it already. */
export function claim(scope: string, identity: string): string | undefined {
    const other = holders.get(scope);
    if (other !== undefined && other !== identity) return other;
    const before = held.get(identity);
    if (before !== undefined && before !== scope) holders.delete(before);
    holders.set(scope, identity);
    held.set(identity, scope);
    return undefined;
}

/**
 * Fails the check at `property` when another resource of the program holds `scope` (`${resource}|` and its parts;
 * a part not known yet: nothing claimed). `what` says the scope's object in words (`the retention settings of
 * workspace <id>`). Without an identity (a check called directly, not through a front door) nothing is claimed.
 */
export function onlyOnePerScope(
    c: Checker,
    o: { resource: string; identity: string | undefined; parts: unknown[]; property: string; what: string; exists: string },
): void {
    if (!o.identity || !o.parts.every((p) => p !== undefined && p !== "" && known(p))) return;
    const other = claim(JSON.stringify([o.resource, ...o.parts]), o.identity);
    if (other === undefined) return;
    c.fail(
        o.property,
        `${o.resource} ${JSON.stringify(logicalName(other))} of this program already holds ${o.what}: ${o.exists}, so two would each put their own in turn at every \`pulumi up\`; keep one`,
    );
}

/**
 * The parts of an organization's scope (its retention, settings, SSO): the service and its API key, hashed (one
 * organization per key: two resources reaching it with one key hold one organization's). No configuration: unknown.
 */
export const organizationScope = (cfg: { endpoint: string; apiKey: string } | undefined): unknown[] =>
    cfg ? [cfg.endpoint, createHash("sha256").update(cfg.apiKey).digest("hex")] : [undefined];
