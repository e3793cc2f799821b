/**
 * The rows a `DatasetExamples` declares (docs/datasetExamples.md), from a JSONL or CSV file or a list in the program,
 * checked and hashed. A row is `inputs` (required), `outputs`, `metadata`, `split` (a name or a list; `base` when
 * none, as the service has it: docs/service.md R14.4) and optionally `id` (a UUID: the example's id on the service).
 *
 * - **Identity**: what says two rows are the same example: its `id` when given, else its inputs. Two rows of one
 *   identity are refused (which lines). A row whose identity is kept and whose rest changes is an example patched in
 *   place; a row whose inputs change (and has no `id`) is a new example and the old one goes.
 * - **Hashes**: per row, 12 hex characters of SHA-256 of its identity, then 12 of its content (inputs, outputs,
 *   metadata, splits; keys in any order, no outputs and null outputs the same): the state holds these 24 characters
 *   per example, never the data (10,000 examples: 240 KB).
 *
 * A file is read relative to the program's directory (the working directory of the provider's process, the
 * program's own in both front doors), and parsed once per process for its size and modification time.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { sortedJson } from "../../api/tracingApi";
import type { Example } from "../../api/schemas/examples";
import { UUID_RE } from "../../api/values";
import { editDistance, nearest } from "../../kit/spelling";

type Json = Record<string, unknown>;

export interface Row {
    id?: string;
    inputs: Json;
    outputs?: Json;
    metadata?: Json;
    /** Sorted, distinct; `["base"]` when none is given. */
    split: string[];
}

/** A problem with the rows, said at the property (`file`, `examples[2].inputs`) a program fixes. */
export class RowsProblem extends Error {
    constructor(
        readonly property: string,
        message: string,
    ) {
        super(message);
    }
}

const COLUMNS = ["id", "inputs", "outputs", "metadata", "split"];

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const h12 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

/** A row from what a line, a CSV record or a list item holds; `where` names it in a refusal (`line 3`, `examples[2]`). */
export function rowOf(v: unknown, where: string, property: string): Row {
    if (!isObject(v)) throw new RowsProblem(property, `${where} is not an object with \`inputs\``);
    for (const k of Object.keys(v)) {
        if (!COLUMNS.includes(k)) {
            const near = nearest(k, COLUMNS);
            const guess = editDistance(k.toLowerCase(), near) <= 3 ? ` (did you mean \`${near}\`?)` : "";
            throw new RowsProblem(property, `${where} has \`${k}\`, which an example does not have${guess}: ${COLUMNS.join(", ")}`);
        }
    }
    if (!isObject(v.inputs)) throw new RowsProblem(property, `${where} has no \`inputs\` (an object of the example's inputs): every example needs them`);
    for (const k of ["outputs", "metadata"] as const) {
        if (v[k] != null && !isObject(v[k])) throw new RowsProblem(property, `${where}: \`${k}\` must be an object`);
    }
    if (isObject(v.metadata) && "dataset_split" in v.metadata)
        throw new RowsProblem(property, `${where}: give the split as \`split\`, not as the metadata's \`dataset_split\` (the service keeps it there itself)`);
    if (v.id != null && !(typeof v.id === "string" && UUID_RE.test(v.id)))
        throw new RowsProblem(property, `${where}: \`id\` must be a UUID (the example's id on the service)`);
    return {
        ...(v.id ? { id: (v.id as string).toLowerCase() } : {}),
        inputs: v.inputs,
        ...(isObject(v.outputs) ? { outputs: v.outputs } : {}),
        ...(isObject(v.metadata) && Object.keys(v.metadata).length ? { metadata: v.metadata } : {}),
        split: splitOf(v.split, where, property),
    };
}

function splitOf(v: unknown, where: string, property: string): string[] {
    if (v == null || v === "") return ["base"];
    const names = typeof v === "string" ? [v] : v;
    if (!Array.isArray(names) || !names.length || names.some((s) => typeof s !== "string" || s === ""))
        throw new RowsProblem(property, `${where}: \`split\` must be a split's name or a list of them`);
    return [...new Set(names as string[])].sort();
}

/** The identity of a row: its id, else its inputs. */
export const identityOf = (r: Pick<Row, "id" | "inputs">): string => (r.id ? `id:${r.id}` : `in:${sortedJson(r.inputs)}`);

/** The row's 24-character hash: its identity's, then its content's. */
export function hashOf(r: Row): string {
    const content = sortedJson({ inputs: r.inputs, outputs: r.outputs ?? null, metadata: r.metadata ?? {}, split: r.split });
    return h12(identityOf(r)) + h12(content);
}

/** An example the service holds, as a row (its split from `metadata.dataset_split`); `byId`: whether it is known by its id. */
export function rowFromExample(e: Example, byId: boolean): Row {
    const { dataset_split, ...metadata } = e.metadata ?? {};
    return rowOf(
        {
            ...(byId ? { id: e.id } : {}),
            inputs: e.inputs,
            outputs: e.outputs ?? undefined,
            metadata,
            split: Array.isArray(dataset_split) ? dataset_split : undefined,
        },
        `example ${e.id}`,
        "examples",
    );
}

/** The identity hash of an id (what a row given that id has). */
export const idIdentityHash = (id: string): string => h12(`id:${id.toLowerCase()}`);

