/**
 * Secrets as the plugin takes them (Configure answers `acceptSecrets: true`): the engine sends a value a program
 * made secret wrapped in Pulumi's secret marker wherever it sits, a field nested in an object or a list
 * included, and it is the plugin's part to answer outputs secret where they hold it.
 *
 * `reveal` takes the markers off before a resource's code sees the values (it works on plain values) and
 * remembers them; `conceal` puts them on what the plugin answers: at each place an input was secret, and on
 * every string in the outputs equal to a secret string of the inputs, wherever the service put it (an agent
 * server mirrors an assistant's `config.configurable` into `context`: the engine's own marking, by top-level
 * input name, would have left that copy in plain text in the state).
 */

/** Pulumi's secret marker: `{[SIG]: SECRET_SIG, value}` (sdk/go/common/resource/sig). */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Path = (string | number)[];

/** The secret places and values of some values the engine sent. */
export interface Secrets {
    /** Where a marker was, from the top of the values. */
    paths: Path[];
    /** The secret strings (the leaves of the secret values), matched wherever they appear in outputs. */
    strings: Set<string>;
}

const isMarker = (v: unknown): v is { value: unknown } => typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG] === SECRET_SIG;

const marked = (value: unknown) => ({ [SIG]: SECRET_SIG, value });

/** Strings shorter than this are marked only where they were secret: a short word would make half the outputs secret. */
const MIN_MATCHED = 4;

/** Every string leaf of `v`. */
function leaves(v: unknown, into: Set<string>): void {
    if (typeof v === "string") {
        if (v.length >= MIN_MATCHED) into.add(v);
    } else if (Array.isArray(v)) for (const x of v) leaves(x, into);
    else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) leaves(x, into);
}

/** `values` without their secret markers, and what the markers were (`into`, when given, gathers several). */
export function reveal<T>(values: T, into: Secrets = { paths: [], strings: new Set() }): { plain: T; secrets: Secrets } {
    const walk = (v: unknown, path: Path): unknown => {
        if (isMarker(v)) {
            into.paths.push(path);
            const inner = walk(v.value, path);
            leaves(inner, into.strings);
            return inner;
        }
        if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
        if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
        return v;
    };
    return { plain: walk(values, []) as T, secrets: into };
}

/** `values` with markers where `secrets` says: at each secret place that exists in them, on each secret string. */
export function conceal<T>(values: T, secrets: Secrets): T {
    if (!secrets.paths.length) return values;
    const places = new Set(secrets.paths.map((p) => JSON.stringify(p)));
    const walk = (v: unknown, path: Path): unknown => {
        // An absent value stays absent: a marker without a value is malformed to the engine.
        if (v === undefined) return v;
        if (places.has(JSON.stringify(path))) return marked(v);
        if (typeof v === "string") return secrets.strings.has(v) ? marked(v) : v;
        if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
        if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
        return v;
    };
    return walk(values, []) as T;
}
