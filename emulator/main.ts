#!/usr/bin/env node
/**
 * `langsmith-emulator [options]`: starts the emulator and prints one JSON line `{"url": ..., "port": ...}`
 * on stdout once it listens, so scripts can read the port when `--port 0` is used. SIGINT and SIGTERM stop
 * it, and so does the end of its parent process (SIGTERM to `npx langsmith-emulator` ends npx, which does
 * not pass the signal on). `--help` lists every option. `--sandbox` also starts MinIO with a bucket and prints
 * the lines that point a user's own Pulumi program at both (sandbox/sandbox.ts); MinIO stops with the
 * emulator. Without bulk export's optional packages it warns in one line on stderr (bulkExport/packages.ts).
 */
import { startupWarning } from "./bulkExport/packages";
import type { TracingProjectInput } from "./bulkExport/projects";
import { DIALECTS, type Dialect } from "./core/dialect";
import { scaledTiming } from "./controlPlane/revisions";
import { instructions, startSandbox, type Sandbox } from "./sandbox/sandbox";
import { startEmulator, type Emulator } from "./core/server";

const USAGE = `usage: langsmith-emulator [options]

A local emulator of LangSmith's control plane (cloud at /, self-hosted under /api-host), an agent
server per deployed deployment (/__agents/{id}, its custom_url) and bulk export (/api/v1/bulk-exports,
writing Parquet into S3-compatible buckets). Prints
{"url": ..., "port": ...} on stdout once listening; SIGINT or SIGTERM stops it, and so does the
end of the process that started it (npx included).

  --port N        port to listen on; 0 picks a free one (default 8787)
  --host H        address to listen on (default 127.0.0.1)
  --api-key K     accept only this API key (and the service keys made through the API); repeat for
                  several (default: any non-empty key)
  --speed S       how revisions progress: timed (each status lasts its duration), immediate (every
                  revision is DEPLOYED on its first read) or manual (only POST /__admin/revisions/{id}/advance
                  moves them) (default timed)
  --scale F       multiply every status duration by F: 0.1 is ten times faster (default 1: a github
                  revision takes about 4.6 s)
  --agent-step-ms N  the agent servers' built-in graph answers one word every N ms (default 150)
  --state-dir D   keep every area's objects in D, saved after every change, and resume from them on
                  start (kill -9 included): deployments and revisions (statuses carry on from their
                  timestamps), delete requests, secrets (values encrypted); agent-server threads and
                  runs; bulk-export destinations (credentials encrypted), exports, runs with their
                  checkpoints, tracing projects; the organization (workspaces, roles, members,
                  invitations, service keys as hashes, workspace secrets encrypted); the clock's offset (the time it was down counts as
                  time passed). Not kept: failure rules, timing, limits and faults set through
                  /__admin (give the same --speed and --scale again). Restart on the same --port:
                  a github deployment's custom_url names it. (default: memory only)
  --aws-endpoint U  where destinations without endpoint_url are written (default: real AWS S3)
  --installation I  cloud or self-hosted: which one /api/v1/bulk-exports belongs to (default cloud)
  --installation-version V  self-hosted application version; fields newer than V are refused
                  (default: the newest)
  --scheduled-exports-per-workspace N  scheduled exports a workspace may hold, beyond which a create
                  answers 429; "none" for no limit (default: the cloud's 200; none self-hosted)
  --export-creations-per-hour N  export creations a workspace may make per hour, beyond which a create
                  answers 429 with Retry-After; "none" for no limit (default: the cloud's 250; none
                  self-hosted)
  --tracing-project SPEC  a generated tracing project to export, repeatable; SPEC is comma-separated
                  key=value: start, end (ISO), count, and optionally seed, id, tenant,
                  experiment=true (an experiment: what an all_experiments export reads)
                  (e.g. start=2026-11-01T00:00:00Z,end=2026-11-03T00:00:00Z,count=10000)
  --dialect D     real: the stand-in wire words of docs/service.md R1 (repo_host, external_container,
                  graph_config_path, objstore) are refused with 422, as the real service does; seed:
                  accepted beside the real ones (default real)
  --quiet         do not log one line per request on stderr (default: log)
  --sandbox       what your own Pulumi program needs, in one command: the emulator with one API key
                  (--api-key, else a generated one) and workspace; a MinIO server (--minio, else
                  $PULUMI_LANGSMITH_MINIO, else minio on PATH) on a free port with the bucket
                  langsmith-exports, its data in --state-dir (else a temporary directory removed at
                  exit), bulk export pointed at it (--aws-endpoint) and stopped with the emulator; a
                  generated tracing project of the last 7 days. After the JSON line, prints the
                  \`pulumi config set\` lines to run in the program's directory, and the
                  LANGSMITH_* variables traced code reads (default: off)
  --minio PATH    with --sandbox: the MinIO server binary to run
  -h, --help      print this help and exit
`;

