#!/usr/bin/env node
// `npm run build`: compiles from an empty dist/ (a stale file of a moved module would shadow its new
// place: dist/provider/impl/deployment.js once hid impl/deployment/index.js), and marks the emulator's
// command executable (npx and npm link run it directly).
"use strict";
const { execFileSync } = require("node:child_process");
const { chmodSync, rmSync } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..");
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
chmodSync(join(root, "dist/emulator/main.js"), 0o755);
