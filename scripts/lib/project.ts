/**
 * A Pulumi program installed the way a user installs it (for the e2e tests and `npm run stack`): the
 * package is packed with `npm pack`, an example program is copied into a temporary directory, and
 * `npm install` puts the tarball and @pulumi/pulumi in its node_modules. Operations run through
 * scripts/run-program.js (Automation API, real engine, local file backend) in a child process whose
 * working directory is the program's, so the dynamic-provider plugin loads the installed package, not
 * this checkout.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

export interface OpResult {
    op: string;
    ok: boolean;
    error?: string;
    stdout?: string;
    stderr?: string;
    summary?: { result?: string; resourceChanges?: Record<string, number> };
    changeSummary?: Record<string, number>;
    outputs?: Record<string, unknown>;
    deployment?: any;
    ms: number;
}

export interface RunOptions {
    stack: string;
    config?: Record<string, string>;
    secretConfig?: Record<string, string>;
}

export interface Op {
    op: "up" | "preview" | "refresh" | "destroy" | "export" | "outputs";
    refresh?: boolean;
    expectNoChanges?: boolean;
    allowFailure?: boolean;
}

export class PulumiProject {
    /** Everything every run printed (engine output) and returned, for leak checks. */
    readonly transcript: string[] = [];

    constructor(
        readonly dir: string,
        readonly stateDir: string,
    ) {}

    /** Runs operations in order (stopping at the first failure not allowed); returns one result each. */
    async run(o: RunOptions, ops: Op[]): Promise<{ results: OpResult[]; log: string }> {
        const spec = {
            project: "quickstart",
            stack: o.stack,
            backendUrl: `file://${this.stateDir}`,
            config: o.config,
            secretConfig: o.secretConfig,
            ops,
        };
        const child = spawn(process.execPath, [join(ROOT, "scripts/run-program.js"), JSON.stringify(spec)], {
            cwd: this.dir,
            env: process.env,
            stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let log = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (log += d));
        const code = await new Promise<number | null>((r) => child.on("close", r));
        const results = out
            .split("\n")
            .filter((l) => l.startsWith("@@RESULT "))
            .map((l) => JSON.parse(l.slice("@@RESULT ".length)) as OpResult);
        this.transcript.push(log, out);
        if (code === 2 || results.length === 0) throw new Error(`run-program failed (exit ${code}):\n${log}`);
        return { results, log };
    }

    /** Deletes the program's directory (installed packages and file backend included). */
    remove(): void {
        rmSync(this.dir, { recursive: true, force: true });
    }

    /** Every file of the file backend (current state, backups, history), as text. */
    stateFiles(): Array<{ path: string; text: string }> {
        const out: Array<{ path: string; text: string }> = [];
        const walk = (d: string) => {
            for (const f of readdirSync(d)) {
                const p = join(d, f);
                if (statSync(p).isDirectory()) walk(p);
                else out.push({ path: p, text: readFileSync(p, "utf8") });
            }
        };
        walk(this.stateDir);
        return out;
    }
}

let packed: string | undefined;

/** `npm pack` of this checkout (built first), once per test run. */
export function packPackage(): string {
    if (packed) return packed;
    execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "inherit" });
    const dest = mkdtempSync(join(tmpdir(), "pulumi-langsmith-pack-"));
    const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", dest], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!;
    packed = join(dest, name);
    return packed;
}

/** Copies `examples/<example>` into a temporary directory and installs the packed package there. */
export function createProject(example = "quickstart"): PulumiProject {
    const tgz = packPackage();
    const dir = mkdtempSync(join(tmpdir(), `pulumi-langsmith-${example}-`));
    for (const f of ["index.ts", "tsconfig.json", "Pulumi.yaml"]) cpSync(join(ROOT, "examples", example, f), join(dir, f));
    const pkg = JSON.parse(readFileSync(join(ROOT, "examples", example, "package.json"), "utf8"));
    pkg.dependencies["pulumi-langsmith"] = `file:${tgz}`;
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });
    const stateDir = join(dir, ".state");
    mkdirSync(stateDir);
    return new PulumiProject(dir, stateDir);
}
