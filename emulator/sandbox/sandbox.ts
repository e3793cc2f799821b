/**
 * `langsmith-emulator --sandbox`: what a user's own Pulumi program needs to run against the emulator, from
 * one command. Besides the emulator (../main.ts starts it with what this answers):
 * - one API key (`--api-key`, else a generated one), one workspace id and one GitHub integration id (the
 *   emulator takes any uuid as one; a github `Deployment` needs it);
 * - a MinIO server (`--minio <path>`, else `$PULUMI_LANGSMITH_MINIO` as scripts/env.sh sets it, else `minio`
 *   on PATH) on a free loopback port, its data in `<state-dir>/minio` or in a temporary directory removed
 *   when the emulator stops, with the bucket `langsmith-exports` and root credentials the program is given;
 *   bulk export's `--aws-endpoint` points at it, so a destination without `endpointUrl` lands there too;
 * - a generated tracing project of the last seven whole UTC days (1,000 runs a day), so an export has rows;
 * - the lines to paste into the program's directory (`pulumiLines`): a stack of its own, the provider's
 *   `langsmith:` settings, and the program's own keys for the GitHub integration, the bucket and the tracing
 *   project (examples/python-sandbox and examples/yaml-sandbox read every one of them); and the
 *   environment the official langsmith clients read (`tracingLines`), so the user's traced code writes
 *   into the same workspace (the emulator's key workspace is the sandbox's).
 * No MinIO found: one line says so and how to get one, and the control plane is served without it. With
 * `--state-dir` the generated values are kept in `sandbox.json` there (the API key and the storage secret
 * sealed, as every secret of the state directory) with MinIO's port, taken again when free, so a restart on
 * the same directory (and `--port`) prints the same lines and the destinations a stack made still work.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { s3Sdk } from "../bulkExport/destination";
import type { TracingProjectInput } from "../bulkExport/projects";
import { findMinio, startMinioProcess, type MinioProcess, type S3Credentials } from "./minio";
import { shellWord } from "./shell";
import { Store, type Sealed } from "../core/store";

/** The bucket the sandbox makes. */
export const SANDBOX_BUCKET = "langsmith-exports";
/** The region the program is told (MinIO takes any). */
export const SANDBOX_REGION = "us-east-1";
/** The stack the printed lines select (created when missing), so they never change another stack's settings. */
export const SANDBOX_STACK = "emulator";
/** Days of the generated tracing project, and its runs per day. */
const PROJECT_DAYS = 7;
const RUNS_PER_DAY = 1_000;

/** How to get an S3-compatible server, when none is found. */
export const NO_MINIO =
    "langsmith-emulator: no S3-compatible server for bulk export: put MinIO's `minio` on PATH (https://min.io/download) or pass --minio <path> " +
    "(in a checkout of pulumi-langsmith: bash scripts/setup-bulk-export.sh, then source scripts/env.sh); the control plane is served without it";

export interface SandboxOptions {
    /** `--state-dir`: MinIO's data and the generated values are kept there. */
    stateDir?: string;
    /** `--minio`: the MinIO binary to run. */
    minio?: string;
    /** `--api-key`: the key to print instead of a generated one. */
    apiKey?: string;
    /** False when bulk export's packages are missing: no MinIO is started (nothing could write to it). */
    storage: boolean;
}

/** The S3-compatible bucket the sandbox serves. */
export interface SandboxStorage {
    endpoint: string;
    bucket: string;
    region: string;
    credentials: S3Credentials;
    /** MinIO's data directory, and whether it goes when the emulator stops. */
    dataDir: string;
    temporary: boolean;
    pid: number;
}

