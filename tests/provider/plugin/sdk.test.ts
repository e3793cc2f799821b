/**
 * The checked-in SDKs (sdk/python, sdk/go, sdk/java) are what `npm run sdk` makes of the checked-in schema
 * (scripts/sdk.ts: `langsmith-sdkgen`, which scripts/setup-python.sh builds, for Python and Go; the Java language
 * host of scripts/setup-java.sh for Java; and this repository's additions beside them): regenerating each gives no
 * difference, file for file, so an SDK left stale by a schema change fails here. After a resource change:
 * `npm run schema && npm run sdk`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SDK_LANGUAGES, SDK_ROOT, generateSdk } from "../../../scripts/sdk";

/**
 * What the SDKs' .gitignore files leave out: what Python and its packaging write beside the SDK (bytecode, builds),
 * Maven's target/ and the go.sum a build beside the Go module writes.
 */
const IGNORED = /^(__pycache__|\.mypy_cache|dist|build|.*\.egg-info|.*\.pyc|target|go\.sum)$/;

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

describe("the generated SDKs", function () {
    this.timeout(120_000);

    for (const language of SDK_LANGUAGES) {
        it(`regenerating sdk/${language} from provider/plugin/schema.json gives no difference (run \`npm run sdk\` after \`npm run schema\`)`, () => {
            const out = join(mkdtempSync(join(tmpdir(), "pulumi-langsmith-sdk-")), language);
            try {
                generateSdk(language, out);
                const made = files(out);
                const kept = files(join(SDK_ROOT, language));
                assert.deepEqual([...kept.keys()].sort(), [...made.keys()].sort());
                for (const [path, text] of made) assert.equal(kept.get(path), text, `sdk/${language}/${path} differs from what the schema generates`);
            } finally {
                rmSync(join(out, ".."), { recursive: true, force: true });
            }
        });
    }
});