export interface CliOptions {
    port: number;
    host: string;
    apiKeys: string[];
    speed: "timed" | "immediate" | "manual";
    scale: number;
    log: boolean;
    stateDir?: string;
    awsEndpoint?: string;
    installation: "cloud" | "self-hosted";
    installationVersion?: string;
    projects: TracingProjectInput[];
    agentStepMs?: number;
    dialect: Dialect;
    limits: { scheduledExportsPerWorkspace?: number | null; creationsPerHour?: number | null };
    sandbox: boolean;
    minio?: string;
}

/** What each option does with its value. */
const OPTIONS: Record<string, (out: CliOptions, v: string) => void> = {
    "--port": (out, v) => (out.port = Number(v)),
    "--host": (out, v) => (out.host = v),
    "--api-key": (out, v) => void out.apiKeys.push(v),
    "--speed": (out, v) => (out.speed = v as CliOptions["speed"]),
    "--scale": (out, v) => (out.scale = Number(v)),
    "--agent-step-ms": (out, v) => (out.agentStepMs = Number(v)),
    "--state-dir": (out, v) => (out.stateDir = v),
    "--aws-endpoint": (out, v) => (out.awsEndpoint = v),
    "--installation": (out, v) => (out.installation = v as CliOptions["installation"]),
    "--installation-version": (out, v) => (out.installationVersion = v),
    "--tracing-project": (out, v) => void out.projects.push(parseProject(v)),
    "--dialect": (out, v) => (out.dialect = v as Dialect),
    "--scheduled-exports-per-workspace": (out, v) => (out.limits.scheduledExportsPerWorkspace = limitOf("--scheduled-exports-per-workspace", v)),
    "--export-creations-per-hour": (out, v) => (out.limits.creationsPerHour = limitOf("--export-creations-per-hour", v)),
    "--minio": (out, v) => (out.minio = v),
};

/** Options without a value. */
const FLAGS: Record<string, (out: CliOptions) => void> = {
    "--quiet": (out) => (out.log = false),
    "--sandbox": (out) => (out.sandbox = true),
};

/** Parses the command line; throws with a readable message on a bad one. Undefined means `--help`. */
export function parseArgs(argv: string[]): CliOptions | undefined {
    const out: CliOptions = {
        port: 8787,
        host: "127.0.0.1",
        apiKeys: [],
        speed: "timed",
        scale: 1,
        log: true,
        installation: "cloud",
        projects: [],
        dialect: "real",
        limits: {},
        sandbox: false,
    };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === "--help" || a === "-h") return undefined;
        if (FLAGS[a]) {
            FLAGS[a](out);
            continue;
        }
        const set = OPTIONS[a];
        if (!set) throw new Error(`unknown argument ${a} (see --help)`);
        const v = argv[++i];
        if (v === undefined) throw new Error(`${a} needs a value`);
        set(out, v);
    }
    if (!Number.isInteger(out.port) || out.port < 0) throw new Error("--port needs a whole number");
    if (!["timed", "immediate", "manual"].includes(out.speed)) throw new Error("--speed is timed, immediate or manual");
    if (!(out.scale >= 0)) throw new Error("--scale needs a number >= 0");
    if (out.agentStepMs !== undefined && !(out.agentStepMs >= 1)) throw new Error("--agent-step-ms needs a number >= 1");
    if (!["cloud", "self-hosted"].includes(out.installation)) throw new Error("--installation is cloud or self-hosted");
    if (!DIALECTS.includes(out.dialect)) throw new Error(`--dialect is ${DIALECTS.join(" or ")}`);
    if (out.minio !== undefined && !out.sandbox) throw new Error("--minio goes with --sandbox");
    return out;
}

