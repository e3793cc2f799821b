/**
 * The one cron parser (provider/api/cron.ts): every piece of the 5-field syntax as croniter reads it, where a
 * typo is reported (the whole expression, a caret, what was expected), what is refused as unsupported, and
 * when a schedule fires: strictly after, day-of-month OR day-of-week, the 29th of February, time zones and
 * DST changes (each expected instant is what croniter 7's `get_next` answers for the same start).
 */
import assert from "node:assert/strict";
import { CronSyntaxError, isTimeZone, nextRun, parseCron } from "../../../provider/api/cron";

function syntaxError(src: string): CronSyntaxError {
    try {
        parseCron(src);
    } catch (e) {
        assert.ok(e instanceof CronSyntaxError, `expected CronSyntaxError, got ${e}`);
        return e;
    }
    throw new Error(`${src} parsed`);
}

/** The values a field allows, as a list. */
const on = (allowed: readonly boolean[]) => allowed.flatMap((v, i) => (v ? [i] : []));

/** The next `n` fires after `from`, as ISO minutes in UTC. */
function fires(expr: string, from: string, n: number, timezone?: string): string[] {
    const s = parseCron(expr);
    const out: string[] = [];
    let t = Date.parse(from);
    for (let i = 0; i < n; i++) {
        const next = nextRun(s, t, timezone);
        if (next === undefined) break;
        out.push(new Date(next).toISOString().slice(0, 16));
        t = next;
    }
    return out;
}

describe("cron: parse", () => {
    it("*, numbers, lists, ranges and steps", () => {
        const s = parseCron("*/15 9-17 1,15 */3 1-5");
        assert.deepEqual(on(s.minutes), [0, 15, 30, 45]);
        assert.deepEqual(on(s.hours), [9, 10, 11, 12, 13, 14, 15, 16, 17]);
        assert.deepEqual(on(s.days), [1, 15]);
        assert.deepEqual(on(s.months), [1, 4, 7, 10]);
        assert.deepEqual(on(s.weekdays), [1, 2, 3, 4, 5]);
        assert.deepEqual(on(parseCron("1-10/3 * * * *").minutes), [1, 4, 7, 10]);
        assert.deepEqual(on(parseCron("10/20 * * * *").minutes), [10, 30, 50], "A/S runs from A to the field's end");
        assert.deepEqual(on(parseCron("59/15 * * * *").minutes), [59], "A/S at the field's end is A");
        assert.equal(on(parseCron("* * * * *").minutes).length, 60);
    });

    it("month and weekday names in any case; 0 and 7 are Sunday", () => {
        assert.deepEqual(on(parseCron("0 0 * JAN,jul,Dec *").months), [1, 7, 12]);
        assert.deepEqual(on(parseCron("0 0 * * MON-fri").weekdays), [1, 2, 3, 4, 5]);
        assert.deepEqual(on(parseCron("0 0 * * 7").weekdays), [0]);
        assert.deepEqual(on(parseCron("0 0 * * 0").weekdays), [0]);
        assert.deepEqual(on(parseCron("0 0 * * sun,SAT").weekdays), [0, 6]);
        assert.deepEqual(on(parseCron("0 0 * feb-apr *").months), [2, 3, 4]);
    });

    it("croniter's readings: equal ends mean the whole field, a reversed range wraps around, ? is * in the day fields", () => {
        assert.equal(on(parseCron("5-5 * * * *").minutes).length, 60);
        assert.equal(on(parseCron("0 0 * jan-jan *").months).length, 12);
        assert.deepEqual(on(parseCron("0 22-2 * * *").hours), [0, 1, 2, 22, 23]);
        assert.deepEqual(on(parseCron("0 0 * nov-feb *").months), [1, 2, 11, 12]);
        assert.deepEqual(on(parseCron("0 0 * * fri-mon").weekdays), [0, 1, 5, 6]);
        assert.deepEqual(on(parseCron("0 0 * * 5-7").weekdays), [0, 5, 6]);
        assert.equal(parseCron("0 0 ? * 1").dayOr, false);
        assert.equal(on(parseCron("0 0 1 * ?").weekdays).length, 7);
    });

    it("the macros, any case", () => {
        for (const [macro, same] of [
            ["@yearly", "0 0 1 1 *"],
            ["@annually", "0 0 1 1 *"],
            ["@monthly", "0 0 1 * *"],
            ["@weekly", "0 0 * * 0"],
            ["@daily", "0 0 * * *"],
            ["@midnight", "0 0 * * *"],
            ["@HOURLY", "0 * * * *"],
        ]) {
            const { expression, ...fields } = parseCron(macro);
            assert.equal(expression, macro);
            const { expression: _, ...expected } = parseCron(same);
            assert.deepEqual(fields, expected, macro);
        }
    });

    it("day of month and day of week: OR when both are restricted, as croniter and Vixie cron", () => {
        assert.equal(parseCron("0 0 13 * 5").dayOr, true);
        assert.equal(parseCron("0 0 13 * *").dayOr, false);
        assert.equal(parseCron("0 0 * * 5").dayOr, false);
        // A field covering every value is unrestricted only when the other one holds a `*`.
        assert.equal(parseCron("0 0 1-31 * 1").dayOr, true);
        assert.equal(parseCron("0 0 1-31 * */2").dayOr, false);
    });
});

