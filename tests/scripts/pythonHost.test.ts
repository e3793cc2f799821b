/**
 * The Python language host as scripts/setup-python.sh sets it up (issue 43): its executor,
 * scripts/language-host/pulumi-language-python-exec, runs Pulumi's own beside it
 * (`pulumi-language-python-exec-upstream`) unchanged, and a SIGINT (the engine's stop, once a resource failed
 * or a run was cancelled) ends the program at once with status 32 and no KeyboardInterrupt traceback, which
 * Pulumi's own executor prints when it is stopped while its event loop waits (here with a stand-in of it; the
 * real one, with the real engine: tests/e2e/python.test.ts). And scripts/lib/python-host.sh redoes an install
 * made before the executor was ours, leaves a current one alone, and never touches another installation's host.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
    chmodSync,
    copyFileSync,
    existsSync,
    lstatSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    readlinkSync,
    rmSync,
    symlinkSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");
const EXECUTOR = join(ROOT, "scripts", "language-host", "pulumi-language-python-exec");

/**
 * A stand-in for Pulumi's executor: prints its arguments, exits with the status it is given, or else waits in
 * an asyncio event loop as the real one does while a program's resources are registered.
 */
const UPSTREAM = `import asyncio, json, sys
print(json.dumps(sys.argv), flush=True)
if len(sys.argv) > 2 and sys.argv[1] == "--exit":
    sys.exit(int(sys.argv[2]))
asyncio.new_event_loop().run_until_complete(asyncio.sleep(60))
`;

/** Runs `python3 <file> ...args`; resolves with its exit status (or signal), stdout and stderr. */
function python(file: string, args: string[], interruptWhen?: (stdout: string) => boolean) {
    const child: ChildProcess = spawn("python3", [file, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout!.on("data", (d: Buffer) => {
        stdout += d;
        if (interruptWhen && !sent && interruptWhen(stdout)) {
            sent = true;
            child.kill("SIGINT");
        }
    });
    child.stderr!.on("data", (d: Buffer) => (stderr += d));
    return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
        child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
    );
}

describe("the Python host's executor and its install (scripts/language-host/pulumi-language-python-exec, scripts/lib/python-host.sh)", function () {
    this.timeout(180_000);
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-pyhost-"))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** The executor and the stand-in, as the set-up lays them out, reached through a link as next to the CLI. */
    function laidOut() {
        mkdirSync(join(dir, "bin"));
        mkdirSync(join(dir, "cli"));
        copyFileSync(EXECUTOR, join(dir, "bin", "pulumi-language-python-exec"));
        writeFileSync(join(dir, "bin", "pulumi-language-python-exec-upstream"), UPSTREAM);
        symlinkSync(join(dir, "bin", "pulumi-language-python-exec"), join(dir, "cli", "pulumi-language-python-exec"));
        return { executor: join(dir, "cli", "pulumi-language-python-exec"), upstream: join(dir, "bin", "pulumi-language-python-exec-upstream") };
    }
    const waiting = (stdout: string) => stdout.includes("\n");

    it("runs Pulumi's executor beside its real path with the host's arguments, as if run itself, and passes its exit status on", async () => {
        const { executor, upstream } = laidOut();
        const r = await python(executor, ["--exit", "5", "--project", "p", "__main__.py"]);
        assert.equal(r.code, 5, r.stderr);
        assert.deepEqual(JSON.parse(r.stdout), [upstream, "--exit", "5", "--project", "p", "__main__.py"]);
        assert.equal(r.stderr, "");
    });

    it("SIGINT while the program waits in its event loop: exit 32 (the host's 'error already shown') and no traceback; Pulumi's alone prints one", async () => {
        const { executor, upstream } = laidOut();
        const alone = await python(upstream, [], waiting);
        assert.match(alone.stderr, /Traceback[\s\S]*KeyboardInterrupt/, "the stand-in does not show what Pulumi's executor does");
        const r = await python(executor, [], waiting);
        assert.equal(r.code, 32, r.stderr);
        assert.equal(r.stderr, "");
    });

    describe("the install (scripts/lib/python-host.sh, with a Go build of the host: seconds once setup-python.sh has run)", () => {
        /** setup_python_host with the cache in `dir` and a stand-in CLI there (the Go caches are the machine's). */
        function setUp() {
            return spawnSync(
                "bash",
                [
                    "-c",
                    "set -euo pipefail; source scripts/env.sh; setup_name=t; source scripts/lib/setup.sh; source scripts/lib/python-host.sh; setup_python_host",
                ],
                { cwd: ROOT, encoding: "utf8", env: { ...process.env, PULUMI_LANGSMITH_CACHE: dir } },
            );
        }

        it("an install made before the executor was ours is redone (ours under the name the host runs, Pulumi's beside it), then left alone; another installation's host is used as is", () => {
            const cli = join(dir, "pulumi-3.259.0", "bin");
            const bin = join(dir, "language-host-3.68.0", "bin");
            mkdirSync(cli, { recursive: true });
            mkdirSync(bin, { recursive: true });
            writeFileSync(join(cli, "pulumi"), "#!/bin/sh\n");
            chmodSync(join(cli, "pulumi"), 0o755);
            // What setup-python.sh installed before: the host and Pulumi's executor under its own name, no hashes.
            writeFileSync(join(bin, "pulumi-language-python"), "#!/bin/sh\n");
            chmodSync(join(bin, "pulumi-language-python"), 0o755);
            writeFileSync(join(bin, "pulumi-language-python-exec"), "# Pulumi's executor\n");
            symlinkSync(join(bin, "pulumi-language-python"), join(cli, "pulumi-language-python"));
            symlinkSync(join(bin, "pulumi-language-python-exec"), join(cli, "pulumi-language-python-exec"));

            const first = setUp();
            assert.equal(first.status, 0, first.stderr);
            assert.match(first.stderr, /building the Python language host v3\.68\.0 with this project's executor/);
            assert.equal(readlinkSync(join(cli, "pulumi-language-python")), join(bin, "pulumi-language-python"));
            assert.equal(readFileSync(join(bin, "pulumi-language-python")).subarray(0, 4).toString("latin1"), "\x7fELF", "the host was not built");
            assert.equal(readFileSync(join(bin, "pulumi-language-python-exec"), "utf8"), readFileSync(EXECUTOR, "utf8"));
            assert.match(
                readFileSync(join(bin, "pulumi-language-python-exec-upstream"), "utf8"),
                /PYTHON_PROCESS_EXITED_AFTER_SHOWING_USER_ACTIONABLE_MESSAGE_CODE = 32/,
            );
            assert.ok(lstatSync(join(bin, "pulumi-language-python-exec-upstream")).mode & 0o100, "Pulumi's executor is not executable");

            const again = setUp();
            assert.equal(again.status, 0, again.stderr);
            assert.doesNotMatch(again.stderr, /building/);
            assert.match(again.stderr, /pulumi-language-python v3\.68\.0 \(with this project's executor\) linked next to/);

            rmSync(join(cli, "pulumi-language-python"));
            writeFileSync(join(cli, "pulumi-language-python"), "#!/bin/sh\n# another installation's\n");
            chmodSync(join(cli, "pulumi-language-python"), 0o755);
            const other = setUp();
            assert.equal(other.status, 0, other.stderr);
            assert.match(other.stderr, /pulumi-language-python at \S+ \(another installation's, used as is\)/);
            assert.equal(readFileSync(join(cli, "pulumi-language-python"), "utf8"), "#!/bin/sh\n# another installation's\n");
            assert.ok(existsSync(join(bin, "pulumi-language-python.sources")));
        });
    });
});
