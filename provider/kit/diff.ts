/**
 * How every resource's `diff` compares old and new values, and the table runner that turns a resource's
 * replace-on and update-on field lists into Pulumi's DiffResult (dynamic providers get no `stables` or
 * `replaceOnChanges`: `replaces` is the only way to force a replacement).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Field, Fields } from "./declare";
import { UNKNOWN, containsUnknown, known } from "./unknown";

/** Equal after `canonical`: absent, null and "" are the same; object keys are unordered. */
export function sameValue(a: unknown, b: unknown): boolean {
    return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** `v` as one string, equal for two values exactly when `sameValue` says they are (an object's identity: kit/adoption.ts). */
export const canonicalJson = (v: unknown): string => JSON.stringify(canonical(v));

function canonical(v: unknown): unknown {
    if (v === null || v === undefined || v === "") return null;
    if (Array.isArray(v)) return v.map(canonical);
    if (typeof v === "object") {
        const o = v as Record<string, unknown>;
        return Object.fromEntries(
            Object.keys(o)
                .sort()
                .filter((k) => o[k] !== undefined && o[k] !== null)
                .map((k) => [k, canonical(o[k])]),
        );
    }
    return v;
}

/**
 * A list of `{name, ...}` entries as a set keyed by name (sorted by name), so that a service answering
 * them in another order never looks like a change. Non-lists (the unknown sentinel) pass as they are.
 */
export function byName<T extends { name: string }>(list: T[] | unknown): T[] | unknown {
    if (!Array.isArray(list)) return list;
    return [...(list as T[])].sort((a, b) => (a?.name < b?.name ? -1 : a?.name > b?.name ? 1 : 0));
}

/**
 * A list compared as a set (a field's `compareAs`): sorted, so that the service answering another order is no
 * change; with `unique`, a value given twice counts once; with `caseless`, strings compare in lower case (ids
 * the service answers so), the unknown sentinel aside. Non-lists (the unknown sentinel) pass as they are.
 */
export function asSet(o: { unique?: boolean; caseless?: boolean } = {}): (v: unknown) => unknown {
    return (v) => {
        if (!Array.isArray(v)) return v;
        const items = o.caseless ? v.map((x) => (typeof x === "string" && known(x) ? x.toLowerCase() : x)) : [...v];
        return (o.unique ? [...new Set(items)] : items).sort();
    };
}

/** A timestamp as the instant it names (ISO 8601, milliseconds, UTC); anything else as it is. */
export const instant = (v: unknown): unknown => (typeof v === "string" && known(v) && Number.isFinite(Date.parse(v)) ? new Date(v).toISOString() : v);

/** `o[key]`, where a whole object not known yet makes every field of it unknown. */
export function field(o: unknown, key: string): unknown {
    if (o === UNKNOWN) return UNKNOWN;
    return (o as Record<string, unknown> | undefined)?.[key];
}

/** One row of a diff table: the property path shown to the user, and how to read it from olds or news. */
export type DiffRow = [property: string, get: (i: Record<string, any>) => unknown];

/**
 * A diff's answer with the properties that change in place beside those that replace (`updates`): the
 * dynamic-provider host ignores it; the native plugin turns both into Pulumi's detailed diff, so that
 * `pulumi preview` names each changed property and says which replace.
 */
export type TableDiffResult = pulumi.dynamic.DiffResult & { updates?: string[] };

/** The properties of `rows` whose value differs between olds and news (an unknown new value differs). */
export function changedRows(rows: readonly DiffRow[], olds: Record<string, any>, news: Record<string, any>): string[] {
    return rows.filter(([, get]) => containsUnknown(get(news)) || !sameValue(get(olds), get(news))).map(([p]) => p);
}

/** A resource's diff table: the rows whose change replaces it, and those that change it in place. */
export interface DiffTable {
    replaceOn: readonly DiffRow[];
    updateOn: readonly DiffRow[];
}

/**
 * The diff table a declaration says (declare.ts `onChange`): a row per field that says what its change does
 * (`replace` rows replace; `update`, `revision` and `local` rows update; `none` is never compared), a nested
 * object that does not say being the rows of its fields. A row reads the field's value at its path (unknown
 * when the object holding it is), its default when absent, null where the field does not apply, then
 * `compareAs` of that.
 */
export function diffTableOf(fields: Fields): DiffTable {
    const rows = rowsOf(fields, []);
    return {
        replaceOn: rows.filter((r) => r.onChange === "replace").map((r) => r.row),
        updateOn: rows.filter((r) => r.onChange !== "replace").map((r) => r.row),
    };
}

function rowsOf(fields: Fields, at: string[]): Array<{ onChange: string; row: DiffRow }> {
    return Object.entries(fields).flatMap(([key, f]) => {
        const path = [...at, key];
        if (f.onChange === "none") return [];
        if (f.onChange) return [{ onChange: f.onChange, row: [path.join("."), (i: Record<string, any>) => compared(f, path, i)] as DiffRow }];
        return f.kind === "object" ? rowsOf(f.fields, path) : [];
    });
}

function compared(f: Field, path: string[], i: Record<string, any>): unknown {
    if (f.appliesIf && !f.appliesIf.when(i)) return null;
    const v = path.reduce<unknown>((o, k) => field(o, k), i) ?? f.default;
    return f.compareAs ? f.compareAs(v, i) : v;
}

/** Runs a resource's diff table: replace-on rows force a replacement, update-on rows an update. */
export function diffByTable(
    table: DiffTable,
    olds: Record<string, any>,
    news: Record<string, any>,
): Required<Pick<pulumi.dynamic.DiffResult, "changes" | "replaces">> & { updates: string[] } {
    const replaces = changedRows(table.replaceOn, olds, news);
    const updates = changedRows(table.updateOn, olds, news);
    return { changes: replaces.length + updates.length > 0, replaces, updates };
}

/**
 * `news` with each of `keys` the program leaves out taken from `olds`: a field whose absence means "not managed
 * here" (a workspace's handle, a project's trace tier that an import read) is then not compared.
 */
export function leftOutKept<N extends Record<string, unknown>>(olds: Record<string, unknown>, news: N, keys: readonly string[]): N {
    const kept = keys.filter((k) => (news[k] === undefined || news[k] === null) && olds[k] !== undefined);
    return kept.length ? { ...news, ...Object.fromEntries(kept.map((k) => [k, olds[k]])) } : news;
}

/** The object without its undefined fields. */
export function prune<T extends Record<string, unknown>>(o: T): T {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
