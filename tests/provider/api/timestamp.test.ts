/**
 * The strict reader of the service's timestamps (provider/api/timestamp.ts): RFC 3339 with 0 to 9
 * fractional digits and `Z` or an offset is read to the millisecond; anything else, forms `Date.parse`
 * takes included, is not a timestamp.
 */
import assert from "node:assert/strict";
import { parseTimestamp } from "../../../provider/api/timestamp";

const AT = Date.UTC(2026, 10, 24, 23, 0, 0);

describe("parseTimestamp", () => {
    for (const [s, ms] of [
        ["2026-11-24T23:00:00Z", AT],
        ["2026-11-24T23:00:00.1Z", AT + 100],
        ["2026-11-24T23:00:00.123Z", AT + 123],
        ["2026-11-24T23:00:00.123456+00:00", AT + 123],
        ["2026-11-24T23:00:00.123456789Z", AT + 123],
        ["2026-11-24T23:00:00.999999999Z", AT + 999],
        ["2026-11-25T00:00:00+01:00", AT],
        ["2026-11-24T17:30:00.5-05:30", AT + 500],
        ["2026-11-24t23:00:00z", AT],
        ["0001-01-01T00:00:00Z", -62_135_596_800_000], // year 1, not 1901 as Date.UTC would have it
        ["2028-02-29T00:00:00Z", Date.UTC(2028, 1, 29)],
    ] as const) {
        it(`reads ${s} to the millisecond`, () => assert.equal(parseTimestamp(s), ms));
    }

    for (const s of [
        "",
        "24/11/2026 23:00:00",
        "2026-11-24T23:00:00",
        "2026-11-24 23:00:00Z",
        "2026-11-24T23:00Z",
        "2026-11-24T23:00:00.Z",
        "2026-11-24T23:00:00.1234567890Z",
        "2026-11-24T23:00:00+0100",
        "2026-11-24T23:00:00+01:60",
        "2026-11-24T23:00:00+24:00",
        "2026-02-30T00:00:00Z",
        "2027-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-11-24T24:00:00Z",
        "2026-11-24T23:60:00Z",
        "2026-11-24T23:00:60Z",
        " 2026-11-24T23:00:00Z",
        "Tue, 24 Nov 2026 23:00:00 GMT",
    ]) {
        it(`${JSON.stringify(s)} is not a timestamp`, () => assert.equal(parseTimestamp(s), undefined));
    }

    it("a value that is not a string is not a timestamp", () => {
        for (const v of [null, undefined, 1795561200000, {}]) assert.equal(parseTimestamp(v), undefined);
    });
});