describe("cron: refused", () => {
    for (const [src, column, expected, found] of [
        ["0 24 * * *", 3, "an hour (0-23)", "24"],
        ["60 * * * *", 1, "a minute (0-59)", "60"],
        ["0 0 0 * *", 5, "a day of month (1-31)", "0"],
        ["0 0 32 * *", 5, "a day of month (1-31)", "32"],
        ["0 0 * 13 *", 7, "a month (1-12 or jan-dec)", "13"],
        ["0 0 * * 8", 9, "a day of week (0-7 or sun-sat)", "8"],
        ["0 0 * * monday", 9, "a day of week (0-7 or sun-sat)", "monday"],
        ["0 0 * * 1-8", 11, "a day of week (0-7 or sun-sat)", "8"],
        ["*/0 * * * *", 3, "a step of 1 or more", "0"],
        ["5/ * * * *", 3, "a step of 1 or more", ""],
        ["1,,2 * * * *", 3, "a minute (0-59)", ""],
        ["-1 * * * *", 1, "a minute (0-59)", "-1"],
        ["jan * * * *", 1, "a minute (0-59)", "jan"],
        ["0 0 1,? * *", 7, "a day of month (1-31)", "?"],
        ["? * * * *", 1, "a minute (0-59)", "?"],
        ["h * * * *", 1, "a minute (0-59)", "h"],
        ["0 0 * * 1#2,3", 13, "only nth-weekday forms in a field that has one", "3"],
    ] as const) {
        it(`${JSON.stringify(src)}: column ${column}, ${expected}`, () => {
            const e = syntaxError(src);
            assert.equal(e.position, column - 1);
            assert.equal(e.expected, expected);
            assert.equal(e.found, found);
            assert.equal(e.unsupported, false);
            const caret = `  ${" ".repeat(column - 1)}^`;
            assert.equal(e.message, `at column ${column}: expected ${expected}, found "${found}"\n  ${src}\n${caret}`);
        });
    }

    it("the wrong number of fields, an unknown macro", () => {
        const four = syntaxError("0 0 * *");
        assert.equal(four.position, 7);
        assert.match(four.message, /^at column 8: expected 5 fields: minute hour day-of-month month day-of-week \(found 4\)\n {2}0 0 \* \*\n {9}\^$/);
        assert.equal(syntaxError("").position, 0);
        assert.equal(syntaxError("0 0 * * * * * *").position, 10);
        const macro = syntaxError("@dayly");
        assert.equal(macro.position, 0);
        assert.match(macro.message, /expected one of @yearly @annually @monthly @weekly @daily @midnight @hourly/);
        const spaced = syntaxError(" @daily");
        assert.equal(spaced.position, 1, "a macro is the whole expression, as croniter reads it");
        assert.equal(spaced.found, "@daily");
        for (const word of ["constructor", "__proto__", "toString"]) assert.ok(syntaxError(word) instanceof CronSyntaxError, `${word} is no macro`);
    });

    it("what croniter takes but the parser does not support is flagged unsupported, with its place", () => {
        for (const [src, column] of [
            ["0 0 * * * 30", 11],
            ["0 0 1 1 * 0 2030", 11],
            ["0 0 L * *", 5],
            ["0 0 15W * *", 5],
            ["0 0 * * 1#2", 9],
            ["0 0 * * L5", 9],
            ["R * * * *", 1],
        ] as const) {
            const e = syntaxError(src);
            assert.equal(e.unsupported, true, src);
            assert.equal(e.position, column - 1, src);
            assert.match(e.message, /is not supported: use /);
        }
        // An expression croniter refuses anyway is a syntax error, whatever else it holds.
        assert.equal(syntaxError("60 * * * * 30").unsupported, false);
        assert.equal(syntaxError("0 0 L * 8").unsupported, false);
    });
});

