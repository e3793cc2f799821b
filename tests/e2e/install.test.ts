/**
 * Installed as a user outside this repository installs it, run like that (issue 30, part 3; issue 53, item 6): a
 * release made here (`npm run release -- --platforms linux-x64 --plugin-download-url <url>`) into a directory served
 * over HTTP on 127.0.0.1 at <url>, as a release's files are hosted; then, per language, a user's machine: a fresh HOME
 * and PULUMI_HOME outside the checkout and a PATH with no directory of it (the Pulumi CLI and its language hosts, the
 * machine's Python, Node.js, Go and Maven, with their package caches, which are a user's own), and a program run
 * against the emulator, `up`, the drift check (`preview --refresh --expect-no-changes`) and `destroy`:
 *
 *  - Python: the wheel in a fresh virtualenv and no plugin installed: a plain `pulumi up` of examples/python-quickstart
 *    fetches the plugin by itself from the schema's pluginDownloadURL, which the release wrote into the SDKs (the
 *    engine asks `<url>/pulumi-resource-langsmith-v<v>-linux-amd64.tar.gz`: CLI v3.259.0, workspace/plugins.go), and
 *    runs the archive's executable, no Node.js on PATH; `pulumi package get-schema langsmith` prints the release's schema;
 *  - a tampered archive is refused by the checks there are: `sha256sum -c` of the release's checksums file, and
 *    `pulumi plugin install --checksum` (the engine checks no checksum when it fetches a plugin by itself: no language
 *    host reports one, and pulumi-plugin.json has no field for it);
 *  - `pulumi plugin install resource langsmith <v> --file <archive>` and `pulumi package add langsmith@<v>`, in the home
 *    the Go and Java programs then use;
 *  - TypeScript: examples/quickstart with the npm tarball (dynamic resources: no plugin);
 *  - Go: examples/go-quickstart (its exports into MinIO) with the module archive and a `replace` line, built once
 *    beside tests/e2e/go.test.ts's runner, its program run inline through the Automation API (the Go module proxy
 *    refuses Pulumi's Go language host: docs/testing.md);
 *  - Java: examples/java-quickstart with the jar and POM installed by `mvn install:install-file` into the
 *    program's own Maven repository (the machine's ~/.m2 read as a remote one, never written), built and run by the
 *    Java language host (`mvn compile exec:java`).
 *
 * And this checkout's tests: their plugin comes from the checkout's PULUMI_HOME (scripts/dev-plugin.sh),
 * and a plugin on PATH fails the shared CLI helper (tests/helpers/project.ts).
 */
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
    copyFileSync,
    createReadStream,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    readdirSync,
    readlinkSync,
    rmSync,
    statSync,
    writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir, userInfo } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { GO_SDK_MODULE, GoModule } from "../helpers/go";
import { createJavaProject } from "../helpers/java";
import { startMinio, type MinioServer } from "../helpers/minio";
import { CHECKOUT_PULUMI_HOME, createPythonProject, createYamlProject, type PulumiProject } from "../helpers/project";
import { archiveName, checksumsName, goModuleName, PLATFORMS, release, version } from "../../scripts/release";
import { SCHEMA_PATH } from "../../scripts/schema";

const ROOT = resolve(__dirname, "../..");
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";
const V = version();
const ARCHIVE = archiveName(PLATFORMS["linux-x64"], V);

/** The directory of the first `name` on this process's PATH. */
const onPath = (name: string): string | undefined => (process.env.PATH ?? "").split(delimiter).find((d) => existsSync(join(d, name)));
const dirOf = (command: string): string => dirname(execFileSync("bash", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim());

/** The executables (their /proc/<pid>/exe) of the running processes whose command line names the plugin and that run under `tmp` (a project's TMPDIR). */
function pluginExecutables(tmp: string): string[] {
    const out: string[] = [];
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
        try {
            if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pulumi-resource-langsmith")) continue;
            if (readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`TMPDIR=${tmp}`)) out.push(readlinkSync(`/proc/${pid}/exe`));
        } catch {
            // gone meanwhile
        }
    }
    return out;
}

