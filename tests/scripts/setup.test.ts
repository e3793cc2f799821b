/**
 * The set-up talks (scripts/lib/setup.sh, sourced by scripts/setup.sh and the test tools' scripts): a long
 * step's own output goes to a log under the cache while one line at every tick says how long it has run and
 * how far it got; a failed step prints its log's end and keeps its exit status; and scripts/setup.sh itself
 * ends with what is ready and what to run next, answers --help, and refuses an unknown option. Its first lines say
 * how long a cold run takes, with --all too (issue 39 item 12); the test tools' set-up without any pulumi
 * CLI stops saying so instead of linking the language hosts into the current directory (item 11).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** Runs a bash script with scripts/lib/setup.sh sourced, in a cache directory of its own. */
function withLib(script: string, cache: string) {
    return spawnSync("bash", ["-c", `set -euo pipefail; setup_name=t; source scripts/lib/setup.sh; ${script}`], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, PULUMI_LANGSMITH_CACHE: cache, PULUMI_LANGSMITH_SETUP_TICK: "1" },
    });
}

describe("set-up that talks (scripts/lib/setup.sh, scripts/setup.sh)", function () {
    this.timeout(120_000);
    let cache: string;
    beforeEach(() => (cache = mkdtempSync(join(tmpdir(), "pulumi-langsmith-setup-"))));
    afterEach(() => rmSync(cache, { recursive: true, force: true }));

    it("a long step: its output goes to a log, a line per tick says the time so far and the Go modules fetched (then that it compiles), then how long it took", () => {
        const r = withLib(
            `run_logged build "the thing" bash -c 'for i in 1 2 3 4 5 6; do echo "go: downloading example.com/m$i v1"; sleep 0.5; done; sleep 2.5'`,
            cache,
        );
        assert.equal(r.status, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /go: downloading/, "the build's own lines stay in the log");
        assert.match(r.stderr, /^\[t\] {3}\.\.\. the thing: \d+ s so far \(\d+ Go modules fetched\)$/m);
        // Once no module comes any more, the build compiles: the tick says so.
        assert.match(r.stderr, /^\[t\] {3}\.\.\. the thing: \d+ s so far \(6 Go modules fetched; compiling\)$/m);
        assert.match(r.stderr, /^\[t\] {3}the thing: done in \d+ s$/m);
        assert.equal(readFileSync(join(cache, "logs", "build.log"), "utf8").match(/go: downloading/g)?.length, 6);
    });

    it("a failed step prints its log's end and where the log is, and keeps its exit status", () => {
        const r = withLib(`run_logged broken "the thing" bash -c 'echo "compile error: x.go:3"; exit 3'`, cache);
        assert.equal(r.status, 3);
        assert.match(r.stderr, /the thing failed \(exit 3\); the end of its log, .*logs\/broken\.log:\ncompile error: x\.go:3/);
    });

    it("Ctrl-C stops the step it runs (a job started in the background of a script ignores SIGINT by itself) and exits 130", async () => {
        const marker = `${31 + Math.random()}`.slice(0, 8);
        const child = spawn("bash", ["-c", `set -euo pipefail; setup_name=t; source scripts/lib/setup.sh; run_logged slow "the slow thing" sleep ${marker}`], {
            cwd: ROOT,
            env: { ...process.env, PULUMI_LANGSMITH_CACHE: cache },
            stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr!.on("data", (d: Buffer) => (stderr += d));
        const running = () => spawnSync("pgrep", ["-f", `sleep ${marker}`]).status === 0;
        for (let i = 0; i < 50 && !running(); i++) await new Promise((r) => setTimeout(r, 100));
        assert.ok(running(), "the step never started");
        child.kill("SIGINT");
        const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
        assert.equal(code, 130);
        assert.match(stderr, /the slow thing: stopped/);
        assert.equal(running(), false, "the step outlived the set-up");
    });

    it("setup.sh (warm) ends with what is ready and what to run next; --help prints its steps; an unknown option exits 2", () => {
        const r = spawnSync("bash", ["scripts/setup.sh"], { cwd: ROOT, encoding: "utf8" });
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stderr, /^\[setup\] ready in \d+ s: node v2\d\.[\d.]+, pulumi v3\.\d+\.\d+, the build in dist\/\.$/m);
        assert.match(r.stderr, new RegExp(`^\\[setup\\] next: source ${ROOT}/scripts/env\\.sh .*npm run stack`, "m"));
        assert.match(r.stderr.split("\n")[1], /a cold run takes 6 to 10 minutes on 2 cores.*--all adds the test tools, 5 to 8 minutes more\)$/);
        const help = spawnSync("bash", ["scripts/setup.sh", "--help"], { cwd: ROOT, encoding: "utf8" });
        assert.equal(help.status, 0);
        assert.match(help.stdout, /^One-time set-up on a fresh machine of what the main job/);
        assert.match(help.stdout, /--all/);
        const bad = spawnSync("bash", ["scripts/setup.sh", "--nope"], { cwd: ROOT, encoding: "utf8" });
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /unknown option --nope \(usage: bash scripts\/setup\.sh \[--all\]\)/);
    });

    it("setup.sh --all (warm) says at once how long a cold run of everything takes, with a range", () => {
        const r = spawnSync("bash", ["scripts/setup.sh", "--all"], { cwd: ROOT, encoding: "utf8" });
        assert.equal(r.status, 0, r.stderr);
        const [first, second] = r.stderr.split("\n");
        assert.match(first, /^\[setup\] setting up what `npm run stack` and the tests need: .*then the test tools/);
        assert.match(
            second,
            /^\[setup\] \(cached under \S+; with --all a cold run takes 13 to 18 minutes on 2 cores, the more the busier the machine; a warm one seconds\)$/,
        );
    });

    it("the test tools' set-up with no pulumi CLI on PATH nor built stops at once, saying so, and links nothing into the checkout or the current directory", () => {
        const path = (process.env.PATH ?? "")
            .split(":")
            .filter((d) => !existsSync(join(d, "pulumi")))
            .join(":");
        const cwd = mkdtempSync(join(tmpdir(), "pulumi-langsmith-cwd-"));
        try {
            // Go without modules or a proxy: a set-up that went on to build a host would fail at once, not fetch.
            const env = { ...process.env, PATH: path, PULUMI_LANGSMITH_CACHE: cache, GOMODCACHE: join(cache, "gomod"), GOPROXY: "off" };
            const r = spawnSync("bash", [join(ROOT, "scripts", "setup-test-tools.sh")], { cwd, encoding: "utf8", env, timeout: 60_000 });
            assert.equal(r.status, 1, r.stderr);
            assert.match(
                r.stderr,
                /no pulumi CLI on PATH, nor the one scripts\/setup\.sh builds \(\S+\/pulumi-3\.\d+\.\d+\/bin\/pulumi\): run bash scripts\/setup\.sh first/,
            );
            for (const dir of [ROOT, cwd])
                assert.deepEqual(
                    readdirSync(dir).filter((f) => f.startsWith("pulumi-language-")),
                    [],
                    dir,
                );
        } finally {
            rmSync(cwd, { recursive: true, force: true });
        }
    });
});
