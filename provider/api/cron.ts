/**
 * The one parser of cron schedules (the `schedule` of an agent-server cron), shared by the provider's
 * `check` (a typo fails at preview: the whole expression, a caret under the place, what was expected there)
 * and the emulator (which refuses what does not parse, as the server does, and fires crons on its clock with
 * `nextRun`). No Pulumi import.
 *
 * The syntax is the 5-field one as croniter reads it (croniter is what the LangGraph server validates and
 * schedules with, `croniter.is_valid` and `get_next`):
 *   minute hour day-of-month month day-of-week
 * each field a comma list of `*`, `N`, `A-B`, `*\/S`, `A-B/S` and `A/S` (from A to the field's end, every
 * S), with month names jan..dec and weekday names sun..sat (any case), 0 or 7 for Sunday, `?` (alone) as
 * `*` in the two day fields; or one of the macros @yearly @annually @monthly @weekly @daily @midnight
 * @hourly. croniter's own readings are kept: a range written with equal ends (`5-5`, `jan-jan`) means the
 * whole field, a range whose end is below its start wraps around (`22-2`, `fri-mon`), and when both day
 * fields are restricted a day matches either (OR, as Vixie cron); a field covering every value counts as
 * unrestricted only when the other day field holds a `*`.
 *
 * croniter also takes what this parser refuses as unsupported (`CronSyntaxError.unsupported`; the emulator
 * answers 501 for it): a 6th field of seconds and a 7th of years, `L`, `W`, `#` and the random `R` form
 * (its hashed `H` needs an id the server does not give, so croniter refuses it there). The deployed server's validator is not published for those, and a seconds field would fire runs
 * every few seconds; so they stop at preview rather than at `up`.
 */

const FIELDS = [
    { name: "minute", min: 0, max: 59 },
    { name: "hour", min: 0, max: 23 },
    { name: "day of month", min: 1, max: 31 },
    { name: "month", min: 1, max: 12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], first: 1 },
    { name: "day of week", min: 0, max: 6, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"], first: 0 },
] as const;
type Field = (typeof FIELDS)[number];

const MACROS: Record<string, string> = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
};

const FIVE_FIELDS = "5 fields: minute hour day-of-month month day-of-week";

/** A parsed schedule: the values each field allows, and how the two day fields combine. */
export interface CronSchedule {
    /** The expression as written. */
    readonly expression: string;
    /** Allowed values, indexed by value: minutes 0-59, hours 0-23, days 1-31, months 1-12, weekdays 0-6 (Sunday 0). */
    readonly minutes: readonly boolean[];
    readonly hours: readonly boolean[];
    readonly days: readonly boolean[];
    readonly months: readonly boolean[];
    readonly weekdays: readonly boolean[];
    /** Both day fields restricted: a day matches when either allows it; otherwise when both do. */
    readonly dayOr: boolean;
}

/**
 * A schedule that does not parse, or uses what is not supported. The message says where (1-based column)
 * and what was expected there, then shows the whole expression, indented, with a caret under that place:
 *
 *     at column 3: expected an hour (0-23), found "24"
 *       0 24 * * *
 *         ^
 */
export class CronSyntaxError extends Error {
    constructor(
        /** 0-based offset into the expression. */
        readonly position: number,
        /** What the parser expected there. */
        readonly expected: string,
        readonly expression: string,
        /** What it found there, when something. */
        readonly found?: string,
        /** croniter takes it (a seconds or year field, L, W, #, R): valid on the server, not supported here. */
        readonly unsupported = false,
    ) {
        const caret = `  ${" ".repeat([...expression.slice(0, position)].length)}^`;
        const what = unsupported
            ? `${found ? `"${found}" is` : "this is"} not supported: use ${expected}`
            : `expected ${expected}${found !== undefined ? `, found "${found}"` : ""}`;
        super(`at column ${[...expression.slice(0, position)].length + 1}: ${what}\n  ${expression}\n${caret}`);
        this.name = "CronSyntaxError";
    }
}

/** Parses a schedule; throws CronSyntaxError. */
export function parseCron(expression: string): CronSchedule {
    // An own key only: `constructor` or `__proto__` is no macro.
    const macro = Object.hasOwn(MACROS, expression.toLowerCase()) ? MACROS[expression.toLowerCase()] : undefined;
    if (macro) return { ...parseFields(macro, macro), expression };
    const at = /^\s*@/.exec(expression)?.[0].length;
    if (at !== undefined) {
        // croniter knows a macro only as the whole expression: no spaces around it.
        const word = expression.slice(at - 1).split(/\s/)[0];
        throw new CronSyntaxError(at - 1, `one of ${Object.keys(MACROS).join(" ")} (alone), or ${FIVE_FIELDS}`, expression, word);
    }
    return parseFields(expression, expression);
}