/** Where a release's files are hosted: `root` served over HTTP on 127.0.0.1 (with a Content-Length, which the CLI requires), and every path asked. */
async function serve(root: string): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
    const asked: string[] = [];
    const server = createServer((req, res) => {
        const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
        asked.push(path);
        const file = join(root, path);
        if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
            res.writeHead(404).end();
            return;
        }
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
        createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((r) => server.close(() => r())) };
}

/** A user's machine: a fresh HOME (its PULUMI_HOME inside), PATH `dirs` then the system's, the machine's Go and npm caches. */
function userMachine(home: string, dirs: string[]): { env: NodeJS.ProcessEnv; pulumiHome: string } {
    mkdirSync(home, { recursive: true });
    const PATH = [...dirs, dirOf("pulumi"), "/usr/local/bin", "/usr/bin", "/bin"].join(delimiter);
    assert.ok(!PATH.split(delimiter).some((d) => d.startsWith(ROOT)), PATH);
    const pulumiHome = join(home, ".pulumi");
    const caches = {
        GOMODCACHE: execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim(),
        GOCACHE: execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim(),
    };
    const npmCache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
    // A user's CLI fetches a missing plugin by itself (scripts/env.sh turns that off for the checkout's tests).
    const fetches = { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false" };
    return {
        env: {
            PATH,
            HOME: home,
            PULUMI_HOME: pulumiHome,
            NODE_OPTIONS: "",
            PYTHONPATH: "",
            VIRTUAL_ENV: "",
            npm_config_cache: npmCache,
            ...caches,
            ...fetches,
        },
        pulumiHome,
    };
}

/** The deployments the emulator holds in `workspace`. */
const deploymentsIn = (em: Emulator, workspace: string): number => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace).length;

/** The settings the Go and Java quickstarts share (`project` is their namespace): a GitHub deployment, exports into MinIO. */
function quickstartConfig(project: string, em: Emulator, minio: MinioServer): Record<string, string> {
    return {
        "langsmith:endpoint": em.url,
        [`${project}:integrationId`]: INTEGRATION,
        [`${project}:openaiApiKey`]: `sk-${randomUUID()}`,
        [`${project}:bucket`]: "exports",
        [`${project}:s3Endpoint`]: minio.endpoint,
        [`${project}:s3AccessKeyId`]: minio.users.writeDelete.accessKeyId,
        [`${project}:s3SecretAccessKey`]: minio.users.writeDelete.secretAccessKey,
    };
}

