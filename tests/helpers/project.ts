/**
 * A Pulumi program installed the way a user installs it, driven by the real `pulumi` CLI (for the e2e
 * tests and `npm run stack`): the package is packed with `npm pack`, an example program is copied into a
 * temporary directory, `npm install` puts the tarball and @pulumi/pulumi in its node_modules, and every
 * operation is a `pulumi` command run in that directory with a local file backend (no account, no network).
 *
 * A Python program (`createPythonProject`) is copied the same way and needs no install: it runs with the
 * virtualenv scripts/setup.sh puts first on PATH (`pulumi` and this checkout's generated SDK
 * `pulumi_langsmith`) and the native plugin `pulumi-resource-langsmith` of this checkout, installed in the
 * checkout's PULUMI_HOME (scripts/dev-plugin.sh), where every command looks for it. A YAML program
 * (`createYamlProject`) too: the YAML host scripts/setup-yaml.sh links next to the CLI reads the plugin's schema.
 *
 * No command may print that the engine took a plugin from PATH (`using ... from $PATH`): `pulumi()` fails
 * then, whatever the command's exit code, so every e2e test checks it.
 *
 * Commands run as child processes without blocking the event loop, so an emulator started in the same
 * process keeps answering. Every command's output is kept (`transcript`) for leak checks.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
/** The PULUMI_HOME of this checkout, where scripts/dev-plugin.sh installs its plugin (scripts/env.sh exports it). */
export const CHECKOUT_PULUMI_HOME = join(ROOT, ".pulumi-home");
/** The warning of an engine that found a plugin on PATH instead of its plugin cache (or next to the CLI). */
export const FROM_PATH = "from $PATH";
/** The passphrase of the local secrets provider (the stacks here hold nothing worth more). */
export const PASSPHRASE = "pulumi-langsmith-local";

export interface CliResult {
    /** The command line after `pulumi`. */
    args: string[];
    /** Exit code (Pulumi exits non-zero on failure; `--expect-no-changes` makes a change a failure). */
    code: number;
    stdout: string;
    stderr: string;
    ms: number;
}

export interface CliOptions {
    /** Echo the command's output live to this process's stdout/stderr (npm run stack). */
    stream?: boolean;
    /** Resolve with a non-zero exit code instead of throwing. */
    allowFailure?: boolean;
    /** Variables added to the command's environment (LANGSMITH_* instead of stack config, say). */
    env?: NodeJS.ProcessEnv;
    /**
     * Run it in a process group of its own, out of reach of the terminal's Ctrl-C (its plugins are in
     * groups of their own already), and hand it to `started`: the caller decides how it ends (npm run stack).
     */
    detached?: boolean;
    /** Called with the command's process once it is started. */
    started?: (child: ChildProcess) => void;
}

