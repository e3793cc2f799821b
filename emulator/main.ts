#!/usr/bin/env node
/**
 * `langsmith-emulator [--port N] [--host H] [--api-key K]... [--speed timed|immediate|manual] [--scale F] [--quiet]`
 *
 * Starts the emulator and prints one JSON line `{"url": ..., "port": ...}` on stdout once it listens, so
 * scripts can read the port when `--port 0` is used. `--scale 0.1` makes every phase ten times shorter.
 */
import { scaledTiming } from "./controlPlane/model";
import { startEmulator } from "./server";

function parseArgs(argv: string[]) {
    const out = { port: 8787, host: "127.0.0.1", apiKeys: [] as string[], speed: "timed", scale: 1, log: true };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const val = () => {
            const v = argv[++i];
            if (v === undefined) throw new Error(`${a} needs a value`);
            return v;
        };
        switch (a) {
            case "--port":
                out.port = Number(val());
                break;
            case "--host":
                out.host = val();
                break;
            case "--api-key":
                out.apiKeys.push(val());
                break;
            case "--speed":
                out.speed = val();
                break;
            case "--scale":
                out.scale = Number(val());
                break;
            case "--quiet":
                out.log = false;
                break;
            case "--help":
            case "-h":
                process.stdout.write(
                    "usage: langsmith-emulator [--port N] [--host H] [--api-key K]... [--speed timed|immediate|manual] [--scale F] [--quiet]\n",
                );
                process.exit(0);
            default:
                throw new Error(`unknown argument ${a}`);
        }
    }
    if (!Number.isInteger(out.port) || out.port < 0) throw new Error("--port needs a whole number");
    if (!["timed", "immediate", "manual"].includes(out.speed)) throw new Error("--speed is timed, immediate or manual");
    if (!(out.scale >= 0)) throw new Error("--scale needs a number >= 0");
    return out;
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    const em = await startEmulator({
        port: args.port,
        host: args.host,
        apiKeys: args.apiKeys.length ? args.apiKeys : undefined,
        timing: { speed: args.speed as "timed", ...scaledTiming(args.scale) },
        log: args.log,
    });
    process.stdout.write(JSON.stringify({ url: em.url, port: em.port }) + "\n");
    const stop = () => void em.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
}

main().catch((e) => {
    process.stderr.write(`langsmith-emulator: ${e instanceof Error ? e.message : e}\n`);
    process.exit(2);
});
