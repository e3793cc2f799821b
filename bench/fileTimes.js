// Per-file wall times of a mocha run, for measuring the suite's length (not run by CI).
// As a root-hook plugin in a parallel run, each worker runs one file: its root before/after hooks time that file, hooks included.
//   FILE_TIMES_LOG=/tmp/t.jsonl npx mocha --parallel --jobs 2 --require bench/fileTimes.js <files>
// Then print them, longest first, with the run's span (first start to last end):
//   node bench/fileTimes.js /tmp/t.jsonl
"use strict";
const { appendFileSync, readFileSync } = require("node:fs");

let start = 0;
exports.mochaHooks = {
    beforeAll() {
        start = Date.now();
    },
    afterAll() {
        const log = process.env.FILE_TIMES_LOG;
        const file = this.test?.parent?.suites?.[0]?.file ?? "?";
        if (log) appendFileSync(log, `${JSON.stringify({ file, start, end: Date.now() })}\n`);
    },
};

if (require.main === module) {
    const rows = readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const first = Math.min(...rows.map((r) => r.start));
    const last = Math.max(...rows.map((r) => r.end));
    rows.sort((a, b) => b.end - b.start - (a.end - a.start));
    for (const r of rows) {
        const rel = (r.start - first) / 1000;
        console.log(`${((r.end - r.start) / 1000).toFixed(1).padStart(7)} s  (from ${rel.toFixed(0)} s)  ${r.file.replace(`${process.cwd()}/`, "")}`);
    }
    const sum = rows.reduce((s, r) => s + r.end - r.start, 0) / 1000;
    console.log(`${rows.length} files, sum ${sum.toFixed(1)} s, span ${((last - first) / 1000).toFixed(1)} s`);
}
