/**
 * A MinIO server in a child process, for the emulator's `--sandbox` (an S3-compatible bucket for bulk
 * export next to the emulator) and for the bulk-export tests (tests/helpers/minio.ts adds their users and
 * policies): where the binary is, a free loopback port, start and wait until it is ready, stop it (SIGTERM,
 * then SIGKILL after 5 s). A server still running when this process exits is killed on the way out.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { request } from "undici";
import { stopChild } from "./childProcess";

/** An access key pair. */
export interface S3Credentials {
    accessKeyId: string;
    secretAccessKey: string;
}

/** A running MinIO process. */
export interface MinioProcess {
    /** `http://127.0.0.1:<port>` */
    endpoint: string;
    port: number;
    pid: number;
    dataDir: string;
    /** Stops it (SIGTERM, SIGKILL after 5 s); resolves once it has exited. Safe to call twice. */
    stop(): Promise<void>;
    /** Whether it has exited (stopped, or died on its own). */
    readonly exited: boolean;
}

/** Whether `file` is an executable file. */
function executable(file: string): boolean {
    try {
        accessSync(file, constants.X_OK);
        return true;
    } catch {
        return false;
    }
}

/** Where MinIO is, or undefined: `$PULUMI_LANGSMITH_MINIO` (scripts/env.sh) when that file exists, else `minio` on PATH. */
export function findMinio(env: NodeJS.ProcessEnv = process.env): string | undefined {
    const built = env.PULUMI_LANGSMITH_MINIO;
    if (built && executable(built)) return built;
    for (const dir of (env.PATH ?? "").split(delimiter)) {
        if (dir && executable(join(dir, "minio"))) return join(dir, "minio");
    }
    return undefined;
}

/**
 * A port nobody listens on now on 127.0.0.1: `wanted` when it is free, else any (another process may take
 * it before MinIO does; start then fails clearly).
 */
export async function freePort(wanted = 0): Promise<number> {
    if (wanted) return tryPort(wanted).catch(() => tryPort(0));
    return tryPort(0);
}

function tryPort(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
        const srv = createServer();
        srv.once("error", reject);
        srv.listen(port, "127.0.0.1", () => {
            const { port } = srv.address() as { port: number };
            srv.close(() => resolve(port));
        });
    });
}

/** Polls MinIO's readiness endpoint until it answers 200, the process dies, or 30 s pass. */
async function waitReady(endpoint: string, proc: ChildProcess, log: () => string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`minio exited with ${proc.exitCode ?? proc.signalCode}: ${log()}`);
        try {
            const res = await request(`${endpoint}/minio/health/ready`, { headersTimeout: 1000, bodyTimeout: 1000 });
            await res.body.dump();
            if (res.statusCode === 200) return;
        } catch {
            // not listening yet
        }
        await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`minio did not become ready within 30 s: ${log()}`);
}

/**
 * Starts `binary` as `minio server <dataDir>` on a free port of 127.0.0.1 (`port` when it is free) with
 * these root credentials (no web console, no update check); resolves once it is ready. Rejects, after stopping it, when it does not
 * come up (its last output in the message).
 */
export async function startMinioProcess(o: { binary: string; dataDir: string; root: S3Credentials; port?: number }): Promise<MinioProcess> {
    // A port found free can be taken before MinIO binds it (any outgoing connection may get it as its local
    // port): another free port then, three tries in all.
    for (let attempt = 1; ; attempt++) {
        try {
            return await startOn(o, await freePort(attempt === 1 ? o.port : 0));
        } catch (e) {
            if (attempt === 3 || !/port is already in use/i.test(String(e))) throw e;
        }
    }
}

/** One start of MinIO on `port` (see startMinioProcess). */
async function startOn(o: { binary: string; dataDir: string; root: S3Credentials }, port: number): Promise<MinioProcess> {
    const endpoint = `http://127.0.0.1:${port}`;
    const proc = spawn(o.binary, ["server", o.dataDir, "--address", `127.0.0.1:${port}`, "--quiet"], {
        env: { ...process.env, MINIO_ROOT_USER: o.root.accessKeyId, MINIO_ROOT_PASSWORD: o.root.secretAccessKey, MINIO_BROWSER: "off", MINIO_UPDATE: "off" },
        stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (b: Buffer) => (output = (output + b.toString()).slice(-4000));
    proc.stdout!.on("data", keep);
    proc.stderr!.on("data", keep);
    const spawnFailed = new Promise<never>((_, reject) => proc.on("error", (e) => reject(new Error(`cannot start ${o.binary}: ${e.message}`))));
    const killOnExit = () => proc.kill("SIGKILL");
    process.once("exit", killOnExit);
    const exited = () => proc.exitCode !== null || proc.signalCode !== null;
    const stop = async () => {
        process.removeListener("exit", killOnExit);
        await stopChild(proc);
    };
    try {
        await Promise.race([waitReady(endpoint, proc, () => output), spawnFailed]);
    } catch (e) {
        await stop();
        throw e;
    }
    return {
        endpoint,
        port,
        pid: proc.pid!,
        dataDir: o.dataDir,
        stop,
        get exited() {
            return exited();
        },
    };
}