export interface Sandbox {
    apiKey: string;
    workspaceId: string;
    /** The GitHub integration id a `Deployment` from GitHub names (`sourceConfig.integrationId`). */
    integrationId: string;
    /** The generated tracing project (with its id). */
    project: Required<Pick<TracingProjectInput, "session_id" | "start" | "end" | "count">>;
    /** Absent: no MinIO (none found, or bulk export is off). */
    storage?: SandboxStorage;
    /** Why there is no storage, in one line (stderr), when MinIO was looked for and not found. */
    notice?: string;
    /**
     * Where the printed lines keep the `emulator` stack's state (a Pulumi file backend): `<state dir>/pulumi`,
     * or a temporary directory that goes with the sandbox, as the objects the stack names do.
     */
    pulumiState: { dir: string; kept: boolean };
    /** Stops MinIO and removes its temporary directories; safe to call twice. */
    stop(): Promise<void>;
}

/** The passphrase of the sandbox stack's secrets: local and throwaway, as every key the sandbox prints. */
export const SANDBOX_PASSPHRASE = "sandbox";

/** The generated values of a sandbox, kept in `sandbox.json` with a state directory. */
interface Settings {
    apiKey: string;
    workspaceId: string;
    integrationId: string;
    project: Sandbox["project"];
    root: S3Credentials;
    /** MinIO's last port, taken again when free: the destinations a stack made name it. */
    minioPort?: number;
}

/** What `sandbox.json` holds: the settings with the two secrets sealed. */
interface Saved extends Omit<Settings, "apiKey" | "root" | "integrationId"> {
    integrationId?: string;
    apiKey: Sealed;
    root: { accessKeyId: string; secretAccessKey: Sealed };
}

/** Reads and writes the settings in the state directory (nothing without one). */
class SettingsFile {
    private readonly store: Store<Saved>;

    constructor(stateDir: string | undefined) {
        this.store = new Store<Saved>(stateDir, "sandbox.json");
    }

    /** The values of an earlier start on this state directory, or new ones (saved). */
    load(): Settings {
        const saved = this.store.load();
        const settings: Settings = saved
            ? {
                  ...saved,
                  integrationId: saved.integrationId ?? randomUUID(),
                  apiKey: this.store.open<string>(saved.apiKey),
                  root: { accessKeyId: saved.root.accessKeyId, secretAccessKey: this.store.open<string>(saved.root.secretAccessKey) },
              }
            : newSettings();
        // New, or made before the integration id was printed: saved, so every later start prints the same.
        if (!saved?.integrationId) this.save(settings);
        return settings;
    }

    save(s: Settings): void {
        this.store.save({
            ...s,
            apiKey: this.store.seal(s.apiKey),
            root: { accessKeyId: s.root.accessKeyId, secretAccessKey: this.store.seal(s.root.secretAccessKey) },
        });
    }
}

