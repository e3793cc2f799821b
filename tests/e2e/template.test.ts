/**
 * What a new user installs, as docs/programs.md says (the README's TypeScript install line points there), with
 * the real CLI and a full type-check of the program (not the transpile-only mode of the other e2e tests):
 * - the project template (templates/typescript) through `pulumi new`, with the lowest @pulumi/pulumi of the
 *   package's peer range, then `up` (the program type-checked, once), the drift check and `destroy --remove`;
 * - docs/programs.md's install lines for an existing program, run as written (the package's name replaced by the
 *   packed checkout, as before publication), give a program that compiles; without the `typescript` line,
 *   Pulumi's own TypeScript refuses the program's tsconfig (TS6046), which is why the line is there.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { PulumiProject, packPackage } from "../helpers/project";

const ROOT = resolve(__dirname, "../..");
const TEMPLATE = join(ROOT, "templates", "typescript");
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const PEER_RANGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).peerDependencies["@pulumi/pulumi"] as string;

/** `npm <args>` in `dir`; npm's output is returned for the assertion messages. */
async function npm(dir: string, args: string[], loglevel = "error"): Promise<string> {
    const { stdout, stderr } = await promisify(execFile)("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", `--loglevel=${loglevel}`], {
        cwd: dir,
        maxBuffer: 64 << 20,
    });
    return stdout + stderr;
}

/** A project in `dir` with a file backend of its own, type-checking its program on every run. */
function project(dir: string): PulumiProject {
    const p = new PulumiProject(dir, join(dir, ".state"));
    mkdirSync(p.stateDir, { recursive: true });
    return p;
}
const typeChecked = { env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" } };

/** The lines of docs/programs.md's sh block that installs the package into an existing program (the README's section until issue 53). */
function readmeInstallLines(): string[] {
    const readme = readFileSync(join(ROOT, "docs", "programs.md"), "utf8");
    const section = readme.slice(readme.indexOf("In an existing TypeScript program:"));
    const block = /^```sh\n([\s\S]*?)^```/m.exec(section)![1];
    return block.split("\n").filter((l) => l.startsWith("npm install"));
}

describe("e2e: a new user's program: the project template and docs/programs.md's install lines (real CLI, type-checked)", function () {
    this.timeout(6 * 60_000);
    let em: Emulator;
    let dir: string;
    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 } });
        dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-newuser-"));
    });
    after(async () => {
        await em?.close();
        rmSync(dir, { recursive: true, force: true });
    });

    it(`template: pulumi new, then up, the drift check and destroy, with @pulumi/pulumi at the lowest of ${PEER_RANGE}`, async () => {
        const lowest = PEER_RANGE.replace(/^\^/, "");
        const p = project(join(dir, "from-template"));
        await p.pulumi([
            "new",
            TEMPLATE,
            "--generate-only",
            "--yes",
            "--name",
            "support-agent",
            "--description",
            "Our support agent",
            "--dir",
            p.dir,
            "--force",
        ]);
        const pkg = JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8"));
        assert.equal(pkg.name, "support-agent");
        assert.ok(pkg.devDependencies.typescript, "the template's program must carry its TypeScript");
        // Before publication (docs/programs.md): the packed package instead of the registry's; the rest as the template says.
        await npm(p.dir, ["install", packPackage(), `@pulumi/pulumi@${lowest}`]);
        await npm(p.dir, ["install"]);
        assert.equal(JSON.parse(readFileSync(join(p.dir, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version, lowest);

        const workspace = randomUUID();
        await p.initStack(
            "dev",
            {
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:workspaceId": workspace,
                githubIntegrationId: randomUUID(),
                repoUrl: "https://github.com/acme/support-agent",
            },
            { "langsmith:apiKey": API_KEY },
        );
        // Type-checked once, by the one run of the program that makes the stack (the preview of `up` would be a second);
        // the drift check after it transpiles only, as every other e2e command does.
        await p.pulumi(["up", "--yes", "--skip-preview", "--stack", "dev"], typeChecked);
        const [deployment] = em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace);
        assert.equal(deployment.name, "support-agent");
        assert.equal((await p.outputs("dev")).url, deployment.source_config.custom_url);
        // @pulumi/pulumi before 3.251 looks for the package's package.json at the first "pulumi-langsmith" of
        // the path (this test's directory has one), misses, and names the module by its file: the package
        // exports that path too, so the state still holds a require() of the package, not a copy of it.
        const [resource] = (await p.exportStack("dev")).deployment.resources.filter((r: { type: string }) => r.type.endsWith(":Deployment"));
        assert.match(resource.inputs.__provider, /require\("pulumi-langsmith\/(providers\/deployment|dist\/provider\/dynamic\/frozen\/deployment\.js)"\)/);
        await p.pulumi(["preview", "--refresh", "--expect-no-changes", "--stack", "dev"]);
        const destroyed = await p.pulumi(["destroy", "--yes", "--skip-preview", "--remove", "--stack", "dev"]);
        assert.doesNotMatch(destroyed.stdout + destroyed.stderr, /pulumi stack rm/);
        assert.deepEqual(
            em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace),
            [],
        );
    });

    it("docs/programs.md install lines: no deprecated package installed; without the typescript line an existing program does not compile (TS6046); with both it does", async () => {
        const lines = readmeInstallLines();
        assert.deepEqual(
            lines.map((l) => l.split(" ").slice(0, 3).join(" ")),
            ["npm install pulumi-langsmith", "npm install --save-dev"],
        );
        const name = "existing-program";
        const p = project(join(dir, name));
        writeFileSync(join(p.dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
        writeFileSync(join(p.dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }));
        copyFileSync(join(TEMPLATE, "tsconfig.json"), join(p.dir, "tsconfig.json"));
        writeFileSync(join(p.dir, "index.ts"), readFileSync(join(TEMPLATE, "index.ts"), "utf8").replaceAll("${DESCRIPTION}", name));
        const config = {
            "langsmith:controlPlaneUrl": em.url,
            "langsmith:workspaceId": randomUUID(),
            githubIntegrationId: randomUUID(),
            repoUrl: "https://github.com/acme/agent",
        };
        await p.initStack("dev", config, { "langsmith:apiKey": API_KEY });
        const install = (line: string) => npm(p.dir, line.replace("pulumi-langsmith", packPackage()).split(" ").slice(1), "warn");
        const preview = () => p.pulumi(["preview", "--stack", "dev"], { ...typeChecked, allowFailure: true });

        const installed = await install(lines[0]);
        assert.doesNotMatch(installed, /npm warn deprecated/, "a clean install warns of a deprecated package");
        const without = await preview();
        assert.notEqual(without.code, 0);
        assert.match(without.stdout + without.stderr, /error TS6046: Argument for '--target' option must be/);
        await install(lines[1]);
        const ok = await preview();
        assert.equal(ok.code, 0, ok.stdout + ok.stderr);
        assert.match(ok.stdout, /\+ +pulumi-nodejs:dynamic\/langsmith:Deployment +agent +create/);
    });
});
