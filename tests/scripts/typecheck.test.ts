/**
 * The command-line scripts that `npm run stack` and `npm run bench` start transpile-only (no type-check at
 * every start), and the tests, which `npm test` loads transpile-only (.mocharc.js): they are type-checked
 * here instead, in one compilation with the repository's compiler options, together with what they import.
 *
 * Incremental under `npm test` (about 17 s of a worker's CPU saved when little changed): tsc keeps what it found, every
 * file's hash and errors, in the tools' cache (PULUMI_LANGSMITH_CACHE, one file per checkout) and checks again only
 * what a change reaches; the errors of a file nothing changed are kept and reported again.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const ROOT = join(__dirname, "..", "..");

/** Where tsc keeps what it found for this checkout (the tools' cache), or none outside `npm test`. */
function buildInfo(): Record<string, unknown> {
    const cache = process.env.PULUMI_LANGSMITH_CACHE;
    if (!cache) return {};
    mkdirSync(join(cache, "tsbuildinfo"), { recursive: true });
    const checkout = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
    return { incremental: true, tsBuildInfoFile: join(cache, "tsbuildinfo", `tests-${checkout}.tsbuildinfo`) };
}

describe("scripts, benchmarks and tests type-check (they run transpile-only)", function () {
    this.timeout(300_000);
    it("tsc --noEmit over scripts/, bench/ and tests/ (bench/programs/ and tests/e2e/programs/ are Pulumi programs the engine runs)", async () => {
        const dir = mkdtempSync(join(ROOT, "tmp-typecheck-"));
        try {
            const config = {
                extends: join(ROOT, "tsconfig.json"),
                compilerOptions: { noEmit: true, rootDir: ROOT, ...buildInfo() },
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