describe("cron: nextRun", () => {
    it("the first fire strictly after the time given", () => {
        assert.deepEqual(fires("0 * * * *", "2024-06-01T10:00:00Z", 2), ["2024-06-01T11:00", "2024-06-01T12:00"]);
        assert.deepEqual(fires("0 9 * * 1-5", "2024-03-08T10:00:00Z", 2), ["2024-03-11T09:00", "2024-03-12T09:00"]);
        assert.deepEqual(fires("0 22-2/2 * * *", "2024-06-01T00:00:00Z", 4), ["2024-06-01T02:00", "2024-06-01T22:00", "2024-06-02T00:00", "2024-06-02T02:00"]);
        assert.deepEqual(fires("@weekly", "2024-06-01T00:00:00Z", 2), ["2024-06-02T00:00", "2024-06-09T00:00"]);
        assert.equal(nextRun(parseCron("* * * * *"), Date.parse("2024-06-01T10:00:30.500Z")), Date.parse("2024-06-01T10:01:00Z"));
    });

    it("day of month OR day of week: Fridays and the 13th; AND when one field is *", () => {
        assert.deepEqual(fires("0 0 13 * 5", "2024-09-01T00:00:00Z", 8), [
            "2024-09-06T00:00",
            "2024-09-13T00:00",
            "2024-09-20T00:00",
            "2024-09-27T00:00",
            "2024-10-04T00:00",
            "2024-10-11T00:00",
            "2024-10-13T00:00",
            "2024-10-18T00:00",
        ]);
        assert.deepEqual(fires("0 0 13 * *", "2024-09-01T00:00:00Z", 2), ["2024-09-13T00:00", "2024-10-13T00:00"]);
        assert.deepEqual(fires("0 0 */2 * 1", "2024-06-01T00:00:00Z", 4), ["2024-06-03T00:00", "2024-06-05T00:00", "2024-06-07T00:00", "2024-06-09T00:00"]);
        assert.deepEqual(fires("0 0 1-31 * 1", "2024-06-01T00:00:00Z", 2), ["2024-06-02T00:00", "2024-06-03T00:00"]);
    });

    it("the 29th of February only in leap years; a date that never comes gives undefined", () => {
        assert.deepEqual(fires("0 0 29 2 *", "2024-03-01T00:00:00Z", 2), ["2028-02-29T00:00", "2032-02-29T00:00"]);
        assert.deepEqual(fires("0 0 29 2 *", "2096-03-01T00:00:00Z", 1), ["2104-02-29T00:00"], "2100 is no leap year");
        assert.equal(nextRun(parseCron("0 0 30 2 *"), Date.parse("2024-01-01T00:00:00Z")), undefined);
        assert.equal(nextRun(parseCron("0 0 31 4,6,9,11 *"), Date.parse("2024-01-01T00:00:00Z")), undefined);
    });

    it("in a time zone: wall-clock times there", () => {
        assert.deepEqual(fires("0 12 * * sun", "2024-06-01T00:00:00Z", 2, "Europe/Paris"), ["2024-06-02T10:00", "2024-06-09T10:00"]);
        assert.deepEqual(fires("0 9 * * *", "2024-01-10T00:00:00Z", 1, "Asia/Kathmandu"), ["2024-01-10T03:15"]);
    });

    it("America/New_York spring-forward: a skipped time fires after the gap, or is skipped when every hour is allowed", () => {
        assert.deepEqual(fires("30 2 * * *", "2024-03-09T00:00:00Z", 3, "America/New_York"), ["2024-03-09T07:30", "2024-03-10T07:00", "2024-03-11T06:30"]);
        assert.deepEqual(fires("30 * * * *", "2024-03-10T06:00:00Z", 3, "America/New_York"), ["2024-03-10T06:30", "2024-03-10T07:30", "2024-03-10T08:30"]);
    });

    it("America/New_York fall-back: a repeated time fires at both of its instants", () => {
        assert.deepEqual(fires("0 1 * * *", "2024-11-02T12:00:00Z", 3, "America/New_York"), ["2024-11-03T05:00", "2024-11-03T06:00", "2024-11-04T06:00"]);
        assert.deepEqual(fires("*/30 * * * *", "2024-11-03T04:40:00Z", 6, "America/New_York"), [
            "2024-11-03T05:00",
            "2024-11-03T05:30",
            "2024-11-03T06:00",
            "2024-11-03T06:30",
            "2024-11-03T07:00",
            "2024-11-03T07:30",
        ]);
    });

    it("isTimeZone: IANA names in their case; an unknown zone is refused by nextRun", () => {
        for (const ok of ["UTC", "America/New_York", "Europe/Paris", "Asia/Kathmandu", "Asia/Calcutta"]) assert.ok(isTimeZone(ok), ok);
        for (const bad of ["", "Mars/Olympus", "america/new_york", "utc", "+02:00"]) assert.ok(!isTimeZone(bad), bad);
        assert.throws(() => nextRun(parseCron("* * * * *"), 0, "Mars/Olympus"), RangeError);
    });
});