interface Token {
    text: string;
    at: number;
}

/** The fields of `text` (the expression, or a macro's expansion reported against `expression`). */
function parseFields(text: string, expression: string): CronSchedule {
    const tokens: Token[] = [...text.matchAll(/[^ \t\n\r\f\v]+/g)].map((m) => ({ text: m[0], at: m.index ?? 0 }));
    if (tokens.length < 5 || tokens.length > 7) {
        const at = tokens.length > 5 ? tokens[5].at : text.length;
        throw new CronSyntaxError(at, `${FIVE_FIELDS} (found ${tokens.length})`, expression);
    }
    const sets = firstError(tokens.slice(0, 5).map((t, i) => () => fieldValues(FIELDS[i], t, expression)));
    if (tokens.length > 5) {
        const extra = tokens[5];
        throw new CronSyntaxError(extra.at, `${FIVE_FIELDS} (croniter's 6th seconds and 7th year fields are not supported)`, expression, extra.text, true);
    }
    const [dom, dow] = [tokens[2].text, tokens[4].text];
    const bare = (t: string) => t === "?" || t.split(",").includes("*");
    const domStar = bare(dom) || (sets[2].every((v, i) => v || i < 1) && dow.includes("*"));
    const dowStar = bare(dow) || (sets[4].every(Boolean) && dom.includes("*"));
    return {
        expression,
        minutes: sets[0],
        hours: sets[1],
        days: domStar ? sets[2].map((_, i) => i >= 1) : sets[2],
        months: sets[3],
        weekdays: dowStar ? sets[4].map(() => true) : sets[4],
        dayOr: !domStar && !dowStar,
    };
}

/** The values one field allows (index = value). */
function fieldValues(f: Field, token: Token, expression: string): boolean[] {
    const allowed = Array.from({ length: f.max + 1 }, () => false);
    if (token.text === "?") {
        if (f.name !== "day of month" && f.name !== "day of week") throw new CronSyntaxError(token.at, describe(f), expression, "?");
        return allowed.map((_, i) => i >= f.min);
    }
    checkCombinations(f, token, expression);
    let at = token.at;
    const parts = token.text.split(",").map((part) => {
        const from = at;
        at += part.length + 1;
        return () => partValues(f, part, from, expression);
    });
    for (const values of firstError(parts)) for (const v of values) allowed[v] = true;
    return allowed;
}

/**
 * Runs each step; throws the first syntax error, or when there is none the first unsupported form (an
 * expression croniter refuses anyway is a syntax error, not an unsupported one).
 */
function firstError<T>(steps: Array<() => T>): T[] {
    let unsupported: CronSyntaxError | undefined;
    const out: T[] = [];
    for (const step of steps) {
        try {
            out.push(step());
        } catch (e) {
            if (!(e instanceof CronSyntaxError) || !e.unsupported) throw e;
            unsupported ??= e;
        }
    }
    if (unsupported) throw unsupported;
    return out;
}

/** What a field takes, in words: `a day of week (0-7 or sun-sat)`. */
function describe(f: Field): string {
    const article = f.name === "hour" ? "an" : "a";
    const names = "names" in f ? ` or ${f.names[0]}-${f.names.at(-1)}` : "";
    return `${article} ${f.name} (${f.min}-${f.name === "day of week" ? 7 : f.max}${names})`;
}

/** The values of one comma-separated part: `*`, `N`, `A-B`, with an optional `/S`. */
function partValues(f: Field, part: string, at: number, expression: string): number[] {
    refuseExtensions(f, part, at, expression);
    const slash = part.indexOf("/");
    const range = slash < 0 ? part : part.slice(0, slash);
    const step = slash < 0 ? 1 : stepOf(part.slice(slash + 1), at + slash + 1, expression);
    if (range === "*") return stepped(f.min, f.max, step);
    const dash = range.indexOf("-", 1);
    const low = fieldValue(f, dash < 0 ? range : range.slice(0, dash), at, expression);
    if (dash < 0) {
        // `A/S` runs from A to the field's end; a bare `A` is itself. At the field's end, `A/S` is A alone.
        if (slash < 0) return [low];
        return low === f.max ? [low] : stepped(low, f.max, step);
    }
    const high = fieldValue(f, range.slice(dash + 1), at + dash + 1, expression);
    // croniter reads a range with equal ends as the whole field (`5-5`, `jan-jan`, `0-7` for weekdays).
    if (low === high) return stepped(f.min, f.max, step);
    return low < high ? stepped(low, high, step) : wrapped(low, high, step, f);
}

