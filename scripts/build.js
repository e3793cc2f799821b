#!/usr/bin/env node
// `npm run build`: compiles from an empty dist/ (a stale file of a moved module would shadow its new
// place: dist/provider/impl/deployment.js once hid impl/deployment/index.js), copies the native plugin's
// schema beside it, and marks the emulator's command and the plugin executable (npx, npm link and the
// Pulumi engine run them directly). The benchmarks' provider that does nothing (bench/floor) is built with
// them, into dist/bench, which the package leaves out.
"use strict";
const { execFileSync } = require("node:child_process");
const { chmodSync, copyFileSync, rmSync } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..");
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
copyFileSync(join(root, "provider/plugin/schema.json"), join(root, "dist/provider/plugin/schema.json"));
chmodSync(join(root, "dist/emulator/main.js"), 0o755);
chmodSync(join(root, "dist/provider/plugin/main.js"), 0o755);
chmodSync(join(root, "dist/bench/floor/main.js"), 0o755);
