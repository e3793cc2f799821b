/**
 * The service's timestamps (`created_at`, `updated_at`: OpenAPI `date-time`, that is RFC 3339), read
 * strictly: `2026-11-24T23:00:00Z`, with 0 to 9 fractional digits (the emulator sends 3, a Python service
 * 6, some 9) and `Z` or an offset `+01:00`. `Date.parse` is lenient where it must not be: it reads a
 * timestamp without a zone as local time and takes forms no service sends; a wait that schedules its reads
 * by such a misreading spins or sleeps (docs/deployment.md). Anything else is undefined, for the caller to
 * treat as unknown. No Pulumi import.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Epoch milliseconds of a service timestamp (fractions below a millisecond dropped); undefined when it is not one. */
export function parseTimestamp(s: unknown): number | undefined {
    const m = typeof s === "string" ? RFC3339.exec(s) : null;
    if (!m) return undefined;
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
    const offsetMin = m[8] ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
    if (hour > 23 || minute > 59 || second > 59 || Math.abs(offsetMin) >= 24 * 60 || Number(m[11] ?? 0) > 59) return undefined;
    const t = new Date(0);
    t.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0 to 99 as 1900 to 1999
    if (t.getUTCFullYear() !== year || t.getUTCMonth() !== month - 1 || t.getUTCDate() !== day) return undefined; // 2026-02-30
    const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
    return t.getTime() + ((hour * 60 + minute - offsetMin) * 60 + second) * 1000 + ms;
}
