/**
 * The emulator in a program installed with `npm install --omit=optional` (which docs/programs.md describes for programs): the packed
 * package without its optional dependencies @duckdb/node-api and @aws-sdk/client-s3 (really absent from the
 * project's node_modules, and not found from the package's directory). `npx langsmith-emulator` warns in one
 * line at start-up; a bulk-export request that needs them (creating a destination, creating an export)
 * answers 501 with a `detail` naming them and how to add them, through the package's own client as over raw
 * HTTP, never a dropped connection; reads and the control plane answer as usual; `--sandbox` starts no MinIO
 * and prints the lines without the bucket. An export left waiting in a state directory by a full install
 * fails its run at once there, with the same words, not retried.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError } from "../../provider/api/errors";
import { startEmulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";
import { settle } from "../helpers/bulkExport";
import { bulkExportClient, raw, rejection, TEST_API_KEY, TEST_TENANT } from "../helpers/emulator";
import { startMinio } from "../helpers/minio";

const WARNING =
    "langsmith-emulator: bulk export is off: @duckdb/node-api and @aws-sdk/client-s3 are not installed; add them with npm install @duckdb/node-api @aws-sdk/client-s3 " +
    "(or install pulumi-langsmith without --omit=optional). Until then creating a destination or an export answers 501; the control plane and agent servers work";
const DETAIL =
    "Bulk export needs the optional packages @duckdb/node-api and @aws-sdk/client-s3 of pulumi-langsmith; @duckdb/node-api and @aws-sdk/client-s3 are " +
    "not installed or cannot be loaded here. Add them: npm install @duckdb/node-api @aws-sdk/client-s3 (or install pulumi-langsmith without --omit=optional), then send the request again.";

/** What the emulator wrote on stderr: npx's own `npm warn` lines (about this machine's npm config) left out. */
const emulatorLines = (stderr: string) => stderr.split("\n").filter((l) => l && !l.startsWith("npm warn"));

/** `npx langsmith-emulator --port 0 --quiet ...args` in the project; answers once its first line is out, with its stderr so far. */
async function startNpx(dir: string, args: string[] = []): Promise<{ child: ChildProcess; url: string; stdout: () => string; stderr: () => string }> {
    const child = spawn("npx", ["--no-install", "langsmith-emulator", "--port", "0", "--quiet", ...args], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    // One listener from the start: what follows the JSON line may come in the same chunk.
    child.stdout!.on("data", (d) => (stdout += d));
    const first = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", () => stdout.includes("\n") && resolve(stdout.slice(0, stdout.indexOf("\n"))));
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    return { child, url: JSON.parse(first).url, stdout: () => stdout.slice(first.length + 1), stderr: () => stderr };
}

/** Stops it as a user would (SIGTERM to npx) and waits for npx to go. */
async function stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
}

