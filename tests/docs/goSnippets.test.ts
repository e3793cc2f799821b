/**
 * Every page of docs/ that shows a program in TypeScript shows it in Go too, and every Go snippet of the README and
 * docs/ compiles against the generated Go SDK (sdk/go), as the TypeScript and Python ones type-check in
 * tests/e2e/examples.test.ts: a field renamed in the schema cannot stay in the docs. The ```go blocks become one Go
 * package in a module of their own under tmp/ (its go.mod names sdk/go with a `replace` line, as a user's program
 * does until the module is published), compiled by one `go build`: a fragment (the body of the function `pulumi.Run`
 * runs) becomes a function of its own, a whole program (a block that opens with `package`) a package of its own.
 * `go build` refuses what a user's compile would: an unknown field, a wrong type, a variable declared and never used
 * (a snippet assigns what it does not use to `_`, as a program must). A control, a snippet with a misspelt field, is
 * compiled with them and must be the one refused; and every file is as gofmt writes it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const SDK = join(ROOT, "sdk", "go");
const MODULE = "github.com/pulumi-langsmith/pulumi-langsmith/sdk/go";

/** The ```go blocks of a Markdown file, in order. */
function goBlocks(file: string): string[] {
    return [...readFileSync(file, "utf8").matchAll(/^```go\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

/**
 * What the docs' Go snippets use without declaring it (each is a fragment of a program, as the TypeScript ones are:
 * their PRELUDE): package-level variables, which a snippet's own `:=` shadows. Only their types matter to the compiler.
 */
const PRELUDE = `package snippets

import "${MODULE}/langsmith"

var (
	agent    *langsmith.Deployment
	bucket   *langsmith.ExportDestination
	golden   *langsmith.Dataset
	project  *langsmith.TracingProject
	acmeRate *langsmith.GatewayPolicy
	acmeCap  *langsmith.GatewayPolicy
	digest   *langsmith.Cron
	hourly   *langsmith.ScheduledExport
	latency  *langsmith.Chart
)
`;

/** The packages a fragment may name, imported when it does (Go refuses an import left unused). */
const IMPORTS: Record<string, string> = {
    langsmith: `${MODULE}/langsmith`,
    config: "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config",
};

/** One Go file of a page's fragments, each the body of a function named after the page and its place in it. */
function fragmentFile(name: string, blocks: string[]): string {
    const code = blocks.join("\n");
    const imports = Object.entries(IMPORTS)
        .filter(([pkg]) => new RegExp(`\\b${pkg}\\.`).test(code))
        .map(([, path]) => path)
        .concat("github.com/pulumi/pulumi/sdk/v3/go/pulumi")
        .sort()
        .map((path) => `\t"${path}"`);
    const indent = (b: string) => b.replace(/^(?=.)/gm, "\t");
    const functions = blocks.map((b, i) => `func snippet_${name}_${i + 1}(ctx *pulumi.Context) error {\n${indent(b)}\treturn nil\n}\n`);
    return ["package snippets", "", "import (", ...imports, ")", "", ...functions].join("\n");
}

/** Runs a command in a directory: its exit code and output (stdout then stderr). */
function run(cmd: string, args: string[], cwd: string): { code: number; output: string } {
    const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, GOWORK: "off" }, maxBuffer: 64 << 20 });
    return { code: r.status ?? 1, output: `${r.stdout}${r.stderr}` };
}

describe("docs: every Go snippet compiles against the generated Go SDK", function () {
    // A cold module cache downloads sdk/v3 and its dependencies and compiles them (about a minute); warm, a second.
    this.timeout(10 * 60_000);

    it("README and docs: every ```go block compiles with go build against sdk/go; a snippet with a misspelt field among them is refused; each is as gofmt writes it", () => {
        mkdirSync(join(ROOT, "tmp"), { recursive: true });
        const dir = mkdtempSync(join(ROOT, "tmp", "go-snippets-"));
        const sdkRequire = /^require github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)$/m.exec(readFileSync(join(SDK, "go.mod"), "utf8"));
        assert.ok(sdkRequire, "sdk/go/go.mod no longer requires github.com/pulumi/pulumi/sdk/v3 on one line");
        writeFileSync(
            join(dir, "go.mod"),
            `module docsnippets\n\ngo 1.25\n\nrequire (\n\t${MODULE} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${sdkRequire[1]}\n)\n\nreplace ${MODULE} => ${SDK}\n`,
        );
        mkdirSync(join(dir, "snippets"));
        writeFileSync(join(dir, "snippets", "prelude.go"), PRELUDE);
        const files: string[] = [];
        for (const source of ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)]) {
            const blocks = goBlocks(join(ROOT, source));
            const name = source.replace(/^docs\//, "").replace(/[/.-]/g, "_");
            const programs = blocks.filter((b) => /^package /.test(b));
            programs.forEach((program, i) => {
                mkdirSync(join(dir, `${name}_${i + 1}`));
                writeFileSync(join(dir, `${name}_${i + 1}`, "main.go"), program);
                files.push(`${source} (program ${i + 1})`);
            });
            const fragments = blocks.filter((b) => !/^package /.test(b));
            if (fragments.length === 0) continue;
            writeFileSync(join(dir, "snippets", `${name}.go`), fragmentFile(name, fragments));
            files.push(source);
        }
        // Every page of docs/ that shows a program in TypeScript shows it in Go too, but the one about TypeScript programs
        // themselves (programs.md: the package's install, the dynamic resources' options).
        const withoutGo = readdirSync(join(ROOT, "docs")).filter((f) => {
            if (f === "programs.md") return false;
            const text = readFileSync(join(ROOT, "docs", f), "utf8");
            return /^```ts\n/m.test(text) && !/^```go\n/m.test(text);
        });
        assert.deepEqual(withoutGo, [], "these docs have a TypeScript snippet and no Go one");
        assert.ok(files.length >= 55, `Go snippets in only ${files.length} files: ${files.join(", ")}`);
        writeFileSync(
            join(dir, "snippets", "control_bad.go"),
            fragmentFile("control", [
                '_, err := langsmith.NewAgentServerCheck(ctx, "c", &langsmith.AgentServerCheckArgs{Url: pulumi.String("http://x"), AssistantIdd: pulumi.String("agent")})\nif err != nil {\n\treturn err\n}\n',
            ]),
        );
        // -mod=mod: go.sum is written from the module cache (downloaded on a cold one); -gcflags=-e: every error, not the
        // first ten; -buildvcs=false: a program's package is not stamped with the checkout's git state.
        const r = run("go", ["build", "-mod=mod", "-buildvcs=false", "-gcflags=-e", "./..."], dir);
        assert.notEqual(r.code, 0, `the control passed:\n${r.output}`);
        const errors = r.output.split("\n").filter((l) => /^\S+\.go:\d+:\d+: /.test(l));
        assert.ok(
            errors.some((l) => /control_bad\.go:\d+:\d+: unknown field AssistantIdd in struct literal of type langsmith\.AgentServerCheckArgs/.test(l)),
            r.output,
        );
        assert.deepEqual(
            errors.filter((l) => !l.includes("control_bad.go:")),
            [],
            r.output,
        );
        // What users copy is formatted as Go code is (aligned fields and comments): gofmt lists a file it would change.
        const unformatted = run("gofmt", ["-l", "."], dir);
        assert.deepEqual([unformatted.code, unformatted.output], [0, ""], "gofmt would change the Go snippets of these files (gofmt -d shows how)");
    });
});
