/**
 * What users copy, checked as they would use it. Every example under examples/ is type-checked with its own
 * dependencies (its package.json, the packed package) and tsconfig: those whose set-up is quickstart's together,
 * in one install of quickstart and one tsc run, the others each in its own install; aws-s3-export's unit
 * tests run with `npm test` as its README comment says; docs/programs.md's program (the README's until issue
 * 53) runs as written with the real CLI against the emulator; and every TypeScript snippet in the README and
 * docs/ type-checks against the installed package, so an argument renamed in the code cannot stay in the docs.
 * The Python examples
 * and every Python snippet type-check with pyright against the generated SDK (sdk/python, installed in the
 * venv by scripts/setup.sh). Each kind of check has a control that must fail.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";

const ROOT = resolve(__dirname, "../..");
const isProgram = (d: string, file: string) => existsSync(join(ROOT, "examples", d, "Pulumi.yaml")) && existsSync(join(ROOT, "examples", d, file));
/** The TypeScript examples (a package.json) and the Python ones (a __main__.py). */
const EXAMPLES = readdirSync(join(ROOT, "examples")).filter((d) => isProgram(d, "package.json"));
const PY_EXAMPLES = readdirSync(join(ROOT, "examples")).filter((d) => isProgram(d, "__main__.py"));
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

