/**
 * The command-line scripts that `npm run stack` and `npm run bench` start transpile-only (no type-check at
 * every start), and the tests, which `npm test` loads transpile-only (.mocharc.js): they are type-checked
 * here instead, in one compilation with the repository's compiler options, together with what they import.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const ROOT = join(__dirname, "..", "..");

describe("scripts, benchmarks and tests type-check (they run transpile-only)", function () {
    this.timeout(300_000);
    it("tsc --noEmit over scripts/, bench/ and tests/ (bench/programs/ and tests/e2e/programs/ are Pulumi programs the engine runs)", async () => {
        const dir = mkdtempSync(join(ROOT, "tmp-typecheck-"));
        try {
            const config = {
                extends: join(ROOT, "tsconfig.json"),
                compilerOptions: { noEmit: true, rootDir: ROOT },
                include: [join(ROOT, "scripts/**/*.ts"), join(ROOT, "bench/**/*.ts"), join(ROOT, "tests/**/*.ts")],
                exclude: [join(ROOT, "bench/programs/**"), join(ROOT, "tests/e2e/programs/**")],
            };
            writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
            const r = await promisify(execFile)(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], {
                cwd: ROOT,
            }).catch((e) => e);
            assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}`);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