/** `start=...,end=...,count=N[,seed=N][,id=uuid][,tenant=uuid][,experiment=true]` */
function parseProject(spec: string): TracingProjectInput {
    const kv = Object.fromEntries(spec.split(",").map((part) => part.split("=", 2).map((s) => s.trim())));
    const unknown = Object.keys(kv).filter((k) => !["start", "end", "count", "seed", "id", "tenant", "experiment"].includes(k));
    if (unknown.length) throw new Error(`--tracing-project: unknown key ${unknown.join(", ")} (keys: start, end, count, seed, id, tenant, experiment)`);
    if (!kv.start || !kv.end || !kv.count) throw new Error("--tracing-project needs start, end and count");
    const count = Number(kv.count);
    const seed = kv.seed === undefined ? undefined : Number(kv.seed);
    if (!Number.isInteger(count) || count < 0) throw new Error("--tracing-project: count must be a whole number");
    if (seed !== undefined && !Number.isInteger(seed)) throw new Error("--tracing-project: seed must be a whole number");
    if (!(Date.parse(kv.start) < Date.parse(kv.end))) throw new Error("--tracing-project: start and end must be ISO timestamps with start < end");
    if (kv.experiment !== undefined && !["true", "false"].includes(kv.experiment)) throw new Error("--tracing-project: experiment is true or false");
    return { start: kv.start, end: kv.end, count, seed, session_id: kv.id, tenant_id: kv.tenant, experiment: kv.experiment === "true" || undefined };
}

/** A limit: a whole number, or `none`. */
function limitOf(option: string, v: string): number | null {
    if (v === "none") return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${option} needs a whole number or none`);
    return n;
}

async function main() {
    // Read first: once the line below announces the server, whoever started it may end at once (SIGTERM to
    // npx right after the line), and a parent read after that would already be init, watched forever.
    const parent = process.ppid;
    const args = parseArgs(process.argv.slice(2));
    if (!args) {
        process.stdout.write(USAGE);
        return;
    }
    // One handler per signal for the whole life of the process (one removed and another added in its place
    // can lose a signal that arrives in between): until it listens, a signal ends it at once, the exit
    // handlers stopping a MinIO already started; then it stops in order.
    let stop: () => void = () => process.exit(1);
    // `on`, not `once`: a second signal must not fall back to the default action, which exits without the
    // exit handlers (MinIO's included); stopper() runs once however often it is called.
    process.on("SIGINT", () => stop()).on("SIGTERM", () => stop());
    const warning = startupWarning();
    if (warning) process.stderr.write(warning + "\n");
    const sandbox = args.sandbox ? await startSandbox({ stateDir: args.stateDir, minio: args.minio, apiKey: args.apiKeys[0], storage: !warning }) : undefined;
    if (sandbox?.notice) process.stderr.write(sandbox.notice + "\n");
    const em = await startEmulator(emulatorOptions(args, sandbox)).catch(async (e) => {
        await sandbox?.stop();
        throw portInUse(e, args.port);
    });
    process.stdout.write(JSON.stringify({ url: em.url, port: em.port }) + "\n");
    if (sandbox) process.stdout.write("\n" + instructions(sandbox, em.url));
    stop = stopper(em, sandbox);
    // `npx` does not pass SIGTERM on to the server it started: it dies and leaves it to init. An emulator
    // whose parent went away stops too.
    setInterval(() => process.ppid !== parent && stop(), 250).unref();
}

/** What the emulator is started with: the command line's options, and the sandbox's key, bucket and project. */
function emulatorOptions(args: CliOptions, sandbox: Sandbox | undefined): Parameters<typeof startEmulator>[0] {
    const apiKeys = sandbox && !args.apiKeys.length ? [sandbox.apiKey] : args.apiKeys;
    return {
        port: args.port,
        host: args.host,
        apiKeys: apiKeys.length ? apiKeys : undefined,
        keyWorkspaceId: sandbox?.workspaceId,
        timing: { speed: args.speed, ...scaledTiming(args.scale) },
        log: args.log,
        dialect: args.dialect,
        stateDir: args.stateDir,
        agentServer: args.agentStepMs !== undefined ? { stepMs: args.agentStepMs } : undefined,
        bulkExport: {
            awsEndpoint: args.awsEndpoint ?? sandbox?.storage?.endpoint,
            installation: args.installation,
            installationVersion: args.installationVersion,
            projects: sandbox ? [...args.projects, sandbox.project] : args.projects,
            limits: args.limits,
        },
    };
}

/** Stops the emulator, then the sandbox's MinIO, then exits; once, however often it is called. */
function stopper(em: Emulator, sandbox: Sandbox | undefined): () => void {
    let stopping = false;
    return () => {
        if (stopping) return;
        stopping = true;
        void em
            .close()
            .then(() => sandbox?.stop())
            .then(() => process.exit(0));
    };
}

/** A port already taken, said with what to do. */
function portInUse(e: unknown, port: number): unknown {
    if ((e as { code?: string }).code !== "EADDRINUSE") return e;
    return new Error(`port ${port} is in use (another emulator?): pass --port with another one, or --port 0 for a free one`);
}

if (require.main === module) {
    main().catch((e) => {
        process.stderr.write(`langsmith-emulator: ${e instanceof Error ? e.message : e}\n`);
        process.exit(2);
    });
}
