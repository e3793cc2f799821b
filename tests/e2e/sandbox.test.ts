/**
 * docs/sandbox.md's "Your own program against the emulator" (the README's section until issue 53), as a user
 * follows it: a project with the packed package installed with its optional dependencies (as `npm install
 * pulumi-langsmith` does) and the page's program as its index.ts (type-checked with the examples:
 * tests/e2e/examples.test.ts); the page's command run as written in its directory
 * (`npx langsmith-emulator --sandbox`, MinIO found through `$PULUMI_LANGSMITH_MINIO` as scripts/env.sh sets
 * it); the lines it prints pasted there as they are; `pulumi up` with the real CLI exports the generated
 * tracing project into MinIO (Parquet files read back by pyarrow, every run once); `pulumi destroy` removes
 * the destination. Then examples/traced-export against the same sandbox, with the same printed lines: a
 * TracingProject, a Dataset, a destination and an hourly ScheduledExport of the project in one `up`, its
 * trace.py run as its header says (the official Python client, with the printed `LANGSMITH_` variables),
 * the official JS client tracing into the same project, both clients reading the project and the dataset
 * back by name, and the hour's window exported with exactly those runs. Then the programs the sandbox names,
 * examples/yaml-sandbox and examples/python-sandbox, with the same lines (every key of them: a GitHub
 * Deployment through the printed integration id, a TracingProject, a destination, a schedule, an export):
 * `up`, a clean preview, `destroy`. Last, SIGTERM to npx stops the emulator and MinIO and removes
 * MinIO's temporary data.
 *
 * Its twelve engine commands (issue 50: more than eight, each says why) are four programs' (none can share another's
 * stack): the page's `up` and `destroy`; traced-export's preview before its project exists, `up`, clean preview and
 * `destroy`; yaml-sandbox's and python-sandbox's `up`, clean preview and `destroy`, what each example's README says.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Client } from "langsmith";
import { traceable } from "langsmith/traceable";
import { createProject, createPythonProject, createYamlProject, type PulumiProject } from "../helpers/project";
import { RecipePage, startRecipe, type RunningRecipe } from "../helpers/docRecipes";
import { raw } from "../helpers/emulator";
import { pythonPath, readParquet } from "../helpers/pyarrow";
import { eventually, processExists as alive, sleep } from "../helpers/async";

const ROOT = join(__dirname, "..", "..");
const PAGE = new RecipePage(readFileSync(join(ROOT, "docs", "sandbox.md"), "utf8"));
/** The page's program, and the command it says to run. */
const PROGRAM = PAGE.blocks.find((b) => b.lang === "ts" && b.info === "program=sandbox")!;
/** The keys the printed lines set, in order (the word after `set` or `set --secret`). */
const keysOf = (lines: string[]) => lines.map((l) => /^pulumi config set (?:--secret )?(\S+) /.exec(l)?.[1] ?? (l.startsWith("export ") ? "export" : l));