/** Runs a command in a directory without blocking the event loop (the emulator answers meanwhile). */
function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
    return new Promise((done) => {
        execFile(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (err: any, stdout, stderr) =>
            done({ code: err ? (err.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        );
    });
}
const typeCheck = (dir: string, ...args: string[]) => run("npx", ["--no-install", "tsc", "--noEmit", ...args], dir);

/**
 * Whether two examples' dependencies and tsconfig are the same (then one install type-checks both); a program elsewhere
 * by its absolute path. pulumi-langsmith is left out: each names the checkout by its own relative path, and the tests
 * install the packed checkout in its place (tests/helpers/project.ts).
 */
function sameSetUp(a: string, b: string): boolean {
    const read = (e: string, f: string) => JSON.parse(readFileSync(join(isAbsolute(e) ? e : join(ROOT, "examples", e), f), "utf8"));
    const setUp = (e: string) => {
        const {
            dependencies: { "pulumi-langsmith": _checkout, ...dependencies },
            devDependencies,
        } = read(e, "package.json");
        const { files: _, ...config } = read(e, "tsconfig.json");
        return JSON.stringify([dependencies, devDependencies, config]);
    };
    return setUp(a) === setUp(b);
}

const partition = <T>(xs: T[], p: (x: T) => boolean): [T[], T[]] => [xs.filter(p), xs.filter((x) => !p(x))];

/** The ```ts blocks of a Markdown file, in order; with `info`, those opened by ```ts <info> instead. */
function tsBlocks(file: string, info?: string): string[] {
    const fence = "```";
    const opening = info ? `${fence}ts ${info}\n` : `${fence}ts\n`;
    return [...readFileSync(file, "utf8").matchAll(new RegExp(`^${opening}([\\s\\S]*?)^${fence}`, "gm"))].map((m) => m[1]);
}

/** The ```python blocks of a Markdown file, in order. */
function pyBlocks(file: string): string[] {
    return [...readFileSync(file, "utf8").matchAll(/^```python\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

/** What the docs' Python snippets use without defining it: defined here (typed) unless the snippet does. */
const PY_PRELUDE: Record<string, string> = {
    config: "config = pulumi.Config()",
    agent: "agent = cast(langsmith.Deployment, None)",
    bucket: "bucket = cast(langsmith.ExportDestination, None)",
    acme_rate: "acme_rate = cast(langsmith.GatewayPolicy, None)",
};
function pySnippetFile(blocks: string[]): string {
    const code = blocks.join("\n");
    const imports = ["from typing import cast", "import pulumi", "import pulumi_langsmith as langsmith"].filter((i) => !code.includes(i));
    const defined = Object.entries(PY_PRELUDE).filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`^${name} =`, "m").test(code));
    return [...imports, ...defined.map(([, d]) => d), code].join("\n");
}
/** pyright over files, from the checkout (it finds pulumi and pulumi_langsmith through the venv's python3 first on PATH). */
const pyright = (...files: string[]) => run("npx", ["--no-install", "pyright", ...files], ROOT);

/**
 * What the docs' snippets use without declaring it (each is a fragment of a program): declared here
 * unless the snippet declares it itself.
 */
const PRELUDE: Record<string, string> = {
    config: "declare const config: pulumi.Config;",
    agent: "declare const agent: langsmith.Deployment;",
    bucket: "declare const bucket: langsmith.ExportDestination;",
    key: "declare const key: { id: pulumi.Output<string>; secret: pulumi.Output<string> };",
    golden: "declare const golden: langsmith.Dataset;",
    acmeRate: "declare const acmeRate: langsmith.GatewayPolicy;",
    acmeCap: "declare const acmeCap: langsmith.GatewayPolicy;",
};
function snippetFile(blocks: string[]): string {
    const code = blocks.join("\n");
    const imports = ['import * as pulumi from "@pulumi/pulumi";', 'import * as langsmith from "pulumi-langsmith";'].filter((i) => !code.includes(i));
    const declared = Object.entries(PRELUDE).filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`const ${name}\\b`).test(code));
    return [...imports, ...declared.map(([, d]) => d), code, "export {};"].join("\n");
}

describe("e2e: examples, docs/programs.md's program and the docs' snippets, as users get them", function () {
    this.timeout(10 * 60_000);
    before(() => mkdirSync(join(ROOT, "tmp"), { recursive: true }));
    const projects = new Map<string, PulumiProject>();
    /**
     * One installed copy per example. aws-s3-export's goes inside the checkout (the ignored tmp/), below the
     * repository's own .mocharc.js, as when a user runs `npm test` in examples/aws-s3-export: the
     * example's mocha must not pick up ours.
     */
    const installed = (example: string) => {
        if (!projects.has(example)) {
            const dir = example === "aws-s3-export" ? mkdtempSync(join(ROOT, "tmp", `${example}-`)) : undefined;
            projects.set(example, createProject(example, dir));
        }
        return projects.get(example)!;
    };
    after(() => {
        for (const p of projects.values()) p.remove();
    });

    it("examples: every program directory is found", () => {
        assert.ok(EXAMPLES.length >= 4 && EXAMPLES.includes("aws-s3-export"), EXAMPLES.join(", "));
    });

    // The examples whose dependencies and tsconfig are quickstart's are type-checked together, in quickstart's
    // installed copy (one install, one tsc: what each would get on its own); the others each on their own.
    // docs/sandbox.md's program (```ts program=sandbox) joins them: tests/e2e/sandbox.test.ts runs it in a project
    // of the same dependencies and tsconfig (tests/e2e/programs/sandbox), and type-checked it there in a tsc of its own
    // until issue 50.
    const [alike, apart] = partition(EXAMPLES, (e) => sameSetUp(e, "quickstart"));
    it(`type-check: ${alike.join(", ")} and docs/sandbox.md's program with quickstart's dependencies and tsconfig (the same as theirs), in one tsc run`, async () => {
        assert.ok(
            sameSetUp("quickstart", join(__dirname, "programs", "sandbox")),
            "the sandbox program's set-up is no longer quickstart's: type-check it apart",
        );
        const dir = installed("quickstart").dir;
        const files = alike.flatMap((e) => {
            const config = JSON.parse(readFileSync(join(ROOT, "examples", e, "tsconfig.json"), "utf8"));
            mkdirSync(join(dir, "alike", e), { recursive: true });
            return (config.files as string[]).map((f) => {
                copyFileSync(join(ROOT, "examples", e, f), join(dir, "alike", e, f));
                return `alike/${e}/${f}`;
            });
        });
        const sandbox = tsBlocks(join(ROOT, "docs", "sandbox.md"), "program=sandbox");
        assert.equal(sandbox.length, 1, "docs/sandbox.md has no ```ts program=sandbox block");
        mkdirSync(join(dir, "alike", "readme-sandbox"), { recursive: true });
        writeFileSync(join(dir, "alike", "readme-sandbox", "index.ts"), sandbox[0]);
        files.push("alike/readme-sandbox/index.ts");
        const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
        writeFileSync(join(dir, "tsconfig.alike.json"), JSON.stringify({ ...config, files }));
        const r = await typeCheck(dir, "-p", "tsconfig.alike.json");
        assert.equal(r.code, 0, r.output);
    });
    for (const example of apart) {
        it(`type-check: ${example} with its own dependencies and tsconfig`, async () => {
            const r = await typeCheck(installed(example).dir, "-p", ".");
            assert.equal(r.code, 0, r.output);
        });
    }

    /**
     * aws-s3-export's `npm test` (mocha through ts-node), transpile-only: its program and tests are type-checked once,
     * with its own tsconfig, by the tsc run above (`type-check: aws-s3-export ...`), where ts-node type-checked them
     * again, @pulumi/aws's types with them, at each of the two runs below.
     */
    const awsTest = (dir: string) => run("npm", ["test", "--silent"], dir, { TS_NODE_TRANSPILE_ONLY: "true" });

    it("aws-s3-export: its own unit tests pass with npm test (mocha + setMocks)", async () => {
        const r = await awsTest(installed("aws-s3-export").dir);
        assert.equal(r.code, 0, r.output);
        const passing = Number(/(\d+) passing/.exec(r.output)?.[1]);
        assert.ok(passing >= 10, r.output);
        assert.doesNotMatch(r.output, /failing/);
    });

    it("aws-s3-export: its unit tests fail when the policy loses a recommended action (the check can fail)", async () => {
        const dir = installed("aws-s3-export").dir;
        const program = readFileSync(join(dir, "index.ts"), "utf8");
        const weaker = program.replace('"s3:AbortMultipartUpload"]', "]");
        assert.notEqual(weaker, program, "the action list moved: update this control");
        writeFileSync(join(dir, "index.ts"), weaker);
        try {
            const r = await awsTest(dir);
            assert.notEqual(r.code, 0, r.output);
            assert.match(r.output, /policy: exactly the required and recommended actions/);
        } finally {
            writeFileSync(join(dir, "index.ts"), program);
        }
    });

    it("docs/programs.md: the program runs as written with the real CLI: up, the drift check, destroy", async () => {
        const [program] = tsBlocks(join(ROOT, "docs", "programs.md"));
        assert.match(program, /^import \* as pulumi/);
        assert.ok(program.split("\n").length <= 30, `docs/programs.md's program has ${program.split("\n").length} lines`);
        const em: Emulator = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, agentServer: { stepMs: 20 } });
        const project = installed("quickstart");
        writeFileSync(join(project.dir, "index.ts"), program);
        try {
            const stack = `readme-${randomUUID().slice(0, 8)}`;
            const workspace = randomUUID();
            await project.initStack(
                stack,
                { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": workspace, "quickstart:githubIntegrationId": randomUUID() },
                { "langsmith:apiKey": API_KEY, "quickstart:openaiApiKey": `sk-${randomUUID()}` },
            );
            await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]);
            const out = await project.outputs(stack);
            const [deployment] = em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);
            assert.equal(out.revision, deployment.latest_revision_id);
            assert.equal(out.url, deployment.source_config.custom_url);
            await project.pulumi(["preview", "--refresh", "--expect-no-changes", "--stack", stack]);
            await project.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
            assert.deepEqual(
                em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace),
                [],
            );
        } finally {
            await em.close();
        }
    });

    // Each check below runs once with a control among its files, a snippet with a misspelt argument that must be
    // the one refused (until issue 50 the controls ran in a pyright and a tsc of their own): the check can fail,
    // and fails on nothing else.
    it("Python: every example and every snippet of the README and docs type-checks with pyright against the generated SDK; a snippet with a misspelt argument among them is refused", async () => {
        const dir = mkdtempSync(join(ROOT, "tmp", "python-snippets-"));
        const files = PY_EXAMPLES.map((e) => join(ROOT, "examples", e, "__main__.py"));
        for (const source of ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)]) {
            const blocks = pyBlocks(join(ROOT, source));
            if (blocks.length === 0) continue;
            const file = join(dir, `${source.replace(/[/.]/g, "_")}.py`);
            writeFileSync(file, pySnippetFile(blocks));
            files.push(file);
        }
        assert.ok(files.length >= PY_EXAMPLES.length + 5, files.join(", "));
        const control = join(dir, "control_bad.py");
        writeFileSync(control, pySnippetFile(['langsmith.AgentServerCheck("c", url="http://x", assistant_idd="agent")']));
        const r = await pyright(...files, control);
        assert.notEqual(r.code, 0, `the control passed:\n${r.output}`);
        assert.match(r.output, /control_bad.py:\d+:\d+ - error: No overloads for "__init__" match the provided arguments/);
        const errors = r.output.split("\n").filter((l) => / - error: /.test(l));
        assert.deepEqual(
            errors.filter((l) => !l.includes("control_bad.py:")),
            [],
            r.output,
        );
    });

    it("README and docs: every TypeScript snippet type-checks against the installed package; a program with a misspelt argument among them is refused", async () => {
        const dir = join(installed("quickstart").dir, "snippets");
        mkdirSync(dir, { recursive: true });
        const files: string[] = [];
        const sources = ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)];
        for (const source of sources) {
            const blocks = tsBlocks(join(ROOT, source));
            if (blocks.length === 0) continue;
            const file = join(dir, `${source.replace(/[/.]/g, "_")}.ts`);
            writeFileSync(file, snippetFile(blocks));
            files.push(file);
        }
        assert.ok(files.length >= 6, files.join(", "));
        writeFileSync(
            join(dir, "control_broken.ts"),
            'import * as langsmith from "pulumi-langsmith";\nnew langsmith.Deployment("a", { name: "a", sourse: "github" });\nexport {};\n',
        );
        const r = await typeCheck(
            dir,
            "--strict",
            "--esModuleInterop",
            "--skipLibCheck",
            "--target",
            "ES2022",
            "--module",
            "commonjs",
            ...files,
            "control_broken.ts",
        );
        assert.notEqual(r.code, 0, `the control passed:\n${r.output}`);
        const errors = r.output.split("\n").filter((l) => /error TS\d+/.test(l));
        assert.ok(
            errors.some((l) => l.startsWith("control_broken.ts(") && l.includes("sourse")),
            r.output,
        );
        assert.deepEqual(
            errors.filter((l) => !l.startsWith("control_broken.ts(")),
            [],
            r.output,
        );
    });
});