/** Refuses two rows of one identity, naming both (`in`: where both are, `g.jsonl `). */
export function refuseDuplicates(rows: Row[], whereOf: (i: number) => string, property: string, within = ""): void {
    const seen = new Map<string, number>();
    for (const [i, r] of rows.entries()) {
        const id = identityOf(r);
        const first = seen.get(id);
        if (first !== undefined) {
            const same = r.id ? `the same id as ${whereOf(first)}` : `the same inputs as ${whereOf(first)} (give each an \`id\` to keep both)`;
            throw new RowsProblem(property, `${within}${whereOf(i)} has ${same}: one example each`);
        }
        seen.set(id, i);
    }
}

/** The rows of a JSONL file: one JSON object a line; blank lines skipped. */
export function parseJsonl(text: string, file: string): Row[] {
    const rows: Row[] = [];
    const lines: number[] = [];
    for (const [i, line] of text.split(/\r?\n/).entries()) {
        if (!line.trim()) continue;
        let v: unknown;
        try {
            v = JSON.parse(line);
        } catch (e) {
            throw new RowsProblem("file", `${file} line ${i + 1} is not JSON: ${(e as Error).message}`);
        }
        rows.push(rowOf(v, `${file} line ${i + 1}`, "file"));
        lines.push(i + 1);
    }
    refuseDuplicates(rows, (i) => `line ${lines[i]}`, "file", `${file} `);
    return rows;
}

/** The rows of a CSV file (RFC 4180): a header naming the columns, each cell of `inputs`, `outputs`, `metadata` a JSON object, `split` a name or a JSON list. */
export function parseCsv(text: string, file: string): Row[] {
    const records = csvRecords(text, file);
    if (!records.length) return [];
    const [header, ...body] = records;
    const columns = header.cells.map((c) => c.trim());
    const rows = body.map((rec) => rowOf(csvObject(columns, rec.cells, `${file} line ${rec.line}`), `${file} line ${rec.line}`, "file"));
    refuseDuplicates(rows, (i) => `line ${body[i].line}`, "file", `${file} `);
    return rows;
}

/** A CSV record as a row's object: JSON cells parsed, empty cells absent. */
function csvObject(columns: string[], cells: string[], where: string): Json {
    if (cells.length !== columns.length) throw new RowsProblem("file", `${where} has ${cells.length} cells where the header names ${columns.length} columns`);
    const out: Json = {};
    for (const [i, col] of columns.entries()) {
        const cell = cells[i];
        if (cell === "") continue;
        if (col === "id" || (col === "split" && !cell.trim().startsWith("["))) out[col] = cell.trim();
        else {
            try {
                out[col] = JSON.parse(cell);
            } catch (e) {
                throw new RowsProblem("file", `${where}: the \`${col}\` cell is not JSON: ${(e as Error).message}`);
            }
        }
    }
    return out;
}

/** The records of a CSV text, each with the line it starts on: quoted cells may hold commas, newlines and `""`. */
function csvRecords(text: string, file: string): Array<{ line: number; cells: string[] }> {
    const out: Array<{ line: number; cells: string[] }> = [];
    let cells: string[] = [];
    let cell = "";
    let quoted = false;
    let line = 1;
    let start = 1;
    const endRecord = () => {
        cells.push(cell);
        if (cells.length > 1 || cells[0] !== "") out.push({ line: start, cells });
        cells = [];
        cell = "";
    };
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (ch === "\n") line++;
        if (quoted) {
            if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
            else if (ch === '"') quoted = false;
            else cell += ch;
        } else if (ch === '"' && cell === "") quoted = true;
        else if (ch === ",") cells.push(cell), (cell = "");
        else if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
            if (ch === "\r") i++, line++;
            endRecord();
            start = line;
        } else cell += ch;
    }
    if (quoted) throw new RowsProblem("file", `${file} line ${start}: a quoted cell is not closed`);
    endRecord();
    return out;
}

const parsed = new Map<string, { key: string; rows: Row[] }>();

/** The rows of a file (`.jsonl`/`.ndjson` or `.csv`), read relative to the working directory; parsed once per size and time. */
export function rowsOfFile(file: string): Row[] {
    const path = resolve(file);
    let key: string;
    try {
        const s = statSync(path);
        key = `${s.size}:${s.mtimeMs}`;
    } catch {
        throw new RowsProblem("file", `${file} is not there (looked for ${path}: a path is relative to the program's directory)`);
    }
    const cached = parsed.get(path);
    if (cached?.key === key) return cached.rows;
    const ext = extname(file).toLowerCase();
    const text = readFileSync(path, "utf8");
    let rows: Row[];
    if (ext === ".csv") rows = parseCsv(text, file);
    else if (ext === ".jsonl" || ext === ".ndjson") rows = parseJsonl(text, file);
    else throw new RowsProblem("file", `${file}: name a .jsonl (one JSON object a line) or a .csv file`);
    parsed.set(path, { key, rows });
    return rows;
}

/** The rows of a list in the program. */
export function rowsOfList(list: unknown[]): Row[] {
    const rows = list.map((v, i) => rowOf(v, `examples[${i}]`, `examples[${i}]`));
    refuseDuplicates(rows, (i) => `examples[${i}]`, "examples");
    return rows;
}
