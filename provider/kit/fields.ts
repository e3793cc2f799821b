/**
 * What a declaration (declare.ts) says of a value, field by field, at every depth: the keys it does not
 * declare, the type failures with their property paths, and the value normalized (aliases mapped to the
 * wire values, defaults filled, fields that do not apply dropped). check.ts's Checker runs them first; a
 * resource's own check then adds the rules a declaration cannot say. Pulumi's unknown sentinel passes
 * everywhere and stays in place (diff must see "will change", not "removed"). And the empty values a program gives
 * that the service answers as absent (`emptiesAsAbsent`), taken as absent.
 */
import type { Field, Fields, StringField } from "./declare";
import { known } from "./unknown";

/** A key no declaration has, where it was met, and the keys that object takes. */
export interface UnknownKey {
    /** Where the object holding it sits in the inputs, as sent (`["sourceRevisionConfig"]`, `["secrets", "[0]"]`). */
    at: string[];
    key: string;
    /** The keys the object takes, as declared (camelCase), in declaration order. */
    valid: string[];
}

export interface Failure {
    property: string;
    reason: string;
}

type Obj = Record<string, unknown>;
/** A plain object (not null, not a list). */
export const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;
/** A value a program set: not absent, empty, `false` or an empty list (those ask for nothing). */
export const isGiven = (v: unknown) => !absent(v) && v !== "" && v !== false && !(Array.isArray(v) && v.length === 0);
const join = (at: string, key: string) => (at ? `${at}.${key}` : key);

/** Every key of `value` the fields do not declare, at every depth (a key set to undefined or null is absent, as the SDKs drop it). */
export function unknownKeys(fields: Fields, value: Obj): UnknownKey[] {
    const found: UnknownKey[] = [];
    walkObject(fields, value, [], found);
    return found;
}

function walkObject(fields: Fields, v: Obj, at: string[], found: UnknownKey[]): void {
    const valid = Object.keys(fields);
    for (const [k, x] of Object.entries(v)) {
        if (k in fields) walkField(fields[k], x, [...at, k], found);
        else if (!absent(x)) found.push({ at, key: k, valid });
    }
}

function walkField(f: Field, v: unknown, at: string[], found: UnknownKey[]): void {
    if (absent(v) || !known(v)) return;
    if (f.kind === "object" && isObject(v)) walkObject(f.fields, v, at, found);
    if (f.kind === "list" && Array.isArray(v)) for (const [i, x] of v.entries()) walkField(f.items, x, [...at, `[${i}]`], found);
    if (f.kind === "map" && isObject(v)) for (const [k, x] of Object.entries(v)) walkField(f.values, x, [...at, k], found);
}

/** The type failures of `value` against the fields: required, type, enum, where a field applies; `root` is the resource's inputs. */
export function typeFailures(fields: Fields, value: Obj, root: Obj = value, at = ""): Failure[] {
    return Object.entries(fields).flatMap(([key, f]) => fieldFailures(key, f, value[key], root, join(at, key)));
}

function fieldFailures(key: string, f: Field, v: unknown, root: Obj, p: string): Failure[] {
    if (absent(v)) return f.required ? [{ property: p, reason: `${p} is required` }] : [];
    if (!known(v)) return [];
    if (f.appliesIf && !f.appliesIf.when(root)) return isGiven(v) ? [{ property: p, reason: `${key} applies only to ${f.appliesIf.to}` }] : [];
    const fail = (reason: string) => [{ property: p, reason: `${p} ${reason}` }];
    switch (f.kind) {
        case "string":
            if (typeof v !== "string") return fail("must be a string");
            if (f.required && v === "") return fail(f.neverReturned ? neverReturnedReason(key, f.neverReturned) : "must not be empty");
            return f.values && enumValue(f, v) === undefined ? fail(`must be one of ${f.values.join(", ")} (got ${JSON.stringify(v)})`) : [];
        case "number":
            if (typeof v !== "number") return fail("must be a number");
            return f.integer && !Number.isInteger(v) ? fail("must be a whole number") : [];
        case "boolean":
            return typeof v === "boolean" ? [] : fail("must be a boolean");
        case "object":
            return isObject(v) ? typeFailures(f.fields, v, root, p) : fail("must be an object");
        case "list":
            return Array.isArray(v) ? v.flatMap((x, i) => fieldFailures(key, f.items, x, root, `${p}[${i}]`)) : fail("must be a list");
        case "map":
            return isObject(v) ? Object.entries(v).flatMap(([k, x]) => fieldFailures(k, f.values, x, root, `${p}.${k}`)) : fail("must be an object");
        case "any":
            return [];
    }
}

