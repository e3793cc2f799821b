/**
 * The built emulator (`dist/emulator/main.js`) in a process of its own, as `langsmith-emulator` runs it:
 * for the tests that kill it (SIGKILL) and start it again on its state directory, and for `npm run stack`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** Where the built emulator's command line is. */
export const EMULATOR_MAIN = join(__dirname, "..", "..", "dist", "emulator", "main.js");

/**
 * Starts the built emulator on a free port with these extra arguments (a later `--port` wins); answers
 * once it prints its URL. The caller kills it (it also stops by itself when this process ends).
 * `detached`: in a process group of its own, so a Ctrl-C in the terminal does not reach it.
 */
export async function startEmulatorProcess(args: string[] = [], o: { detached?: boolean } = {}): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [EMULATOR_MAIN, "--port", "0", "--quiet", ...args], { stdio: ["ignore", "pipe", "inherit"], detached: o.detached });
    const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
    });
    return { child, url: JSON.parse(line).url };
}
