/**
 * Go programs for the tests: a temporary Go module holding the files a test names (an example's program.go beside
 * the runner of tests/e2e/programs/go-runner, say), the `replace` of its go.mod pointed at this checkout's Go SDK
 * (sdk/go), built with the `go` on PATH, with the module and build caches of the machine (GOMODCACHE, GOCACHE:
 * CI keeps them). Go resolves modules from the go.sum copied in: a build downloads nothing the cache holds.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(__dirname, "../..");
/** The Go SDK's module path (sdk/go/go.mod). */
export const GO_SDK_MODULE = "github.com/pulumi-langsmith/pulumi-langsmith/sdk/go";

/** What a `go` command did. */
export interface GoResult {
    code: number;
    output: string;
    ms: number;
}

/** Runs `go <args>` in `dir`; never throws on a non-zero exit. */
export async function go(dir: string, args: string[]): Promise<GoResult> {
    const started = Date.now();
    try {
        // -trimpath: a package's compile is cached by its content, not its directory, so the Go SDK extracted from an
        // archive into a new directory each run (tests/e2e/go.test.ts) is compiled once, not at every run.
        const env = { ...process.env, GOFLAGS: [process.env.GOFLAGS, "-trimpath"].filter(Boolean).join(" ") };
        const r = await promisify(execFile)("go", args, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 });
        return { code: 0, output: r.stdout + r.stderr, ms: Date.now() - started };
    } catch (e: any) {
        return { code: typeof e.code === "number" ? e.code : 1, output: `${e.stdout ?? ""}${e.stderr ?? e.message}`, ms: Date.now() - started };
    }
}

/** A Go module in a temporary directory, made of the files at the top of each of `sources` (directories or files). */
export class GoModule {
    readonly dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-go-"));

    constructor(...sources: string[]) {
        for (const s of sources.map((s) => resolve(ROOT, s))) {
            const files = s.endsWith(".go") ? [s] : readdirSync(s, { withFileTypes: true }).flatMap((f) => (f.isFile() ? [join(s, f.name)] : []));
            for (const f of files) cpSync(f, join(this.dir, basename(f)));
        }
    }

    /** Points the module's `replace` of the Go SDK at this checkout's sdk/go (its go.mod names it relative to its own place). */
    async useCheckoutSdk(): Promise<void> {
        const r = await go(this.dir, ["mod", "edit", `-replace=${GO_SDK_MODULE}=${join(ROOT, "sdk/go")}`]);
        if (r.code !== 0) throw new Error(`go mod edit: ${r.output}`);
    }

    /** `go build -o <out>`: the binary's path, or the compiler's refusal. */
    async build(out = join(this.dir, "program")): Promise<GoResult & { binary: string }> {
        return { ...(await go(this.dir, ["build", "-o", out, "."])), binary: out };
    }

    remove(): void {
        rmSync(this.dir, { recursive: true, force: true });
    }
}
