/**
 * The Java snippets of the README and docs/, compiled as a user's program would be: every ```java block against the
 * Java SDK (sdk/java's sources) and the Pulumi Java SDK its POM names (com.pulumi:pulumi, from ~/.m2, which Maven
 * fills from Maven Central the first time), in one javac run beside sdk/java's own sources, so an argument renamed in
 * the schema cannot stay in the docs. Two controls with a misspelt builder method, a snippet and a whole file, are
 * among them and must be the ones refused.
 *
 * How a page's blocks are framed: they are, in order, the body of one method `program(Context ctx)` of one class
 * per page (a block may use what an earlier block of its page declares, as the TypeScript check joins a page's
 * blocks in one file), with the imports a program of the SDK has. What the snippets use without declaring it (an
 * `agent` Deployment, a `bucket` ExportDestination, ...) is a field of the class; a snippet's own local variable of
 * the same name hides it. A block that is a whole source file (it opens with `package` or `import`: a program's
 * App.java) is compiled as it is, in a package of its own so that two pages' `myproject.App` never collide.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const SDK = join(ROOT, "sdk", "java");

/** The ```java blocks of a Markdown file, in order. */
function javaBlocks(file: string): string[] {
    return [...readFileSync(file, "utf8").matchAll(/^```java\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

const IMPORTS = [
    "com.pulumi.Config",
    "com.pulumi.Context",
    "com.pulumi.core.Output",
    "com.pulumi.resources.CustomResourceOptions",
    "com.pulumi.resources.StackReference",
    "com.pulumilangsmith.langsmith.*",
    "com.pulumilangsmith.langsmith.inputs.*",
    "java.util.List",
    "java.util.Map",
    "java.util.Optional",
    "java.util.function.BiFunction",
    "java.util.function.Function",
    "java.util.stream.Collectors",
];

/** What the snippets use without declaring it, by type: fields of each page's class. */
const PRELUDE: Record<string, string> = {
    config: "Config",
    agent: "Deployment",
    bucket: "ExportDestination",
    project: "TracingProject",
    golden: "Dataset",
    acmeRate: "GatewayPolicy",
    acmeCap: "GatewayPolicy",
    digest: "Cron",
    hourly: "ScheduledExport",
    latency: "Chart",
};

/** One page's class: its blocks, in order, as the body of `program(Context ctx)`. */
function javaSnippetClass(name: string, source: string, blocks: string[]): string {
    const indent = (code: string) => code.replace(/^(?=.)/gm, "        ");
    return [
        `// The Java snippets of ${source}, framed by tests/docs/javaSnippets.test.ts.`,
        ...IMPORTS.map((i) => `import ${i};`),
        `class ${name} {`,
        ...Object.entries(PRELUDE).map(([field, type]) => `    static ${type} ${field};`),
        "    static void program(Context ctx) {",
        ...blocks.map(indent),
        "    }",
        "}",
        "",
    ].join("\n");
}

/** A block that is a whole source file rather than statements. */
const isWholeFile = (block: string) => /^(package|import) [\w.]+/m.test(block.trimStart().split("\n")[0]);

/**
 * Writes a page's Java blocks into dir: its statements as one class (`<name>.java`), each whole file as it is but for
 * its package, `<name>_<n>` (in a directory of that name, as javac expects).
 */
function writePage(dir: string, name: string, source: string, blocks: string[]): void {
    const statements = blocks.filter((b) => !isWholeFile(b));
    if (statements.length > 0) writeFileSync(join(dir, `${name}.java`), javaSnippetClass(name, source, statements));
    blocks.filter(isWholeFile).forEach((block, n) => {
        const pkg = `${name}_${n + 1}`;
        const [, cls] = /^public (?:final )?class (\w+)/m.exec(block) ?? [undefined, pkg];
        mkdirSync(join(dir, pkg));
        const body = block.replace(/^package [\w.]+;\n/m, "");
        writeFileSync(join(dir, pkg, `${cls}.java`), `// A whole file of ${source}'s Java blocks.\npackage ${pkg};\n${body}`);
    });
}

/** Runs a command without blocking the event loop; its exit code and output. */
function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
    return new Promise((done) => {
        execFile(cmd, args, { cwd, maxBuffer: 64 << 20 }, (err: any, stdout, stderr) =>
            done({ code: err ? (err.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        );
    });
}

/** Every .java file under a directory. */
function javaFiles(dir: string): string[] {
    return readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".java"))
        .map((f) => join(dir, f));
}

describe("docs: every Java snippet of the README and docs/ compiles against the Java SDK", function () {
    this.timeout(10 * 60_000);
    let dir: string;
    before(() => {
        dir = mkdtempSync(join(tmpdir(), "java-snippets-"));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("one javac run of sdk/java's sources and each page's snippets; a snippet and a whole file with a misspelt builder method among them are the ones refused", async () => {
        // The Pulumi Java SDK and what it needs, as sdk/java's POM names them (Maven downloads them the first time).
        const classpath = join(dir, "classpath.txt");
        const cp = await run("mvn", ["-q", "-B", "-f", join(SDK, "pom.xml"), "dependency:build-classpath", `-Dmdep.outputFile=${classpath}`], ROOT);
        assert.equal(cp.code, 0, cp.output);
        const snippets = join(dir, "snippets");
        mkdirSync(snippets);
        const pages: string[] = [];
        for (const source of ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)]) {
            const blocks = javaBlocks(join(ROOT, source));
            if (blocks.length === 0) continue;
            writePage(snippets, source.replace(/[/.]/g, "_"), source, blocks);
            pages.push(source);
        }
        assert.ok(pages.length >= 55, `only ${pages.length} pages have Java snippets: ${pages.join(", ")}`);
        // The controls, one of each kind of block, each with a misspelt builder method.
        writePage(snippets, "control", "the controls", [
            'new Deployment("a", DeploymentArgs.builder().name("a").sourse("github").build());\n',
            `package myproject;\nimport com.pulumi.Pulumi;\nimport com.pulumilangsmith.langsmith.*;\npublic class App {\n    public static void main(String[] args) {\n        Pulumi.run(ctx -> new TracingProject("t", TracingProjectArgs.builder().traceTeir("longlived").build()));\n    }\n}\n`,
        ]);
        const sources = join(dir, "sources.txt");
        writeFileSync(sources, [...javaFiles(join(SDK, "src")), ...javaFiles(snippets)].join("\n"));
        const r = await run(
            "javac",
            ["--release", "11", "-nowarn", "-proc:none", "-d", join(dir, "classes"), "-cp", readFileSync(classpath, "utf8").trim(), `@${sources}`],
            dir,
        );
        assert.notEqual(r.code, 0, `the controls compiled:\n${r.output}`);
        const errors = r.output.split("\n").filter((l) => /\.java:\d+: error:/.test(l));
        const statements = join(snippets, "control.java:");
        const wholeFile = join(snippets, "control_1", "App.java:");
        assert.ok(
            errors.some((l) => l.startsWith(statements)),
            r.output,
        );
        assert.ok(
            errors.some((l) => l.startsWith(wholeFile)),
            r.output,
        );
        assert.match(r.output, /symbol: {3}method sourse\(String\)/);
        assert.match(r.output, /symbol: {3}method traceTeir\(String\)/);
        assert.deepEqual(
            errors.filter((l) => !l.startsWith(statements) && !l.startsWith(wholeFile)),
            [],
            r.output,
        );
    });
});
