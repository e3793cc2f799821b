#!/usr/bin/env node
// `npm run build`: compiles from an empty dist/ (a stale file of a moved module would shadow its new
// place: dist/provider/impl/deployment.js once hid impl/deployment/index.js), copies the native plugin's
// schema beside it, and marks the emulator's command and the plugin executable (npx, npm link and the
// Pulumi engine run them directly). The benchmarks' provider that does nothing (bench/floor) is built with
// them, into dist/bench, which the package leaves out.
//
// `--if-changed` (what `npm test` runs, after scripts/setup.sh has built): builds only when the build's inputs
// differ from those of the dist/ there, recorded in dist/.inputs as a hash of every file the build reads (the
// TypeScript it compiles, the schema, tsconfig.json, the lock file that pins the compiler and this script). In CI
// that is the second build of the same tree (about 17 s on 2 cores), which it skips.
"use strict";
const { execFileSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");

const root = join(__dirname, "..");
const stamp = join(root, "dist", ".inputs");

/** Every file under `dir` whose name ends with `.ts`, sorted, as paths from the root. */
function typescriptUnder(dir) {
    return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith(".ts"))
        .map((e) => relative(root, join(e.parentPath, e.name)))
        .sort();
}

/** A hash of the build's inputs: their paths and contents. */
function inputsHash() {
    const tsconfig = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"));
    const dirs = tsconfig.include.map((p) => p.replace(/\/\*\*\/\*\.ts$/, ""));
    const files = [...dirs.flatMap(typescriptUnder), "provider/plugin/schema.json", "tsconfig.json", "package-lock.json", "scripts/build.js"];
    const hash = createHash("sha256");
    for (const f of files) hash.update(`${f}\0${readFileSync(join(root, f), "utf8")}\0`);
    return hash.digest("hex");
}

const inputs = inputsHash();
if (process.argv.includes("--if-changed") && existsSync(stamp) && readFileSync(stamp, "utf8") === inputs) {
    console.log("build: dist/ is built from these sources already (dist/.inputs)");
    process.exit(0);
}
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
copyFileSync(join(root, "provider/plugin/schema.json"), join(root, "dist/provider/plugin/schema.json"));
chmodSync(join(root, "dist/emulator/main.js"), 0o755);
chmodSync(join(root, "dist/provider/plugin/main.js"), 0o755);
chmodSync(join(root, "dist/bench/floor/main.js"), 0o755);
writeFileSync(stamp, inputs);
