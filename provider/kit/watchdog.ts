/**
 * A provider process never outlives its engine, and stops on SIGINT/SIGTERM: where the engine listens, a
 * watchdog on it, and `guardProcess()`, which both front doors call (the native plugin in its main, the
 * dynamic resources the first time Pulumi's dynamic-provider host calls `forward`, provider/dynamic/frozen/impl.ts).
 *
 * Without it, a `pulumi` CLI killed with SIGKILL mid-`up` leaves its provider processes waiting for
 * revisions and exports for minutes. Pulumi's own Go plugins watch the engine
 * (sdk/go/common/util/rpcutil/health.go: a gRPC health Check, UNIMPLEMENTED counting as alive); this does
 * the same every second, and takes 2 failed probes in a row as the engine's death: cancel every wait
 * (cancellation.ts), let the operations in progress end (at most a second), exit 1.
 *
 * The probe is a TCP connect to the engine's address, not a gRPC health Check, because a connect is
 * answered by the kernel: an engine alive but starved of CPU (a busy CI machine) still accepts it at once,
 * where a Check with a deadline could fail twice and kill a healthy provider mid-create, orphaning what it
 * made; a dead engine's port refuses at once (ECONNREFUSED). It also needs no gRPC channel, whose
 * reconnect backoff and timers would be one more thing that could delay the verdict or keep the process
 * alive. A gRPC-Go server (the engine) drops such a connection, logging it at most at info level (not at all
 when it closes before the HTTP/2 preface: grpc-go keeps quiet about TCP health checks).
 *
 * SIGINT is what the engine sends a plugin when it is done with it (sdk/go/common/resource/plugin/plugin.go:
 * SIGINT to the plugin's process group, SIGKILL 5 s later), after a Cancel. On SIGINT or SIGTERM the waits
 * in progress are cancelled, their answers (the resource recorded with its real state) get up to a second
 * to go out, and the process exits 130 or 143; at once when nothing is in progress, so a normal end of
 * `pulumi up` is not slowed; a second signal exits at once.
 *
 * Nothing starts without an engine address (tests calling providers directly): no timer, no handler.
 */
import { connect } from "node:net";
import { constants } from "node:os";
import { cancelOperations, idle } from "./cancellation";

let pluginEngine: string | undefined;

/** The native plugin (provider/plugin/main.ts) says where its engine listens (a test, that it left: undefined). */
export function setEngineAddress(address: string | undefined): void {
    pluginEngine = address;
}

/**
 * Where the engine listens: the plugin's, or the dynamic-provider host's last argument
 * (`node .../dynamic-provider [--logtostderr -v=N --tracing <endpoint>] <engine>`, as Pulumi's
 * buildPluginArguments puts the logging and tracing flags first).
 */
export function engineAddress(): string | undefined {
    if (pluginEngine) return pluginEngine;
    const address = process.argv
        .slice(2)
        .filter((a) => !a.startsWith("-"))
        .pop();
    return inDynamicHost() && address && /^[\w.[\]:-]+:\d+$/.test(address) ? address : undefined;
}

/** Whether this process is Pulumi's dynamic-provider host (`node .../dynamic-provider ...`). */
export const inDynamicHost = (): boolean => /[\\/]dynamic-provider([\\/]|$)/.test(process.argv[1] ?? "");

export interface WatchOptions {
    /** Time between probes (ms; 1000). */
    intervalMs?: number;
    /** Failed probes in a row that mean the engine is gone (2). */
    failures?: number;
    /** A connect not answered within this fails the probe (ms; 3000). */
    timeoutMs?: number;
}

/** One TCP connect to `host:port`: whether it was accepted within `timeoutMs`. Never keeps the process alive. */
function probe(host: string, port: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
        const socket = connect({ host, port });
        socket.unref();
        const end = (ok: boolean) => {
            socket.destroy();
            resolve(ok);
        };
        socket.setTimeout(timeoutMs, () => end(false));
        socket.once("connect", () => end(true));
        socket.once("error", () => end(false));
    });
}

/**
 * Probes `address` (`host:port`, `[v6]:port`) every `intervalMs` and calls `onGone` once, after `failures`
 * failed probes in a row. The timer is unref()'d: the watchdog never keeps a process alive by itself.
 * Answers a function that stops it.
 */
export function watchEngine(address: string, onGone: () => void, o: WatchOptions = {}): () => void {
    const { intervalMs = 1000, failures = 2, timeoutMs = 3000 } = o;
    const colon = address.lastIndexOf(":");
    const host = address.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
    const port = Number(address.slice(colon + 1));
    let failed = 0;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const next = () => {
        if (!stopped) (timer = setTimeout(check, intervalMs)).unref();
    };
    const check = async () => {
        failed = (await probe(host, port, timeoutMs)) ? 0 : failed + 1;
        if (stopped) return;
        if (failed < failures) return next();
        stopped = true;
        onGone();
    };
    next();
    return () => {
        stopped = true;
        clearTimeout(timer);
    };
}

/** How long the operations in progress get to answer before the process exits (ms). */
export const GRACE_MS = 1000;
/** Time for the last answers to leave the process once the operations ended (ms; gRPC writes them asynchronously). */
const FLUSH_MS = 100;

let stopping = false;

/** Cancels every wait, gives the operations in progress up to GRACE_MS (and FLUSH_MS) to answer, and exits with `code`. */
function stop(why: string, code: number): void {
    if (stopping) process.exit(code); // a second signal: at once
    stopping = true;
    cancelOperations(why);
    void idle(GRACE_MS).then((waited) => setTimeout(() => process.exit(code), waited ? FLUSH_MS : 0));
}

let guarded = false;

/**
 * In a provider process that has an engine (the plugin's argument, or the dynamic-provider host's), once:
 * exit when the engine is gone, and on SIGINT/SIGTERM (see the top of this file). Elsewhere, nothing.
 */
export function guardProcess(): void {
    const address = engineAddress();
    if (guarded || !address) return;
    guarded = true;
    for (const sig of ["SIGINT", "SIGTERM"] as const) {
        process.on(sig, () => stop(`the provider received ${sig}`, 128 + constants.signals[sig]));
    }
    watchEngine(address, () => stop(`the Pulumi engine at ${address} is gone`, 1));
}
