/**
 * `npm run stack`: the main job, a Pulumi stack against the local emulator, run by the real `pulumi` CLI
 * exactly as a user runs it. Installs the quickstart program with the packed package (as a user would) in a
 * temporary directory with a local file backend, starts the built emulator (`langsmith-emulator`) in a
 * process of its own, then streams Pulumi's own output:
 *   pulumi stack init, pulumi config set (the API key with --secret), pulumi up,
 *   pulumi preview --refresh --expect-no-changes (the CI drift check), pulumi destroy --remove.
 * Then the emulator stops and the temporary directory is removed: nothing is left behind.
 *
 * `--keep` skips the destroy and keeps the emulator and the stack until Ctrl-C, printing the commands to
 * use the stack from another shell. The emulator then keeps its objects in a state directory inside the
 * temporary one (`--state-dir .emulator`, printed with the command that starts it again), so it can be
 * stopped (kill -9 included) and started again on the same directory and port while the stack carries on.
 * Ctrl-C destroys the stack (starting the emulator again first if nothing answers at its URL), stops the
 * emulator and removes everything.
 *
 * Ctrl-C (or SIGTERM) at any other moment stops the run and cleans up: the running `pulumi` command is
 * interrupted as a Ctrl-C would (it runs in a process group of its own, so it is told once, by this
 * script) and killed with every process under it if it has not ended within PULUMI_GRACE_MS; then the
 * emulator is stopped, the temporary directory removed, and the exit code is 128 + the signal's number
 * (130 for Ctrl-C). A signal during the synchronous `npm pack`/`npm install` is handled once that returns.
 * `--help` prints the usage; an unknown option is refused with it (exit 2).
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stopChild } from "../emulator/sandbox/childProcess";
import { shellWord } from "../emulator/sandbox/shell";
import { EMULATOR_MAIN, startEmulatorProcess } from "./lib/emulator";
import { CliError, PASSPHRASE, createProject } from "../tests/helpers/project";

const STACK = "dev";
/** This checkout's scripts/env.sh, which puts its `pulumi` and Node first on PATH. */
const ENV_SH = resolve(__dirname, "env.sh");
/** How long an interrupted `pulumi` command has to finish its operations in flight before it is killed. */
const PULUMI_GRACE_MS = 20_000;

const USAGE = `usage: npm run stack [-- --keep]

The main job: a Pulumi stack of examples/quickstart against the local LangSmith emulator, run by the real
pulumi CLI in a temporary directory with a local file backend (no account, no network; about a minute).
It streams Pulumi's own output of pulumi stack init, pulumi config set, pulumi up, the CI drift check
pulumi preview --refresh --expect-no-changes and pulumi destroy --remove; then the emulator stops and the
temporary directory is removed. Ctrl-C stops it at any moment and cleans up the same way.

  --keep      stop before destroy: keep the stack and the emulator until Ctrl-C, printing the commands
              to use them from another shell; Ctrl-C then destroys the stack and cleans up
  -h, --help  print this help and exit
`;

/** The command line's options; prints the usage and exits on --help (0) or anything unknown (2). */
function readArgs(argv: string[]): { keep: boolean } {
    let keep = false;
    for (const arg of argv) {
        if (arg === "--keep") keep = true;
        else if (arg === "--help" || arg === "-h") {
            process.stdout.write(USAGE);
            process.exit(0);
        } else {
            process.stderr.write(`npm run stack: unknown option ${arg}\n\n${USAGE}`);
            process.exit(2);
        }
    }
    return { keep };
}

/** The stack's emulator: the built one in a process of its own, on a state directory when one is given. */
class StackEmulator {
    url = "";
    private child?: ChildProcess;
    readonly args: string[];

    constructor(
        apiKey: string,
        readonly stateDir?: string,
    ) {
        // Phases at a fifth of the emulator's defaults: a github revision takes about a second.
        this.args = ["--api-key", apiKey, "--scale", "0.2", ...(stateDir ? ["--state-dir", stateDir] : [])];
    }

    get pid(): number | undefined {
        return this.child?.pid;
    }
    get port(): string {
        return new URL(this.url).port;
    }
    /** Whether this run started an emulator (stopped at the end). */
    get started(): boolean {
        return this.child !== undefined;
    }

    async start(port = "0"): Promise<void> {
        // Out of the terminal's Ctrl-C: this script decides when it stops (after pulumi has ended).
        const started = await startEmulatorProcess([...this.args, "--port", port], { detached: true });
        this.child = started.child;
        this.url = started.url;
    }

