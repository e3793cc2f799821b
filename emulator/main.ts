#!/usr/bin/env node
/**
 * `langsmith-emulator [options]`: starts the emulator and prints one JSON line `{"url": ..., "port": ...}`
 * on stdout once it listens, so scripts can read the port when `--port 0` is used. SIGINT and SIGTERM stop
 * it, and so does the end of its parent process (SIGTERM to `npx langsmith-emulator` ends npx, which does
 * not pass the signal on). `--help` lists every option.
 */
import { scaledTiming } from "./controlPlane/model";
import { startEmulator } from "./server";

const USAGE = `usage: langsmith-emulator [options]

A local emulator of LangSmith's control plane (cloud at /, self-hosted under /api-host). Prints
{"url": ..., "port": ...} on stdout once listening; SIGINT or SIGTERM stops it, and so does the
end of the process that started it (npx included).

  --port N        port to listen on; 0 picks a free one (default 8787)
  --host H        address to listen on (default 127.0.0.1)
  --api-key K     accept only this API key; repeat for several (default: any non-empty key)
  --speed S       how revisions progress: timed (each status lasts its duration), immediate (every
                  revision is DEPLOYED on its first read) or manual (only POST /__admin/revisions/{id}/advance
                  moves them) (default timed)
  --scale F       multiply every status duration by F: 0.1 is ten times faster (default 1: a github
                  revision takes about 4.6 s)
  --quiet         do not log one line per request on stderr (default: log)
  -h, --help      print this help and exit
`;

export interface CliOptions {
    port: number;
    host: string;
    apiKeys: string[];
    speed: "timed" | "immediate" | "manual";
    scale: number;
    log: boolean;
}

/** Parses the command line; throws with a readable message on a bad one. Undefined means `--help`. */
export function parseArgs(argv: string[]): CliOptions | undefined {
    const out: CliOptions = { port: 8787, host: "127.0.0.1", apiKeys: [], speed: "timed", scale: 1, log: true };
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
                out.speed = val() as CliOptions["speed"];
                break;
            case "--scale":
                out.scale = Number(val());
                break;
            case "--quiet":
                out.log = false;
                break;
            case "--help":
            case "-h":
                return undefined;
            default:
                throw new Error(`unknown argument ${a} (see --help)`);
        }
    }
    if (!Number.isInteger(out.port) || out.port < 0) throw new Error("--port needs a whole number");
    if (!["timed", "immediate", "manual"].includes(out.speed)) throw new Error("--speed is timed, immediate or manual");
    if (!(out.scale >= 0)) throw new Error("--scale needs a number >= 0");
    return out;
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    if (!args) {
        process.stdout.write(USAGE);
        return;
    }
    const em = await startEmulator({
        port: args.port,
        host: args.host,
        apiKeys: args.apiKeys.length ? args.apiKeys : undefined,
        timing: { speed: args.speed, ...scaledTiming(args.scale) },
        log: args.log,
    });
    process.stdout.write(JSON.stringify({ url: em.url, port: em.port }) + "\n");
    const stop = () => void em.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    // `npx` does not pass SIGTERM on to the server it started: it dies and the server is left to init.
    // An emulator whose parent went away stops too.
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && stop(), 250).unref();
}

if (require.main === module) {
    main().catch((e) => {
        process.stderr.write(`langsmith-emulator: ${e instanceof Error ? e.message : e}\n`);
        process.exit(2);
    });
}