/** Runs a command in a directory without blocking the event loop; answers its exit code and output. */
function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
    return new Promise((done) => {
        execFile(cmd, args, { cwd, env, maxBuffer: 64 << 20 }, (err: any, stdout, stderr) =>
            done({ code: err ? (err.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        );
    });
}

/** The official Python client reads back the project and dataset named in argv: their ids, as JSON. */
const PY_READ_BACK = `import json, sys
from langsmith import Client
c = Client()
print(json.dumps([str(c.read_project(project_name=sys.argv[1]).id), str(c.read_dataset(dataset_name=sys.argv[2]).id)]))`;

/** The official JS client, with the printed variables: a trace of two runs into the project, then the ids of the project and dataset it reads back. */
async function jsTraceAndReadBack(env: Record<string, string>, project: string, dataset: string): Promise<[string, string]> {
    const client = new Client({ apiUrl: env.LANGSMITH_ENDPOINT, apiKey: env.LANGSMITH_API_KEY, workspaceId: env.LANGSMITH_WORKSPACE_ID });
    const options = { client, project_name: project, tracingEnabled: true };
    const lookup = traceable(async (q: string) => ({ orders: [q] }), { ...options, name: "js-lookup", run_type: "tool" });
    await traceable(async (q: string) => lookup(q), { ...options, name: "js-agent" })("umbrella");
    await client.awaitPendingTraceBatches();
    return [(await client.readProject({ projectName: project })).id, (await client.readDataset({ datasetName: dataset })).id];
}

/** Runs the printed lines in a project's directory as a user pastes them, in a fresh home; points the project at the backend they name. */
async function paste(project: PulumiProject, lines: string[]): Promise<void> {
    const home = mkdtempSync(join(tmpdir(), "fresh-home-"));
    const { PULUMI_BACKEND_URL: _b, PULUMI_CONFIG_PASSPHRASE: _p, PULUMI_HOME: _h, ...fresh } = project.env;
    const shell = await run("bash", ["-euo", "pipefail", "-c", lines.join("\n")], project.dir, { ...fresh, HOME: home });
    rmSync(home, { recursive: true, force: true });
    assert.equal(shell.code, 0, shell.output);
    const exported = /^export PULUMI_BACKEND_URL='(\S+)' PULUMI_CONFIG_PASSPHRASE=(\S+)$/.exec(lines[0])!;
    project.useBackend(exported[1], { PULUMI_CONFIG_PASSPHRASE: exported[2] });
    // The stack the lines selected, selected again in the project's own PULUMI_HOME (the fresh home kept the first choice).
    const stack = /pulumi stack select --create (\S+)/.exec(lines.join("\n"))?.[1];
    if (stack) await project.pulumi(["stack", "select", stack]);
}

/** The Parquet files under `prefix` of the sandbox's bucket, read with the printed storage keys, each by pyarrow. */
async function parquetUnder(config: Record<string, string>, prefix: string, columns: string[]) {
    const s3 = new S3Client({
        endpoint: config.s3Endpoint,
        region: config.s3Region,
        forcePathStyle: true,
        credentials: { accessKeyId: config.s3AccessKeyId, secretAccessKey: config.s3SecretAccessKey },
    });
    try {
        const listed = await s3.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: prefix }));
        const keys = (listed.Contents ?? []).map((o) => o.Key!);
        const rows: Array<Record<string, unknown>> = [];
        for (const Key of keys) {
            const bytes = await (await s3.send(new GetObjectCommand({ Bucket: config.bucket, Key }))).Body!.transformToByteArray();
            rows.push(...(await readParquet(bytes, { columns })).rows);
        }
        return { keys, rows };
    } finally {
        s3.destroy();
    }
}

