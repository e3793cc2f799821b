/**
 * `npm run stack` and `npm run bench` run as a user runs them (the real commands, in a process group of
 * their own as a terminal's foreground job, each with a TMPDIR of its own to see what it leaves there):
 * `--help` prints the usage and starts nothing; an unknown option or benchmark is refused (exit 2, the usage,
 * no stack trace); a Ctrl-C (SIGINT to the whole process group, as the terminal sends it) while `pulumi up`
 * is creating, or a SIGTERM to the script alone, stops the run and cleans up; `--keep` prints commands that
 * work from any directory and Ctrl-C then destroys the stack; a whole run destroys and removes the stack
 * (no `pulumi stack rm` left to do). Cleaned up means: when the command ends, its temporary directory is
 * gone, so is its emulator, no process is left working in the directory (or naming it), and the closing
 * message says what was removed.
 *
 * The four runs of the stack start together in `before` (they mostly wait on pulumi and the emulator's
 * clock) and the tests of --help run meanwhile.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processExists as alive } from "../helpers/async";

const ROOT = join(__dirname, "../..");
/** `npm run stack` without npm in front (package.json's command): the script itself is the child (bash execs node), for a signal to it alone. */
const STACK_SCRIPT = ["bash", "scripts/with-env.sh", "node", "-r", "ts-node/register/transpile-only", "scripts/stack.ts"];
const BENCHES = ["polling", "bytes", "ratelimit", "parquet", "export", "preview", "agent", "native", "scale", "state"];

interface Interrupt {
    /** Sent once the output matches this. */
    when: RegExp;
    signal: NodeJS.Signals;
    /** To the whole process group (a terminal's Ctrl-C), or to the command's process alone. */
    group: boolean;
}

interface Result {
    code: number | null;
    signal: NodeJS.Signals | null;
    /** stdout and stderr, interleaved as they came. */
    out: string;
    /** The TMPDIR the command had. */
    tmp: string;
    /** Whether the interrupt was sent. */
    interrupted: boolean;
    /** The command's temporary directory and its emulator's pid, as it printed them. */
    dir?: string;
    emulatorPid?: number;
    /** When it ended: whether its emulator still ran, and the processes still working in its directory. */
    emulatorLeft: boolean;
    processesLeft: string[];
}

const pgids: number[] = [];
const emulatorPids: number[] = [];
const tmps: string[] = [];

/** Runs `cmd` in the checkout with a TMPDIR of its own; killed (the test then fails) after `limitMs`. */
function run(cmd: string[], interrupt?: Interrupt, limitMs = 4 * 60_000): Promise<Result> {
    const tmp = mkdtempSync(join(tmpdir(), "stack-e2e-"));
    tmps.push(tmp);
    const child = spawn(cmd[0], cmd.slice(1), { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    pgids.push(child.pid!);
    const r: Result = { code: null, signal: null, out: "", tmp, interrupted: false, emulatorLeft: false, processesLeft: [] };
    const read = (d: Buffer) => {
        r.out += d;
        const pid = /Emulator \(pid (\d+)\)/.exec(r.out);
        if (pid && !r.emulatorPid) emulatorPids.push((r.emulatorPid = Number(pid[1])));
        if (interrupt && !r.interrupted && interrupt.when.test(r.out)) {
            r.interrupted = true;
            process.kill(interrupt.group ? -child.pid! : child.pid!, interrupt.signal);
        }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    const limit = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), limitMs);
    return new Promise((resolve) =>
        child.on("close", (code, signal) => {
            clearTimeout(limit);
            r.dir = /in (\S*pulumi-langsmith-quickstart-\w+) \.\.\./.exec(r.out)?.[1];
            r.emulatorLeft = r.emulatorPid !== undefined && alive(r.emulatorPid);
            r.processesLeft = r.dir ? processesIn(r.dir) : [];
            resolve({ ...r, code, signal });
        }),
    );
}

const npmRun = (script: string, ...args: string[]) => ["npm", "run", script, "--", ...args];

/** SIGKILL, if it is still there (a negative pid: a process group). */
function kill(pid: number): void {
    try {
        process.kill(pid, "SIGKILL");
    } catch {
        // Gone already.
    }
}

/** Running processes working in `dir` (a pulumi, its language host, a provider) or naming it: "pid command line". */
function processesIn(dir: string): string[] {
    const found: string[] = [];
    for (const [, pid, args] of execFileSync("ps", ["-A", "-o", "pid=,args="], { encoding: "utf8" }).matchAll(/^\s*(\d+) (.*)$/gm)) {
        let cwd = "";
        try {
            cwd = readlinkSync(`/proc/${pid}/cwd`);
        } catch {
            // Not Linux, or gone already: its command line alone tells.
        }
        if (args.includes(dir) || cwd.startsWith(dir)) found.push(`${pid} ${args}`);
    }
    return found;
}

/** What a command left in its TMPDIR of this project's (node's and npm's own caches aside). */
const leftIn = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("pulumi-langsmith-"));