describe("e2e: the emulator installed with --omit=optional (no DuckDB, no S3 client)", function () {
    this.timeout(5 * 60_000);
    let project: PulumiProject;
    let running: ChildProcess | undefined;
    before(() => {
        project = createProject("quickstart");
    });
    after(async () => {
        if (running) await stop(running);
        project?.remove();
    });

    it("the install really lacks both packages", () => {
        const modules = join(project.dir, "node_modules");
        assert.ok(existsSync(join(modules, "pulumi-langsmith", "dist", "emulator", "main.js")));
        for (const p of ["@duckdb/node-api", "@aws-sdk/client-s3"]) assert.equal(existsSync(join(modules, p)), false, `${p} is installed`);
        assert.throws(() => require.resolve("@duckdb/node-api", { paths: [join(modules, "pulumi-langsmith")] }), /Cannot find module/);
    });

    it("warns in one line at start-up; creating a destination or an export answers 501 naming the packages (client and raw HTTP); reads and the control plane answer", async () => {
        const em = await startNpx(project.dir, ["--api-key", TEST_API_KEY]);
        running = em.child;
        await new Promise((r) => setTimeout(r, 200));
        assert.deepEqual(emulatorLines(em.stderr()), [WARNING]);
        assert.equal(em.stdout(), "", "only the JSON line on stdout");

        const be = bulkExportClient(em);
        const body = {
            destination_type: "s3" as const,
            display_name: "nope",
            config: { bucket_name: "bkt", prefix: "p", endpoint_url: "http://127.0.0.1:9" },
            credentials: { access_key_id: "a", secret_access_key: "s" },
        };
        const e = await rejection(() => be.createDestination(body));
        assert.ok(e instanceof ApiError, String(e));
        assert.equal(e.status, 501);
        assert.equal(e.detail, DETAIL);

        const viaHttp = await raw(em, "POST", "/api/v1/bulk-exports", {
            body: {
                bulk_export_destination_id: "00000000-0000-4000-8000-000000000001",
                session_id: "00000000-0000-4000-8000-000000000002",
                start_time: "2026-11-01T00:00:00Z",
                end_time: "2026-11-02T00:00:00Z",
            },
        });
        assert.equal(viaHttp.status, 501);
        assert.deepEqual(viaHttp.body, { detail: DETAIL });
        assert.deepEqual((await raw(em, "GET", "/api/v1/bulk-exports/destinations")).body, []);
        const deployments = await raw(em, "GET", "/v2/deployments", { tenantId: TEST_TENANT });
        assert.equal(deployments.status, 200);
        await stop(em.child);
    });

    it("--sandbox: the same warning, no MinIO, the lines to paste without the bucket", async () => {
        const em = await startNpx(project.dir, ["--sandbox"]);
        running = em.child;
        for (let i = 0; i < 100 && !/^Ctrl-C stops the emulator\.$/m.test(em.stdout()); i++) await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(emulatorLines(em.stderr()), [WARNING]);
        assert.match(em.stdout(), /no S3 server: bulk export cannot write/);
        assert.doesNotMatch(em.stdout(), /MinIO|s3Endpoint|bucket /);
        assert.match(em.stdout(), /^pulumi config set tracingProjectId /m);
        await stop(em.child);
    });

    it("an export left waiting in a state directory by a full install: its run fails at once with the same words, not retried", async () => {
        const stateDir = mkdtempSync(join(tmpdir(), "without-optional-state-"));
        const minio = await startMinio();
        try {
            // The checkout (both packages there) makes a destination and an export, kept waiting (paused).
            const full = await startEmulator({
                port: 0,
                stateDir,
                bulkExport: {
                    projects: [{ session_id: "00000000-0000-4000-8000-0000000000aa", start: "2026-11-01T00:00:00Z", end: "2026-11-02T00:00:00Z", count: 10 }],
                },
            });
            full.bulkExport.model.limits.paused = true;
            const be = bulkExportClient(full);
            const { destination } = await be.createDestination({
                destination_type: "s3",
                display_name: "kept",
                config: { bucket_name: "exports", prefix: "p", endpoint_url: minio.endpoint },
                credentials: { access_key_id: minio.users.writeDelete.accessKeyId, secret_access_key: minio.users.writeDelete.secretAccessKey },
            });
            const { export: created } = await be.createExport({
                bulk_export_destination_id: destination.id,
                session_id: "00000000-0000-4000-8000-0000000000aa",
                start_time: "2026-11-01T00:00:00Z",
                end_time: "2026-11-02T00:00:00Z",
            });
            await full.close();

            const em = await startNpx(project.dir, ["--state-dir", stateDir]);
            running = em.child;
            const done = await settle(bulkExportClient(em), created.id);
            assert.equal(done.status, "Failed");
            const [run] = await bulkExportClient(em).listExportRuns(created.id);
            assert.deepEqual(run.errors, { retry_0: DETAIL });
            await stop(em.child);
        } finally {
            await minio.stop();
            rmSync(stateDir, { recursive: true, force: true });
        }
    });
});
