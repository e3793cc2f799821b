#!/usr/bin/env node
// `npm run build`: compiles from an empty dist/ (a stale file of a moved module would shadow its new
// place: dist/provider/impl/deployment.js once hid impl/deployment/index.js), copies the native plugin's
// schema beside it, and marks the emulator's command and the plugin executable (npx, npm link and the
// Pulumi engine run them directly). The benchmarks' provider that does nothing (bench/floor) is built with
// them, into dist/bench, which the package leaves out.
//
// `--if-changed` (what scripts/setup.sh and `npm test` run): builds only when the build's inputs differ from those
// of the dist/ there, recorded in dist/.inputs as a hash of every file the build reads (the TypeScript it compiles,
// the schema, tsconfig.json, the lock file that pins the compiler and this script); and with the tools' cache
// (PULUMI_LANGSMITH_CACHE), takes the dist/ an earlier build of the same inputs kept there (the last three are
// kept), so that a fresh clone of a tree built before compiles nothing (about 17 s on 2 cores). Only a build that
// succeeded is kept, so a tree that does not compile is never taken from the cache.
"use strict";
const { execFileSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { chmodSync, copyFileSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");

const root = join(__dirname, "..");
const stamp = join(root, "dist", ".inputs");
const kept = process.env.PULUMI_LANGSMITH_CACHE ? join(process.env.PULUMI_LANGSMITH_CACHE, "dist") : undefined;

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

/** Keeps dist/ in the cache under its inputs' hash, and only the three newest there. */
function keep(inputs) {
    const partial = join(kept, `${inputs}.${process.pid}`);
    cpSync(join(root, "dist"), partial, { recursive: true });
    rmSync(join(kept, inputs), { recursive: true, force: true });
    renameSync(partial, join(kept, inputs));
    const entries = readdirSync(kept).filter((e) => /^[0-9a-f]{64}$/.test(e));
    entries.sort((a, b) => statSync(join(kept, b)).mtimeMs - statSync(join(kept, a)).mtimeMs);
    for (const old of entries.slice(3)) rmSync(join(kept, old), { recursive: true, force: true });
}

const inputs = inputsHash();
if (process.argv.includes("--if-changed")) {
    if (existsSync(stamp) && readFileSync(stamp, "utf8") === inputs) {
        console.log("build: dist/ is built from these sources already (dist/.inputs)");
        process.exit(0);
    }
    if (kept && existsSync(join(kept, inputs, ".inputs"))) {
        rmSync(join(root, "dist"), { recursive: true, force: true });
        cpSync(join(kept, inputs), join(root, "dist"), { recursive: true });
        console.log(`build: dist/ of these sources taken from ${kept} (compiled there before)`);
        process.exit(0);
    }
}
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
copyFileSync(join(root, "provider/plugin/schema.json"), join(root, "dist/provider/plugin/schema.json"));
chmodSync(join(root, "dist/emulator/main.js"), 0o755);
chmodSync(join(root, "dist/provider/plugin/main.js"), 0o755);
chmodSync(join(root, "dist/bench/floor/main.js"), 0o755);
writeFileSync(stamp, inputs);
if (kept && process.argv.includes("--if-changed")) keep(inputs);
