/**
 * The runs traced into the emulator (by the official clients, or anything speaking their wire: wire.ts),
 * filed under their tracing project, merged by id, and kept in `--state-dir`.
 *
 * - **Merged by id.** A run's operations may come in any order and more than once (the JS client sends five
 *   uploads at once, so a patch can overtake its post; a retried upload repeats them): a patch sets the
 *   fields it carries and leaves the others, a post only fills those the run does not hold yet (it is the
 *   run's start, whenever it arrives), so the run holds the union and is stored once. A patch of a run not
 *   seen yet that names no project waits, unexported, for the post that does.
 * - **Per project, in arrival order.** Each project's runs are a list in the order they were first seen;
 *   an export reads them in that order, so its resume cursor (a count) stays valid as runs keep coming.
 * - **On disk.** Each request's operations are appended to `traced-runs.jsonl` (one line each, the project
 *   already resolved) and replayed on start, a few megabytes at a time: read as one string, the log
 *   pushed the start of an emulator holding 100,000 runs over 500 MB (bench/tracedRuns.ts), and V8 refuses
 *   a string over 512 MB (some 240,000 runs of 2 KB). A line cut short by a kill is skipped (and ended, so
 *   the next append starts a line of its own). A deleted project appends a line that drops its runs.
 *
 * - **Retention.** A run's retention (retention.ts) is set when it is first filed (`retentionAt`, recorded on that
 *   log line, so a restart keeps it whatever the settings say by then), and changed only for a whole project
 *   (`retier`: settings applied to every existing project).
 *
 * Not emulated: run deletion, attachments. Retention hides expired runs from what reads them (retention.ts) and
 * deletes nothing here.
 */
import { appendFileSync, closeSync, existsSync, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Retention } from "./retention";
import type { RunFields, RunOp } from "./wire";

/** A traced run as the emulator holds it. */
export interface TracedRun extends RunFields {
    id: string;
    tenant_id: string;
    session_id: string;
}

/**
 * One line of the log: an operation filed under its project (absent: waiting for its post; `r`: the retention of
 * the run it files first), a project dropped, or a project's runs given another retention.
 */
type OpLine = { t: string; s?: string; op: RunOp; r?: Retention };
type LogLine = OpLine | { drop: string } | { retier: string; r: Retention };

const LOG_FILE = "traced-runs.jsonl";
/** Bytes of the log read at a time on start. */
const REPLAY_CHUNK = 4 << 20;

/**
 * A run's fields after an operation: a patch sets the fields it carries; a post, the run's start, only
 * those the run does not hold yet, so a post arriving after its patch (overtaken, or a retried upload)
 * does not undo it (Python's post of a running run carries `outputs: {}` and `events: []`).
 */
const combined = (held: RunFields | undefined, op: RunOp): RunFields => (op.kind === "post" ? { ...op.fields, ...held } : { ...held, ...op.fields });

export class TracedRuns {
    private readonly runs = new Map<string, TracedRun>();
    /** Patches of runs not seen yet, by tenant and id. */
    private readonly waiting = new Map<string, RunFields>();
    private readonly byProject = new Map<string, TracedRun[]>();
    /** Each run's retention, by tenant and id (none for a run of a log written before it was kept). */
    private readonly retention = new Map<string, Retention>();
    private readonly file: string | undefined;
    /** The retention of a run first filed now into a project (the model's: bulkExport/model.ts `retentionNow`). */
    retentionAt: (tenantId: string, sessionId: string) => Retention | undefined = () => undefined;

    constructor(stateDir: string | undefined) {
        this.file = stateDir ? join(stateDir, LOG_FILE) : undefined;
        // A last line cut short by a kill: end it, or the next append would join it and be lost with it.
        if (this.file && existsSync(this.file) && this.replay(this.file)) appendFileSync(this.file, "\n");
    }