/** A stack of `project` against the emulator, in a workspace of its own: its name and workspace. */
async function emulatorStack(project: PulumiProject, em: Emulator, config: Record<string, string> = {}): Promise<{ stack: string; workspace: string }> {
    const stack = `installed-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    await project.initStack(stack, { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": workspace, ...config }, { "langsmith:apiKey": API_KEY });
    return { stack, workspace };
}

/** The CLI's commands of a program run by the engine (Python, TypeScript, Java): `up`, the drift check, `destroy`, the emulator's deployments checked after each. */
async function upDriftDestroy(project: PulumiProject, em: Emulator, s: { stack: string; workspace: string }): Promise<void> {
    await project.pulumi(["up", "--yes", "--skip-preview", "--stack", s.stack]);
    assert.match(String((await project.outputs(s.stack)).revisionId), /^[0-9a-f-]{36}$/);
    assert.equal(deploymentsIn(em, s.workspace), 1);
    await project.pulumi(["preview", "--refresh", "--expect-no-changes", "--diff", "--stack", s.stack]);
    await project.pulumi(["destroy", "--yes", "--skip-preview", "--stack", s.stack]);
    assert.equal(deploymentsIn(em, s.workspace), 0);
}

describe("e2e: the release installed as a user installs it", function () {
    this.timeout(15 * 60_000);
    let em: Emulator;
    let scratch: string;
    let host: Awaited<ReturnType<typeof serve>>;
    let releaseDir: string;
    /** Where the release says its plugin archives are (its pluginDownloadURL). */
    let downloadUrl: string;
    /** The machine of `pulumi plugin install --file`, which the Go and Java programs use. */
    let installed: ReturnType<typeof userMachine>;
    /** The bucket server of the Go and Java quickstarts' exports. */
    let minio: MinioServer;

    before(async () => {
        scratch = mkdtempSync(join(tmpdir(), "pulumi-langsmith-install-"));
        host = await serve(join(scratch, "www"));
        downloadUrl = `${host.url}/releases/v${V}`;
        releaseDir = join(scratch, "www", "releases", `v${V}`);
        await release({ out: releaseDir, platforms: ["linux-x64"], pluginDownloadURL: downloadUrl });
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
        minio = await startMinio();
        installed = userMachine(join(scratch, "installed"), [dirOf("go"), dirOf("mvn"), dirOf("java")]);
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
        await host?.close();
        if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it("the release directory: every artifact at the plugin's version, each in the checksums file", () => {
        const files = [
            ARCHIVE,
            `pulumi_langsmith-${V}-py3-none-any.whl`,
            `pulumi-langsmith-${V}.tgz`,
            `${goModuleName(V)}.tar.gz`,
            `langsmith-${V}.jar`,
            `langsmith-${V}.pom`,
        ];
        const sums = execFileSync("sha256sum", ["-c", checksumsName(V)], { cwd: releaseDir, encoding: "utf8" });
        for (const f of files) assert.match(sums, new RegExp(`^${f.replace(/\./g, "\\.")}: OK$`, "m"));
        // The Go module archive holds the module in its one top directory.
        const listed = execFileSync("tar", ["-tzf", join(releaseDir, `${goModuleName(V)}.tar.gz`)], { encoding: "utf8" })
            .trim()
            .split("\n");
        assert.ok(listed.includes(`${goModuleName(V)}/go.mod`) && listed.every((p) => p.startsWith(`${goModuleName(V)}/`)), listed.slice(0, 5).join("\n"));
    });

    it("Python: with no plugin installed, a plain `pulumi up` fetches it from the release's pluginDownloadURL; get-schema; the drift check; destroy", async () => {
        const home = join(scratch, "python");
        const venv = join(home, "venv");
        const machine = userMachine(home, [join(venv, "bin")]);
        // The system's Python where there is one (a user's), else the first python3 on PATH (a venv made from another is fresh all the same).
        execFileSync(existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3", ["-m", "venv", venv]);
        const pulumiPin = /^pulumi==.*$/m.exec(readFileSync(join(ROOT, "scripts/python/requirements.txt"), "utf8"))![0];
        // The Pulumi SDK at the version the language host built here runs (scripts/python/requirements.txt says why).
        const wheel = join(releaseDir, `pulumi_langsmith-${V}-py3-none-any.whl`);
        execFileSync(join(venv, "bin/pip"), ["install", "--quiet", "--disable-pip-version-check", wheel, pulumiPin], { stdio: "inherit" });

        const project = createPythonProject("python-quickstart");
        project.useEnv({ ...machine.env, VIRTUAL_ENV: venv });
        try {
            assert.deepEqual(JSON.parse((await project.pulumi(["plugin", "ls", "--json"])).stdout), []);
            const s = await emulatorStack(project, em, { "python-quickstart:integrationId": INTEGRATION, "python-quickstart:check": "false" });
            const seen = new Set<string>();
            const sampler = setInterval(() => {
                for (const exe of pluginExecutables(join(project.dir, ".tmp"))) seen.add(exe);
            }, 100);
            try {
                await upDriftDestroy(project, em, s);
            } finally {
                clearInterval(sampler);
            }
            // The engine fetched the archive from where the release said, and ran its executable from the plugin cache.
            assert.ok(host.asked.includes(`/releases/v${V}/${ARCHIVE}`), host.asked.join("\n"));
            assert.deepEqual([...seen], [join(machine.pulumiHome, "plugins", `resource-langsmith-v${V}`, "pulumi-resource-langsmith")]);
            // The plugin's schema is the checked-in one with the release's pluginDownloadURL (the CLI prints it as it reads it:
            // an empty `inputs` comes back as `{}`, every map sorted: so what is compared is what a user and a generator go by).
            type Schema = { name: string; version: string; pluginDownloadURL: string; resources: object; functions: object };
            const summary = (x: Schema) => ({
                name: x.name,
                version: x.version,
                pluginDownloadURL: x.pluginDownloadURL,
                resources: Object.keys(x.resources).sort(),
                functions: Object.keys(x.functions).sort(),
            });
            const printed = JSON.parse((await project.pulumi(["package", "get-schema", "langsmith"])).stdout) as Schema;
            const expected = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Schema;
            assert.deepEqual(summary(printed), summary({ ...expected, pluginDownloadURL: downloadUrl }));
        } finally {
            project.remove();
        }
    });

    it("a tampered archive: refused by `sha256sum -c` of the checksums file and by `pulumi plugin install --checksum`", async () => {
        const tampered = join(scratch, "www", "tampered");
        mkdirSync(tampered);
        const bytes = readFileSync(join(releaseDir, ARCHIVE));
        bytes[bytes.length >> 1] ^= 0xff;
        writeFileSync(join(tampered, ARCHIVE), bytes);
        copyFileSync(join(releaseDir, checksumsName(V)), join(tampered, checksumsName(V)));
        // What a user runs on what they downloaded (README): the archive's line FAILS.
        const check = (() => {
            try {
                return {
                    code: 0,
                    out: execFileSync("sha256sum", ["--ignore-missing", "-c", checksumsName(V)], { cwd: tampered, encoding: "utf8", stdio: "pipe" }),
                };
            } catch (e) {
                return { code: 1, out: `${(e as { stdout: string }).stdout}${(e as { stderr: string }).stderr}` };
            }
        })();
        assert.equal(check.code, 1);
        assert.match(check.out, new RegExp(`${ARCHIVE.replace(/\./g, "\\.")}: FAILED`));

        const sha = new RegExp(`^([0-9a-f]{64})  ${ARCHIVE.replace(/\./g, "\\.")}$`, "m").exec(readFileSync(join(releaseDir, checksumsName(V)), "utf8"))![1];
        const machine = userMachine(join(scratch, "tampered-home"), []);
        const project = createYamlProject("yaml-quickstart");
        project.useEnv(machine.env);
        try {
            const install = (server: string) =>
                project.pulumi(["plugin", "install", "resource", "langsmith", V, "--server", server, "--checksum", sha], { allowFailure: true });
            const refused = await install(`${host.url}/tampered`);
            assert.notEqual(refused.code, 0);
            assert.match(
                refused.stderr,
                new RegExp(`failed to download plugin: langsmith-${V}: invalid checksum, expected ${sha}, actual (?!${sha})[0-9a-f]{64}`),
            );
            // The CLI (v3.259.0) refuses the genuine archive too: its checksum reader leaves out the bytes of the read that
            // returns io.EOF, which Go's HTTP client does with the last bytes of a body of known length (and the CLI refuses
            // a body of unknown length). So `--checksum` cannot be used with an http(s) source: the README says sha256sum -c.
            // When this fails, the CLI was fixed: the README can give `--checksum` again.
            const genuine = await install(downloadUrl);
            assert.match(genuine.stderr, new RegExp(`invalid checksum, expected ${sha}, actual (?!${sha})`));
            assert.deepEqual(JSON.parse((await project.pulumi(["plugin", "ls", "--json"])).stdout), []);
        } finally {
            project.remove();
        }
    });

    it("`pulumi plugin install resource langsmith <v> --file <archive>` and `pulumi package add langsmith@<v>` in a clean home", async () => {
        const project = createYamlProject("yaml-quickstart");
        project.useEnv(installed.env);
        try {
            await project.pulumi(["plugin", "install", "resource", "langsmith", V, "--file", join(releaseDir, ARCHIVE)]);
            const plugins = JSON.parse((await project.pulumi(["plugin", "ls", "--json"])).stdout) as Array<{ name: string; version: string }>;
            assert.deepEqual(
                plugins.map((p) => `${p.name} ${p.version}`),
                [`langsmith ${V}`],
            );
            // The SDK of the project's language, from the installed plugin's schema: for YAML, the package's lock file.
            const added = await project.pulumi(["package", "add", `langsmith@${V}`], { allowFailure: true });
            assert.match(added.stdout + added.stderr, /Successfully generated an SDK for the langsmith package/);
            // Recording it in Pulumi.yaml is the language host's Link, which the YAML host here (v1.25.0) has not; a user's CLI
            // ships one that has.
            if (added.code !== 0) assert.match(added.stderr, /linking package: method Link not implemented/);
            const lock = readFileSync(join(project.dir, "sdks", "langsmith", `langsmith-${V}.yaml`), "utf8");
            assert.match(lock, new RegExp(`^name: langsmith\\nversion: ${V.replace(/\./g, "\\.")}\\ndownloadUrl: ${downloadUrl}$`, "m"));
        } finally {
            project.remove();
        }
    });

    it("TypeScript: examples/quickstart with the npm tarball: up, the drift check, destroy", async () => {
        const machine = userMachine(join(scratch, "node"), [dirOf("node")]);
        const project = createYamlProject("quickstart");
        project.useEnv(machine.env);
        try {
            // Its package.json names the tarball; its lock file, which names the checkout, goes.
            rmSync(join(project.dir, "package-lock.json"));
            const pkg = JSON.parse(readFileSync(join(ROOT, "examples/quickstart/package.json"), "utf8"));
            pkg.dependencies["pulumi-langsmith"] = `file:${join(releaseDir, `pulumi-langsmith-${V}.tgz`)}`;
            writeFileSync(join(project.dir, "package.json"), JSON.stringify(pkg, null, 2));
            execFileSync("npm", ["install", "--prefer-offline", "--omit=optional", "--no-audit", "--no-fund", "--loglevel=error"], {
                cwd: project.dir,
                env: { ...process.env, ...machine.env },
                stdio: "inherit",
            });
            await upDriftDestroy(project, em, await emulatorStack(project, em));
        } finally {
            project.remove();
        }
    });

    it("Go: examples/go-quickstart with the module archive and a replace line, inline through the Automation API: up, the drift check, destroy", async () => {
        const project = createYamlProject("go-quickstart");
        project.useEnv(installed.env);
        // The example's program beside the runner of tests/e2e/go.test.ts, its go.mod naming the release's module.
        const runner = new GoModule("tests/e2e/programs/go-runner", "examples/go-quickstart/program.go");
        const env = { ...project.env, PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true" };
        try {
            execFileSync("tar", ["-xzf", join(releaseDir, `${goModuleName(V)}.tar.gz`)], { cwd: runner.dir });
            execFileSync("go", ["mod", "edit", `-replace=${GO_SDK_MODULE}=./${goModuleName(V)}`], { cwd: runner.dir, env });
            const built = await runner.build();
            assert.equal(built.code, 0, built.output);
            const s = await emulatorStack(project, em, {
                ...quickstartConfig("go-quickstart", em, minio),
                "go-quickstart:exportStart": new Date(Date.now() - 20 * 3_600_000).toISOString(),
            });
            // Asynchronously: the emulator answers from this process.
            const run = async (command: string) => {
                const r = await promisify(execFile)(built.binary, [command, s.stack], { cwd: project.dir, env, maxBuffer: 16 << 20 }).catch(
                    (e: { stdout?: string; stderr?: string }) => assert.fail(`runner ${command}: ${e.stdout ?? ""}${e.stderr ?? ""}`),
                );
                project.transcript.push(`$ runner ${command} ${s.stack}`, r.stdout, r.stderr);
            };
            await run("up");
            assert.match(String((await project.outputs(s.stack)).revisionId), /^[0-9a-f-]{36}$/);
            assert.equal(deploymentsIn(em, s.workspace), 1);
            await run("drift");
            await run("destroy");
            assert.equal(deploymentsIn(em, s.workspace), 0);
        } finally {
            runner.remove();
            project.remove();
        }
    });

    it("Java: examples/java-quickstart with the jar and POM (mvn install:install-file), through the Java host: up, the drift check, destroy", async () => {
        const project = createJavaProject("java-quickstart");
        project.useEnv(installed.env);
        try {
            // The program's own Maven repository, fed by the machine's (~/.m2 of the user Java runs as, read as a remote repository).
            const machineRepo = `file://${join(userInfo().homedir, ".m2/repository")}`;
            const settings = join(scratch, "maven-settings.xml");
            writeFileSync(
                settings,
                `<settings><profiles><profile><id>machine</id>` +
                    `<repositories><repository><id>machine</id><url>${machineRepo}</url></repository></repositories>` +
                    `<pluginRepositories><pluginRepository><id>machine</id><url>${machineRepo}</url></pluginRepository></pluginRepositories>` +
                    `</profile></profiles><activeProfiles><activeProfile>machine</activeProfile></activeProfiles></settings>`,
            );
            mkdirSync(join(project.dir, ".mvn"), { recursive: true });
            writeFileSync(join(project.dir, ".mvn/maven.config"), `-s ${settings} -Dmaven.repo.local=${join(scratch, "installed", "m2")}\n`);
            const mvn = (args: string[]) => execFileSync("mvn", ["-q", "-B", ...args], { cwd: project.dir, env: project.env, stdio: "inherit" });
            mvn(["install:install-file", `-Dfile=${join(releaseDir, `langsmith-${V}.jar`)}`, `-DpomFile=${join(releaseDir, `langsmith-${V}.pom`)}`]);
            await upDriftDestroy(project, em, await emulatorStack(project, em, quickstartConfig("java-quickstart", em, minio)));
        } finally {
            project.remove();
        }
    });
});