/** croniter's extensions this parser does not support: L, W, #, and the random R form. */
function refuseExtensions(f: Field, part: string, at: number, expression: string): void {
    const use = `${describe(f)} with *, lists, ranges and /steps`;
    const p = part.toLowerCase();
    const random = isRandom(p);
    const dom = f.name === "day of month" && /^(l|\d+w|w\d+|.*-l(\/\d+)?)$/.test(p);
    const dow = f.name === "day of week" && isNth(p);
    if (random || dom || dow) throw new CronSyntaxError(at, use, expression, part, true);
}

const isNth = (part: string) => part.includes("#") || /^l\d+$/i.test(part);
const isRandom = (part: string) => /^r(\(\d+-\d+\))?(\/\d+)?$/i.test(part);

/** What croniter refuses in a whole field: an R or a W day in a list, nth weekdays mixed with plain ones. */
function checkCombinations(f: Field, token: Token, expression: string): void {
    const parts = token.text.split(",");
    const offset = (i: number) => token.at + parts.slice(0, i).join(",").length + (i ? 1 : 0);
    const r = parts.length > 1 ? parts.findIndex(isRandom) : -1;
    if (r >= 0) throw new CronSyntaxError(offset(r), "an R form alone in its field", expression, parts[r]);
    if (f.name === "day of month" && parts.length > 1) {
        const w = parts.findIndex((p) => /^(\d+w|w\d+)$/i.test(p));
        if (w >= 0) throw new CronSyntaxError(offset(w), "a W day alone in its field", expression, parts[w]);
    }
    if (f.name === "day of week" && parts.some(isNth)) {
        const plain = parts.findIndex((p) => !isNth(p) && p !== "*");
        if (plain >= 0) throw new CronSyntaxError(offset(plain), "only nth-weekday forms in a field that has one", expression, parts[plain]);
    }
}

function stepOf(text: string, at: number, expression: string): number {
    if (!/^\d+$/.test(text) || Number(text) === 0) throw new CronSyntaxError(at, "a step of 1 or more", expression, text);
    return Number(text);
}

/** A number or a name of the field, as its value (7 is Sunday). */
function fieldValue(f: Field, text: string, at: number, expression: string): number {
    let v: number | undefined;
    const names: readonly string[] = "names" in f ? f.names : [];
    if (/^\d+$/.test(text)) v = Number(text);
    else if (names.includes(text.toLowerCase())) v = names.indexOf(text.toLowerCase()) + ("first" in f ? f.first : 0);
    if (v === 7 && f.name === "day of week") v = 0;
    if (v === undefined || v < f.min || v > f.max) throw new CronSyntaxError(at, describe(f), expression, text);
    return v;
}

function stepped(from: number, to: number, step: number): number[] {
    const out: number[] = [];
    for (let v = from; v <= to; v += step) out.push(v);
    return out;
}

/**
 * A range whose end is below its start, read as croniter reads it: from the start to the field's end, then
 * on from the field's start (skipping into it as croniter computes the skip) to the end written.
 */
function wrapped(low: number, high: number, step: number, f: Field): number[] {
    const first = stepped(low, f.max, step);
    const last = first.at(-1)!;
    const alreadySkipped = f.max - last;
    const width = f.max - f.min + 1;
    const skip = last - f.min + step > width && alreadySkipped < step ? step - alreadySkipped : 0;
    return [...first, ...stepped(f.min + skip, high, step)];
}

// ---- when it fires ----

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far `nextRun` looks: far enough for a 29th of February after a century year (2096 -> 2104). */
const HORIZON_DAYS = 8 * 366;

/** Whether `name` is an IANA time zone the server's ZoneInfo would take (case matters, as on its file system). */
export function isTimeZone(name: string): boolean {
    // Intl also takes UTC offsets (`+02:00`), which are no zone names.
    if (!name || /^[+-]/.test(name)) return false;
    try {
        const resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
        // Intl takes any case; a name that only differs in case from what it resolves to is not a zone file.
        return !(resolved !== name && resolved.toLowerCase() === name.toLowerCase());
    } catch {
        return false;
    }
}

/**
 * The first time the schedule fires strictly after `afterMs`, reading the schedule in `timezone` (UTC by
 * default) as croniter's `get_next` does: on wall-clock times in that zone. Around DST changes croniter's
 * rules hold: a time a spring-forward skips fires at the first minute after the gap when the hour field is
 * restricted (`30 2 * * *` fires at 03:00), and is skipped when every hour is allowed (`30 * * * *` goes on
 * at 03:30); a time a fall-back repeats fires at both of its instants. Undefined when it never fires within
 * 8 years (`0 0 30 2 *`).
 */