    /**
     * Applies one request's operations. `projectOf` names the project a run is filed under the first time
     * it is seen with a project (it makes one on first use of a name); undefined: it waits for its post.
     * Every run's project is resolved before any is merged, so a request refused by `projectOf` (a project
     * id the workspace does not have) keeps none of its runs.
     */
    apply(tenantId: string, ops: RunOp[], projectOf: (op: RunOp) => string | undefined): void {
        const filed = new Map<string, string>();
        const lines = ops.map((op): OpLine => {
            const named = op.kind === "post" || op.session.id || op.session.name;
            const held = this.runs.get(`${tenantId}/${op.id}`)?.session_id ?? filed.get(op.id);
            const sessionId = held ?? (named ? projectOf(op) : undefined);
            if (sessionId) filed.set(op.id, sessionId);
            const r = !held && sessionId ? this.retentionAt(tenantId, sessionId) : undefined;
            return { t: tenantId, ...(sessionId ? { s: sessionId } : {}), op, ...(r ? { r } : {}) };
        });
        for (const line of lines) this.merge(line.t, line.s, line.op, line.r);
        if (this.file && lines.length) appendFileSync(this.file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    }

    private merge(tenantId: string, sessionId: string | undefined, op: RunOp, r?: Retention): void {
        const key = `${tenantId}/${op.id}`;
        const run = this.runs.get(key);
        if (run) {
            Object.assign(run, combined(run, op));
            return;
        }
        if (!sessionId) {
            this.waiting.set(key, combined(this.waiting.get(key), op));
            return;
        }
        const made: TracedRun = { ...combined(this.waiting.get(key), op), id: op.id, tenant_id: tenantId, session_id: sessionId };
        this.waiting.delete(key);
        this.runs.set(key, made);
        if (r) this.retention.set(key, r);
        const list = this.byProject.get(sessionId) ?? [];
        if (!list.length) this.byProject.set(sessionId, list);
        list.push(made);
    }

    /** A run by id, as the workspace sees it. */
    get(tenantId: string, id: string): TracedRun | undefined {
        return this.runs.get(`${tenantId}/${id}`);
    }

    /** A run's retention, as set when it was first written (or by `retier` since); undefined for a run of an older log. */
    retentionOf(run: TracedRun): Retention | undefined {
        return this.retention.get(`${run.tenant_id}/${run.id}`);
    }

    /** Gives every run of a project the retention `r` (settings applied to every existing project). */
    retier(sessionId: string, r: Retention): void {
        this.retierInMemory(sessionId, r);
        if (this.file)
            appendFileSync(
                this.file,
                `${JSON.stringify({ retier: sessionId, r } satisfies LogLine)}
`,
            );
    }

    private retierInMemory(sessionId: string, r: Retention): void {
        for (const run of this.byProject.get(sessionId) ?? []) this.retention.set(`${run.tenant_id}/${run.id}`, r);
    }

    /** The project's runs, in the order they were first seen. */
    of(sessionId: string): readonly TracedRun[] {
        return this.byProject.get(sessionId) ?? [];
    }

    /** Forgets a deleted project's runs. */
    dropProject(sessionId: string): void {
        this.dropFromMemory(sessionId);
        if (this.file) appendFileSync(this.file, `${JSON.stringify({ drop: sessionId } satisfies LogLine)}\n`);
    }

    reset(): void {
        this.runs.clear();
        this.waiting.clear();
        this.byProject.clear();
        this.retention.clear();
        if (this.file) writeFileSync(this.file, "");
    }

    /** Replays the log; answers whether its last line was cut short (no newline at its end). */
    private replay(file: string): boolean {
        const fd = openSync(file, "r");
        const chunk = Buffer.alloc(REPLAY_CHUNK);
        let rest = Buffer.alloc(0);
        try {
            for (let read: number; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
                const data = Buffer.concat([rest, chunk.subarray(0, read)]);
                const end = data.lastIndexOf(0x0a) + 1;
                for (const line of data.toString("utf8", 0, end).split("\n")) this.replayLine(line);
                rest = data.subarray(end);
            }
            this.replayLine(rest.toString("utf8"));
            return rest.length > 0;
        } finally {
            closeSync(fd);
        }
    }

    private replayLine(line: string): void {
        if (!line) return;
        let entry: LogLine;
        try {
            entry = JSON.parse(line) as LogLine;
        } catch {
            return; // the last line of a log whose writer was killed mid-line
        }
        if ("drop" in entry) this.dropFromMemory(entry.drop);
        else if ("retier" in entry) this.retierInMemory(entry.retier, entry.r);
        else this.merge(entry.t, entry.s, entry.op, entry.r);
    }

    private dropFromMemory(sessionId: string): void {
        for (const run of this.byProject.get(sessionId) ?? []) {
            this.runs.delete(`${run.tenant_id}/${run.id}`);
            this.retention.delete(`${run.tenant_id}/${run.id}`);
        }
        this.byProject.delete(sessionId);
    }
}
