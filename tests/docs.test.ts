/**
 * Every argument and output a resource or function declares (provider/registry.ts, at every depth) is named
 * in its doc, so the docs cannot fall behind the declarations; every doc has the sections a user looks
 * for; docs/nativePlugin.md installs package.json's version (issue 39 item 8); and the README links every doc
 * in docs/. (That the docs' code type-checks: tests/e2e/examples.test.ts;
 * that docs/emulator.md's recipes work: tests/docs/emulatorRecipes.test.ts.)
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Field, Fields } from "../provider/kit/declare";
import { FUNCTIONS, RESOURCES } from "../provider/registry";

const ROOT = join(__dirname, "..");
/** Each registered resource's doc, and the functions' one. */
const DOCS: Record<string, { doc: string; fields: Fields[] }> = {
    ...Object.fromEntries(
        Object.entries(RESOURCES).map(([type, r]) => [r.declaration.name, { doc: `${type}.md`, fields: [r.declaration.inputs, r.declaration.outputs] }]),
    ),
    functions: { doc: "functions.md", fields: Object.values(FUNCTIONS).flatMap((f) => [f.declaration.args, f.declaration.result]) },
};

/** The names of fields at every depth (an object's fields, a list's items' fields), hidden outputs aside. */
function names(fields: Fields): string[] {
    const inner = (f: Field): string[] => (f.kind === "object" ? names(f.fields) : f.kind === "list" ? inner(f.items) : []);
    return Object.entries(fields).flatMap(([k, f]) => (f.hidden ? [] : [k, ...inner(f)]));
}

/** What every resource doc answers, as headings: a `## ` line matching each. */
const SECTIONS: Record<string, RegExp> = {
    arguments: /^## (Arguments|Arguments and outputs)$/m,
    outputs: /^## (Outputs|Arguments and outputs)$/m,
    "update or replace (a table)": /^## Update or replace\n[\s\S]*?^\| Change \| Effect \|$/m,
    "waiting and timeouts": /^## .*(Waiting|timeouts)/m,
    adoption: /^## .*(Adopt|adoption)/m,
    "what refresh detects": /^## .*(Refresh|refresh|Drift)/m,
    errors: /^## Errors\n[\s\S]*?^\| (What you see|Error \(as it reads\))/m,
};

describe("docs: every resource argument and every section a user looks for", () => {
    for (const [what, { doc, fields }] of Object.entries(DOCS)) {
        it(`${what}: every argument and output appears in docs/${doc}`, () => {
            const props = [...new Set(fields.flatMap(names))];
            assert.ok(props.length > 0, "nothing declared: the walk is broken");
            const text = readFileSync(join(ROOT, "docs", doc), "utf8");
            const missing = props.filter((p) => !new RegExp("[`.]" + p + "\\b").test(text));
            assert.deepEqual(missing, [], `not in docs/${doc}`);
        });
    }
    // Functions change nothing: no update, waiting, adoption or refresh to describe.
    for (const doc of new Set(
        Object.values(DOCS)
            .map((d) => d.doc)
            .filter((d) => d !== "functions.md"),
    )) {
        it(`docs/${doc}: has a section for each of ${Object.keys(SECTIONS).join(", ")}`, () => {
            const text = readFileSync(join(ROOT, "docs", doc), "utf8");
            assert.deepEqual(
                Object.keys(SECTIONS).filter((k) => !SECTIONS[k].test(text)),
                [],
            );
        });
    }
    it("docs/nativePlugin.md installs the version npm run release writes (package.json's), named in one line", () => {
        const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
        const doc = readFileSync(join(ROOT, "docs", "nativePlugin.md"), "utf8");
        assert.deepEqual(
            [...doc.matchAll(/^version=(\S+)/gm)].map((m) => m[1]),
            [version],
            "one version= line, package.json's version",
        );
        // The install lines take it from there: no file name or install names a version of its own.
        assert.match(doc, /^pulumi plugin install resource langsmith \$version --file pulumi-resource-langsmith-v\$version-linux-amd64\.tar\.gz$/m);
        assert.match(doc, /^pip install pulumi_langsmith-\$version-py3-none-any\.whl/m);
        assert.equal(doc.match(/pulumi-resource-langsmith-v\d|pulumi_langsmith-\d|install resource langsmith \d/g), null);
    });

    it("the README links every doc in docs/ (resource docs and the others, such as emulator.md)", () => {
        const readme = readFileSync(join(ROOT, "README.md"), "utf8");
        const docs = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
        assert.ok(docs.includes("emulator.md"));
        for (const doc of new Set([...Object.values(DOCS).map((d) => d.doc), ...docs])) assert.ok(readme.includes(`(docs/${doc})`), doc);
    });

    it("the README opens with the quick path (one block of at most ten lines: clone, set-up, the main job, the sandbox, up) and a diagram of the parts, before any reference", () => {
        const readme = readFileSync(join(ROOT, "README.md"), "utf8");
        const sections = readme.split(/^## /m);
        assert.match(sections[1], /^Quick path\n/);
        const [block] = /```sh\n([\s\S]*?)```/.exec(sections[1])!.slice(1);
        const lines = block.trim().split("\n");
        assert.ok(lines.length <= 10, `${lines.length} lines`);
        for (const step of ["git clone", "bash scripts/setup.sh", "npm run stack", "--sandbox", "pulumi up"])
            assert.ok(
                lines.some((l) => l.includes(step)),
                step,
            );
        const diagram = /```mermaid\n([\s\S]*?)```/.exec(sections[1])?.[1] ?? "";
        for (const part of [
            "Pulumi program",
            "Pulumi engine",
            "native plugin",
            "dynamic-provider host",
            "control plane",
            "agent server",
            "bulk export",
            "bucket",
        ])
            assert.ok(diagram.includes(part), part);
        assert.ok(readme.split("\n").length < 578, "the README grew back: move reference into docs/");
    });
});