/** A new key, workspace, GitHub integration, MinIO root and tracing project (the last seven whole UTC days). */
function newSettings(): Settings {
    const today = Date.parse(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
    const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
    return {
        apiKey: `lsv2_sk_emulator_${randomBytes(16).toString("hex")}`,
        workspaceId: randomUUID(),
        integrationId: randomUUID(),
        project: { session_id: randomUUID(), start: iso(today - PROJECT_DAYS * 86_400_000), end: iso(today), count: PROJECT_DAYS * RUNS_PER_DAY },
        root: { accessKeyId: `sandbox${randomBytes(4).toString("hex")}`, secretAccessKey: randomBytes(20).toString("hex") },
    };
}

/** The MinIO binary to run: `--minio` (which must be an executable file), else the one found; undefined: none. */
function minioBinary(explicit: string | undefined): string | undefined {
    if (explicit === undefined) return findMinio();
    try {
        accessSync(explicit, constants.X_OK);
    } catch {
        throw new Error(`--minio ${explicit}: not an executable file`);
    }
    return explicit;
}

/** Creates the bucket unless it is there already (a restart on the same state directory). */
async function createBucket(endpoint: string, credentials: S3Credentials): Promise<void> {
    const { S3Client, CreateBucketCommand } = await s3Sdk();
    const s3 = new S3Client({ endpoint, region: SANDBOX_REGION, forcePathStyle: true, credentials });
    try {
        await s3.send(new CreateBucketCommand({ Bucket: SANDBOX_BUCKET }));
    } catch (e) {
        if ((e as { name?: string }).name !== "BucketAlreadyOwnedByYou") throw e;
    } finally {
        s3.destroy();
    }
}

/**
 * Starts MinIO with the bucket, on the port of the last start when it is free; its data in the state
 * directory, else in a temporary one removed by `stop` (or at exit).
 */
async function startStorage(
    binary: string,
    stateDir: string | undefined,
    file: SettingsFile,
    s: Settings,
): Promise<{ storage: SandboxStorage; stop: () => Promise<void> }> {
    const temporary = stateDir === undefined;
    const dataDir = temporary ? mkdtempSync(join(tmpdir(), "langsmith-sandbox-minio-")) : join(stateDir, "minio");
    mkdirSync(dataDir, { recursive: true });
    const removeDir = () => temporary && rmSync(dataDir, { recursive: true, force: true });
    let minio: MinioProcess | undefined;
    // At an unplanned exit, MinIO first (this handler runs before MinIO's own, registered later): removing
    // the directory under a MinIO still writing could fail, and a throw would skip the handlers after it.
    const atExit = () => {
        try {
            if (minio?.pid) process.kill(minio.pid, "SIGKILL");
            removeDir();
        } catch {
            // exiting anyway: what could not be removed stays in the temporary directory
        }
    };
    process.once("exit", atExit);
    const stop = async () => {
        await minio?.stop();
        removeDir();
        process.removeListener("exit", atExit);
    };
    try {
        minio = await startMinioProcess({ binary, dataDir, root: s.root, port: s.minioPort });
        await createBucket(minio.endpoint, s.root);
    } catch (e) {
        await stop();
        throw e;
    }
    file.save({ ...s, minioPort: minio.port });
    return {
        storage: { endpoint: minio.endpoint, bucket: SANDBOX_BUCKET, region: SANDBOX_REGION, credentials: s.root, dataDir, temporary, pid: minio.pid },
        stop,
    };
}

/** Prepares the sandbox before the emulator starts: its values, and MinIO with the bucket when one is found. */
export async function startSandbox(o: SandboxOptions): Promise<Sandbox> {
    const file = new SettingsFile(o.stateDir);
    const s = file.load();
    const pulumiState = { dir: o.stateDir ? join(o.stateDir, "pulumi") : mkdtempSync(join(tmpdir(), "langsmith-sandbox-pulumi-")), kept: !!o.stateDir };
    mkdirSync(pulumiState.dir, { recursive: true });
    const removeState = async () => void (pulumiState.kept || rmSync(pulumiState.dir, { recursive: true, force: true }));
    const base = { apiKey: o.apiKey ?? s.apiKey, workspaceId: s.workspaceId, integrationId: s.integrationId, project: s.project, pulumiState };
    const binary = o.storage ? minioBinary(o.minio) : undefined;
    if (!binary) return { ...base, notice: o.storage ? NO_MINIO : undefined, stop: removeState };
    try {
        const { storage, stop } = await startStorage(binary, o.stateDir, file, s);
        return { ...base, storage, stop: () => stop().then(removeState) };
    } catch (e) {
        await removeState();
        throw e;
    }
}

/** `pulumi config set [--secret] key value` for each setting, in order. */
function configLines(plain: Array<[string, string]>, secret: Array<[string, string]> = []): string[] {
    return [...plain.map(([k, v]) => `pulumi config set ${k} ${shellWord(v)}`), ...secret.map(([k, v]) => `pulumi config set --secret ${k} ${shellWord(v)}`)];
}

/**
 * The lines to paste into a Pulumi program's directory, in order: where the stack's state lives and its
 * passphrase (for this shell: they work in a fresh home without `pulumi login`, and keep the sandbox's
 * stack apart from any other backend), select (or create) the stack `emulator`, the provider's settings,
 * then the program's own keys (examples/python-sandbox and examples/yaml-sandbox read every one; the README's
 * program those of an export): the GitHub integration, the tracing project and, with storage, the bucket.
 */
export function pulumiLines(sb: Sandbox, url: string): string[] {
    const backend = `file://${sb.pulumiState.dir}?metadata=skip`;
    const lines = [
        `export PULUMI_BACKEND_URL=${shellWord(backend)} PULUMI_CONFIG_PASSPHRASE=${SANDBOX_PASSPHRASE}`,
        `pulumi stack select --create ${SANDBOX_STACK}`,
    ];
    lines.push(
        ...configLines(
            [
                ["langsmith:controlPlaneUrl", url],
                ["langsmith:endpoint", url],
                ["langsmith:workspaceId", sb.workspaceId],
            ],
            [["langsmith:apiKey", sb.apiKey]],
        ),
    );
    lines.push(
        ...configLines([
            ["integrationId", sb.integrationId],
            ["tracingProjectId", sb.project.session_id],
            ["exportStart", sb.project.start],
            ["exportEnd", sb.project.end],
        ]),
    );
    const st = sb.storage;
    if (st) {
        const plain: Array<[string, string]> = [
            ["bucket", st.bucket],
            ["s3Endpoint", st.endpoint],
            ["s3Region", st.region],
            ["s3AccessKeyId", st.credentials.accessKeyId],
        ];
        lines.push(...configLines(plain, [["s3SecretAccessKey", st.credentials.secretAccessKey]]));
    }
    return lines;
}

/** The programs that read every key the lines set (tests/docs/sandboxKeys.test.ts holds them to it). */
export const SANDBOX_PROGRAMS =
    "Programs that read every key above (a Deployment, a tracing project, a destination, a schedule and an export): " +
    "examples/python-sandbox (Python) and examples/yaml-sandbox (YAML) of pulumi-langsmith.";

/** What the command prints after its JSON line: what runs where, the lines to paste, the programs that read them, and how it stops. */
export function instructions(sb: Sandbox, url: string): string {
    const st = sb.storage;
    const runs = sb.project.count.toLocaleString("en-US");
    const head = [
        `Sandbox: the emulator at ${url}` + (st ? `, MinIO at ${st.endpoint} with the bucket ${st.bucket}` : " (no S3 server: bulk export cannot write)") + ",",
        `and a generated tracing project of ${runs} runs from ${sb.project.start} to ${sb.project.end}.`,
        `In your Pulumi program's directory, run these lines, then \`pulumi up\` (the keys in them are local, throwaway ones;`,
        `the stack's state ${sb.pulumiState.kept ? `is kept in ${sb.pulumiState.dir}` : "goes when the emulator stops, as its objects do"}):`,
    ];
    const data = !st
        ? []
        : st.temporary
          ? [`MinIO's data: ${st.dataDir} (removed when the emulator stops).`]
          : [`MinIO's data: ${st.dataDir} (kept: start again with the same --state-dir and --port to carry on).`];
    const tail = [...data, `Ctrl-C stops the emulator${st ? " and MinIO" : ""}.`];
    const traced = ["Traced code (the official langsmith clients, Python or JS) reads these:", ...tracingLines(sb, url)];
    return [...head, "", ...pulumiLines(sb, url), "", SANDBOX_PROGRAMS, "", ...traced, "", ...tail].join("\n") + "\n";
}

/** The environment the official langsmith clients read: where to send traces, with which key and workspace. */
export function tracingLines(sb: Sandbox, url: string): string[] {
    const vars = { LANGSMITH_ENDPOINT: url, LANGSMITH_API_KEY: sb.apiKey, LANGSMITH_WORKSPACE_ID: sb.workspaceId, LANGSMITH_TRACING: "true" };
    return [
        `export ${Object.entries(vars)
            .map(([k, v]) => `${k}=${shellWord(v)}`)
            .join(" ")}`,
    ];
}
