/**
 * The times a traced run carries, as the official clients send them (docs/emulator.md, "Traces from the
 * official clients"): ISO 8601 strings with microseconds and any offset (Python: `+00:00`; JS: `Z`), or
 * epoch milliseconds as a number (the JS client's `end_time`, and `start_time` of `createRun`). The
 * emulator keeps them as UTC ISO strings with six fractional digits, the form the generated runs and the
 * Parquet writer use, without losing the microseconds a string gave.
 */

const ISO = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?$/i;

/** Microseconds since the epoch of a wire time; undefined when it is not one. */
export function microsOf(value: unknown): number | undefined {
    if (typeof value === "number") return Number.isFinite(value) ? Math.round(value * 1000) : undefined;
    if (typeof value !== "string") return undefined;
    const m = ISO.exec(value.trim());
    if (!m) return undefined;
    const seconds = Date.parse(`${m[1]}${m[3] ?? "Z"}`);
    if (Number.isNaN(seconds)) return undefined;
    const fraction = Number((m[2] ?? "").padEnd(6, "0").slice(0, 6));
    return seconds * 1000 + fraction;
}

/** `2026-11-25T09:56:58.110572Z` of microseconds since the epoch. */
export function isoOfMicros(us: number): string {
    const ms = Math.floor(us / 1000);
    const fraction = String(us - Math.floor(us / 1_000_000) * 1_000_000).padStart(6, "0");
    return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** `20261125T095658110572Z<id>`: a run's segment of a dotted order. */
export function dottedSegmentOf(us: number, id: string): string {
    return `${isoOfMicros(us).replace(/[-:.]/g, "")}${id}`;
}
