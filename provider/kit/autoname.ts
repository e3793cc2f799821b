/**
 * Autonaming, as Pulumi users expect of a name that only has to be unique (a deployment, a tracing project, a
 * dataset): a program may leave the name out, and the resource is named after its logical name plus a
 * suffix (`agent` -> `agent-3f9c2a1`), within the service's rules for the name (the field's `autoname` rule).
 *
 * The suffix is the hash of the resource's identity (project, stack, type, logical name; the plugin's URN,
 * which also holds the parents), not a random draw: the preview shows the very name the `up` makes, and a
 * `pulumi up` killed after the service made the object finds it again by that name at the next `up` (the
 * name is held: refused with its id, or adopted), where a random name would make a second one. A
 * replacement keeps the name, so it deletes first, as for any kept name. Once made, the name stays: the
 * check keeps the current one while the program gives none.
 *
 * The front doors hand the check the name to use under `__autoname` (the dynamic class, from the logical
 * name; the plugin, from the URN or the engine's `pulumi:autonaming` proposal); `autonamed` fills the field
 * with it before the resource's own check sees the inputs. A declaration with a field derived from the
 * resource's identity (`fromIdentity`: an assistant's id), or whose object exists once per scope (`oncePerScope`:
 * scope.ts), is handed that identity under `__identity` (the plugin: the URN; the dynamic class: project, stack,
 * type and logical name), which its check reads and drops. It is the same at every check of one resource: the
 * preview's and the update's of one `up`, in one provider process or two.
 */
import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { AutonameRule, ResourceDeclaration } from "./declare";

/** The input the front doors add: the name to give a resource whose program gives none. */
export const AUTONAME = "__autoname";

/** The input the front doors add for a declaration that takes the resource's identity (`takesIdentity`). */
export const IDENTITY = "__identity";

/**
 * Whether the front doors hand a declaration's check the resource's identity: it has a field derived from it
 * (declare.ts `fromIdentity`), or its object exists once per scope (`oncePerScope`).
 */
export const takesIdentity = (d: ResourceDeclaration): boolean => d.oncePerScope === true || Object.values(d.inputs).some((f) => f.fromIdentity);

/** The logical name in an identity the front doors hand (`urn:pulumi:...::name`, or `project/stack/type/name`), for messages. */
export const logicalName = (identity: string): string =>
    identity.startsWith("urn:pulumi:") ? (identity.split("::").pop() ?? identity) : identity.split("/").slice(3).join("/") || identity;

/** The identity a front door hands the check, and the inputs without it. */
export function withoutIdentity(news: Record<string, unknown>): { identity: string | undefined; inputs: Record<string, unknown> } {
    const { [IDENTITY]: identity, ...inputs } = news;
    return { identity: typeof identity === "string" && identity !== "" ? identity : undefined, inputs };
}

/** The autonamed field of a declaration and its rule, if it has one. */
export function autonamedField(d: ResourceDeclaration): [string, AutonameRule] | undefined {
    for (const [key, f] of Object.entries(d.inputs)) {
        if (f.kind === "string" && f.autoname) return [key, f.autoname];
    }
    return undefined;
}

const SUFFIX_LENGTH = 7;

/** The name of a resource identified by `identity` (its URN, or project/stack/type/name), after its logical name. */
export function autoname(rule: AutonameRule, logical: string, identity: string): string {
    const suffix = createHash("sha256").update(identity).digest("hex").slice(0, SUFFIX_LENGTH);
    let prefix = rule.normalize ? rule.normalize(logical) : logical;
    if (rule.maxLength !== undefined) prefix = prefix.slice(0, rule.maxLength - SUFFIX_LENGTH - 1).replace(/-+$/, "");
    return prefix ? `${prefix}-${suffix}` : suffix;
}

/** `news` with the autonamed field filled when the program left it out: the current name, else the one handed in. */
export function withAutoname(d: ResourceDeclaration, olds: Record<string, unknown>, news: Record<string, unknown>): Record<string, unknown> {
    const { [AUTONAME]: proposed, ...inputs } = news;
    const field = autonamedField(d)?.[0];
    if (!field || (inputs[field] !== undefined && inputs[field] !== null)) return inputs;
    const current = olds?.[field];
    const name = typeof current === "string" && current !== "" ? current : proposed;
    return name === undefined ? inputs : { ...inputs, [field]: name };
}

/**
 * `p` whose check fills the autonamed field of `d` first (a declaration without one: `p` itself); left without a
 * name (the stack's `pulumi:autonaming` disables autonaming), the field is required.
 */
export function autonamed<P extends pulumi.dynamic.ResourceProvider>(d: ResourceDeclaration, p: P): P {
    const field = autonamedField(d)?.[0];
    if (!field || !p.check) return p;
    const check = p.check.bind(p);
    return Object.assign(Object.create(p) as P, {
        async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
            const inputs = withAutoname(d, olds, news);
            const r = await check(olds, inputs);
            if (inputs[field] !== undefined) return r;
            // The resource's own "is required", said with the reason.
            const reason = `${field} is required: the stack's pulumi:autonaming disables naming ${d.name} resources after their logical name`;
            return { ...r, failures: [...(r.failures ?? []).filter((f) => f.property !== field), { property: field, reason }] };
        },
    });
}

/** A deployment's name rule: lowercase letters, digits and hyphens, one DNS label (the deployment's URL starts with it). */
export const DNS_LABEL: AutonameRule = {
    maxLength: 63,
    normalize: (s) =>
        s
            .toLowerCase()
            .replace(/[^a-z0-9-]+/g, "-")
            .replace(/-{2,}/g, "-")
            .replace(/^-+|-+$/g, ""),
};