    /** Starts it again on its port and directory unless an emulator answers there (one started by hand, say). */
    async ensureRunning(): Promise<void> {
        const answers = await fetch(`${this.url}/__admin/timing`).then(
            () => true,
            () => false,
        );
        if (!answers) await this.start(this.port);
    }

    /** Stops the emulator this run started (SIGTERM; SIGKILL after 5 s) and waits until it has exited. */
    async stop(): Promise<void> {
        if (this.child) await stopChild(this.child);
    }
}

/** Thrown in place of the next step once the run was interrupted. */
class Interrupted extends Error {}

/**
 * Ctrl-C (SIGINT) and SIGTERM. While `--keep` waits for one (`next()`), it ends the wait. At any other
 * moment it stops the run: the `pulumi` command running is interrupted (SIGINT, once: it finishes the
 * operations in flight and ends; killed with its plugins if it has not after PULUMI_GRACE_MS) and `check()`
 * throws before the next step; cleaning up is the caller's.
 */
class Interrupts {
    signal?: NodeJS.Signals;
    /** When the last signal that counted came. */
    private at = 0;
    private pulumi?: ChildProcess;
    private waiting?: () => void;

    constructor() {
        process.on("SIGINT", (s) => this.received(s));
        process.on("SIGTERM", (s) => this.received(s));
        // However this process ends, no pulumi it started is left running.
        process.once("exit", () => this.killPulumi());
    }

    /** The exit code of an interrupted run: 128 + the signal's number (130 for Ctrl-C). */
    get exitCode(): number {
        return 128 + (this.signal ? constants.signals[this.signal] : 0);
    }
    /** How the signal reads in messages. */
    get name(): string {
        return this.signal === "SIGINT" ? "Ctrl-C" : `${this.signal}`;
    }

    /** Throws if the run was interrupted: called before every step. */
    check(): void {
        if (this.signal) throw new Interrupted();
    }

    /** Follows a `pulumi` command (started in a process group of its own) until it exits. */
    running(child: ChildProcess): void {
        this.pulumi = child;
        child.once("exit", () => {
            if (this.pulumi === child) this.pulumi = undefined;
        });
        if (this.signal) this.interruptPulumi();
    }

    /** Resolves on the next Ctrl-C or SIGTERM (the --keep wait), even with nothing else left running. */
    next(): Promise<void> {
        const alive = setInterval(() => undefined, 60_000);
        return new Promise<void>((r) => (this.waiting = r)).finally(() => clearInterval(alive));
    }

    private received(signal: NodeJS.Signals): void {
        // One Ctrl-C can arrive twice: from the terminal, and from npm passing it on (when its script shell
        // execs this script, as bash does); the second is not a second Ctrl-C.
        if (Date.now() - this.at < 1_000) return;
        this.at = Date.now();
        if (this.waiting) {
            this.waiting();
            this.waiting = undefined;
            return;
        }
        if (this.signal) {
            console.log(`\n(still cleaning up; this ends within ${PULUMI_GRACE_MS / 1000} s)`);
            return;
        }
        this.signal = signal;
        console.log(`\n${this.name}: stopping${this.pulumi ? " pulumi (it finishes what is in flight)" : ""}, then cleaning up ...`);
        this.interruptPulumi();
    }

    private interruptPulumi(): void {
        const child = this.pulumi;
        if (!child) return;
        child.kill("SIGINT");
        const kill = setTimeout(() => {
            console.log(`pulumi did not end within ${PULUMI_GRACE_MS / 1000} s of its interrupt: killed.`);
            this.killPulumi();
        }, PULUMI_GRACE_MS);
        child.once("exit", () => clearTimeout(kill));
    }

    /** SIGKILL to the running pulumi and every process under it (its plugins run in process groups of their own). */
    private killPulumi(): void {
        const pid = this.pulumi?.pid;
        if (pid === undefined) return;
        for (const p of [pid, ...descendants(pid)]) {
            try {
                process.kill(p, "SIGKILL");
            } catch {
                // Already gone.
            }
        }
    }
}

/** The processes under `pid` (children, theirs, ...), from `ps`. */
function descendants(pid: number): number[] {
    const children = new Map<number, number[]>();
    for (const line of execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n")) {
        const [p, parent] = line.trim().split(/\s+/).map(Number);
        children.set(parent, [...(children.get(parent) ?? []), p]);
    }
    const out: number[] = [];
    for (let next = children.get(pid) ?? []; next.length; next = next.flatMap((p) => children.get(p) ?? [])) out.push(...next);
    return out;
}

