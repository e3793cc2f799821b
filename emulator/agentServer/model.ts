/**
 * The agent server of each deployed deployment (spec 2.6, 3.2, 4.2; real-service notes 3): threads, runs
 * of a built-in graph, the four multitask strategies, thread state.
 *
 * The built-in graph echoes the text of the run's last input message back, word by word, into one AI
 * message, one word every `stepMs`; so a run stopped half-way leaves real partial output. Like the
 * revision lifecycle, runs progress lazily on the emulator clock: a run is its timestamps (starts at
 * `startAt`, ends at `startAt + words * stepMs`, or was stopped at `stoppedAt`), and every status and every
 * message is computed from them at read time. No timer runs; a request decides atomically (JavaScript
 * runs one handler at a time), so many racing `interrupt` runs on one thread leave exactly one `success`.
 *
 * Strategies when the thread has an unfinished run (pending or running):
 *   - `interrupt`: the unfinished runs stop, kept as `interrupted`, their partial output stays; the new run
 *     starts now and its output is appended (spec 3.2);
 *   - `rollback`: the unfinished runs are deleted with their output (GET answers 404);
 *   - `reject`: 409, the earlier run goes on;
 *   - `enqueue` (the real service's documented default, used when none is sent): the new run waits,
 *     `pending`, until the runs before it end.
 * Threads belong to the deployment and outlive its revisions (as on the platform, whose threads live in
 * the deployment's database); the graph answers for the deployment's active revision.
 *
 * Not emulated: runs ending in `error` or `timeout`, streaming, stateless runs, assistants' CRUD,
 * checkpoints beyond the latest state, interrupts inside a graph (`interrupt_before`/`after`).
 */
import { randomUUID } from "node:crypto";
import { messageText } from "../../provider/api/values";
import { stableUuid } from "../ids";
import type { Clock } from "../clock";
import { EmulatorError, conflict, invalidField } from "../errors";
import type { Store } from "../store";

export const MULTITASK_STRATEGIES = ["reject", "interrupt", "rollback", "enqueue"] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];
export type RunStatus = "pending" | "running" | "success" | "error" | "timeout" | "interrupted";

export interface AgentServerSettings {
    /** Time per echoed word. */
    stepMs: number;
    /** Graph names every deployment serves (the emulator cannot read the repository's graph config). */
    graphs: string[];
    /**
     * Fault switches: the server ignores `interrupt` (treats it as `enqueue`), drops interrupted runs'
     * output, or lists an interrupted run's messages after those of the runs that followed it.
     */
    ignoreInterrupt: boolean;
    dropPartialOutput: boolean;
    reorderMessages: boolean;
}

export const DEFAULT_AGENT_SETTINGS: AgentServerSettings = { stepMs: 150, graphs: ["agent"], ignoreInterrupt: false, dropPartialOutput: false, reorderMessages: false };

interface Message {
    type: "human" | "ai";
    content: string | unknown[];
    id: string;
}

interface StoredRun {
    run_id: string;
    thread_id: string;
    assistant_id: string;
    created_at: number;
    multitask_strategy: MultitaskStrategy;
    metadata: Record<string, unknown>;
    input: Message[];
    words: string[];
    stepMs: number;
    startAt: number;
    stoppedAt?: number;
}

interface StoredThread {
    thread_id: string;
    deployment_id: string;
    created_at: number;
    metadata: Record<string, unknown>;
    runs: StoredRun[];
}

/**
 * What a state directory keeps of the agent servers: the stored records, whole (statuses and messages are
 * computed from their timestamps, so they carry on after a restart). Saved after every request that may
 * change them (index.ts); the settings are not kept (the command line gives them at every start).
 */
export interface AgentServerSnapshot {
    threads: StoredThread[];
}

/** The assistant id of a graph of a deployment: stable, derived from both. */
export function assistantIdOf(deploymentId: string, graph: string): string {
    return stableUuid(`${deploymentId}/${graph}`, "5", "a");
}

export class AgentServerModel {
    settings: AgentServerSettings;
    private threads = new Map<string, StoredThread>();

    constructor(
        private readonly clock: Clock,
        private readonly initial: Partial<AgentServerSettings> = {},
        private readonly store?: Store<AgentServerSnapshot>,
    ) {
        this.settings = { ...DEFAULT_AGENT_SETTINGS, ...initial };
        for (const t of store?.load()?.threads ?? []) this.threads.set(t.thread_id, t);
    }

    /** Writes every thread with its runs to the state directory, if there is one. */
    save(): void {
        this.store?.save({ threads: [...this.threads.values()] });
    }

