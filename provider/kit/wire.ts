/**
 * The camelCase <-> snake_case mapping of a declaration (declare.ts), both ways and at every depth: a
 * field goes to the wire under its wire name (the snake_case of its name unless it says otherwise), and
 * comes back from it the same way. Fields never sent (`wire: false`), fields that do not apply to the
 * resource (`appliesIf`) and absent values are left out both ways; a null from the service is absent. The
 * keys of a map are the program's (a deployment's `resourceSpec` is in the service's own spelling) and
 * pass as they are.
 */
import { wireName, type Field, type Fields } from "./declare";
import { isObject } from "./fields";

type Obj = Record<string, unknown>;

/** Where a field applies, given the resource's inputs (`root`). */
const applies = (f: Field, root: Obj) => !f.appliesIf || f.appliesIf.when(root);

/** The wire form of an object of fields; `root` is the resource's inputs (for `appliesIf`). */
export function toWire(fields: Fields, value: Obj, root: Obj = value): Obj {
    const out: Obj = {};
    for (const [key, f] of Object.entries(fields)) {
        const name = wireName(key, f);
        const v = value[key];
        if (name === undefined || v === undefined || v === null || !applies(f, root)) continue;
        out[name] = wireValue(f, v, root);
    }
    return out;
}

/** The wire form of one field's value. */
export function wireValue(f: Field, v: unknown, root: Obj): unknown {
    if (f.kind === "object" && isObject(v)) return toWire(f.fields, v, root);
    if (f.kind === "list" && Array.isArray(v)) return v.map((x) => wireValue(f.items, x, root));
    if (f.kind === "map" && isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wireValue(f.values, x, root)]));
    return v;
}

/** An object of fields from its wire form; `root` is the resource's inputs (for `appliesIf`). */
export function fromWire(fields: Fields, wire: Obj, root: Obj = {}): Obj {
    const out: Obj = {};
    for (const [key, f] of Object.entries(fields)) {
        const name = wireName(key, f);
        const w = name === undefined ? undefined : wire[name];
        if (w === undefined || w === null || !applies(f, root)) continue;
        out[key] = valueFromWire(f, w, root);
    }
    return out;
}

/** One field's value from its wire form. */
export function valueFromWire(f: Field, w: unknown, root: Obj): unknown {
    if (f.kind === "object" && isObject(w)) return fromWire(f.fields, w, root);
    if (f.kind === "list" && Array.isArray(w)) return w.map((x) => valueFromWire(f.items, x, root));
    if (f.kind === "map" && isObject(w)) return Object.fromEntries(Object.entries(w).map(([k, x]) => [k, valueFromWire(f.values, x, root)]));
    return w;
}
