/**
 * A test run stopped by Ctrl-C or SIGTERM leaves nothing behind (scripts/lib/test-run.sh, which `npm test` runs its
 * tests through: scripts/test.sh). A small run as `npm test` makes it, `bash scripts/lib/test-run.sh npx mocha
 * --parallel --jobs 2` of two test files (tests/scripts/interrupted/: a Pulumi YAML program and its stack with a
 * `pulumi up` still running, beside an emulator logging its exchanges; a MinIO server), each with a TMPDIR of its
 * own, is stopped once both are under way: by a Ctrl-C (SIGINT to its process group, as the terminal sends it), and
 * by a SIGTERM to the script alone (as npm passes one on). Each ends with 130 or 143, and leaves its TMPDIR empty (the
 * programs, the stacks, MinIO's data, the install cache and the exchange log gone) and no process working in it.
 * A run that ends by itself ends with its command's status and leaves nothing either.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processesIn } from "../helpers/async";

const ROOT = join(__dirname, "../..");
const RUN = [
    "bash",
    "scripts/lib/test-run.sh",
    "npx",
    "mocha",
    "--parallel",
    "--jobs",
    "2",
    "tests/scripts/interrupted/stack.fixture.ts",
    "tests/scripts/interrupted/minio.fixture.ts",
];

interface Stopped {
    code: number | null;
    out: string;
    tmp: string;
    /** What the run had made in its TMPDIR when the signal was sent (the names two levels down). */
    made: string[];
    /** Whether it was still running a minute after the signal (then killed). */
    hung: boolean;
    /** What was left in the TMPDIR, and the processes working in it or naming it, when the run ended. */
    left: string[];
    running: Array<{ pid: number; command: string }>;
}

const tmps: string[] = [];

/** Kills every process working in `tmp` (a run the test never stopped, or one that failed to end: mocha is in a session of its own). */
function killAllIn(tmp: string): void {
    for (const { pid } of processesIn(tmp)) {
        try {
            process.kill(pid, "SIGKILL");
        } catch {
            // Ended meanwhile.
        }
    }
}

/** Runs RUN with a TMPDIR of its own and sends `signal` (to its process group, or to the script alone) once both files are under way. */
function stopped(signal: NodeJS.Signals, group: boolean): Promise<Stopped> {
    const tmp = mkdtempSync(join(tmpdir(), "interrupted-run-"));
    tmps.push(tmp);
    const env = { ...process.env, TMPDIR: tmp, PULUMI_LANGSMITH_TESTS_TRANSPILE_ONLY: "1" };
    const child = spawn(RUN[0], RUN.slice(1), { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const r: Stopped = { code: null, out: "", tmp, made: [], hung: false, left: [], running: [] };
    const kill = () => killAllIn(tmp);
    let limit = setTimeout(kill, 4 * 60_000);
    const read = (d: Buffer) => {
        r.out += d;
        if (r.made.length || child.exitCode !== null || !/READY stack/.test(r.out) || !/READY minio/.test(r.out)) return;
        r.made = readdirSync(tmp).flatMap((f) => [f, ...(statSync(join(tmp, f)).isDirectory() ? readdirSync(join(tmp, f)) : [])]);
        process.kill(group ? -child.pid! : child.pid!, signal);
        clearTimeout(limit);
        limit = setTimeout(() => {
            r.hung = true;
            kill();
        }, 60_000);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    return new Promise((resolve) =>
        child.on("close", (code) => {
            clearTimeout(limit);
            // A run ended by after() (never stopped by its test: --grep) finds its TMPDIR gone.
            resolve({ ...r, code, left: existsSync(tmp) ? readdirSync(tmp) : ["(removed by after())"], running: processesIn(tmp) });
        }),
    );
}

describe("scripts: a test run stopped by Ctrl-C or SIGTERM, or ended, leaves nothing behind", function () {
    this.timeout(6 * 60_000);
    let ctrlC: Promise<Stopped>;
    let term: Promise<Stopped>;

    before(() => {
        ctrlC = stopped("SIGINT", true);
        term = stopped("SIGTERM", false);
    });
    after(() => {
        for (const tmp of tmps) {
            killAllIn(tmp);
            rmSync(tmp, { recursive: true, force: true });
        }
    });

    /** What a stopped run made was there when the signal came, and nothing of it is left. */
    function assertNothingLeft(r: Stopped, code: number): void {
        assert.ok(r.made.length, `the run never got under way:\n${r.out}`);
        for (const made of ["pulumi-langsmith-installs-", "pulumi-langsmith-exchanges-", "pulumi-langsmith-stopped-program-", "minio-test-"])
            assert.ok(
                r.made.some((f) => f.startsWith(made)),
                `no ${made}* in the run's directory when it was stopped: ${r.made.join(", ")}`,
            );
        assert.deepEqual(r.left, [], `left in the run's TMPDIR${r.hung ? " (the run still going a minute after the signal, killed)" : ""}:\n${r.out}`);
        assert.deepEqual(r.running, [], "processes of the run still there");
        assert.ok(!r.hung, `still running a minute after the signal (killed):\n${r.out}`);
        assert.equal(r.code, code, r.out);
    }

    it("Ctrl-C (SIGINT to the run's process group, as the terminal sends it): exit 130, nothing left", async () => {
        assertNothingLeft(await ctrlC, 130);
    });

    it("SIGTERM to the script alone (as npm passes it on): exit 143, nothing left", async () => {
        assertNothingLeft(await term, 143);
    });

    it("its own end: the command's exit status, and nothing left of what it made", () => {
        const tmp = mkdtempSync(join(tmpdir(), "ended-run-"));
        tmps.push(tmp);
        const made = 'mkdir "$TMPDIR/made" && exit 3';
        const run = spawnSync("bash", ["scripts/lib/test-run.sh", "sh", "-c", made], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, encoding: "utf8" });
        assert.equal(run.status, 3, run.stderr);
        assert.deepEqual(readdirSync(tmp), []);
    });
});
