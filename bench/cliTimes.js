// The pulumi commands of a test run, summed by test file (not run by CI): for which e2e files cost the most commands.
//   PULUMI_LANGSMITH_CLI_TIMES=/tmp/cli.tsv npm test     (tests/helpers/project.ts appends one line per command)
//   node bench/cliTimes.js /tmp/cli.tsv
// Prints, per file, its commands that run a program or read the service (preview, up, refresh, destroy, import) and
// the others (stack, config), each with their seconds, most seconds first; then the totals.
"use strict";
const { readFileSync } = require("node:fs");

const ENGINE = new Set(["preview", "up", "refresh", "destroy", "import"]);
const byFile = new Map();
for (const line of readFileSync(process.argv[2], "utf8").trim().split("\n")) {
    const [ms, , args, file] = line.split("\t");
    const row = byFile.get(file || "?") ?? { engine: 0, engineS: 0, other: 0, otherS: 0 };
    const kind = ENGINE.has(args.split(" ")[0]) ? "engine" : "other";
    row[kind] += 1;
    row[`${kind}S`] += Number(ms) / 1000;
    byFile.set(file || "?", row);
}
const rows = [...byFile].sort((a, b) => b[1].engineS + b[1].otherS - (a[1].engineS + a[1].otherS));
const total = { engine: 0, engineS: 0, other: 0, otherS: 0 };
const line = (r, file) =>
    console.log(`${String(r.engine).padStart(4)} ${r.engineS.toFixed(0).padStart(6)}        ${String(r.other).padStart(4)} ${r.otherS.toFixed(0).padStart(6)}       ${file}`);
console.log("engine commands (s)   stack/config (s)   file");
for (const [file, r] of rows) {
    for (const k of Object.keys(total)) total[k] += r[k];
    line(r, file);
}
line(total, "(all)");