    reset(): void {
        this.threads.clear();
        this.settings = { ...DEFAULT_AGENT_SETTINGS, ...this.initial };
    }

    // ---- threads ----

    createThread(deploymentId: string, body: { thread_id?: string; metadata?: Record<string, unknown> }): object {
        const now = this.clock.now();
        const t: StoredThread = { thread_id: body.thread_id ?? randomUUID(), deployment_id: deploymentId, created_at: now, metadata: body.metadata ?? {}, runs: [] };
        if (this.threads.has(t.thread_id)) throw conflict(`Thread ${t.thread_id} already exists`);
        this.threads.set(t.thread_id, t);
        return this.threadView(t);
    }

    getThread(deploymentId: string, threadId: string): object {
        return this.threadView(this.thread(deploymentId, threadId));
    }

    state(deploymentId: string, threadId: string): object {
        const t = this.thread(deploymentId, threadId);
        const now = this.clock.now();
        return {
            values: { messages: this.messages(t, now) },
            next: [],
            tasks: [],
            metadata: {},
            created_at: new Date(now).toISOString(),
            checkpoint: { thread_id: t.thread_id, checkpoint_ns: "", checkpoint_id: `${t.thread_id}-${t.runs.length}` },
            parent_checkpoint: null,
        };
    }

    // ---- runs ----

    /** POST /threads/{t}/runs: the strategy decision and the new run, in one synchronous step. */
    createRun(deploymentId: string, threadId: string, body: RunRequest): object {
        const t = this.thread(deploymentId, threadId);
        this.requireAssistant(deploymentId, body.assistant_id);
        const input = inputMessages(body.input);
        const strategy = body.multitask_strategy ?? "enqueue";
        const now = this.clock.now();
        const unfinished = t.runs.filter((r) => ["pending", "running"].includes(this.status(r, now)));
        const effective = strategy === "interrupt" && this.settings.ignoreInterrupt ? "enqueue" : strategy;
        if (unfinished.length && effective === "reject") {
            throw conflict("Thread is already running a task. Wait for it to finish or choose a different multitask strategy.");
        }
        if (unfinished.length && effective === "interrupt") for (const r of unfinished) r.stoppedAt = now;
        if (unfinished.length && effective === "rollback") t.runs = t.runs.filter((r) => !unfinished.includes(r));
        const last = lastText(input);
        const run: StoredRun = {
            run_id: randomUUID(),
            thread_id: t.thread_id,
            assistant_id: body.assistant_id,
            created_at: now,
            multitask_strategy: strategy,
            metadata: body.metadata ?? {},
            input,
            words: last.split(/\s+/).filter(Boolean),
            stepMs: this.settings.stepMs,
            // Set by reschedule: now, or when the runs before it end.
            startAt: Infinity,
        };
        t.runs.push(run);
        this.reschedule(t, now);
        return this.runView(run, now);
    }

    getRun(deploymentId: string, threadId: string, runId: string): object {
        return this.runView(this.run(deploymentId, threadId, runId), this.clock.now());
    }

    /** Resolves when the run is final (every run ends), with the thread's values; a run rolled back meanwhile answers 404. */
    async join(deploymentId: string, threadId: string, runId: string): Promise<object> {
        for (;;) {
            const r = this.run(deploymentId, threadId, runId);
            const now = this.clock.now();
            if (!["pending", "running"].includes(this.status(r, now))) return { messages: this.messages(this.thread(deploymentId, threadId), now) };
            await new Promise((res) => setTimeout(res, Math.max(5, Math.min(50, this.endAt(r) - now))));
        }
    }

    /** POST .../cancel?action=interrupt|rollback: an unfinished run stops (kept) or is deleted. */
    cancelRun(deploymentId: string, threadId: string, runId: string, action: string): void {
        const t = this.thread(deploymentId, threadId);
        const r = this.run(deploymentId, threadId, runId);
        if (!["interrupt", "rollback"].includes(action)) throw invalidField(["query", "action"], "Input should be 'interrupt' or 'rollback'", "enum");
        const now = this.clock.now();
        if (!["pending", "running"].includes(this.status(r, now))) throw conflict(`Run ${runId} is ${this.status(r, now)} and cannot be cancelled`);
        if (action === "rollback") t.runs = t.runs.filter((x) => x !== r);
        else r.stoppedAt = now;
        this.reschedule(t, now);
    }

    // ---- computed from timestamps ----

    private endAt(r: StoredRun): number {
        return r.startAt + r.words.length * r.stepMs;
    }

    status(r: StoredRun, now: number): RunStatus {
        if (r.stoppedAt !== undefined) return "interrupted";
        if (now < r.startAt) return "pending";
        return now < this.endAt(r) ? "running" : "success";
    }