/** Thrown when a command exits non-zero and that was not allowed; the message carries its output. */
export class CliError extends Error {
    constructor(readonly result: CliResult) {
        super(`pulumi ${result.args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
        this.name = "CliError";
    }
}

/**
 * A command line as the transcript keeps it: the values given with `--secret` are ours, not Pulumi's output
 * (`config set --secret k -- v`, `config set --secret k v`, `config set-all --secret k=v`), and are not kept.
 */
function withoutSecretValues(args: string[]): string[] {
    const at = args.indexOf("--secret");
    if (at < 0) return args;
    if (args[1] === "set-all") return args.map((a, i) => (args[i - 1] === "--secret" ? `${a.split("=")[0]}=[secret]` : a));
    const value = args.includes("--") ? args.indexOf("--") + 1 : at + 2;
    return args.map((a, i) => (i === value ? "[secret]" : a));
}

export class PulumiProject {
    /** Every command line and everything every command printed, for leak checks. */
    readonly transcript: string[] = [];
    /**
     * Where the stacks' state lives, and what the CLI needs to reach it: by default a file backend in
     * `stateDir`; `useBackend` points every later command at another one (an S3-compatible bucket, say).
     * The file backend runs with `metadata=skip`: otherwise it writes a `<stack>.json.attrs` beside every
     * checkpoint by truncating then writing it, and a CLI killed between the two leaves an empty one that
     * every later command refuses (`failed to load checkpoint: EOF`; docs/recovery.md).
     */
    private backend: { url: string; env: NodeJS.ProcessEnv };
    /** What `useEnv` puts over every command's environment. */
    private overrides: NodeJS.ProcessEnv = {};

    constructor(
        readonly dir: string,
        readonly stateDir: string,
    ) {
        this.backend = { url: `file://${stateDir}?metadata=skip`, env: {} };
    }

    /**
     * Runs every later command with `vars` over its environment: another PULUMI_HOME (the benchmark of a
     * release archive), or a user's machine (tests/e2e/install.test.ts: its own PATH, HOME and PULUMI_HOME).
     */
    useEnv(vars: NodeJS.ProcessEnv): void {
        this.overrides = { ...this.overrides, ...vars };
    }

    /** Keeps the state at `url` from now on (`s3://bucket?endpoint=...`), with `env` for its credentials (or another passphrase). */
    useBackend(url: string, env: NodeJS.ProcessEnv = {}): void {
        this.backend = { url, env };
    }

    /**
     * The environment of every command: the backend (a file backend in `stateDir` unless `useBackend` said
     * otherwise), the local passphrase, and a temporary
     * directory inside the program's (the language host makes a `pulumi-node-pipes*` directory there for
     * every program run and never removes it; inside the program's directory it goes with `remove()`).
     */
    get env(): NodeJS.ProcessEnv {
        const tmp = join(this.dir, ".tmp");
        mkdirSync(tmp, { recursive: true });
        return {
            ...process.env,
            PULUMI_HOME: CHECKOUT_PULUMI_HOME,
            PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
            ...this.backend.env,
            PULUMI_BACKEND_URL: this.backend.url,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            ...this.overrides,
            TMPDIR: tmp,
        };
    }

    /** Runs `pulumi --non-interactive <args>` in the program's directory. */
    async pulumi(args: string[], o: CliOptions = {}): Promise<CliResult> {
        const started = Date.now();
        const caller = process.env.PULUMI_LANGSMITH_CLI_TIMES ? callingTestFile() : "";
        const child = spawn("pulumi", ["--non-interactive", ...args], {
            cwd: this.dir,
            env: { ...this.env, ...o.env },
            stdio: ["ignore", "pipe", "pipe"],
            detached: o.detached,
        });
        o.started?.(child);
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => {
            stdout += d;
            if (o.stream) process.stdout.write(d);
        });
        child.stderr.on("data", (d: Buffer) => {
            stderr += d;
            if (o.stream) process.stderr.write(d);
        });
        const code = await new Promise<number>((r, j) => {
            child.on("error", j);
            child.on("close", (c) => r(c ?? 1));
        });
        const shown = withoutSecretValues(args);
        const result = { args: shown, code, stdout, stderr, ms: Date.now() - started };
        this.transcript.push(`$ pulumi ${shown.join(" ")}`, stdout, stderr);
        if (process.env.PULUMI_LANGSMITH_CLI_TIMES)
            appendFileSync(process.env.PULUMI_LANGSMITH_CLI_TIMES, `${result.ms}\t${basename(this.dir)}\t${shown.slice(0, 3).join(" ")}\t${caller}\n`);
        if (`${stdout}${stderr}`.includes(FROM_PATH)) throw new Error(`pulumi ${shown.join(" ")}: the engine took a plugin from PATH\n${stdout}\n${stderr}`);
        if (code !== 0 && !o.allowFailure) throw new CliError(result);
        return result;
    }

    /**
     * `stack init`, then `config set` each value, as a user would: secrets with `--secret`, the rest with
     * `--plaintext` (the CLI refuses a plain value it takes for a secret, such as a list of secret references).
     */
    async initStack(stack: string, config: Record<string, string> = {}, secretConfig: Record<string, string> = {}, o: CliOptions = {}): Promise<void> {
        await this.pulumi(["stack", "init", stack], o);
        await this.setConfig(stack, config, secretConfig, o);
    }

