/**
 * The resources' declarations (provider/resources/*.ts) as data: the package schema scripts/schema.ts
 * generates from them (provider/plugin/schema.json, copied beside the plugin under dist/ by
 * scripts/build.js). From it: the inputs of a stored state without what the resource only outputs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A schema type: an object with properties, a reference to an object type, or a scalar. */
interface TypeSpec {
    type?: string;
    $ref?: string;
    properties?: Record<string, TypeSpec>;
}

interface Schema {
    resources: Record<string, { inputProperties: Record<string, TypeSpec> }>;
}

/** The resources the declarations name (their schema token is `langsmith:index:<name>`). */
export type ResourceName = "Deployment" | "ExportDestination" | "ScheduledExport" | "BulkExport" | "AgentServerCheck";

let loaded: Schema | undefined;
/** The schema beside the plugin: provider/plugin from source, dist/provider/plugin when built. */
function schema(): Schema {
    loaded ??= JSON.parse(readFileSync(join(__dirname, "../../plugin/schema.json"), "utf8")) as Schema;
    return loaded;
}

/** The resource's input properties as an object type. */
const inputsOf = (resource: ResourceName): TypeSpec => ({ properties: schema().resources[`langsmith:index:${resource}`].inputProperties });

/** The inputs of `o` the resource declares (a read's inputs never carry what the resource only outputs). */
export function declaredInputs<T extends Record<string, unknown>>(resource: ResourceName, o: T): Partial<T> {
    const names = inputsOf(resource).properties!;
    return Object.fromEntries(Object.entries(o).filter(([k, v]) => k in names && v !== undefined)) as Partial<T>;
}
