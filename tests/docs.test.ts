/**
 * Every argument and output a resource or function declares (provider/registry.ts, at every depth) is named
 * in its doc, so the docs cannot fall behind the declarations; every doc has the sections a user looks
 * for; docs/nativePlugin.md installs package.json's version (issue 39 item 8); the README links every doc
 * in docs/; and the README's first screen (issue 53 item 7): every registered resource and look-up in one table
 * by area (docs/_index.md's too), the install line of each language with the release's file names, the quick path;
 * docs/installation-configuration.md names every configuration key of the schema with its environment variable.
 * (That the docs' code type-checks: tests/e2e/examples.test.ts; that docs/emulator.md's recipes work:
 * tests/docs/emulatorRecipes.test.ts.)
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { KEYS } from "../provider/config";
import type { Field, Fields } from "../provider/kit/declare";
import { FUNCTIONS, RESOURCES } from "../provider/registry";
import { PLATFORMS, archiveName } from "../scripts/release";

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

    it("the README's first screen: what it manages, install, the quick path (one block of at most ten lines: clone, set-up, the main job, the sandbox, up) with a diagram of the parts, the docs; before any reference", () => {
        const readme = readFileSync(join(ROOT, "README.md"), "utf8");
        const sections = readme.split(/^## /m);
        assert.deepEqual(
            sections.slice(1, 5).map((s) => s.split("\n")[0]),
            ["What it manages", "Install", "Quick path", "Docs"],
        );
        const quick = sections[3];
        const [block] = /```sh\n([\s\S]*?)```/.exec(quick)!.slice(1);
        const lines = block.trim().split("\n");
        assert.ok(lines.length <= 10, `${lines.length} lines`);
        for (const step of ["git clone", "bash scripts/setup.sh", "npm run stack", "--sandbox", "pulumi up"])
            assert.ok(
                lines.some((l) => l.includes(step)),
                step,
            );
        const diagram = /```mermaid\n([\s\S]*?)```/.exec(quick)?.[1] ?? "";
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
        assert.ok(readme.split("\n").length < 250, "the README grew back: move reference into docs/");
    });

    it("the README's table and docs/_index.md's list every registered resource and look-up once, each linking its doc (a look-up: the heading of docs/functions.md naming it)", () => {
        const readme = section(readFileSync(join(ROOT, "README.md"), "utf8"), "What it manages");
        const index = section(readFileSync(join(ROOT, "docs", "_index.md"), "utf8"), "Resources, by area");
        assert.deepEqual(tableProblems(readme, "docs/"), []);
        assert.deepEqual(tableProblems(index, ""), []);
        // The control: a table without one resource and with a look-up linking a heading that does not name it.
        const broken = readme.replace(/\[`Chart`\]\(docs\/chart\.md\),? ?/, "").replace("(docs/functions.md#getprompt)", "(docs/functions.md#getrole)");
        assert.deepEqual(tableProblems(broken, "docs/"), ["Chart: not in the table", "getPrompt: links docs/functions.md#getrole, not a heading naming it"]);
    });

    it("the README's install section: a line for each of TypeScript, Python, Go, Java and YAML, with the release's file names; docs/installation-configuration.md has each too", () => {
        const readme = section(readFileSync(join(ROOT, "README.md"), "utf8"), "Install");
        const page = readFileSync(join(ROOT, "docs", "installation-configuration.md"), "utf8");
        const row = (language: string) => readme.split("\n").find((l) => l.startsWith(`| ${language} |`)) ?? "";
        for (const [language, needs] of Object.entries(INSTALL)) {
            assert.ok(row(language), `no install line for ${language}`);
            for (const s of needs) {
                assert.ok(row(language).includes(s), `${language}'s install line lacks ${s}`);
                assert.ok(page.includes(s), `docs/installation-configuration.md lacks ${s}`);
            }
        }
        // The plugin's install line, its archive named as scripts/release.ts names it: any platform's in the README, one in the page.
        const plugin = `pulumi plugin install resource langsmith <v> --file ${archiveName(PLATFORMS["linux-x64"], "<v>")}`;
        assert.ok(readme.includes(plugin.replace("linux-amd64", "<os>-<arch>")), readme);
        assert.ok(page.includes(plugin), `docs/installation-configuration.md lacks ${plugin}`);
        assert.match(readme, /`pulumi package add langsmith@<v>`/);
        assert.match(row(".NET"), /not offered yet/);
    });

    it("docs/installation-configuration.md: every configuration key of the schema, with its environment variable; both Registry pages have their front matter", () => {
        const schema = JSON.parse(readFileSync(join(ROOT, "provider", "plugin", "schema.json"), "utf8")) as {
            config: { variables: Record<string, { description: string }> };
        };
        const page = readFileSync(join(ROOT, "docs", "installation-configuration.md"), "utf8");
        const keys = Object.keys(schema.config.variables);
        assert.deepEqual(keys.sort(), Object.keys(KEYS).sort(), "the schema's keys are provider/config.ts's");
        for (const key of keys) {
            const env = KEYS[key as keyof typeof KEYS].places[1];
            assert.ok(schema.config.variables[key].description.includes(`\`${env}\``), `the schema's ${key} does not name ${env}`);
            assert.match(page, new RegExp(`^\\| \`langsmith:${key}\`[^|]*\\| \`${env}\` \\|`, "m"), `no row for langsmith:${key} and ${env}`);
        }
        for (const doc of ["_index.md", "installation-configuration.md"]) {
            const front = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(ROOT, "docs", doc), "utf8"))?.[1] ?? "";
            for (const field of [/^title: \S/m, /^meta_desc: \S/m, /^layout: package$/m]) assert.match(front, field, doc);
        }
    });

    it("docs/_index.md: one example in each language (TypeScript, Python, Go, Java, YAML)", () => {
        const example = section(readFileSync(join(ROOT, "docs", "_index.md"), "utf8"), "Example");
        assert.deepEqual(
            [...example.matchAll(/^```(\w+)\n/gm)].map((m) => m[1]),
            ["ts", "python", "go", "java", "yaml"],
        );
    });
});

/** The text of a Markdown file's `## <title>` section. */
function section(text: string, title: string): string {
    const parts = text.split(/^## /m);
    const found = parts.find((p) => p.startsWith(`${title}\n`));
    assert.ok(found, `no section "${title}"`);
    return found;
}

/** A GitHub heading anchor: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
    heading
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replaceAll(" ", "-");

/**
 * What is wrong with a table of resources and look-ups (links relative to `prefix`): a registered resource or look-up
 * missing, listed twice or linking elsewhere than its doc; a name that is not registered.
 */
function tableProblems(table: string, prefix: string): string[] {
    const headings = readFileSync(join(ROOT, "docs", "functions.md"), "utf8")
        .split("\n")
        .filter((l) => l.startsWith("## "))
        .map((l) => l.slice(3));
    const links = [...table.matchAll(/\[`(\w+)`\]\(([^)]+)\)/g)].map((m) => ({ name: m[1], target: m[2] }));
    const expected = new Map<string, (target: string) => boolean>([
        ...Object.entries(RESOURCES).map(([type, r]) => [r.declaration.name, (t: string) => t === `${prefix}${type}.md`] as const),
        ...Object.keys(FUNCTIONS).map(
            (name) => [name, (t: string) => headings.some((h) => h.includes(`\`${name}\``) && t === `${prefix}functions.md#${anchor(h)}`)] as const,
        ),
    ]);
    const problems: string[] = [];
    for (const [name, linksTo] of expected) {
        const found = links.filter((l) => l.name === name);
        if (found.length === 0) problems.push(`${name}: not in the table`);
        else if (found.length > 1) problems.push(`${name}: ${found.length} times`);
        else if (!linksTo(found[0].target)) problems.push(`${name}: links ${found[0].target}, not ${name in FUNCTIONS ? "a heading naming it" : "its doc"}`);
    }
    for (const l of links) if (!expected.has(l.name)) problems.push(`${l.name}: not registered`);
    return problems;
}

/** The release's file names (the common names of issue 53) and the SDKs' own names, as each language's install line gives them. */
const GO_MODULE = /^module (\S+)$/m.exec(readFileSync(join(ROOT, "sdk", "go", "go.mod"), "utf8"))![1];
const POM = readFileSync(join(ROOT, "sdk", "java", "pom.xml"), "utf8");
const JAVA_ARTIFACT = [/<groupId>([^<]+)/.exec(POM)![1], /<artifactId>([^<]+)/.exec(POM)![1]].join(":");
const INSTALL: Record<string, string[]> = {
    TypeScript: ["pulumi-langsmith-<v>.tgz"],
    Python: ["pip install pulumi_langsmith-<v>-py3-none-any.whl"],
    Go: ["tar -xzf pulumi-langsmith-go-v<v>.tar.gz", `-require=${GO_MODULE}@v<v>`, `-replace=${GO_MODULE}=./pulumi-langsmith-go-v<v>`, "go mod tidy"],
    Java: ["mvn install:install-file -Dfile=langsmith-<v>.jar -DpomFile=langsmith-<v>.pom", `${JAVA_ARTIFACT}:<v>`],
    YAML: [],
};
