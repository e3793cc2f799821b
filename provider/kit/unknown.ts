/**
 * Pulumi's unknown-value sentinel. During preview a value not known yet (the id of a resource created in
 * the same `up`, an Output still pending) reaches `check` and `diff` as this string, in place of a scalar
 * or of a whole object or list. Validation must let it pass, and `diff` must treat it as "will change", or
 * the first preview of a real program fails.
 */

/** The value Pulumi passes to check/diff for anything not known yet during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value is known (not the sentinel itself; may still contain it). */
export const known = (v: unknown): boolean => v !== UNKNOWN;

/** True when the value is, or contains, Pulumi's unknown sentinel. */
export function containsUnknown(v: unknown): boolean {
    if (v === UNKNOWN) return true;
    if (Array.isArray(v)) return v.some(containsUnknown);
    if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
    return false;
}
