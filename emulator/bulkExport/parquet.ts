/**
 * The Parquet files of a bulk export (docs/service.md 2.8, 2.9; R4): one file per batch of runs,
 * the selected fields as columns in the order of docs/service.md 2.8's list, timestamps as INT64 microseconds adjusted
 * to UTC (Spark refuses nanoseconds), and per format version:
 *
 * | fields                                         | `v1`                  | `v2_beta` ("enhanced datatypes")      |
 * |------------------------------------------------|-----------------------|---------------------------------------|
 * | ids, names, statuses, dotted_order, error      | string                | string                                |
 * | start_time, end_time, first_token_time         | timestamp[us, UTC]    | timestamp[us, UTC]                    |
 * | token counts, costs, is_root                   | int64, double, bool   | int64, double, bool                   |
 * | tags, parent_run_ids                           | JSON text             | list<string>                          |
 * | inputs, outputs, extra, events, feedback_stats | JSON text             | JSON text with the JSON logical type  |
 *
 * Compression follows the export's `compression`, which the model always fills (zstandard on the cloud,
 * gzip self-hosted, as the public docs say, when the request names none); snappy for a caller that passes none.
 *
 * The writer is DuckDB (`@duckdb/node-api`, prebuilt binaries as optional dependencies): runs are
 * serialized as they come into a private temporary newline-delimited JSON file, which DuckDB parses, types
 * and writes as Parquet in native code, off the JavaScript thread. It was chosen by measurement against
 * parquet-wasm + apache-arrow, hyparquet-writer and @dsnp/parquetjs (figures in bench/parquet.ts): about
 * twice the rows per second of the next one, because the per-value work happens outside JavaScript.
 *
 * Not emulated: the service's exact column order and any column beyond the exportable fields of docs/service.md 2.8.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { closeSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBInstance } from "@duckdb/node-api";
import { EXPORTABLE_FIELDS, type ExportableField } from "../../provider/api/schemas/bulkExport";

/** Format versions (docs/service.md 2.8): `v1` by default. */
export type FormatVersion = "v1" | "v2_beta";
/** The export's `compression` (docs/service.md R4), as the wire spells it. */
export type Compression = "none" | "gzip" | "snappy" | "zstandard";

/** DuckDB type of each exportable field in v1. */
const V1_TYPES: Record<ExportableField, string> = {
    id: "VARCHAR",
    tenant_id: "VARCHAR",
    session_id: "VARCHAR",
    trace_id: "VARCHAR",
    parent_run_id: "VARCHAR",
    parent_run_ids: "VARCHAR",
    reference_example_id: "VARCHAR",
    name: "VARCHAR",
    run_type: "VARCHAR",
    start_time: "TIMESTAMPTZ",
    end_time: "TIMESTAMPTZ",
    status: "VARCHAR",
    is_root: "BOOLEAN",
    dotted_order: "VARCHAR",
    trace_tier: "VARCHAR",
    inputs: "VARCHAR",
    outputs: "VARCHAR",
    error: "VARCHAR",
    extra: "VARCHAR",
    events: "VARCHAR",
    tags: "VARCHAR",
    feedback_stats: "VARCHAR",
    total_tokens: "BIGINT",
    prompt_tokens: "BIGINT",
    completion_tokens: "BIGINT",
    total_cost: "DOUBLE",
    prompt_cost: "DOUBLE",
    completion_cost: "DOUBLE",
    first_token_time: "TIMESTAMPTZ",
};

/** Where v2_beta types a field better than v1. */
const V2_TYPES: Partial<Record<ExportableField, string>> = {
    parent_run_ids: "VARCHAR[]",
    tags: "VARCHAR[]",
    inputs: "JSON",
    outputs: "JSON",
    extra: "JSON",
    events: "JSON",
    feedback_stats: "JSON",
};

const CODECS: Record<Compression, string> = { none: "uncompressed", gzip: "gzip", snappy: "snappy", zstandard: "zstd" };

/** What one file holds: which fields, in which format version, compressed how. */
export interface ParquetFileOptions {
    /** Default: every exportable field. Written in the order of docs/service.md 2.8's list, whatever the order here. */
    fields?: readonly ExportableField[] | null;
    formatVersion?: FormatVersion | null;
    /** Default `snappy`. */
    compression?: Compression | null;
}

/** The columns of a file and their DuckDB types, in docs/service.md 2.8's order; throws on a field that is not exportable. */
export function parquetColumns(opts: ParquetFileOptions = {}): Array<[ExportableField, string]> {
    const wanted = opts.fields ?? EXPORTABLE_FIELDS;
    for (const f of wanted) if (!(f in V1_TYPES)) throw new RangeError(`not an exportable field: ${f}`);
    const v2 = opts.formatVersion === "v2_beta";
    return EXPORTABLE_FIELDS.filter((f) => wanted.includes(f)).map((f) => [f, (v2 && V2_TYPES[f]) || V1_TYPES[f]]);
}

/** A run as the writer takes it: any of the exportable fields, by wire name. */
export type ExportableRun = Partial<Record<ExportableField, unknown>>;

/** One written file. */
export interface ParquetFile {
    bytes: Uint8Array;
    rows: number;
}

