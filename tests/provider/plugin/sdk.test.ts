/**
 * The checked-in Python SDK (sdk/python) is what the generator makes of the checked-in schema: regenerating
 * it with `langsmith-sdkgen` (scripts/setup-python.sh builds it) gives no difference, file for file. After a
 * resource change: `npm run schema && npm run sdk`.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SCHEMA_PATH } from "../../../scripts/schema";

const SDK = join(__dirname, "../../../sdk/python");

/** Every file under `dir`, by path relative to it. */
function files(dir: string): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (d: string) => {
        for (const f of readdirSync(d)) {
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
            execFileSync(process.env.PULUMI_LANGSMITH_SDKGEN ?? "langsmith-sdkgen", [SCHEMA_PATH, out], { stdio: "pipe" });
            const made = files(out);
            const kept = files(SDK);
            assert.deepEqual([...kept.keys()].sort(), [...made.keys()].sort());
            for (const [path, text] of made) assert.equal(kept.get(path), text, `sdk/python/${path} differs from what the schema generates`);
        } finally {
            rmSync(join(out, ".."), { recursive: true, force: true });
        }
    });
});