    /** Every value in one `pulumi config set-all` (a command each costs a second of the CLI's start and the passphrase). */
    async setConfig(stack: string, config: Record<string, string> = {}, secretConfig: Record<string, string> = {}, o: CliOptions = {}): Promise<void> {
        const pairs = (flag: string, values: Record<string, string>) => Object.entries(values).flatMap(([k, v]) => [flag, `${k}=${v}`]);
        const all = [...pairs("--plaintext", config), ...pairs("--secret", secretConfig)];
        if (all.length) await this.pulumi(["config", "set-all", "--stack", stack, ...all], o);
    }

    /** `pulumi stack export` (secrets stay encrypted): what is stored. */
    async exportStack(stack: string): Promise<any> {
        return JSON.parse((await this.pulumi(["stack", "export", "--stack", stack])).stdout);
    }

    /** `pulumi stack output --json` (secret outputs shown as "[secret]"). */
    async outputs(stack: string): Promise<Record<string, any>> {
        return JSON.parse((await this.pulumi(["stack", "output", "--json", "--stack", stack])).stdout);
    }

    /** Deletes the program's directory (installed packages and file backend included). */
    remove(): void {
        rmSync(this.dir, { recursive: true, force: true });
    }

    /** What is stored of the stack, as text: `stack export` and every file of the file backend (for leak checks). */
    async storedText(stack: string): Promise<string> {
        return (
            JSON.stringify(await this.exportStack(stack)) +
            this.stateFiles()
                .map((f) => f.text)
                .join("\n")
        );
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

/** The test file that called (`tests/e2e/x.test.ts`, from the stack), for PULUMI_LANGSMITH_CLI_TIMES's sums by file. */
function callingTestFile(): string {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 50;
    try {
        return /tests\/[\w/]+\.test\.ts/.exec(new Error().stack ?? "")?.[0] ?? "";
    } finally {
        Error.stackTraceLimit = limit;
    }
}

let packed: { dir: string; file: string } | undefined;

/**
 * `npm pack` of this checkout (built first), once per process; removed when the process exits. Under
 * `npm test` the checkout is built once before any test (PULUMI_LANGSMITH_BUILT): test files run in
 * parallel workers, and a build in each would delete the dist/ another one is packing.
 */
export function packPackage(): string {
    if (packed) return packed.file;
    if (process.env.PULUMI_LANGSMITH_BUILT !== "1") execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "inherit" });
    const dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-pack-"));
    // Registered first: a `npm pack` stopped by Ctrl-C (npm run stack) leaves no directory either.
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    // Built just above: --ignore-scripts keeps `prepare` from building a second time.
    const name = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" })
        .trim()
        .split("\n")
        .pop()!;
    packed = { dir, file: join(dir, name) };
    return packed.file;
}

/**
 * Copies `examples/<example>` (or the program directory at an absolute path) into `dir` (default a new
 * temporary directory) and installs the packed package there: every file at its top level (program,
 * tests, tsconfig, Pulumi.yaml), with its package.json pointing at the tarball; not its lock file, which
 * names the checkout instead. Without the package's optional dependencies (`--omit=optional`, what a
 * program needs), unless `o.optional`: with them, as `npm install pulumi-langsmith` does, for a program
 * whose directory also runs the emulator's bulk export (`npx langsmith-emulator --sandbox`).
 */
export function createProject(example = "quickstart", dir?: string, o: { optional?: boolean } = {}): PulumiProject {
    const tgz = packPackage();
    const { source, target } = copyProgram(example, dir, ["package.json", "package-lock.json"]);
    const pkg = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
    pkg.dependencies["pulumi-langsmith"] = `file:${tgz}`;
    writeFileSync(join(target, "package.json"), JSON.stringify(pkg, null, 2));
    const omit = o.optional ? [] : ["--omit=optional"];
    installShared(installKey(pkg, o.optional), target, () =>
        execFileSync("npm", ["install", "--prefer-offline", ...omit, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: target, stdio: "inherit" }),
    );
    return withState(target);
}

