/**
 * Installed like a user outside this repository installs it, run like that (issue 30, part 3): from a release
 * directory only (`npm run release -- --platforms linux-x64`, made here into a temporary directory, or the
 * one PULUMI_LANGSMITH_RELEASE_DIR names, release/ after a whole `npm run release`), a fresh HOME and
 * PULUMI_HOME, a fresh virtualenv of the system's Python, and a PATH with no directory of the checkout
 * (no Node.js of its set-up either): `pulumi plugin install resource langsmith <version> --file <archive>`,
 * `pip install <wheel>`, then examples/python-quickstart up and destroy against the emulator. The plugin
 * runs as the archive's own executable, and no command says it took a plugin from PATH.
 *
 * And this checkout's tests: their plugin comes from the checkout's PULUMI_HOME (scripts/dev-plugin.sh),
 * and a plugin on PATH fails the shared CLI helper (tests/helpers/project.ts).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { CHECKOUT_PULUMI_HOME, createPythonProject, type PulumiProject } from "../helpers/project";
import { archiveName, PLATFORMS, release, version } from "../../scripts/release";

const ROOT = resolve(__dirname, "../..");
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";

/** The directory of the first `name` on this process's PATH. */
const onPath = (name: string): string | undefined => (process.env.PATH ?? "").split(delimiter).find((d) => existsSync(join(d, name)));

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

describe("e2e: the release installed as a user installs it", function () {
    this.timeout(15 * 60_000);
    let em: Emulator;
    let scratch: string;
    let releaseDir: string;

    before(async () => {
        scratch = mkdtempSync(join(tmpdir(), "pulumi-langsmith-install-"));
        releaseDir = process.env.PULUMI_LANGSMITH_RELEASE_DIR ?? join(scratch, "release");
        if (!process.env.PULUMI_LANGSMITH_RELEASE_DIR) await release({ out: releaseDir, platforms: ["linux-x64"] });
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
    });
    after(async () => {
        await em?.close();
        if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it("pulumi plugin install --file <archive>, pip install <wheel> into a fresh virtualenv, a Python program up and destroy: no Node.js, no checkout on PATH", async () => {
        const v = version();
        const archive = join(releaseDir, archiveName(PLATFORMS["linux-x64"], v));
        const wheel = readdirSync(releaseDir).find((f) => f === `pulumi_langsmith-${v}-py3-none-any.whl`);
        assert.ok(existsSync(archive) && wheel, `${releaseDir} holds the linux-amd64 archive and the wheel of ${v}: ${readdirSync(releaseDir)}`);
        // The checksums file names both, with their SHA-256.
        const sums = execFileSync("sha256sum", ["-c", `pulumi-resource-langsmith-v${v}-checksums.txt`], { cwd: releaseDir, encoding: "utf8" });
        assert.match(sums, new RegExp(`${archiveName(PLATFORMS["linux-x64"], v)}: OK`));

        // A user's machine: the Pulumi CLI (with its language hosts beside it) and the system's Python; nothing of the checkout.
        const home = join(scratch, "home");
        const venv = join(scratch, "venv");
        mkdirSync(home);
        // The system's Python where there is one (a user's), else the first python3 on PATH (a venv made from another is fresh all the same).
        execFileSync(existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3", ["-m", "venv", venv]);
        const pulumiPin = /^pulumi==.*$/m.exec(readFileSync(join(ROOT, "scripts/python/requirements.txt"), "utf8"))![0];
        // The Pulumi SDK at the version the language host built here runs (scripts/python/requirements.txt says why).
        execFileSync(join(venv, "bin/pip"), ["install", "--quiet", "--disable-pip-version-check", join(releaseDir, wheel), pulumiPin], { stdio: "inherit" });
        const cliDir = dirname(execFileSync("bash", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim());
        const PATH = [join(venv, "bin"), cliDir, "/usr/local/bin", "/usr/bin", "/bin"].join(delimiter);
        assert.ok(!PATH.split(delimiter).some((d) => d.startsWith(ROOT)), PATH);
        const pulumiHome = join(home, ".pulumi");

        const project: PulumiProject = createPythonProject("python-quickstart");
        project.useEnv({ PATH, HOME: home, PULUMI_HOME: pulumiHome, VIRTUAL_ENV: venv, NODE_OPTIONS: "", PYTHONPATH: "" });
        try {
            await project.pulumi(["plugin", "install", "resource", "langsmith", v, "--file", archive]);
            const plugins = JSON.parse((await project.pulumi(["plugin", "ls", "--json"])).stdout) as Array<{ name: string; version: string }>;
            assert.deepEqual(
                plugins.map((p) => `${p.name} ${p.version}`),
                [`langsmith ${v}`],
            );

            const stack = `installed-${randomUUID().slice(0, 8)}`;
            const workspace = randomUUID();
            await project.initStack(
                stack,
                {
                    "langsmith:controlPlaneUrl": em.url,
                    "langsmith:workspaceId": workspace,
                    "python-quickstart:integrationId": INTEGRATION,
                    "python-quickstart:check": "false",
                },
                { "langsmith:apiKey": API_KEY },
            );
            const seen = new Set<string>();
            const sampler = setInterval(() => {
                for (const exe of pluginExecutables(join(project.dir, ".tmp"))) seen.add(exe);
            }, 100);
            try {
                await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]);
            } finally {
                clearInterval(sampler);
            }
            // The engine ran the archive's executable from the plugin cache: Node.js inside it, none from PATH.
            assert.deepEqual([...seen], [join(pulumiHome, "plugins", `resource-langsmith-v${v}`, "pulumi-resource-langsmith")]);
            const out = await project.outputs(stack);
            assert.match(String(out.revisionId), /^[0-9a-f-]{36}$/);
            assert.equal(em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace).length, 1);

            await project.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
            assert.equal(em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace).length, 0);
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
            rmSync(bin, { recursive: true, force: true });
        }
    });
});
