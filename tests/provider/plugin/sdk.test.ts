/**
 * The checked-in Python SDK (sdk/python) is what `npm run sdk` makes of the checked-in schema (scripts/sdk.ts:
 * `langsmith-sdkgen`, which scripts/setup-python.sh builds, and the module scripts/sdk/_did_you_mean.py beside
 * it): regenerating it gives no difference, file for file. After a resource change: `npm run schema && npm run sdk`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SDK_PATH, generateSdk } from "../../../scripts/sdk";

/** What sdk/python/.gitignore leaves out: what Python and its packaging write beside the SDK (bytecode, builds). */
const IGNORED = /^(__pycache__|\.mypy_cache|dist|build|.*\.egg-info|.*\.pyc)$/;

/** Every file under `dir`, by path relative to it, but those sdk/python/.gitignore leaves out. */
function files(dir: string): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (d: string) => {
        for (const f of readdirSync(d)) {
            if (IGNORED.test(f)) continue;
            const p = join(d, f);
            if (statSync(p).isDirectory()) walk(p);
            else out.set(relative(dir, p), readFileSync(p, "utf8"));
        }
    };
    walk(dir);
    return out;
}

describe("the generated Python SDK", function () {
    this.timeout(60_000);

    it("regenerating sdk/python from provider/plugin/schema.json gives no difference (run `npm run sdk` after `npm run schema`)", () => {
        const out = join(mkdtempSync(join(tmpdir(), "pulumi-langsmith-sdk-")), "python");
        try {
            generateSdk(out);
            const made = files(out);
            const kept = files(SDK_PATH);
            assert.deepEqual([...kept.keys()].sort(), [...made.keys()].sort());
            for (const [path, text] of made) assert.equal(kept.get(path), text, `sdk/python/${path} differs from what the schema generates`);
        } finally {
            rmSync(join(out, ".."), { recursive: true, force: true });
        }
    });
});
