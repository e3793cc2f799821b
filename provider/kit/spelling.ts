/**
 * Property names in the program's spelling. The native plugin serves Python programs, whose SDK spells every
 * argument in snake_case (`sampling_rate`), Go programs, whose SDK (sdk/go) spells every field in PascalCase
 * (`SamplingRate`, `ExpiresAt`) and every look-up `Lookup<Resource>` or `Get<Name>` (`LookupDataset`,
 * `GetDeploymentRevisions`), and Pulumi YAML (and Java) programs, which spell them as the schema does, in camelCase
 * (`samplingRate`), like the TypeScript resources: the plugin finds out which (plugin/language.ts) and says so here
 * once, at its start (`speakPython`, `speakGo`); nothing else in a provider deals with it. Then a check's failures
 * (plugin/server.ts, `spokenFailure`), the warnings (warn.ts) and a look-up's errors name every declared field,
 * look-up and Pulumi resource option in the program's spelling; and a key no declaration has (fields.ts
 * `unknownKeys`) is answered where it is, with the nearest valid key and the keys that object takes, all so.
 */
import { snakeCase, type Field, type Fields } from "./declare";
import type { UnknownKey } from "./fields";

/** A program's spelling: the camelCase names a message may hold, each as the program spells it, and a field's rule. */
interface Spelling {
    words: ReadonlyMap<string, string>;
    field: (name: string) => string;
}

/** The program's spelling (`speakPython`, `speakGo`); undefined: the schema's. */
let spelling: Spelling | undefined;

/** Pulumi's resource options a message may name (`customTimeouts`): Python's are `custom_timeouts`, ... */
export const RESOURCE_OPTIONS = ["customTimeouts", "deleteBeforeReplace", "replaceOnChanges", "ignoreChanges", "dependsOn", "retainOnDelete"];

/**
 * From now on, this process serves a Python program: `words` are the names a message may hold in camelCase (every
 * declared field at every depth, the look-ups, `RESOURCE_OPTIONS`: `declaredWords` makes them), said in snake_case.
 */
export function speakPython(words: Iterable<string>): void {
    spelling = { words: new Map([...words].map((w) => [w, snakeCase(w)])), field: snakeCase };
}

/** A field as the Go SDK spells it: its first letter upper case (Pulumi's Go generator, `Title`). */
export const pascalCase = (s: string): string => s[0].toUpperCase() + s.slice(1);

/**
 * From now on, this process serves a Go program: `words` are the names a message may hold in camelCase, each with
 * its Go name (a field's `pascalCase`, a look-up's Go function: plugin/server.ts `goNames`).
 */
export function speakGo(words: ReadonlyMap<string, string>): void {
    spelling = { words, field: pascalCase };
}

/** Back to the schema's spelling (a test that spoke Python or Go). */
export function speakSchema(): void {
    spelling = undefined;
}

/** Whether the program spells otherwise than the schema (Python, Go). */
export const speaksOtherwise = (): boolean => spelling !== undefined;

/** Every field name of `fields`, at every depth (objects' fields, lists' items, maps' values). */
export function declaredWords(fields: Fields): string[] {
    const of = (f: Field): string[] => (f.kind === "object" ? declaredWords(f.fields) : f.kind === "list" ? of(f.items) : f.kind === "map" ? of(f.values) : []);
    return Object.entries(fields).flatMap(([k, f]) => [k, ...of(f)]);
}

/**
 * `text` in the program's spelling: each declared camelCase name of two words or more as the program spells it
 * (a one-word name, `name`, is also a word of the prose: `spokenFailure` spells it where it leads a failure), but
 * where it is a value, not a name: inside double quotes (what the program wrote, JSON-quoted) and after a `:` (a
 * config key, `langsmith:workspaceId`, spelt so in every language).
 */
export function spoken(text: string): string {
    const words = spelling?.words;
    if (!words) return text;
    return text
        .split(/("(?:[^"\\]|\\.)*")/)
        .map((piece, i) => (i % 2 ? piece : piece.replace(/(?<![\w:$])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?!\w)/g, (w) => words.get(w) ?? w)))
        .join("");
}

/**
 * A property path of `fields` in the program's spelling: each declared field so (`snake_case` or `PascalCase`), a
 * map's keys and a key no declaration has as they are (`tags.costCenter`, `source_revision_config.repo_reff`), list
 * indices kept.
 */
export function spokenPath(fields: Fields, property: string): string {
    const field = spelling?.field ?? ((s: string) => s);
    let at: Field | undefined = { kind: "object", typeName: "", description: "", fields };
    const parts = property.split(/\.|(?=\[)/).map((p) => {
        const here: Field | undefined = at;
        at = undefined;
        if (p.startsWith("[")) {
            if (here?.kind === "list") at = here.items;
            return p;
        }
        if (here?.kind === "map") {
            at = here.values;
            return p;
        }
        if (here?.kind === "object" && p in here.fields) {
            at = here.fields[p];
            return field(p);
        }
        return p;
    });
    return dotted(parts);
}

/**
 * A check failure for the program: as it is, unless the program spells otherwise (Python, Go). Then in its words,
 * and on no property: the engine prints a failure's property beside the value it finds under that top-level key of
 * the inputs (`property samplingRate value {5}`), which are in the schema's spelling, so a Python or Go property
 * would show the value `{<nil>}`; the reason names the property instead (its leading field name spelt so, or
 * prefixed with it where it does not name it).
 */
export function spokenFailure(fields: Fields, f: { property: string; reason: string }): { property: string; reason: string } {
    if (!spelling) return f;
    let reason = spoken(f.reason);
    if (!f.property) return { property: "", reason };
    const path = spokenPath(fields, f.property);
    const field = path.split(/\.|(?=\[)/).pop()!;
    const schemaField = f.property.split(/\.|(?=\[)/).pop()!;
    if (reason.startsWith(schemaField) && !/\w/.test(reason[schemaField.length] ?? "")) reason = field + reason.slice(schemaField.length);
    return { property: "", reason: reason.includes(path) || reason.includes(field) ? reason : `${path}: ${reason}` };
}

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

/** A property path: `["secrets", "[0]", "value"]` -> `secrets[0].value`. */
const dotted = (parts: string[]): string => parts.join(".").replace(/\.\[/g, "[");

/**
 * The failure of an unknown key: its property as sent (where the engine finds the value), and the reason in the
 * program's spelling (`spokenFailure` moves a Python or Go program's to the reason).
 */
export function unknownKeyFailure(resource: string, u: UnknownKey): { property: string; reason: string; suggested: string } {
    const spell = spelling?.field ?? ((s: string) => s);
    const valid = u.valid.map(spell);
    const guess = nearest(u.key, valid);
    const where = dotted(u.at.map((p) => (p.startsWith("[") ? p : spell(p))));
    const reason = where
        ? `unknown key ${JSON.stringify(u.key)} in ${where}: did you mean ${JSON.stringify(guess)}? (${where} takes ${valid.join(", ")})`
        : `unknown argument ${JSON.stringify(u.key)} of ${resource}: did you mean ${JSON.stringify(guess)}? (${resource} takes ${valid.join(", ")})`;
    return { property: dotted([...u.at, u.key]), reason, suggested: dotted([...u.at, u.valid[valid.indexOf(guess)]]) };
}