/** Nothing left behind, and the closing message says what was removed. */
function assertCleanedUp(r: Result): void {
    assert.ok(r.dir, `the directory was printed:\n${r.out}`);
    assert.ok(!existsSync(r.dir), `${r.dir} is left behind:\n${r.out}`);
    assert.deepEqual(leftIn(r.tmp), []);
    assert.ok(r.emulatorPid, `the emulator's pid was printed:\n${r.out}`);
    assert.ok(!r.emulatorLeft, `the emulator (pid ${r.emulatorPid}) still ran when the command ended`);
    assert.deepEqual(r.processesLeft, []);
    assert.match(r.out, /the emulator stopped and \S+\s+\(program, packages, the stack's state\) removed/);
}

/** Exit 2, one line saying what is wrong, the usage, no stack trace. */
function assertRefused(r: Result, error: RegExp, usage: RegExp): void {
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, error);
    assert.match(r.out, usage);
    assert.doesNotMatch(r.out, /^\s+at /m, "no stack trace");
}

describe("e2e: npm run stack and npm run bench, as a user runs them", function () {
    this.timeout(6 * 60_000);
    let whole: Promise<Result>;
    let kept: Promise<Result>;
    let ctrlC: Promise<Result>;
    let term: Promise<Result>;

    before(() => {
        whole = run(npmRun("stack"));
        // With bash as npm's script shell (as where /bin/sh is bash), the script gets the Ctrl-C twice:
        // from the terminal and from npm; that is still one Ctrl-C, which must not stop the destroy it starts.
        kept = run(["npm", "run", "--script-shell=bash", "stack", "--", "--keep"], {
            when: /Ctrl-C here destroys the stack[\s\S]*removes \S+\.\n/,
            signal: "SIGINT",
            group: true,
        });
        ctrlC = run(npmRun("stack"), { when: /Deployment agent creating/, signal: "SIGINT", group: true });
        term = run(STACK_SCRIPT, { when: /\$ pulumi stack init/, signal: "SIGTERM", group: false });
    });
    after(() => {
        for (const pgid of pgids) kill(-pgid);
        for (const pid of emulatorPids) kill(pid);
        // Whatever a failed run left running in its TMPDIR (pulumi runs in a process group of its own).
        for (const tmp of tmps) for (const p of processesIn(tmp)) kill(Number(p.split(" ")[0]));
        for (const tmp of tmps) rmSync(tmp, { recursive: true, force: true });
    });

    it("npm run stack -- --help prints the usage and exits 0 without starting anything; an unknown option is refused", async () => {
        const help = await run(npmRun("stack", "--help"), undefined, 90_000);
        assert.equal(help.code, 0, help.out);
        assert.match(help.out, /usage: npm run stack/);
        assert.match(help.out, /^\s+--keep\s+\S/m);
        assert.deepEqual(leftIn(help.tmp), []);
        assert.doesNotMatch(help.out, /Packing|Emulator|\$ pulumi/);

        assertRefused(await run(npmRun("stack", "--kep"), undefined, 90_000), /^npm run stack: unknown option --kep$/m, /usage: npm run stack/);
    });

    it("npm run bench -- --help lists every benchmark and exits 0; an unknown name is refused, no stack trace", async () => {
        const help = await run(npmRun("bench", "--help"), undefined, 90_000);
        assert.equal(help.code, 0, help.out);
        assert.match(help.out, /usage: npm run bench/);
        for (const name of BENCHES) assert.match(help.out, new RegExp(`^  ${name}\\s+\\S`, "m"), `${name} is listed`);

        assertRefused(await run(npmRun("bench", "pollin"), undefined, 90_000), /^npm run bench: unknown benchmark pollin$/m, /usage: npm run bench/);
    });

    it("Ctrl-C (SIGINT to the process group) while pulumi up creates: pulumi ends, the emulator stops, the directory is removed", async () => {
        const r = await ctrlC;
        assert.ok(r.interrupted, `pulumi up never got to creating:\n${r.out}`);
        assert.ok(r.signal === "SIGINT" || r.code === 130, `ended by the interrupt (${r.code} ${r.signal})`);
        assert.match(r.out, /Stopped by Ctrl-C: /);
        assertCleanedUp(r);
    });

    it("SIGTERM to the script alone while it sets the stack up: exit 143, cleaned up the same way", async () => {
        const r = await term;
        assert.ok(r.interrupted, r.out);
        assert.equal(r.code, 143, r.out);
        assert.match(r.out, /Stopped by SIGTERM: /);
        assert.doesNotMatch(r.out, /\$ pulumi up/);
        assertCleanedUp(r);
    });

    it("npm run stack -- --keep prints the absolute path of scripts/env.sh; Ctrl-C then destroys the stack and cleans up", async () => {
        const r = await kept;
        assert.ok(r.interrupted, `the stack was never kept:\n${r.out}`);
        const source = `  source ${join(ROOT, "scripts", "env.sh")}`;
        assert.ok(r.out.split("\n").includes(source), `no line "${source}" in:\n${r.out}`);
        assert.match(r.out, /\$ pulumi destroy --yes --remove/);
        assert.match(r.out, /^Done: the stack was destroyed and removed/m);
        assertCleanedUp(r);
    });

    it("npm run stack: up, the drift check, destroy; the stack is removed too (no `pulumi stack rm` to run); exit 0", async () => {
        const r = await whole;
        assert.equal(r.code, 0, r.out);
        assert.match(r.out, /\$ pulumi preview --refresh --expect-no-changes/);
        assert.match(r.out, /^Done: the stack was destroyed and removed/m);
        assert.doesNotMatch(r.out, /pulumi stack rm/);
        assertCleanedUp(r);
    });
});
