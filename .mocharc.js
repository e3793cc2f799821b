// Mocha's settings. Test files load through ts-node, type-checked file by file; `npm test` (scripts/test.sh) sets
// PULUMI_LANGSMITH_TESTS_TRANSPILE_ONLY=1 so they load transpile-only, and type-checks them all at once instead
// (tests/scripts/typecheck.test.ts): each worker's ts-node type-checking every file's imports again cost minutes.
"use strict";
module.exports = {
    require: [process.env.PULUMI_LANGSMITH_TESTS_TRANSPILE_ONLY === "1" ? "ts-node/register/transpile-only" : "ts-node/register"],
    extension: ["ts"],
    timeout: 20000,
    reporter: "tests/helpers/reporter.js",
};
