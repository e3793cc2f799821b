/**
 * The checked-in SDKs (sdk/python, sdk/go, sdk/java) are what `npm run sdk` makes of the checked-in schema
 * (scripts/sdk.ts: `langsmith-sdkgen`, which scripts/setup-python.sh builds, for Python and Go; the Java language
 * host of scripts/setup-java.sh for Java; and this repository's additions beside them): regenerating each gives no
 * difference, file for file, so an SDK left stale by a schema change fails here. After a resource change:
 * `npm run schema && npm run sdk`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SCHEMA_PATH } from "../../../scripts/schema";
import { SDK_LANGUAGES, SDK_ROOT, type SdkLanguage, generateSdk } from "../../../scripts/sdk";

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

/** The paths under sdk/<language> whose text differs from what `schema` generates (one more or one fewer counts). */
function stale(language: SdkLanguage, schema?: string): string[] {
    const out = join(mkdtempSync(join(tmpdir(), "pulumi-langsmith-sdk-")), language);
    try {
        generateSdk(language, out, schema);
        const made = files(out);
        const kept = files(join(SDK_ROOT, language));
        return [...new Set([...made.keys(), ...kept.keys()])].filter((path) => made.get(path) !== kept.get(path)).sort();
    } finally {
        rmSync(join(out, ".."), { recursive: true, force: true });
    }
}

describe("the generated SDKs", function () {
    this.timeout(120_000);

    for (const language of SDK_LANGUAGES) {
        it(`regenerating sdk/${language} from provider/plugin/schema.json gives no difference (run \`npm run sdk\` after \`npm run schema\`)`, () => {
            assert.deepEqual(stale(language), [], `sdk/${language}: these files differ from what the schema generates`);
        });
    }

    // The control: the check above fails when the schema changes and the SDK is not generated again.
    it("a schema changed without regenerating (a field's description, a new resource): the Go SDK's files that differ are named", () => {
        const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8"));
        schema.resources["langsmith:index:TracingProject"].inputProperties.name.description = "Another description.";
        schema.resources["langsmith:index:Extra"] = { description: "One more resource.", properties: {}, inputProperties: {} };
        const path = join(mkdtempSync(join(tmpdir(), "pulumi-langsmith-schema-")), "schema.json");
        try {
            writeFileSync(path, JSON.stringify(schema));
            const differs = stale("go", path);
            assert.ok(differs.includes("langsmith/tracingProject.go") && differs.includes("langsmith/extra.go"), differs.join(", "));
        } finally {
            rmSync(join(path, ".."), { recursive: true, force: true });
        }
    });
});