export interface ParquetWriterOptions {
    /**
     * DuckDB worker threads; default 1. Measured on 2 shared cores: one thread converts 200,000 runs in
     * 2.5 s, two in 6.4 s (they fight the JavaScript thread that prepares the next file).
     */
    threads?: number;
    /** DuckDB's memory limit; default `256MB`. */
    memoryLimit?: string;
    /** Where the private temporary directory goes; default the OS's. */
    tempRoot?: string;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** The NDJSON of a file is written in chunks of about this many characters. */
const CHUNK = 1 << 20;

/**
 * Writes Parquet files of runs (see the top of this file). Open once, then per file either `write(runs)`
 * or `begin()` + `add(run)`... + `finish()`; each file converts on its own DuckDB connection, so files may
 * be finished concurrently, and the JavaScript thread can fill the next file while DuckDB converts one.
 */
export class ParquetWriter {
    private counter = 0;
    private constructor(
        private readonly db: DuckDBInstance,
        private readonly dir: string,
    ) {}

    /** Starts DuckDB (loaded only here: the provider never pays for it) and makes the temporary directory. */
    static async open(opts: ParquetWriterOptions = {}): Promise<ParquetWriter> {
        const { DuckDBInstance } = await import("@duckdb/node-api");
        const dir = await mkdtemp(join(opts.tempRoot ?? tmpdir(), "langsmith-parquet-"));
        const db = await DuckDBInstance.create(":memory:", {
            threads: String(opts.threads ?? 1),
            memory_limit: opts.memoryLimit ?? "256MB",
            // Never reach the network for an extension: json and parquet are built in.
            autoinstall_known_extensions: "false",
        });
        return new ParquetWriter(db, dir);
    }

    /** The private directory of the temporary files (empty between files). */
    get tempDir(): string {
        return this.dir;
    }

    /** Starts one file; throws at once on a field that is not exportable or an unknown compression. */
    begin(opts: ParquetFileOptions = {}): ParquetFileBuilder {
        const columns = parquetColumns(opts);
        const codec = CODECS[opts.compression ?? "snappy"];
        if (!codec) throw new RangeError(`unknown compression ${opts.compression}`);
        const base = join(this.dir, `${++this.counter}-${randomBytes(4).toString("hex")}`);
        return new ParquetFileBuilder(this.db, base, columns, codec);
    }

    /** One Parquet file of these runs. */
    async write(runs: Iterable<ExportableRun>, opts: ParquetFileOptions = {}): Promise<ParquetFile> {
        const file = this.begin(opts);
        try {
            for (const run of runs) file.add(run);
        } catch (e) {
            await file.abort();
            throw e;
        }
        return file.finish();
    }

    /** Stops DuckDB and removes the temporary directory. */
    async close(): Promise<void> {
        this.db.closeSync();
        await rm(this.dir, { recursive: true, force: true });
    }
}

/**
 * One Parquet file being filled: runs are serialized as they are added (so a batch of run objects never
 * sits in memory) into a newline-delimited JSON file, which `finish` has DuckDB convert.
 */
export class ParquetFileBuilder {
    private fd: number | undefined;
    private pending = "";
    private count = 0;
    private readonly all: boolean;

    constructor(
        private readonly db: DuckDBInstance,
        private readonly base: string,
        private readonly columns: Array<[ExportableField, string]>,
        private readonly codec: string,
    ) {
        this.all = columns.length === EXPORTABLE_FIELDS.length;
    }

    /** Rows added so far. */
    get rows(): number {
        return this.count;
    }

    /** Adds one run (objects carrying exportable fields by wire name; timestamps ISO; JSON fields as values). */
    add(run: ExportableRun): void {
        // With every field selected, the run itself (DuckDB ignores keys it is not asked for); otherwise
        // only the selected fields, so a narrow export does not serialize inputs and outputs.
        let line: string;
        if (this.all) line = JSON.stringify(run);
        else {
            const picked: Record<string, unknown> = {};
            for (const [f] of this.columns) picked[f] = run[f];
            line = JSON.stringify(picked);
        }
        this.pending += line + "\n";
        this.count++;
        if (this.pending.length >= CHUNK) this.flush();
    }

    private flush(): void {
        this.fd ??= openSync(`${this.base}.ndjson`, "w");
        writeSync(this.fd, this.pending);
        this.pending = "";
    }

    /** Converts what was added into Parquet and returns the file's bytes; removes the temporary files. */
    async finish(): Promise<ParquetFile> {
        const input = `${this.base}.ndjson`;
        const output = `${this.base}.parquet`;
        const con = await this.db.connect();
        try {
            this.flush();
            closeSync(this.fd!);
            this.fd = undefined;
            // JSON fields are read as DuckDB's JSON type (their text is kept as it is, cheaper than
            // re-serializing a parsed object) and, in v1, written as plain strings.
            const read = this.columns.map(([f, t]) => `${f}: ${quote(t === "VARCHAR" && JSON_FIELDS.has(f) ? "JSON" : t)}`).join(", ");
            const select = this.columns.map(([f, t]) => (t === "VARCHAR" && JSON_FIELDS.has(f) ? `"${f}"::VARCHAR AS "${f}"` : `"${f}"`)).join(", ");
            await con.run(
                `COPY (SELECT ${select} FROM read_json(${quote(input)}, format = 'newline_delimited', columns = {${read}})) ` +
                    `TO ${quote(output)} (FORMAT parquet, COMPRESSION ${this.codec})`,
            );
            return { bytes: await readFile(output), rows: this.count };
        } finally {
            con.closeSync();
            await rm(input, { force: true });
            await rm(output, { force: true });
        }
    }

    /** Drops the file without converting it. */
    async abort(): Promise<void> {
        if (this.fd !== undefined) closeSync(this.fd);
        this.fd = undefined;
        await rm(`${this.base}.ndjson`, { force: true });
    }
}

/** Fields whose values are JSON objects or lists. */
const JSON_FIELDS = new Set<ExportableField>(["parent_run_ids", "inputs", "outputs", "extra", "events", "tags", "feedback_stats"]);