describe("e2e: this checkout's tests take its plugin from its own PULUMI_HOME", function () {
    this.timeout(5 * 60_000);

    it("the plugin is installed in the checkout's PULUMI_HOME, and no directory on PATH holds one", async () => {
        assert.equal(onPath("pulumi-resource-langsmith"), undefined);
        const project = createPythonProject("python-quickstart");
        try {
            const plugins = JSON.parse((await project.pulumi(["plugin", "ls", "--json"])).stdout) as Array<{ name: string; version: string }>;
            assert.ok(
                plugins.some((p) => p.name === "langsmith" && p.version === version()),
                JSON.stringify(plugins),
            );
            const installed = readFileSync(join(CHECKOUT_PULUMI_HOME, "plugins", `resource-langsmith-v${version()}`, "pulumi-resource-langsmith"), "utf8");
            assert.ok(installed.includes(join(ROOT, "dist/provider/plugin/main.js")), installed);
        } finally {
            project.remove();
        }
    });

    it("a plugin found on PATH fails the CLI helper (the engine's `using ... from $PATH` warning)", async () => {
        const bin = mkdtempSync(join(tmpdir(), "plugin-on-path-"));
        const project = createPythonProject("python-quickstart");
        try {
            copyFileSync(
                join(CHECKOUT_PULUMI_HOME, "plugins", `resource-langsmith-v${version()}`, "pulumi-resource-langsmith"),
                join(bin, "pulumi-resource-langsmith"),
            );
            execFileSync("chmod", ["755", join(bin, "pulumi-resource-langsmith")]);
            project.useEnv({ PATH: `${bin}${delimiter}${process.env.PATH}` });
            await project.initStack("on-path", {
                "langsmith:controlPlaneUrl": "http://127.0.0.1:9",
                "langsmith:workspaceId": randomUUID(),
                "python-quickstart:integrationId": INTEGRATION,
            });
            await assert.rejects(
                project.pulumi(["preview", "--stack", "on-path"], { allowFailure: true }),
                /took a plugin from PATH[\s\S]*pulumi-resource-langsmith from \$PATH/,
            );
        } finally {
            project.remove();
        }
    });
});