describe("e2e: docs/sandbox.md, your own program against the emulator (npx langsmith-emulator --sandbox)", function () {
    this.timeout(10 * 60_000);
    let project: PulumiProject;
    let sandbox: RunningRecipe | undefined;
    /** What the sandbox printed, and the `pulumi config set` lines' values by key. */
    let printed: string[] = [];
    let config: Record<string, string> = {};
    const auth = () => ({ apiKey: config["langsmith:apiKey"], tenantId: config["langsmith:workspaceId"] });
    /** The variables of the printed `export LANGSMITH_...` line, which traced code reads. */
    const tracingEnv = () => {
        const line = printed.find((l) => l.startsWith("export LANGSMITH_"));
        assert.ok(line, "the sandbox printed no LANGSMITH_ variables for traced code");
        return Object.fromEntries(
            line
                .slice("export ".length)
                .split(" ")
                .map((kv) => kv.split("=").map((w) => w.replace(/^'|'$/g, "")) as [string, string]),
        );
    };

    before(() => {
        assert.ok(PROGRAM, "docs/sandbox.md has no ```ts program=sandbox block");
        project = createProject(join(__dirname, "programs", "sandbox"), undefined, { optional: true });
        writeFileSync(join(project.dir, "index.ts"), PROGRAM.code);
    });
    after(() => {
        sandbox?.stop();
        project?.remove();
    });

    // The page's program is type-checked with the examples, in one tsc run (tests/e2e/examples.test.ts: its project
    // here, programs/sandbox, has their dependencies and tsconfig); here it runs transpile-only, as every e2e program.

    it("its command, run as written, prints the JSON line and the lines to paste; pasted, `pulumi up` exports the tracing project into MinIO as Parquet; destroy works", async () => {
        sandbox = await startRecipe(PAGE.recipe("sandbox"), {
            cwd: project.dir,
            env: { PULUMI_LANGSMITH_MINIO: process.env.PULUMI_LANGSMITH_MINIO! },
            ready: /^Ctrl-C stops the emulator and MinIO\.$/m,
            timeoutMs: 60_000,
        });
        assert.equal(PAGE.recipe("sandbox").code.trim(), "npx langsmith-emulator --sandbox");
        printed = sandbox.stdout().split("\n");
        assert.deepEqual(JSON.parse(printed[0]), { url: "http://127.0.0.1:8787", port: 8787 }, "the first line is the JSON line scripts read");
        const lines = printed.filter((l) => l.startsWith("pulumi ") || l.startsWith("export "));
        const sample = PAGE.blocks.find((b) => b.lang === "text" && b.code.startsWith("export PULUMI_BACKEND_URL"))!;
        assert.deepEqual(keysOf(lines), keysOf(sample.code.trim().split("\n")), "docs/sandbox.md shows the lines the command prints");
        config = Object.fromEntries(lines.filter((l) => l.startsWith("pulumi config set ")).map((l) => l.split(" ").slice(-2) as [string, string]));
        assert.match(sandbox.stdout(), /^Programs that read every key above .*examples\/python-sandbox .*examples\/yaml-sandbox /m);
        for (const key of ["bucket", "s3Endpoint", "s3Region", "s3AccessKeyId", "s3SecretAccessKey", "tracingProjectId", "exportStart", "exportEnd"]) {
            assert.ok(PROGRAM.code.includes(`"${key}"`), `docs/sandbox.md's program does not read ${key}`);
        }

        await paste(project, lines);
        await project.pulumi(["up", "--yes", "--skip-preview"]);
        const out = await project.outputs("emulator");
        assert.equal(out.rowsWritten, 7_000);

        // The Parquet files in MinIO, read with the printed storage keys, each by pyarrow: every run once.
        const { keys, rows } = await parquetUnder(config, `traces/export_id=${out.exportId}/`, ["id"]);
        assert.ok(keys.length >= 7 && keys.every((k) => k.endsWith(".parquet")), keys.join("\n"));
        assert.equal(rows.length, 7_000);
        const stored = await project.storedText("emulator");
        for (const secret of [config["langsmith:apiKey"], config.s3SecretAccessKey]) assert.ok(!stored.includes(secret), "a secret is stored in plain text");

        await project.pulumi(["destroy", "--yes", "--skip-preview"]);
        const destinations = await raw({ url: config["langsmith:endpoint"] }, "GET", "/api/v1/bulk-exports/destinations", auth());
        assert.deepEqual(destinations.body, []);
    });

    it("examples/traced-export with the same lines: preview before the project exists, one `up`, trace.py's runs and the JS client's in the project, both clients read the project and dataset back, the hour after it exported with exactly those runs (pyarrow); destroy", async () => {
        const example = createProject("traced-export", undefined, { optional: true });
        try {
            await paste(
                example,
                printed.filter((l) => l.startsWith("pulumi ") || l.startsWith("export PULUMI_")),
            );
            const preview = await example.pulumi(["preview"]);
            assert.match(preview.stdout, /\+ +\S+:ScheduledExport +hourly +create/);
            await example.pulumi(["up", "--yes", "--skip-preview"]);
            const out = await example.outputs("emulator");
            assert.match(out.datasetName, /^golden-[0-9a-f]{7}$/, "the dataset, given no name, is named after its resource");
            await example.pulumi(["preview", "--expect-no-changes"]);
            const env = { ...process.env, ...tracingEnv(), LANGSMITH_PROJECT: out.projectName };
            const traced = await run(pythonPath(), ["trace.py"], example.dir, env);
            assert.equal(traced.code, 0, traced.output);
            const pyRead = await run(pythonPath(), ["-c", PY_READ_BACK, out.projectName, out.datasetName], example.dir, env);
            assert.equal(pyRead.code, 0, pyRead.output);
            assert.deepEqual(JSON.parse(pyRead.output), [out.projectId, out.datasetId], "Python reads back the project and the dataset Pulumi made");
            assert.deepEqual(await jsTraceAndReadBack(tracingEnv(), out.projectName, out.datasetName), [out.projectId, out.datasetId]);
            const session = await raw({ url: config["langsmith:endpoint"] }, "GET", `/api/v1/sessions/${out.projectId}`, auth());
            assert.equal(session.body.run_count, 11, "trace.py's nine runs and the JS client's two are in the project Pulumi made");

            // The first hourly window ends an hour after the project was made; the service exports it ten minutes later.
            await raw({ url: config["langsmith:endpoint"] }, "POST", "/__admin/clock/advance", { body: { ms: 71 * 60_000 }, apiKey: null, tenantId: null });
            let spawned: { bulk_export_id: string; status: string } | undefined;
            for (const deadline = Date.now() + 60_000; !spawned && Date.now() < deadline; await sleep(250)) {
                const r = await raw({ url: config["langsmith:endpoint"] }, "GET", `/api/v1/bulk-exports/runs?source_bulk_export_id=${out.exportId}`, auth());
                spawned = (r.body as Array<{ bulk_export_id: string; status: string }>).find((run) => run.status === "Completed");
            }
            assert.ok(spawned, "no window of the hourly export completed");
            const { rows } = await parquetUnder(config, `agent-traces/export_id=${spawned.bulk_export_id}/`, ["id", "name", "session_id"]);
            assert.equal(rows.length, 11);
            assert.equal(new Set(rows.map((r) => r.id)).size, 11, "each traced run once");
            assert.deepEqual([...new Set(rows.map((r) => r.name))].sort(), ["answer", "js-agent", "js-lookup", "search_orders", "support-agent"]);
            assert.ok(rows.every((r) => r.session_id === out.projectId));
            await example.pulumi(["destroy", "--yes", "--skip-preview"]);
        } finally {
            example.remove();
        }
    });
    for (const [example, create] of [
        ["yaml-sandbox", createYamlProject],
        ["python-sandbox", createPythonProject],
    ] as const) {
        it(`examples/${example}, which the sandbox names, with the same lines: a deployment through the printed integration id, a project, a destination, a schedule and an export; a clean preview; destroy`, async () => {
            const program = create(example);
            try {
                await paste(
                    program,
                    printed.filter((l) => l.startsWith("pulumi ") || l.startsWith("export PULUMI_")),
                );
                await program.pulumi(["up", "--yes", "--skip-preview"]);
                const out = await program.outputs("emulator");
                assert.equal(out.revisionStatus, "DEPLOYED");
                assert.equal(out.rowsWritten, 7_000, "the whole range, exportStart to exportEnd");
                assert.ok(out.scheduleExportId && out.projectName, JSON.stringify(out));
                const live = await raw({ url: config["langsmith:controlPlaneUrl"] }, "GET", "/v2/deployments?limit=100", auth());
                const made = (live.body as { resources: Array<{ name: string; source_config: { integration_id: string } }> }).resources.find(
                    (d) => d.name === "sandbox-emulator",
                );
                assert.equal(made?.source_config.integration_id, config.integrationId, "the deployment names the printed integration id");
                await program.pulumi(["preview", "--expect-no-changes"]);
                await program.pulumi(["destroy", "--yes", "--skip-preview"]);
            } finally {
                program.remove();
            }
        });
    }
    it("SIGTERM to npx (the process the page's command is) stops the emulator, and MinIO with it, and removes MinIO's temporary data", async () => {
        assert.ok(sandbox, "the sandbox did not start");
        const dataDir = /^MinIO's data: (\S+) /m.exec(sandbox!.stdout())![1];
        assert.ok(existsSync(dataDir));
        process.kill(sandbox!.pid, "SIGTERM");
        assert.ok(await eventually(() => !existsSync(dataDir)), `MinIO's data directory ${dataDir} is still there`);
        const s3Down = await fetch(`${config.s3Endpoint}/minio/health/live`).then(
            () => false,
            () => true,
        );
        assert.ok(s3Down, "MinIO still answers");
        assert.ok(await eventually(() => !alive(sandbox!.pid)));
    });
});
