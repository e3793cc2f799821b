/**
 * The independent reader of what the emulator writes: runs tests/helpers/read_parquet.py with the pyarrow
 * of the virtualenv made by scripts/setup-python.sh (`PULUMI_LANGSMITH_PYTHON`, set by scripts/env.sh)
 * and returns what pyarrow saw, so a test never checks our Parquet with our own code.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** One column as pyarrow reads it: the Arrow type (`timestamp[us, tz=UTC]`) and the Parquet types. */
export interface ParquetColumn {
    arrow: string;
    nullable: boolean;
    physical: string | null;
    logical: string | null;
    /** The codec of the column in the first row group (`SNAPPY`, `ZSTD`, `UNCOMPRESSED`...). */
    compression: string | null;
}

/** What pyarrow read from one Parquet file; timestamps in `rows` are ISO strings with microseconds. */
export interface ParquetContents {
    schema: string;
    numRows: number;
    numRowGroups: number;
    columns: Record<string, ParquetColumn>;
    rows: Array<Record<string, unknown>>;
}

/** The venv's Python; a clear error when the set-up script has not made it. */
export function pythonPath(): string {
    const p = process.env.PULUMI_LANGSMITH_PYTHON;
    if (!p) throw new Error("PULUMI_LANGSMITH_PYTHON is not set: source scripts/env.sh and run scripts/setup-python.sh");
    return p;
}

/**
 * Runs a driver of the official Python client (a `*_client.py` beside the tests) with the venv's Python, and answers
 * each call's result by the call's name: the driver prints one `{"call": ..., "result": ...}` line per call.
 */
export async function pythonCalls(script: string, args: string[]): Promise<Map<string, any>> {
    const { stdout } = await run(pythonPath(), [script, ...args], { maxBuffer: 16 * 1024 * 1024 });
    const calls = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { call: string; result: unknown });
    return new Map(calls.map((c) => [c.call, c.result]));
}

/**
 * Reads a Parquet file (a path, or the bytes of one) with pyarrow. `rows` limits how many rows come back
 * (default all); `columns` reads only those. Rejects with pyarrow's own message when it cannot read the file.
 */
export async function readParquet(file: string | Uint8Array, opts: { rows?: number; columns?: string[] } = {}): Promise<ParquetContents> {
    let dir: string | undefined;
    let path = file as string;
    if (typeof file !== "string") {
        dir = await mkdtemp(join(tmpdir(), "pq-read-"));
        path = join(dir, "file.parquet");
        await writeFile(path, file);
    }
    try {
        const script = join(__dirname, "read_parquet.py");
        const { stdout } = await run(
            pythonPath(),
            [script, path, "--rows", String(opts.rows ?? -1), ...(opts.columns ? ["--columns", opts.columns.join(",")] : [])],
            { maxBuffer: 1 << 30 },
        );
        return JSON.parse(stdout) as ParquetContents;
    } catch (e) {
        const err = e as Error & { stderr?: string };
        throw new Error(`pyarrow could not read ${path}: ${(err.stderr || err.message).trim()}`);
    } finally {
        if (dir) await rm(dir, { recursive: true, force: true });
    }
}
