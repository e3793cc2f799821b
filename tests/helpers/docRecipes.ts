/**
 * Reading and running the marked blocks of a Markdown page (docs/emulator.md): fenced blocks by their info
 * string (```` ```sh recipe=<name> ````, ```` ```js recipe=<name> ````, ```` ```text output=<name> ````,
 * ```` ```json <METHOD> <path> ````), the section a recipe stands in, and a recipe run as written: bash
 * (under `set -euo pipefail`, so a failing command fails it) or node (an ES module on stdin), with only the
 * environment a test gives it. Its output goes to files, so that a process it leaves running in the
 * background (the emulator the start recipe launches) cannot hold the test up; each run is its own process
 * group, which `stopGroup` ends. A recipe that runs until stopped (`npx langsmith-emulator --sandbox` in
 * docs/sandbox.md) is started with `startRecipe`, which answers once its output says it is ready.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One fenced block: its language, the rest of its info string, its text and where it starts. */
export interface Block {
    lang: string;
    info: string;
    code: string;
    index: number;
}

/** A JSON example of the reference: the request it stands for. */
export interface Example {
    method: string;
    path: string;
    body: unknown;
}

/** Every fenced block of a Markdown text, in order. */
export function fencedBlocks(md: string): Block[] {
    return [...md.matchAll(/^```(\w+)(?: ([^\n]*))?\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], info: m[2] ?? "", code: m[3], index: m.index! }));
}

/** The marked blocks of one page. */
export class RecipePage {
    readonly blocks: Block[];

    constructor(readonly text: string) {
        this.blocks = fencedBlocks(text);
    }

    /** The names of the recipes (```sh or ```js blocks marked `recipe=<name>`). */
    recipeNames(): string[] {
        return this.named("recipe").map(([name]) => name);
    }

    /** The names the `output=<name>` blocks give. */
    outputNames(): string[] {
        return this.named("output").map(([name]) => name);
    }

    recipe(name: string): Block {
        return this.one("recipe", name);
    }

    /** The exact output a recipe prints, as its `text output=<name>` block shows it (without the last newline). */
    output(name: string): string {
        return this.one("output", name).code.replace(/\n$/, "");
    }

    /** The ```json <METHOD> <path> examples. */
    examples(): Example[] {
        return this.blocks
            .filter((b) => b.lang === "json" && /^[A-Z]+ \//.test(b.info))
            .map((b) => ({ method: b.info.split(" ")[0], path: b.info.split(" ")[1], body: JSON.parse(b.code) }));
    }

    /** The text of the `##`/`###` section a recipe stands in, from its heading to the next one. */
    sectionOf(name: string): string {
        const at = this.recipe(name).index;
        const headings = [...this.text.matchAll(/^#{2,3} .*$/gm)].map((m) => m.index!);
        const start = headings.filter((h) => h < at).at(-1) ?? 0;
        const end = headings.find((h) => h > at) ?? this.text.length;
        return this.text.slice(start, end);
    }

    private named(key: string): Array<[string, Block]> {
        return this.blocks.flatMap((b) => {
            const m = new RegExp(`^${key}=(\\S+)$`).exec(b.info);
            return m ? [[m[1], b] as [string, Block]] : [];
        });
    }

    private one(key: string, name: string): Block {
        const found = this.named(key).filter(([n]) => n === name);
        if (found.length !== 1) throw new Error(`${found.length} blocks marked ${key}=${name} on the page`);
        return found[0][1];
    }
}

export interface RecipeRun {
    /** What the recipe printed (without the last newline), without the lines `report` added. */
    stdout: string;
    stderr: string;
    /** The variables `report` asked for, as the recipe left them. */
    reported: Record<string, string>;
    /** Its process group (see `stopGroup`). */
    pid: number;
}

export interface RunOptions {
    cwd: string;
    /** The recipe's environment, besides PATH and HOME. */
    env: Record<string, string>;
    /** Shell variables to read back once the recipe has run (printed after it, never part of it). */
    report?: string[];
    timeoutMs?: number;
}

/** Runs a recipe block as written; rejects with its stderr when it fails or outlasts `timeoutMs`. */
export async function runRecipe(block: Block, o: RunOptions): Promise<RecipeRun> {
    const dir = mkdtempSync(join(tmpdir(), "recipe-"));
    const [out, err] = [openSync(join(dir, "out"), "w"), openSync(join(dir, "err"), "w")];
    const reporting = o.report ? [`printf '\\n${MARK}\\n'`, ...o.report.map((v) => `printf '%s=%s\\n' ${v} "$${v}"`)].join("\n") : "";
    const [cmd, args] = block.lang === "sh" ? ["bash", ["-euo", "pipefail", "-c", `${block.code}\n${reporting}`]] : [process.execPath, ["--input-type=module"]];
    // Bash's stdin is /dev/null: on a socket (what Node's pipes are), bash would take itself for a remote
    // shell and read ~/.bashrc.
    const stdin = block.lang === "js" ? "pipe" : "ignore";
    const child = spawn(cmd, args, {
        cwd: o.cwd,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...o.env },
        detached: true,
        stdio: [stdin, out, err],
    });
    child.stdin?.end(block.code);
    try {
        const code = await exitCode(child, o.timeoutMs ?? 60_000);
        const [stdout, stderr] = ["out", "err"].map((f) => readFileSync(join(dir, f), "utf8"));
        if (code !== 0) throw new Error(`${block.lang} ${block.info} exited ${code}: ${stderr}`);
        const own = splitReport(stdout);
        return { stdout: own.stdout.replace(/\n$/, ""), reported: own.reported, stderr, pid: child.pid! };
    } finally {
        closeSync(out);
        closeSync(err);
        rmSync(dir, { recursive: true, force: true });
    }
}

/** The exit code; the process group is ended (and a timeout is a failure) when it takes longer than `ms`. */
function exitCode(child: ReturnType<typeof spawn>, ms: number): Promise<number | null> {
    return new Promise((resolve) => {
        const timer = setTimeout(() => stopGroup(child.pid), ms);
        child.once("exit", (code) => {
            clearTimeout(timer);
            resolve(code);
        });
    });
}

/** The line `report` prints before the variables, after the recipe's own output. */
const MARK = "::recipe-report::";

/** Splits the `NAME=value` lines `report` printed from the recipe's own output. */
function splitReport(stdout: string): { stdout: string; reported: Record<string, string> } {
    const at = stdout.lastIndexOf(`\n${MARK}\n`);
    if (at < 0) return { stdout, reported: {} };
    const lines = stdout
        .slice(at + MARK.length + 2)
        .split("\n")
        .filter(Boolean);
    return { stdout: stdout.slice(0, at), reported: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])) };
}

/** Ends a recipe's process group (what it left in the background included), if it still exists. */
export function stopGroup(pid: number | undefined): void {
    if (pid === undefined) return;
    try {
        process.kill(-pid, "SIGTERM");
    } catch {
        // already gone
    }
}

/** A recipe left running: what it has printed so far, and its process (the group leader: the command itself when bash runs one). */
export interface RunningRecipe {
    pid: number;
    stdout(): string;
    stderr(): string;
    /** Resolves with its exit code once it has exited. */
    exited: Promise<number | null>;
    /** Ends its process group and removes its output files. */
    stop(): void;
}

/**
 * Starts a recipe that runs until stopped (bash, as written, with only the environment given); resolves
 * once its stdout matches `ready`, rejects with its output when it exits first or `timeoutMs` passes.
 */
export async function startRecipe(block: Block, o: RunOptions & { ready: RegExp }): Promise<RunningRecipe> {
    const dir = mkdtempSync(join(tmpdir(), "recipe-"));
    const [out, err] = [openSync(join(dir, "out"), "w"), openSync(join(dir, "err"), "w")];
    const child = spawn("bash", ["-euo", "pipefail", "-c", block.code], {
        cwd: o.cwd,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...o.env },
        detached: true,
        stdio: ["ignore", out, err],
    });
    closeSync(out);
    closeSync(err);
    const read = (f: string) => readFileSync(join(dir, f), "utf8");
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    const running: RunningRecipe = {
        pid: child.pid!,
        stdout: () => read("out"),
        stderr: () => read("err"),
        exited,
        stop: () => {
            stopGroup(child.pid);
            rmSync(dir, { recursive: true, force: true });
        },
    };
    const deadline = Date.now() + (o.timeoutMs ?? 60_000);
    while (!o.ready.test(running.stdout())) {
        if (done || Date.now() > deadline) {
            const output = `${running.stdout()}\n${running.stderr()}`;
            running.stop();
            throw new Error(`${block.lang} ${block.info} ${done ? "exited" : "was not ready in time"}: ${output}`);
        }
        await new Promise((r) => setTimeout(r, 100));
    }
    return running;
}
