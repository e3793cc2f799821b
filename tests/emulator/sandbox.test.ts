/**
 * `langsmith-emulator --sandbox`, the built command in a process of its own: its key is the only one
 * accepted, its MinIO holds the bucket and takes the printed keys, bulk export writes there even for a
 * destination without `endpoint_url` (the emulator's `--aws-endpoint` points at it), its tracing project
 * covers the last seven days; SIGINT, SIGTERM and the end of its parent each stop MinIO too and remove its
 * temporary data; `--state-dir` keeps MinIO's data and prints the same lines again (no secret in plain text
 * in the emulator's files); without MinIO, one line says how to get one and the control plane is served;
 * a bad `--minio` or a port in use fail at once, leaving nothing running. (docs/sandbox.md's recipe with a real
 * Pulumi program: tests/e2e/sandbox.test.ts.)
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { EMULATOR_MAIN } from "../../scripts/lib/emulator";
import { admin, bulkExportClient, raw } from "../helpers/emulator";
import { settle } from "../helpers/bulkExport";
import { eventually } from "../helpers/async";

/** What one start printed, with its process. */
interface Started {
    child: ChildProcess;
    stdout: string;
    /** What it has written on stderr so far. */
    readonly stderr: string;
    url: string;
    /** The printed `pulumi config set` values by key, and the lines themselves. */
    config: Record<string, string>;
    lines: string[];
    /** The directory of the printed file backend (`export PULUMI_BACKEND_URL=...`). */
    pulumiState?: string;
}

/** The environment of a command without any MinIO: no PULUMI_LANGSMITH_MINIO, and PATH without MinIO's directory. */
function withoutMinio(): NodeJS.ProcessEnv {
    const env = { ...process.env };
    delete env.PULUMI_LANGSMITH_MINIO;
    const minioDir = dirname(process.env.PULUMI_LANGSMITH_MINIO!);
    env.PATH = (env.PATH ?? "")
        .split(delimiter)
        .filter((d) => d !== minioDir)
        .join(delimiter);
    return env;
}

/** Starts `node dist/emulator/main.js --sandbox --port 0 --quiet ...args`; answers once it has printed its last line. */
async function startSandbox(args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<Started> {
    const child = spawn(process.execPath, [EMULATOR_MAIN, "--sandbox", "--port", "0", "--quiet", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
        const check = () => /^Ctrl-C stops the emulator/m.test(stdout) && resolve();
        child.stdout!.on("data", check);
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)));
    });
    const lines = stdout.split("\n").filter((l) => l.startsWith("pulumi config set "));
    const config = Object.fromEntries(lines.map((l) => l.split(" ").slice(-2) as [string, string]));
    return {
        child,
        stdout,
        get stderr() {
            return stderr;
        },
        url: JSON.parse(stdout.split("\n")[0]).url,
        config,
        lines,
        pulumiState: /^export PULUMI_BACKEND_URL='file:\/\/(\S+)\?metadata=skip' PULUMI_CONFIG_PASSPHRASE=sandbox$/m.exec(stdout)?.[1],
    };
}

/** Runs the command to its end; answers its exit code and output. */
function runToEnd(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [EMULATOR_MAIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

/** The pids of the processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
    return readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .filter((d) => {
            try {
                return (
                    Number(
                        readFileSync(`/proc/${d}/stat`, "utf8")
                            .replace(/^.*\) /s, "")
                            .split(" ")[1],
                    ) === pid
                );
            } catch {
                return false;
            }
        })
        .map(Number);
}

/** The state letter of a process (`R`, `S`, `Z` for a zombie...), or undefined when it is gone. */
function stateOf(pid: number): string | undefined {
    try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0];
    } catch {
        return undefined;
    }
}

/** Whether a process runs (a zombie, exited but not yet reaped, does not). */
const alive = (pid: number) => ![undefined, "Z", "X"].includes(stateOf(pid));

/** An S3 client with the printed keys. */
const s3Of = (s: Started) =>
    new S3Client({
        endpoint: s.config.s3Endpoint,
        region: s.config.s3Region,
        forcePathStyle: true,
        credentials: { accessKeyId: s.config.s3AccessKeyId, secretAccessKey: s.config.s3SecretAccessKey },
    });