/**
 * What an install holds, as a file name: a hash of the program's dependencies (the packed checkout among them) and
 * whether the optional ones are in. Every example but aws-s3-export, and the tests' own programs, depend on the same
 * packages, so they share one install (one with the optional dependencies), whatever their name.
 */
function installKey(pkg: Record<string, unknown>, optional = false): string {
    const what = ["dependencies", "devDependencies", "optionalDependencies", "overrides"].map((k) => pkg[k] ?? null);
    return `${createHash("sha256").update(JSON.stringify(what)).digest("hex").slice(0, 16)}${optional ? "+optional" : ""}`;
}

/**
 * Runs `install` in `target`, once per set of dependencies (`key`, installKey) within one `npm test`
 * (scripts/test.sh sets PULUMI_LANGSMITH_INSTALL_CACHE to a directory it removes at the end): the copies of
 * every program with those dependencies install the same packages and the same packed checkout, so the first
 * worker to ask installs (holding `<cache>.lock`) and keeps its node_modules there; the others wait for it (up
 * to 5 minutes, then install on their own) and hard-link it instead of running npm again (15 to 30 s each).
 * Without the variable: `install`, as before.
 */
function installShared(key: string, target: string, install: () => void): void {
    const root = process.env.PULUMI_LANGSMITH_INSTALL_CACHE;
    if (!root) {
        install();
        return;
    }
    const cached = join(root, key);
    mkdirSync(root, { recursive: true });
    const waitUntil = Date.now() + 5 * 60_000;
    while (!existsSync(cached)) {
        if (tryLock(`${cached}.lock`)) {
            try {
                install();
                keepInstall(cached, target);
            } finally {
                rmSync(`${cached}.lock`, { recursive: true, force: true });
            }
            return;
        }
        if (Date.now() > waitUntil) {
            install();
            return;
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
    execFileSync("cp", ["-al", cached, join(target, "node_modules")]);
}

/** Takes a lock that only one process can hold (mkdir is atomic); false when another holds it. */
function tryLock(lock: string): boolean {
    try {
        mkdirSync(lock);
        return true;
    } catch {
        return false;
    }
}

/** Keeps the install for the next copies: linked beside, then renamed, so a waiting worker never sees half of it. */
function keepInstall(cached: string, target: string): void {
    const partial = `${cached}.${process.pid}`;
    execFileSync("cp", ["-al", join(target, "node_modules"), partial]);
    renameSync(partial, cached);
}

/** A temporary copy of the Python program `examples/<example>` (or at an absolute path), ready for `pulumi stack init`. */
export function createPythonProject(example: string): PulumiProject {
    return withState(copyProgram(example).target);
}

/** A temporary copy of the Pulumi YAML program `examples/<example>` (or at an absolute path): copied as a Python one, nothing to install. */
export const createYamlProject = createPythonProject;

/**
 * Copies the files at the top level of `examples/<example>` (an absolute path: a program elsewhere, such as
 * the benchmarks' own) into `dir` (default a new temporary directory), but those named in `skip`.
 */
function copyProgram(example: string, dir?: string, skip: string[] = []): { source: string; target: string } {
    const source = isAbsolute(example) ? example : join(ROOT, "examples", example);
    const target = dir ?? mkdtempSync(join(tmpdir(), `pulumi-langsmith-${basename(example)}-`));
    mkdirSync(target, { recursive: true });
    for (const f of readdirSync(source, { withFileTypes: true })) {
        if (f.isFile() && !skip.includes(f.name)) cpSync(join(source, f.name), join(target, f.name));
    }
    return { source, target };
}

/** The project in `dir` with its file backend beside it. */
function withState(dir: string): PulumiProject {
    const stateDir = join(dir, ".state");
    mkdirSync(stateDir, { recursive: true });
    return new PulumiProject(dir, stateDir);
}
