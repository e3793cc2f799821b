/**
 * `npm run bench [name ...]`: figures, not pass/fail. Each benchmark prints its own table; with names, only
 * those run. `npm run bench -- --help` lists them (BENCHES below, each with its file); a module is loaded
 * only when its benchmark runs. Those that use the test tools (MinIO, the Python toolchain) have them built
 * first, as `npm test` does (scripts/setup-test-tools.sh; a second when they are there).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

interface Bench {
    /** One line for --help: what it measures. */
    about: string;
    run: () => Promise<void>;
    /** Uses MinIO or the Python toolchain (scripts/setup-test-tools.sh). */
    tools?: true;
}

/** Every benchmark, in the order `npm run bench` runs them. */
const BENCHES: Record<string, Bench> = {
    polling: {
        about: "waiting for DEPLOYED: lag and API calls, ours vs fixed 5 s and 60 s (bench/polling.ts)",
        run: async () => (await import("./polling")).pollingBench(),
    },
    bytes: {
        about: "serialized __provider per resource (bench/providerSize.ts)",
        run: async () => (await import("./providerSize")).providerSizeBench(),
    },
    ratelimit: {
        about: "30 creates at once through 30 s of 429s (bench/rateLimit.ts)",
        run: async () => (await import("./rateLimit")).rateLimitBench(),
    },
    parquet: {
        tools: true,
        about: "bulk export: 1 million generated runs as Parquet into MinIO, rows/s and peak RSS (bench/parquet.ts)",
        run: async () => (await import("./parquet")).parquetBench(),
    },
    export: {
        tools: true,
        about: "the emulator's bulk export over HTTP, 1 million runs into MinIO: rows/s, peak RSS (bench/emulatorExport.ts)",
        run: async () => (await import("./emulatorExport")).emulatorExportBench(),
    },
    preview: {
        tools: true,
        about: "pulumi preview of 50 scheduled exports: wall time and API calls (bench/previewExports.ts)",
        run: async () => (await import("./previewExports")).previewExportsBench(),
    },
    agent: {
        about: "agent servers under 100 threads and 100 streamed runs (SDK vs plain HTTP); what AgentServerCheck adds to up (bench/agentServer.ts)",
        run: async () => (await import("./agentServer")).agentServerBench(),
    },
    native: {
        tools: true,
        about: "100 Deployments through the native plugin (Python) and the dynamic resources: wall time, state bytes, memory (bench/native.ts)",
        run: async () => (await import("./native")).nativeBench(),
    },
    scale: {
        tools: true,
        about: "one stack of 100 and 1,000 mixed resources through the native plugin and, in the same run, through a provider that does nothing: preview, up, refresh, destroy, with and without checkpoints; wall time and its ratio to that floor, CPU by process, API calls, plugin peak RSS, state bytes per resource, growth (bench/scale.ts; BENCH_SCALE_SIZES)",
        run: async () => (await import("./scale")).scaleBench(),
    },
    chaos: {
        tools: true,
        about: "300 mixed resources through the native plugin with the emulator answering 5 % of requests 503 or 429 and losing 1 % of create answers: failures by kind and whether each names its fix, ups to converge, duplicates and orphans (bench/chaos.ts; BENCH_CHAOS_UNITS, BENCH_CHAOS_SEED)",
        run: async () => (await import("./chaos")).chaosBench(),
    },
    state: {
        about: "--state-dir: snapshot size and time per change with 1,000 deployments, 1,000 threads (bench/stateDir.ts)",
        run: async () => (await import("./stateDir")).stateDirBench(),
    },
    traced: {
        tools: true,
        about: "runs traced by the official clients: 10,000 ingested (Python zstd and plain, JS), their bulk export beside generated runs, the emulator's memory with 100,000 stored and its restart (bench/tracedRuns.ts)",
        run: async () => (await import("./tracedRuns")).tracedRunsBench(),
    },
    examples: {
        tools: true,
        about: "a DatasetExamples of 10,000 examples of 2 KB from a file: the first up, 100 rows changed, unchanged; wall time, requests, writes, state bytes; beside the official Python client's create_examples (bench/datasetExamples.ts; BENCH_EXAMPLES)",
        run: async () => (await import("./datasetExamples")).datasetExamplesBench(),
    },
    rules: {
        about: "run rules on ingestion: runs per second into a project with ten rules beside one with none (bench/ruleEngine.ts; BENCH_RULES_N)",
        run: async () => (await import("./ruleEngine")).ruleEngineBench(),
    },
};

/** What --help prints: the command, then each benchmark with what it measures (wrapped at 100 columns). */
function usage(): string {
    const width = Math.max(...Object.keys(BENCHES).map((n) => n.length));
    const lines = Object.entries(BENCHES).map(([name, b]) => wrap(`  ${name.padEnd(width)}  `, b.about, 100));
    return `usage: npm run bench [name ...]

Benchmarks: figures, not pass/fail. Each prints its own table; with no name every one runs (in this order,
a long while), with names only those (npm run bench polling).

${lines.join("\n")}

  -h, --help  print this help and exit
`;
}

/** `text` after `head`, its words wrapped at `columns`, the next lines indented as far as `head`. */
function wrap(head: string, text: string, columns: number): string {
    const lines = [head];
    for (const word of text.split(" ")) {
        const last = lines[lines.length - 1];
        if (last.trim() && last.length + 1 + word.length > columns) lines.push(" ".repeat(head.length) + word);
        else lines[lines.length - 1] = last + (last.endsWith(" ") ? "" : " ") + word;
    }
    return lines.join("\n");
}

/** The benchmarks named on the command line (all of them if none); prints the usage and exits on --help (0) or an unknown name (2). */
function readArgs(argv: string[]): string[] {
    if (argv.includes("--help") || argv.includes("-h")) {
        process.stdout.write(usage());
        process.exit(0);
    }
    const unknown = argv.find((a) => !Object.hasOwn(BENCHES, a));
    if (unknown !== undefined) {
        const what = unknown.startsWith("-") ? "option" : "benchmark";
        process.stderr.write(`npm run bench: unknown ${what} ${unknown}\n\n${usage()}`);
        process.exit(2);
    }
    return argv.length ? argv : Object.keys(BENCHES);
}

async function main() {
    const names = readArgs(process.argv.slice(2));
    if (names.some((n) => BENCHES[n].tools)) execFileSync("bash", [join(__dirname, "..", "scripts", "setup-test-tools.sh")], { stdio: "inherit" });
    for (const [name, bench] of Object.entries(BENCHES)) if (names.includes(name)) await bench.run();
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