/** The MinIO process the sandbox started (its only child), and its data directory as printed. */
function minioOf(s: Started): { pid: number; dataDir: string } {
    const [pid] = childrenOf(s.child.pid!);
    assert.ok(pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("minio\0server"), "MinIO is the sandbox's child");
    return { pid, dataDir: /^MinIO's data: (\S+) /m.exec(s.stdout)![1] };
}

/** Stops a sandbox by `signal`; asserts that MinIO, its temporary data and the stack's temporary state went with it. */
async function assertStopsWithMinio(s: Started, stop: () => void): Promise<void> {
    const minio = minioOf(s);
    stop();
    const gone = await eventually(() => !alive(minio.pid), 20_000);
    assert.ok(gone, `MinIO is still running (state ${stateOf(minio.pid)}; the emulator ${s.child.exitCode ?? s.child.signalCode ?? "runs"}): ${s.stderr}`);
    assert.ok(await eventually(() => !existsSync(minio.dataDir)), "MinIO's temporary data is still there");
    assert.ok(await eventually(() => !existsSync(s.pulumiState!)), "the stack's temporary state is still there");
    assert.ok(await eventually(() => s.child.exitCode !== null || s.child.signalCode !== null), "the emulator is still running");
}

describe("emulator: --sandbox (MinIO, a bucket, a key, a tracing project, the lines to paste)", function () {
    this.timeout(90_000);
    const started: Started[] = [];
    const start = async (args: string[] = [], env?: NodeJS.ProcessEnv) => {
        const s = await startSandbox(args, env);
        started.push(s);
        return s;
    };
    // Stopped as a user stops it (SIGTERM), so that a failed test leaves no MinIO behind either.
    after(async () => {
        for (const s of started.filter((x) => x.child.exitCode === null && x.child.signalCode === null)) {
            const exited = new Promise((r) => s.child.once("exit", r));
            s.child.kill("SIGTERM");
            await exited;
        }
    });

    it("prints the JSON line first, then every line to paste; the key is the only one accepted; MinIO takes the printed keys; the tracing project covers the last seven days", async () => {
        const s = await start();
        assert.deepEqual(Object.keys(JSON.parse(s.stdout.split("\n")[0])), ["url", "port"]);
        assert.ok(s.stdout.includes("\npulumi stack select --create emulator\n"));
        // The stack's state and passphrase for this shell, first: the lines work in a fresh home, without `pulumi login`.
        assert.ok(s.pulumiState && existsSync(s.pulumiState), s.stdout);
        assert.deepEqual(Object.keys(s.config), [
            "langsmith:controlPlaneUrl",
            "langsmith:endpoint",
            "langsmith:workspaceId",
            "langsmith:apiKey",
            "integrationId",
            "tracingProjectId",
            "exportStart",
            "exportEnd",
            "bucket",
            "s3Endpoint",
            "s3Region",
            "s3AccessKeyId",
            "s3SecretAccessKey",
        ]);
        assert.equal(s.config["langsmith:controlPlaneUrl"], s.url);
        assert.equal(s.config["langsmith:endpoint"], s.url);
        for (const secret of ["langsmith:apiKey", "s3SecretAccessKey"])
            assert.ok(s.lines.includes(`pulumi config set --secret ${secret} ${s.config[secret]}`), secret);
        assert.equal(s.stderr, "");

        const auth = { apiKey: s.config["langsmith:apiKey"], tenantId: s.config["langsmith:workspaceId"] };
        assert.equal((await raw(s, "GET", "/v2/deployments", auth)).status, 200);
        assert.equal((await raw(s, "GET", "/v2/deployments", { ...auth, apiKey: "lsv2_other" })).status, 401);

        const s3 = s3Of(s);
        try {
            await s3.send(new PutObjectCommand({ Bucket: s.config.bucket, Key: "hello.txt", Body: "hi" }));
            assert.deepEqual(
                (await s3.send(new ListObjectsV2Command({ Bucket: s.config.bucket }))).Contents?.map((o) => o.Key),
                ["hello.txt"],
            );
        } finally {
            s3.destroy();
        }

        const projects = await admin(s, "GET", "/bulk-exports/projects");
        const project = projects.find((p: { session_id: string }) => p.session_id === s.config.tracingProjectId);
        const today = Date.parse(new Date().toISOString().slice(0, 10));
        assert.deepEqual(
            { start: project.start, end: project.end, count: project.count },
            { start: s.config.exportStart, end: s.config.exportEnd, count: 7_000 },
        );
        assert.equal(Date.parse(project.end), today);
        assert.equal(Date.parse(project.start), today - 7 * 86_400_000);
    });

    it("bulk export writes into its MinIO, a destination without endpoint_url included (--aws-endpoint points there); SIGINT stops MinIO too and removes its data", async () => {
        const s = await start();
        const be = bulkExportClient(s, { apiKey: s.config["langsmith:apiKey"], tenantId: s.config["langsmith:workspaceId"] });
        const credentials = { access_key_id: s.config.s3AccessKeyId, secret_access_key: s.config.s3SecretAccessKey };
        const { destination } = await be.createDestination({
            destination_type: "s3",
            display_name: "aws style",
            config: { bucket_name: s.config.bucket, prefix: "aws-style" },
            credentials,
        });
        const day = new Date(Date.parse(s.config.exportEnd) - 86_400_000).toISOString();
        const { export: created } = await be.createExport({
            bulk_export_destination_id: destination.id,
            session_id: s.config.tracingProjectId,
            start_time: day,
            end_time: s.config.exportEnd,
        });
        const done = await settle(be, created.id);
        assert.equal(done.status, "Completed");
        const s3 = s3Of(s);
        try {
            const keys =
                (await s3.send(new ListObjectsV2Command({ Bucket: s.config.bucket, Prefix: `aws-style/export_id=${created.id}/` }))).Contents?.map(
                    (o) => o.Key!,
                ) ?? [];
            assert.equal(keys.length, 1);
            const bytes = await (await s3.send(new GetObjectCommand({ Bucket: s.config.bucket, Key: keys[0] }))).Body!.transformToByteArray();
            assert.equal(Buffer.from(bytes.slice(0, 4)).toString(), "PAR1");
        } finally {
            s3.destroy();
        }
        await assertStopsWithMinio(s, () => s.child.kill("SIGINT"));
    });

    it("SIGTERM stops MinIO too", async () => {
        const s = await start();
        await assertStopsWithMinio(s, () => s.child.kill("SIGTERM"));
    });

    it("the end of its parent (npx, a shell) stops it and MinIO", async () => {
        // A shell that starts the sandbox in the background and is then killed: the sandbox's parent goes.
        const shell = spawn("bash", ["-c", `"${process.execPath}" "${EMULATOR_MAIN}" --sandbox --port 0 --quiet & wait`], {
            stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        shell.stdout!.on("data", (d) => (stdout += d));
        assert.ok(await eventually(() => /^Ctrl-C stops the emulator/m.test(stdout), 30_000), stdout);
        const [emulator] = childrenOf(shell.pid!);
        const [minio] = childrenOf(emulator);
        assert.ok(emulator && minio, "the emulator and its MinIO were not found under the shell");
        const dataDir = /^MinIO's data: (\S+) /m.exec(stdout)![1];
        shell.kill("SIGKILL");
        assert.ok(await eventually(() => !alive(emulator) && !alive(minio)), "the emulator or MinIO is still running");
        assert.ok(await eventually(() => !existsSync(dataDir)));
    });

    it("--state-dir: MinIO's data and the printed values are kept; a restart prints the same lines and finds the object; no secret in plain text in sandbox.json", async () => {
        const dir = mkdtempSync(join(tmpdir(), "sandbox-state-"));
        try {
            const first = await start(["--state-dir", dir]);
            assert.equal(minioOf(first).dataDir, join(dir, "minio"));
            const s3 = s3Of(first);
            await s3.send(new PutObjectCommand({ Bucket: first.config.bucket, Key: "kept.txt", Body: "kept" }));
            s3.destroy();
            first.child.kill("SIGTERM");
            assert.ok(await eventually(() => first.child.exitCode !== null));
            assert.ok(existsSync(join(dir, "minio")), "the state directory's MinIO data was removed");
            const saved = readFileSync(join(dir, "sandbox.json"), "utf8");
            for (const secret of [first.config["langsmith:apiKey"], first.config.s3SecretAccessKey])
                assert.ok(!saved.includes(secret), "sandbox.json holds a secret in plain text");

            const again = await start(["--state-dir", dir, "--port", String(new URL(first.url).port)]);
            assert.deepEqual(again.lines, first.lines, "the same lines (same port, key, workspace, MinIO port, project)");
            const s3b = s3Of(again);
            try {
                const body = await (await s3b.send(new GetObjectCommand({ Bucket: again.config.bucket, Key: "kept.txt" }))).Body!.transformToString();
                assert.equal(body, "kept");
            } finally {
                s3b.destroy();
            }
            again.child.kill("SIGTERM");
            assert.ok(await eventually(() => again.child.exitCode !== null));
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it("--api-key: the sandbox prints and accepts that key", async () => {
        const key = `lsv2_sk_mine_${randomUUID().slice(0, 8)}`;
        const s = await start(["--api-key", key]);
        assert.equal(s.config["langsmith:apiKey"], key);
        assert.equal((await raw(s, "GET", "/v2/deployments", { apiKey: key, tenantId: s.config["langsmith:workspaceId"] })).status, 200);
        s.child.kill("SIGTERM");
    });

    it("without MinIO: one line on stderr says how to get one; the lines to paste have no bucket; the control plane is served", async () => {
        const s = await start([], withoutMinio());
        const notice = s.stderr.trim().split("\n");
        assert.equal(notice.length, 1, s.stderr);
        assert.match(
            notice[0],
            /no S3-compatible server for bulk export: .*--minio <path>.*scripts\/setup-bulk-export\.sh.*the control plane is served without it/,
        );
        assert.deepEqual(Object.keys(s.config), [
            "langsmith:controlPlaneUrl",
            "langsmith:endpoint",
            "langsmith:workspaceId",
            "langsmith:apiKey",
            "integrationId",
            "tracingProjectId",
            "exportStart",
            "exportEnd",
        ]);
        assert.equal(childrenOf(s.child.pid!).length, 0);
        const auth = { apiKey: s.config["langsmith:apiKey"], tenantId: s.config["langsmith:workspaceId"] };
        assert.equal((await raw(s, "GET", "/v2/deployments", auth)).status, 200);
        s.child.kill("SIGTERM");
    });

    it("--minio PATH runs that MinIO; a path that is not one, or --minio without --sandbox, fails at once", async () => {
        const s = await start(["--minio", process.env.PULUMI_LANGSMITH_MINIO!], withoutMinio());
        assert.ok(s.config.s3Endpoint);
        await assertStopsWithMinio(s, () => s.child.kill("SIGTERM"));
        const bad = await runToEnd(["--sandbox", "--port", "0", "--minio", "/nonexistent/minio"]);
        assert.equal(bad.code, 2);
        assert.equal(bad.stderr, "langsmith-emulator: --minio /nonexistent/minio: not an executable file\n");
        const alone = await runToEnd(["--minio", process.env.PULUMI_LANGSMITH_MINIO!]);
        assert.equal(alone.code, 2);
        assert.equal(alone.stderr, "langsmith-emulator: --minio goes with --sandbox\n");
    });

    it("a port in use: exits 2 saying so, and the MinIO it had started is stopped with its data removed", async () => {
        const taken: Server = createServer();
        await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
        const port = (taken.address() as { port: number }).port;
        // A temporary directory of its own: other tests' sandboxes come and go in the shared one meanwhile.
        const tmp = mkdtempSync(join(tmpdir(), "sandbox-port-in-use-"));
        try {
            const r = await runToEnd(["--sandbox", "--port", String(port), "--quiet"], { ...process.env, TMPDIR: tmp });
            assert.equal(r.code, 2);
            assert.equal(
                r.stderr,
                `langsmith-emulator: port ${port} is in use (another emulator?): pass --port with another one, or --port 0 for a free one\n`,
            );
            assert.equal(r.stdout, "");
            assert.deepEqual(readdirSync(tmp), [], "the MinIO data directory was left behind");
        } finally {
            taken.close();
            rmSync(tmp, { recursive: true, force: true });
        }
    });
});
