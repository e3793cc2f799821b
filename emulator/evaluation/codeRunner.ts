/**
 * Runs a code evaluator on a run (docs/service.md R10.4, decided): in a separate process, `python3 -I` or `node`,
 * never in the emulator's own. The sandbox, honestly: an empty environment (no API key, no proxy settings), a
 * fresh temporary directory as its working directory, a time limit (5 s, SIGKILL after), at most 64 KB of
 * output, and no network where the machine lets an unprivileged user make a network namespace (`unshare -rn`:
 * probed once; without it the process could reach the network, which docs/service.md says). It is not a
 * security boundary against a hostile evaluator: it stops an evaluator that loops, leaks the emulator's
 * secrets by reading its environment, or calls out.
 *
 * The code defines `perform_eval(run, example)` (Python) or `performEval(run, example)` (JavaScript), as the
 * service's online code evaluators do, and returns an object: each key a feedback key, its value the score
 * (a number, a boolean as 1 or 0) or a categorical value (a string); or `{key, score}` for one.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Score {
    key: string;
    score: number | null;
    value: string | null;
}
export type CodeOutcome = { ok: true; scores: Score[] } | { ok: false; error: string };

const MARK = "\u0000LANGSMITH_EMULATOR_RESULT";
const MAX_OUTPUT = 64 * 1024;

const PY_HARNESS = `import json, sys
data = json.loads(sys.stdin.read())
ns = {"__name__": "evaluator"}
exec(data["code"], ns)
fn = ns.get("perform_eval")
if fn is None:
    raise SystemExit("the code defines no perform_eval(run, example)")
sys.stdout.write(${JSON.stringify(MARK)} + json.dumps(fn(data["run"], data.get("example")), default=str))
`;
const JS_HARNESS = `let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", async () => {
  const data = JSON.parse(s);
  const fn = new Function("run", "example", data.code + "\\nreturn typeof performEval === 'function' ? performEval(run, example) : undefined;");
  const out = await fn(data.run, data.example ?? null);
  if (out === undefined) { console.error("the code defines no performEval(run, example)"); process.exit(1); }
  process.stdout.write(${JSON.stringify(MARK)} + JSON.stringify(out));
});`;

let resolved: { python?: string; unshare: boolean } | undefined;
/** The real Python (not a version manager's shim, which needs the environment the sandbox takes away) and whether `unshare -rn` works. */
function tools(): { python?: string; unshare: boolean } {
    if (resolved) return resolved;
    const py = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
    const un = spawnSync("unshare", ["-rn", "true"], { stdio: "ignore" });
    resolved = { python: py.status === 0 ? py.stdout.trim() : undefined, unshare: un.status === 0 };
    return resolved;
}

/** Whether the sandbox keeps the evaluator off the network on this machine. */
export const networkIsolated = (): boolean => tools().unshare;

export function runCode(code: string, language: string, run: unknown, example: unknown, timeoutMs = 5_000): Promise<CodeOutcome> {
    const t = tools();
    const cmd = language === "javascript" ? [process.execPath, "-e", JS_HARNESS] : t.python ? [t.python, "-I", "-c", PY_HARNESS] : undefined;
    if (!cmd) return Promise.resolve({ ok: false, error: "no python3 on the emulator's machine: Python code evaluators cannot run" });
    const argv = t.unshare ? ["unshare", "-rn", ...cmd] : cmd;
    const dir = mkdtempSync(join(tmpdir(), "evaluator-"));
    return new Promise<CodeOutcome>((resolve) => {
        const child = spawn(argv[0], argv.slice(1), { cwd: dir, env: {}, stdio: ["pipe", "pipe", "pipe"] });
        let out = "";
        let err = "";
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        const take = (chunk: Buffer, to: "out" | "err") => {
            if (to === "out" && out.length < MAX_OUTPUT) out += chunk.toString("utf8");
            if (to === "err" && err.length < MAX_OUTPUT) err += chunk.toString("utf8");
        };
        child.stdout.on("data", (c: Buffer) => take(c, "out"));
        child.stderr.on("data", (c: Buffer) => take(c, "err"));
        child.on("error", (e) => resolve({ ok: false, error: e.message }));
        child.on("close", (status, signal) => {
            clearTimeout(timer);
            rmSync(dir, { recursive: true, force: true });
            if (signal === "SIGKILL") return resolve({ ok: false, error: `the evaluator ran over its time limit of ${timeoutMs} ms` });
            const at = out.indexOf(MARK);
            if (status !== 0 || at < 0) return resolve({ ok: false, error: lastLines(err) || `the evaluator exited with ${status}` });
            resolve(scoresOf(out.slice(at + MARK.length)));
        });
        child.stdin.on("error", () => undefined);
        child.stdin.end(JSON.stringify({ code, run, example }));
    });
}

const lastLines = (s: string) => s.trim().split("\n").slice(-3).join("\n");

/** An evaluator's answer as feedback: `{key, score|value}`, or an object of keys and their scores. */
function scoresOf(json: string): CodeOutcome {
    let out: unknown;
    try {
        out = JSON.parse(json);
    } catch {
        return { ok: false, error: "the evaluator answered something that is not JSON" };
    }
    if (typeof out !== "object" || out === null || Array.isArray(out))
        return { ok: false, error: "the evaluator must return an object of feedback keys and scores" };
    const o = out as Record<string, unknown>;
    const entries = typeof o.key === "string" && ("score" in o || "value" in o) ? [[o.key, o.score ?? o.value] as const] : Object.entries(o);
    const scores = entries.map(([key, v]): Score => {
        if (typeof v === "boolean") return { key, score: v ? 1 : 0, value: null };
        if (typeof v === "number") return { key, score: v, value: null };
        return { key, score: null, value: v === null || v === undefined ? null : String(v) };
    });
    return { ok: true, scores };
}
