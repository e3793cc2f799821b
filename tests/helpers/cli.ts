/**
 * Killing the `pulumi` CLI as a cancelled CI job does, for the e2e tests of interrupted runs: the command is
 * killed with SIGKILL (or interrupted with SIGINT, Ctrl-C; the CLI alone, not its plugins) once the service
 * holds what it waits for, and the
 * provider processes it started are found by the environment every command of a project carries (its
 * TMPDIR, project.ts), so that a test can require them gone.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { CliResult, PulumiProject } from "./project";
import { eventually } from "./async";

/** The provider processes (native plugin, dynamic-provider host) a project's commands started that still run. */
export function providersOf(project: PulumiProject): number[] {
    const mine = `TMPDIR=${join(project.dir, ".tmp")}`;
    const out: number[] = [];
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
        try {
            if (!/pulumi-resource-langsmith|dynamic-provider/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"))) continue;
            const zombie = readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] === "Z";
            if (!zombie && readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(mine)) out.push(Number(pid));
        } catch {
            // gone meanwhile
        }
    }
    return out;
}

/**
 * Runs `pulumi <args>` in the project and sends it `signal` once `ready` holds (within 2 minutes): SIGKILL, a
 * cancelled CI job; SIGINT, Ctrl-C (the CLI cancels the operations and ends). Answers its result, after
 * requiring that no provider process outlives it by more than 15 s (they watch their engine).
 */
export async function killedWhen(
    project: PulumiProject,
    args: string[],
    ready: () => boolean | Promise<boolean>,
    signal: NodeJS.Signals = "SIGKILL",
): Promise<CliResult> {
    let pid = 0;
    const run = project.pulumi(args, { allowFailure: true, detached: true, started: (c) => (pid = c.pid!) });
    let held = false;
    for (const deadline = Date.now() + 120_000; !held && Date.now() < deadline; ) {
        held = await ready();
        if (!held) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(held, `pulumi ${args.join(" ")}: the service never held what the kill waits for`);
    process.kill(pid, signal);
    const result = await run;
    if (signal === "SIGKILL") assert.equal(result.code, 1, "killed");
    else assert.notEqual(result.code, 0, `pulumi ${args.join(" ")} ended well after ${signal}`);
    assert.ok(await eventually(() => providersOf(project).length === 0, 15_000), `provider processes outlived the killed CLI: ${providersOf(project)}`);
    return result;
}
