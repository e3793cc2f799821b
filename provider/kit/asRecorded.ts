/**
 * A refresh of a clean stack changes nothing (the morning's `pulumi preview --refresh --expect-no-changes --diff`
 * prints no `~` line): an input the service answers in another form than the state records it, but equal by the
 * resource's own diff table (declare.ts `compareAs`, `default`: code the service keeps normalised, a default the
 * program left out, a set in another order, null for absent), is read as recorded. What the table finds different
 * is read as the service says it (drift), and an import (nothing recorded) reads everything as the service says it.
 *
 * Every registered provider is wrapped (registry.ts), so no resource's own `read` has to keep the program's
 * spelling. Outputs that are not inputs are the resource's own business: they must be what its configuration
 * makes, never figures that traffic or other resources change (docs/contributing.md).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isImport, type ResourceDeclaration } from "./declare";
import { diffTableOf, sameValue, type DiffRow } from "./diff";

type Props = Record<string, unknown>;

/** The diff table's rows of each top-level input: what decides whether that input changed. */
function rowsByInput(d: ResourceDeclaration): Map<string, DiffRow[]> {
    const table = diffTableOf(d.inputs);
    const rows = new Map<string, DiffRow[]>();
    for (const row of [...table.replaceOn, ...table.updateOn]) {
        const key = row[0].split(".")[0];
        rows.set(key, [...(rows.get(key) ?? []), row]);
    }
    return rows;
}

/** `read` with each input equal by the table to `recorded`'s taken from `recorded` (absent there: absent here). */
export function keptAsRecorded(rows: Map<string, DiffRow[]>, recorded: Props, read: Props): Props {
    const out = { ...read };
    for (const [key, rs] of rows) {
        if (!rs.every(([, get]) => sameValue(get(recorded), get(read)))) continue;
        if (recorded[key] === undefined) delete out[key];
        else out[key] = recorded[key];
    }
    return out;
}

/** `p` whose `read` answers the inputs its table finds unchanged as the state records them (the module comment says why). */
export function readAsRecorded<P extends pulumi.dynamic.ResourceProvider>(d: ResourceDeclaration, p: P): P {
    const read = p.read?.bind(p);
    if (!read) return p;
    const rows = rowsByInput(d);
    return Object.assign(Object.create(p) as P, {
        async read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
            const r = await read(id, props);
            if (!r.id || isImport(props)) return r;
            const recorded = props as Props;
            return {
                ...r,
                props: r.props && keptAsRecorded(rows, recorded, r.props),
                inputs: r.inputs && keptAsRecorded(rows, recorded, r.inputs),
            };
        },
    });
}