    /** Queued runs start when the run before them ends (or now, when it was stopped). */
    private reschedule(t: StoredThread, now: number): void {
        let free = -Infinity;
        for (const r of t.runs) {
            const started = r.startAt <= now;
            if (!started && r.stoppedAt === undefined) r.startAt = Math.max(now, free, r.created_at);
            free = r.stoppedAt !== undefined ? Math.max(free, Math.min(r.stoppedAt, this.endAt(r))) : Math.max(free, this.endAt(r));
        }
    }

    /** The thread's messages at `now`: each started run's input, then its AI message as far as it got. */
    private messages(t: StoredThread, now: number): Message[] {
        const runs = this.settings.reorderMessages ? [...t.runs.filter((r) => r.stoppedAt === undefined), ...t.runs.filter((r) => r.stoppedAt !== undefined)] : t.runs;
        const out: Message[] = [];
        for (const r of runs) {
            const until = Math.min(now, r.stoppedAt ?? Infinity, this.endAt(r));
            if (r.startAt > now || until < r.startAt) continue;
            out.push(...r.input);
            if (r.stoppedAt !== undefined && this.settings.dropPartialOutput) continue;
            const produced = Math.min(r.words.length, Math.floor((until - r.startAt) / r.stepMs));
            if (produced > 0) out.push({ type: "ai", content: r.words.slice(0, produced).join(" "), id: `ai-${r.run_id}` });
        }
        return out;
    }

    private runView(r: StoredRun, now: number): object {
        const status = this.status(r, now);
        const changed = r.stoppedAt ?? (status === "success" ? this.endAt(r) : status === "running" ? r.startAt : r.created_at);
        return {
            run_id: r.run_id,
            thread_id: r.thread_id,
            assistant_id: r.assistant_id,
            created_at: new Date(r.created_at).toISOString(),
            updated_at: new Date(changed).toISOString(),
            status,
            metadata: r.metadata,
            multitask_strategy: r.multitask_strategy,
            kwargs: {},
        };
    }

    private threadView(t: StoredThread): object {
        const now = this.clock.now();
        const statuses = t.runs.map((r) => this.status(r, now));
        const status = statuses.some((s) => s === "pending" || s === "running") ? "busy" : statuses.at(-1) === "interrupted" ? "interrupted" : "idle";
        return {
            thread_id: t.thread_id,
            created_at: new Date(t.created_at).toISOString(),
            updated_at: new Date(Math.max(t.created_at, ...t.runs.map((r) => r.created_at))).toISOString(),
            metadata: t.metadata,
            status,
            values: { messages: this.messages(t, now) },
        };
    }

    private thread(deploymentId: string, threadId: string): StoredThread {
        const t = this.threads.get(threadId);
        if (!t || t.deployment_id !== deploymentId) throw new EmulatorError(404, { detail: `Thread ${threadId} not found` });
        return t;
    }

    private run(deploymentId: string, threadId: string, runId: string): StoredRun {
        const r = this.thread(deploymentId, threadId).runs.find((x) => x.run_id === runId);
        if (!r) throw new EmulatorError(404, { detail: `Run ${runId} not found` });
        return r;
    }

    /** The graph by name, or by its assistant id. */
    private requireAssistant(deploymentId: string, assistantId: string): void {
        const known = this.settings.graphs.some((g) => g === assistantId || assistantIdOf(deploymentId, g) === assistantId);
        if (!known) {
            throw new EmulatorError(404, { detail: `Assistant ${assistantId} not found (this deployment serves the graph${this.settings.graphs.length > 1 ? "s" : ""} ${this.settings.graphs.join(", ")})` });
        }
    }
}

export interface RunRequest {
    assistant_id: string;
    input?: { messages?: Array<{ role?: string; type?: string; content: string | unknown[] }> } | null;
    multitask_strategy?: MultitaskStrategy | null;
    metadata?: Record<string, unknown> | null;
}

/** Input messages (role `user` or `human`, content a string or content blocks) as thread messages. */
function inputMessages(input: RunRequest["input"]): Message[] {
    const messages = input?.messages ?? [];
    return messages.map((m, i) => {
        const role = m.role ?? m.type;
        if (role !== "user" && role !== "human") {
            throw invalidField(["body", "input", "messages", i, "role"], "Input messages of the built-in graph have role 'user' or 'human'", "value_error");
        }
        return { type: "human", content: m.content, id: randomUUID() };
    });
}

/** The text of the last message: the string, or the text blocks of an array. */
function lastText(messages: Message[]): string {
    return messageText(messages.at(-1)?.content);
}