async function main() {
    const { keep } = readArgs(process.argv.slice(2));
    const interrupts = new Interrupts();
    console.log(`npm run stack: a Pulumi stack of examples/quickstart against the local LangSmith emulator, through
the real pulumi CLI (about a minute). Ctrl-C stops it at any moment and cleans up.`);
    const dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-quickstart-"));
    const apiKey = `lsv2_local_${randomUUID().slice(0, 8)}`;
    const em = new StackEmulator(apiKey, keep ? join(dir, ".emulator") : undefined);
    let failure: string | undefined;
    try {
        await runStack(dir, em, apiKey, keep, interrupts);
    } catch (e) {
        await settle();
        if (!interrupts.signal) failure = failureOf(e);
    } finally {
        await em.stop();
        rmSync(dir, { recursive: true, force: true });
    }
    const cleaned = `${em.started ? "the emulator stopped and " : ""}${dir}\n(program, packages, the stack's state) removed`;
    if (interrupts.signal) {
        console.log(`\nStopped by ${interrupts.name}: ${cleaned}. Nothing is left behind.`);
        process.exit(interrupts.exitCode);
    }
    if (failure) {
        console.error(`\nnpm run stack failed: ${failure}\nCleaned up: ${cleaned}.`);
        process.exit(1);
    }
    console.log(`\nDone: the stack was destroyed and removed, ${cleaned}. Nothing is left behind.`);
}

/** The run itself, step by step; the caller cleans up however it ends. */
async function runStack(dir: string, em: StackEmulator, apiKey: string, keep: boolean, interrupts: Interrupts): Promise<void> {
    console.log(`\nPacking this checkout and installing examples/quickstart with it in ${dir} ...`);
    const project = createProject("quickstart", dir);
    await settle();
    interrupts.check();
    await em.start();
    console.log(`Emulator (pid ${em.pid}) listening on ${em.url}, at a fifth of the service's revision timings.`);
    const pulumi = { stream: true, detached: true, started: (c: ChildProcess) => interrupts.running(c) };
    const step = async (about: string, args: string[]) => {
        interrupts.check();
        console.log(`\n# ${about}\n$ pulumi ${args.join(" ")}`);
        return project.pulumi(args, pulumi);
    };
    interrupts.check();
    console.log(`\n# Create the stack and set its config: the emulator's URL, a workspace, the API key (as a secret)`);
    console.log(`$ pulumi stack init ${STACK}; pulumi config set ...`);
    await project.initStack(
        STACK,
        { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID() },
        { "langsmith:apiKey": apiKey, "quickstart:agentSecret": "sk-local-example" },
        pulumi,
    );
    await step("Create the deployment: the emulator takes its revision through the service's statuses", ["up", "--yes", "--stack", STACK]);
    await step("The CI drift check: read everything back from the emulator; any difference fails", [
        "preview",
        "--refresh",
        "--expect-no-changes",
        "--stack",
        STACK,
    ]);
    if (keep) {
        interrupts.check();
        printKeptStack(dir, project.env, em);
        await interrupts.next();
        await em.ensureRunning();
    }
    await step("Delete the deployment, then the stack itself (--remove)", ["destroy", "--yes", "--remove", "--stack", STACK]);
}

/** What failed, in one line (a pulumi command's own output is above it already). */
function failureOf(e: unknown): string {
    const line = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return e instanceof CliError ? `${line} (its output is above)` : line;
}

/**
 * Lets a signal received during a synchronous step (`npm pack`, `npm install`, which a Ctrl-C may have
 * ended) reach its handler before the run decides what to do next.
 */
function settle(): Promise<void> {
    return new Promise((r) => setTimeout(r, 50));
}

/** How to use the kept stack from another shell, and how to restart its emulator. */
function printKeptStack(dir: string, env: NodeJS.ProcessEnv, em: StackEmulator): void {
    console.log(`
The stack and the emulator stay up until you press Ctrl-C. From another shell:

  source ${shellWord(ENV_SH)}
  cd ${shellWord(dir)}
  export PULUMI_BACKEND_URL=${shellWord(env.PULUMI_BACKEND_URL!)} PULUMI_CONFIG_PASSPHRASE=${PASSPHRASE}
  pulumi stack output            # or: pulumi up, pulumi refresh, pulumi preview --refresh --expect-no-changes

The emulator (pid ${em.pid}) keeps its objects in ${em.stateDir}, so the stack outlives it: stop it
(kill -9 ${em.pid}, even) and start it again on the same directory and port with

  node ${[EMULATOR_MAIN, ...em.args, "--port", em.port].map(shellWord).join(" ")}

Ctrl-C here destroys the stack (starting the emulator again if nothing answers at ${em.url}), stops the
emulator it started and removes ${dir}.`);
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
