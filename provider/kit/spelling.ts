/**
 * What a check says about a key no declaration has (fields.ts `unknownKeys`): where it is, the
 * nearest valid key by edit distance, and the keys that object takes, all in the spelling the program
 * wrote: snake_case for a snake_case key (the Python SDK passes keys it does not know through as written),
 * camelCase otherwise.
 */
import { snakeCase } from "./declare";
import type { UnknownKey } from "./fields";

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
    }
    return row[b.length];
}

/** The candidate nearest to `key` (the first of equals), compared without regard to case. */
export function nearest(key: string, candidates: readonly string[]): string {
    const d = (c: string) => editDistance(key.toLowerCase(), c.toLowerCase());
    return candidates.reduce((best, c) => (d(c) < d(best) ? c : best));
}

/**
 * Whether the program spells in snake_case: a lowercase key with an underscore, unless it is the snake_case
 * of a declared key (the Python SDK would have translated that one: it came from a camelCase program).
 */
function pythonSpelling(u: UnknownKey): boolean {
    return /_/.test(u.key) && u.key === u.key.toLowerCase() && !u.valid.some((v) => snakeCase(v) === u.key);
}

/** A property path: `["secrets", "[0]", "value"]` -> `secrets[0].value`. */
const dotted = (parts: string[]): string => parts.join(".").replace(/\.\[/g, "[");

/** The failure of an unknown key: its property as sent (where the engine finds the value), and the reason in the program's spelling. */
export function unknownKeyFailure(resource: string, u: UnknownKey): { property: string; reason: string; suggested: string } {
    const spell = pythonSpelling(u) ? snakeCase : (s: string) => s;
    const valid = u.valid.map(spell);
    const guess = nearest(u.key, valid);
    const where = dotted(u.at.map((p) => (p.startsWith("[") ? p : spell(p))));
    const reason = where
        ? `unknown key ${JSON.stringify(u.key)} in ${where}: did you mean ${JSON.stringify(guess)}? (${where} takes ${valid.join(", ")})`
        : `unknown argument ${JSON.stringify(u.key)} of ${resource}: did you mean ${JSON.stringify(guess)}? (${resource} takes ${valid.join(", ")})`;
    return { property: dotted([...u.at, u.key]), reason, suggested: dotted([...u.at, u.valid[valid.indexOf(guess)]]) };
}