export function nextRun(schedule: CronSchedule, afterMs: number, timezone = "UTC"): number | undefined {
    const zone = zoneOf(timezone);
    const from = zone.wall(afterMs);
    const limit = from + HORIZON_DAYS * DAY;
    const first = nextInstant(schedule, zone, from, afterMs, limit, false);
    if (first === undefined) return undefined;
    const delta = zone.offset(first) - zone.offset(afterMs);
    if (delta === 0) return first;
    // Across a DST change croniter also looks from `afterMs`'s wall time in the new offset, which finds the
    // second instant of a repeated time.
    const alternative = nextInstant(schedule, zone, from + delta, afterMs, limit, true);
    return alternative !== undefined && alternative > afterMs && alternative < first ? alternative : first;
}

/**
 * The instant of the next wall time the schedule allows after wall time `from`: of a repeated time, its
 * first instant after `afterMs`; of a skipped time, the first minute after the gap, or (when every hour is
 * allowed, or that is not after `afterMs`) the next allowed time that exists. `alternative`: no gap rule,
 * a skipped time gives undefined.
 */
function nextInstant(s: CronSchedule, zone: Zone, from: number, afterMs: number, limit: number, alternative: boolean): number | undefined {
    let wall = nextWall(s, Math.floor(from / MINUTE) * MINUTE + MINUTE, limit);
    if (wall === undefined) return undefined;
    let instants = zone.instants(wall);
    if (instants.length) return instants.length > 1 && instants[0] <= afterMs ? instants[1] : instants[0];
    if (alternative) return undefined;
    const shifted = zone.afterGap(wall);
    if (shifted > afterMs && !s.hours.every(Boolean)) return shifted;
    while (!instants.length) {
        wall = nextWall(s, wall + MINUTE, limit);
        if (wall === undefined) return undefined;
        instants = zone.instants(wall);
    }
    return instants.length > 1 && instants[0] <= afterMs ? instants[1] : instants[0];
}

/** The first wall-clock minute at or after `from` (both as naive UTC milliseconds) that the schedule allows. */
function nextWall(s: CronSchedule, from: number, limit: number): number | undefined {
    for (let day = Math.floor(from / DAY) * DAY; day < limit; day += DAY) {
        const d = new Date(day);
        if (!s.months[d.getUTCMonth() + 1]) continue;
        const dom = s.days[d.getUTCDate()];
        const dow = s.weekdays[d.getUTCDay()];
        if (!(s.dayOr ? dom || dow : dom && dow)) continue;
        const start = day < from ? from - day : 0;
        for (let m = Math.ceil(start / MINUTE); m < 24 * 60; m++) {
            if (s.hours[Math.floor(m / 60)] && s.minutes[m % 60]) return day + m * MINUTE;
        }
    }
    return undefined;
}

interface Zone {
    /** The wall-clock time at instant `ms`, as naive UTC milliseconds. */
    wall(ms: number): number;
    /** The zone's offset from UTC at instant `ms`, in milliseconds. */
    offset(ms: number): number;
    /** The instants whose wall-clock time is `wall` (none in a DST gap, two in a repeated hour), earliest first. */
    instants(wall: number): number[];
    /** For a wall time in a DST gap: the instant of the first minute after the gap. */
    afterGap(wall: number): number;
}

const zones = new Map<string, Zone>();

function zoneOf(timezone: string): Zone {
    let zone = zones.get(timezone);
    if (!zone) {
        if (!isTimeZone(timezone)) throw new RangeError(`not an IANA time zone: ${timezone}`);
        zone = makeZone(timezone);
        zones.set(timezone, zone);
    }
    return zone;
}

function makeZone(timeZone: string): Zone {
    const format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        ...{ year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" },
    });
    const wall = (ms: number) => {
        const p = Object.fromEntries(format.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
        return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) + (((ms % 1000) + 1000) % 1000);
    };
    const instants = (w: number) => {
        const offsets = new Set([w - DAY, w, w + DAY].map((t) => wall(t) - t));
        return [...offsets]
            .map((o) => w - o)
            .filter((t) => wall(t) === w)
            .sort((a, b) => a - b);
    };
    const afterGap = (w: number) => {
        for (let t = w + MINUTE; t < w + 2 * DAY; t += MINUTE) {
            const found = instants(t);
            if (found.length) return found[0];
        }
        throw new RangeError(`no time after ${new Date(w).toISOString()} in ${timeZone}`);
    };
    return { wall, offset: (ms) => wall(ms) - ms, instants, afterGap };
}