/**
 * Why an empty `key` the service never returns (`what`: "secret values") is refused, and what to write instead:
 * the code `pulumi import` generates holds `""` in its place.
 */
export function neverReturnedReason(key: string, what: string): string {
    return (
        `must not be empty: the service never returns ${what}, so \`pulumi import\` writes "" in their place. ` +
        `Give the real value from a secret config key: \`pulumi config set --secret <key> <value>\`, then in YAML ` +
        `\`${key}: \${<key>}\` (with <key> under \`config:\`, \`secret: true\`), in TypeScript ` +
        `\`config.requireSecret("<key>")\`, in Python \`config.require_secret("<key>")\``
    );
}

/** The wire value an enum's string stands for (itself, or what its alias maps to); undefined when it is neither. */
export function enumValue(f: StringField, v: string): string | undefined {
    if (!f.values || f.values.includes(v)) return v;
    return f.aliases?.[v];
}

/**
 * The value as the resource works with it: aliases mapped to wire values, absent fields with a default
 * filled (when they apply), fields that do not apply dropped; keys not declared and unknown values kept
 * as they are. Values of the wrong type are left as they are too (the type failures say so).
 */
export function normalized(fields: Fields, value: Obj, root: Obj = value): Obj {
    const out: Obj = { ...value };
    for (const [key, f] of Object.entries(fields)) {
        const v = normalizedField(f, value[key], root);
        if (v === undefined) delete out[key];
        else out[key] = v;
    }
    return out;
}

function normalizedField(f: Field, v: unknown, root: Obj): unknown {
    if (f.appliesIf && known(root) && !f.appliesIf.when(root)) return undefined;
    if (absent(v)) return f.default === undefined ? undefined : normalizedField(f, structuredClone(f.default), root);
    if (!known(v)) return v;
    if (f.kind === "string" && typeof v === "string") return enumValue(f, v) ?? v;
    if (f.kind === "object" && isObject(v)) return normalized(f.fields, v, root);
    if (f.kind === "list" && Array.isArray(v)) return v.map((x) => normalizedField(f.items, x, root) ?? x);
    return v;
}

/**
 * The checked inputs without the empty values the program gave (`""`, `{}`, `[]`, at the top and in the objects
 * named in `nested`): the service answers them as absent, and a refresh would otherwise see a change for ever.
 */
export function emptiesAsAbsent(inputs: Record<string, unknown>, nested: string[] = []): Record<string, unknown> {
    const out = { ...inputs };
    for (const k of nested) if (isObject(out[k])) out[k] = withoutEmpty(out[k] as Record<string, unknown>);
    // Once: a nested object left empty goes with the top's empties.
    return withoutEmpty(out);
}

/**
 * `o` without the values a service answers for "none": nulls, empty strings, lists and objects. Only `o`'s own
 * entries: the values inside a map are the program's (a metadata value `""` is a value).
 */
export function withoutEmpty(o: Record<string, unknown>): Record<string, unknown> {
    const empty = (v: unknown) =>
        v === undefined || v === null || v === "" || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Object.keys(v as object).length);
    return Object.fromEntries(Object.entries(o).filter(([, v]) => !empty(v)));
}
