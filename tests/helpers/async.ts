/** Small async helpers shared by the test suites, and what processes are still there. */
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/** Runs `fn`, expecting a rejection; answers it (typed loosely, for `instanceof` checks and field reads). */
export async function rejection(fn: () => Promise<unknown>): Promise<any> {
    try {
        await fn();
    } catch (e) {
        return e;
    }
    throw new Error("expected a rejection, got a result");
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` (a read of a server too) every `every` ms until it holds or `ms` pass; answers whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, every = 100): Promise<boolean> {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(every)) if (await check()) return true;
    return check();
}

/** Whether a process with this pid exists (a zombie, exited but not yet reaped by its parent, counts). */
export function processExists(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

/** Runs `fn` with environment variables set (undefined: unset), then restores them exactly. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    const apply = (values: Record<string, string | undefined>) => {
        for (const [k, v] of Object.entries(values)) {
            if (v === undefined) delete process.env[k];
            else process.env[k] = v;
        }
    };
    apply(vars);
    try {
        return await fn();
    } finally {
        apply(saved);
    }
}

/** Runs `fn` with process.stderr captured (a provider's warnings go there outside an engine); answers what was written. */
export async function stderrOf(fn: () => Promise<unknown>): Promise<string> {
    const write = process.stderr.write.bind(process.stderr);
    let text = "";
    process.stderr.write = ((chunk: string | Uint8Array) => {
        text += String(chunk);
        return true;
    }) as typeof process.stderr.write;
    try {
        await fn();
    } finally {
        process.stderr.write = write;
    }
    return text;
}

/**
 * The processes (zombies aside) working in `dir` or naming it: their working directory is in it, or a variable of
 * their environment or an argument names it (from /proc: Linux).
 */
export function processesIn(dir: string): Array<{ pid: number; command: string }> {
    const out: Array<{ pid: number; command: string }> = [];
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)) {
        try {
            if (readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0] === "Z") continue;
            const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
            const named = `${readlinkSync(`/proc/${pid}/cwd`)}/\0${readFileSync(`/proc/${pid}/environ`, "utf8")}\0${cmdline}`;
            if (named.includes(dir)) out.push({ pid: Number(pid), command: cmdline.split("\0").join(" ").trim() });
        } catch {
            // Gone meanwhile, or not ours to read.
        }
    }
    return out;
}
