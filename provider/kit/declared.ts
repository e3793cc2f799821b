/**
 * The resources' declarations (provider/resources/*.ts) as data, for the checks both front doors share: the
 * package schema scripts/schema.ts generates from them (provider/plugin/schema.json, copied beside the
 * plugin under dist/ by scripts/build.js). From it: the keys a resource's inputs may hold at every depth
 * (a misspelled one fails at preview: validate.ts `declared`, spelling.ts), and the inputs of a stored
 * state without what the resource only outputs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { known } from "./unknown";

/** A schema type: an object with properties, a list, a map, a reference to an object type, or a scalar. */
interface TypeSpec {
    type?: string;
    $ref?: string;
    items?: TypeSpec;
    additionalProperties?: TypeSpec;
    properties?: Record<string, TypeSpec>;
}

interface Schema {
    types: Record<string, TypeSpec>;
    resources: Record<string, { inputProperties: Record<string, TypeSpec> }>;
}

/** The resources the declarations name (their schema token is `langsmith:index:<name>`). */
export type ResourceName = "Deployment" | "ExportDestination" | "ScheduledExport" | "BulkExport" | "AgentServerCheck";

let loaded: Schema | undefined;
/** The schema beside the plugin: provider/plugin from source, dist/provider/plugin when built. */
function schema(): Schema {
    loaded ??= JSON.parse(readFileSync(join(__dirname, "../plugin/schema.json"), "utf8")) as Schema;
    return loaded;
}

/** The resource's input properties as an object type. */
const inputsOf = (resource: ResourceName): TypeSpec => ({ properties: schema().resources[`langsmith:index:${resource}`].inputProperties });

/** The type a `$ref` names (`#/types/langsmith:index:X`), or the type itself. */
function resolved(t: TypeSpec): TypeSpec {
    return t.$ref?.startsWith("#/types/") ? schema().types[t.$ref.slice("#/types/".length)] : t;
}

/** The inputs of `o` the resource declares (a read's inputs never carry what the resource only outputs). */
export function declaredInputs<T extends Record<string, unknown>>(resource: ResourceName, o: T): Partial<T> {
    const names = inputsOf(resource).properties!;
    return Object.fromEntries(Object.entries(o).filter(([k, v]) => k in names && v !== undefined)) as Partial<T>;
}

/** A key no declaration has, where it was met, and the keys that object takes. */
export interface UnknownKey {
    /** Where the object holding it sits in the inputs, as sent (`["sourceRevisionConfig"]`, `["secrets", "[0]"]`). */
    at: string[];
    key: string;
    /** The keys the object takes, as declared (camelCase), in declaration order. */
    valid: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Every key of `news` the resource's declaration does not have, at every depth (`__provider` of dynamic
 * resources aside; a key set to undefined or null is absent, as the SDKs drop it).
 */
export function unknownKeys(resource: ResourceName, news: Record<string, unknown>): UnknownKey[] {
    const found: UnknownKey[] = [];
    const { __provider: _, ...inputs } = news;
    walk(inputsOf(resource), inputs, [], found);
    return found;
}

function walk(spec: TypeSpec, v: unknown, at: string[], found: UnknownKey[]): void {
    if (v === undefined || v === null || !known(v)) return;
    const t = resolved(spec);
    if (t.properties && isObject(v)) {
        const valid = Object.keys(t.properties);
        for (const [k, x] of Object.entries(v)) {
            if (k in t.properties) walk(t.properties[k], x, [...at, k], found);
            else if (x !== undefined && x !== null) found.push({ at, key: k, valid });
        }
    } else if (t.items && Array.isArray(v)) {
        v.forEach((x, i) => walk(t.items!, x, [...at, `[${i}]`], found));
    } else if (t.additionalProperties && isObject(v)) {
        for (const [k, x] of Object.entries(v)) walk(t.additionalProperties, x, [...at, k], found);
    }
}
