/**
 * Java programs for the e2e tests, built as a user builds one: sdk/java packaged by Maven (`buildJavaSdk`: the jar
 * and POM the release ships, which the test installs as com.pulumilangsmith:langsmith with the CI recipe's
 * `mvn install:install-file`), then the program's own Maven build; `javac` compiles a control program.
 *
 * The Maven local repository is the test run's own (`mavenRepository`): every group of ~/.m2/repository but
 * com.pulumilangsmith is a link to it, so the artifacts of Maven Central cached there are reused (and those a
 * cold ~/.m2 lacked are copied there at the end: `keepDownloads`), while this checkout's SDK lands in the run's
 * directory only: nothing of it is left in ~/.m2, and another checkout's install on the same machine cannot shadow
 * it (Maven 3.8 has no chained local repositories, `maven.repo.local.tail`, to say that otherwise).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PulumiProject } from "./project";

const ROOT = resolve(__dirname, "../..");

/** The SDK's version: sdk/java/pom.xml's, which scripts/sdk.ts writes from package.json. */
export const JAVA_SDK_VERSION: string = require(join(ROOT, "package.json")).version;

/** What a command printed, and how it ended. */
export interface Ran {
    code: number;
    output: string;
    ms: number;
}

/** Runs `cmd` in `cwd` without blocking the event loop (an emulator in this process keeps answering). */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
    const started = Date.now();
    return new Promise((done) => {
        execFile(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (e, stdout, stderr) => {
            done({ code: e ? (typeof e.code === "number" ? e.code : 1) : 0, output: `${stdout}${stderr}`, ms: Date.now() - started });
        });
    });
}

/** `run`, failing with the command's output when it does. */
async function mustRun(cmd: string, args: string[], cwd: string): Promise<Ran> {
    const r = await run(cmd, args, cwd);
    if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited ${r.code}:\n${r.output}`);
    return r;
}

/** ~/.m2/repository, Maven's default local repository: where Maven Central's artifacts are cached. */
const CENTRAL = join(homedir(), ".m2", "repository");

/** The two levels of the repositories' tree that hold our group, com/pulumilangsmith, and the one below each kept apart. */
const LEVELS: Array<[string, string]> = [
    ["", "com"],
    ["com", "pulumilangsmith"],
];

/**
 * A Maven local repository in `dir` (made): each group of ~/.m2/repository linked, but `com`, made here with
 * its own groups linked but `pulumilangsmith` (ours).
 */
export function mavenRepository(dir: string): string {
    mkdirSync(join(CENTRAL, "com"), { recursive: true });
    for (const [level, but] of LEVELS) {
        mkdirSync(join(dir, level), { recursive: true });
        for (const g of readdirSync(join(CENTRAL, level)))
            if (g !== but && !existsSync(join(dir, level, g))) symlinkSync(join(CENTRAL, level, g), join(dir, level, g));
    }
    return dir;
}

/**
 * What Maven downloaded into the run's repository `dir` that ~/.m2/repository lacked (on a machine whose ~/.m2 was
 * cold, a group of none of its links: `org`, `com`, ...), copied there for the next run; ours is not.
 */
export function keepDownloads(dir: string): void {
    for (const [level, but] of LEVELS) {
        for (const g of readdirSync(join(dir, level), { withFileTypes: true })) {
            if (g.isDirectory() && g.name !== but && !existsSync(join(CENTRAL, level, g.name)))
                cpSync(join(dir, level, g.name), join(CENTRAL, level, g.name), { recursive: true });
        }
    }
}

/** `mvn -q -B <args>` in `cwd` with the local repository `repo`. */
export const mvn = (cwd: string, repo: string, ...args: string[]): Promise<Ran> => mustRun("mvn", ["-q", "-B", `-Dmaven.repo.local=${repo}`, ...args], cwd);

/**
 * sdk/java packaged (`mvn package`), from a copy in `scratch`: two test files building sdk/java/target at once would
 * trip over each other. Its jar and POM are what the release ships (as langsmith-<version>.jar and .pom).
 */
export async function buildJavaSdk(repo: string, scratch: string): Promise<Ran & { jar: string; pom: string }> {
    const copy = join(scratch, "sdk-java");
    cpSync(join(ROOT, "sdk", "java"), copy, { recursive: true, filter: (p) => !p.endsWith("/target") });
    const r = await mvn(copy, repo, "package", "-DskipTests");
    return { ...r, jar: join(copy, "target", `langsmith-${JAVA_SDK_VERSION}.jar`), pom: join(copy, "pom.xml") };
}

/**
 * A temporary copy of the Java program `examples/<example>` (its sources, pom.xml and Pulumi.yaml; no target/),
 * ready for `pulumi stack init`, with its file backend beside it.
 */
export function createJavaProject(example: string): PulumiProject {
    const dir = mkdtempSync(join(tmpdir(), `pulumi-langsmith-${example}-`));
    cpSync(join(ROOT, "examples", example), dir, { recursive: true, filter: (p) => !p.endsWith("/target") });
    mkdirSync(join(dir, ".state"));
    return new PulumiProject(dir, join(dir, ".state"));
}

/** `javac` of `files` into `out` against `classpath`: its exit code and its words (a control's refusal). */
export function javac(classpath: string, out: string, files: string[]): Promise<Ran> {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    return run("javac", ["-cp", classpath, "-d", out, ...files], out);
}
