/**
 * Stopping a child process the emulator or a script started (MinIO, `npm run stack`'s emulator): SIGTERM,
 * SIGKILL if it is still there after a grace period, and resolving once it has exited.
 */
import type { ChildProcess } from "node:child_process";

/** SIGTERM, SIGKILL after `graceMs`; resolves once `child` has exited (at once if it already has). */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(kill);
}
