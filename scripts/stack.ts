/**
 * `npm run stack`: the main job, a Pulumi stack against the local emulator, run by the real `pulumi` CLI
 * exactly as a user runs it. Installs the quickstart program with the packed package (as a user would) in a
 * temporary directory with a local file backend, starts the built emulator (`langsmith-emulator`) in a
 * process of its own, then streams Pulumi's own output:
 *   pulumi stack init, pulumi config set (the API key with --secret), pulumi up,
 *   pulumi preview --refresh --expect-no-changes (the CI drift check), pulumi destroy.
 * Then the emulator stops and the temporary directory is removed: nothing is left behind.
 *
 * `--keep` skips the destroy and keeps the emulator and the stack until Ctrl-C, printing the commands to
 * use the stack from another shell. The emulator then keeps its objects in a state directory inside the
 * temporary one (`--state-dir .emulator`, printed with the command that starts it again), so it can be
 * stopped (kill -9 included) and started again on the same directory and port while the stack carries on.
 * Ctrl-C destroys the stack (starting the emulator again first if nothing answers at its URL), stops the
 * emulator and removes everything.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { EMULATOR_MAIN, startEmulatorProcess } from "./lib/emulator";
import { PASSPHRASE, createProject, type PulumiProject } from "./lib/project";

const STACK = "dev";

/** The stack's emulator: the built one in a process of its own, on a state directory when one is given. */
class StackEmulator {
    url = "";
    private child?: ChildProcess;
    readonly args: string[];

    constructor(apiKey: string, readonly stateDir?: string) {
        // Phases at a fifth of the emulator's defaults: a github revision takes about a second.
        this.args = ["--api-key", apiKey, "--scale", "0.2", ...(stateDir ? ["--state-dir", stateDir] : [])];
    }

    get pid(): number | undefined {
        return this.child?.pid;
    }
    get port(): string {
        return new URL(this.url).port;
    }

    async start(port = "0"): Promise<void> {
        // Out of the terminal's Ctrl-C: the stack is destroyed through it after that.
        const started = await startEmulatorProcess([...this.args, "--port", port], { detached: true });
        this.child = started.child;
        this.url = started.url;
    }

    /** Starts it again on its port and directory unless an emulator answers there (one started by hand, say). */
    async ensureRunning(): Promise<void> {
        const answers = await fetch(`${this.url}/__admin/timing`).then(() => true, () => false);
        if (!answers) await this.start(this.port);
    }

    stop(): void {
        this.child?.kill();
    }
}

async function main() {
    const keep = process.argv.includes("--keep");
    const apiKey = `lsv2_local_${randomUUID().slice(0, 8)}`;
    console.log("installing examples/quickstart with the packed package ...");
    const project = createProject("quickstart");
    const em = new StackEmulator(apiKey, keep ? join(project.dir, ".emulator") : undefined);
    const stream = { stream: true };
    const step = async (args: string[]) => {
        console.log(`\n$ pulumi ${args.join(" ")}`);
        return project.pulumi(args, stream);
    };
    let failed = false;
    try {
        await em.start();
        console.log(`emulator listening on ${em.url}`);
        console.log(`\n$ pulumi stack init ${STACK}; pulumi config set ...`);
        await project.initStack(
            STACK,
            { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID() },
            { "langsmith:apiKey": apiKey, "quickstart:agentSecret": "sk-local-example" },
        );
        await step(["up", "--yes", "--stack", STACK]);
        await step(["preview", "--refresh", "--expect-no-changes", "--stack", STACK]);
        if (keep) {
            printKeptStack(project, em);
            await ctrlC();
            await em.ensureRunning();
        }
        await step(["destroy", "--yes", "--stack", STACK]);
    } catch (e) {
        failed = true;
        console.error(`\nnpm run stack failed: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    } finally {
        em.stop();
        project.remove();
    }
    if (failed) process.exitCode = 1;
    else console.log(`\nDone: the stack was destroyed, the emulator stopped, and ${project.dir} (stack, state, packages) removed.`);
}

/** How to use the kept stack from another shell, and how to restart its emulator. */
function printKeptStack(project: PulumiProject, em: StackEmulator): void {
    console.log(`
The stack and the emulator stay up until you press Ctrl-C. From another shell:

  source scripts/env.sh
  cd ${project.dir}
  export PULUMI_BACKEND_URL=${project.env.PULUMI_BACKEND_URL} PULUMI_CONFIG_PASSPHRASE=${PASSPHRASE}
  pulumi stack output            # or: pulumi up, pulumi refresh, pulumi preview --refresh --expect-no-changes

The emulator (pid ${em.pid}) keeps its objects in ${em.stateDir}, so the stack outlives it: stop it
(kill -9 ${em.pid}, even) and start it again on the same directory and port with

  node ${EMULATOR_MAIN} ${[...em.args, "--port", em.port].join(" ")}

Ctrl-C here destroys the stack (starting the emulator again if nothing answers at ${em.url}), stops the
emulator it started and removes ${project.dir}.`);
}

/** Resolves on Ctrl-C (or SIGTERM); waits even when nothing else is left running (the emulator stopped). */
function ctrlC(): Promise<void> {
    const alive = setInterval(() => undefined, 60_000);
    return new Promise<void>((r) => {
        process.once("SIGINT", r);
        process.once("SIGTERM", r);
    }).finally(() => clearInterval(alive));
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
