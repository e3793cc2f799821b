/**
 * The agent server of each deployed deployment (docs/service.md 2.6, 3.2, 4.2; R3): threads, runs
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
 *     starts now and its output is appended (docs/service.md 3.2);
 *   - `rollback`: the unfinished runs are deleted with their output (GET answers 404);
 *   - `reject`: 409, the earlier run goes on;
 *   - `enqueue` (the real service's documented default, used when none is sent): the new run waits,
 *     `pending`, until the runs before it end.
 * Threads belong to the deployment and outlive its revisions (as on the platform, whose threads live in
 * the deployment's database); the graph answers for the deployment's active revision.
 *
 * Every way a run starts (background, `wait`, `stream`, stateless, a cron's fire) goes through `startRun`,
 * so the same multitask rules hold for each. A stateless run (`POST /runs/wait`, `/runs/stream`) runs on a
 * thread of its own that no client sees (the real server deletes it when the run ends). A run names an
 * assistant (by id, or a served graph's name for its system assistant: assistants.ts) and records its id; the
 * thread's metadata gets `graph_id` and `assistant_id` when a run starts on it, as on the server. Streams are
 * in stream.ts, assistants and their versions in assistants.ts, crons in crons.ts.
 *
 * Each request to a deployment's server first calls `sync`: the objects of deployments no longer served are
 * forgotten (a deployment deleted loses them; a new one starts empty), the system assistants are registered
 * for the active revision, the crons' due fires are made, and the finished threads of stateless cron fires
 * are dropped.
 *
 * Not emulated: runs ending in `error` or `timeout`, checkpoints beyond the latest state, interrupts inside
 * a graph (`interrupt_before`/`after`), webhooks, the store, run deletion, a graph's schemas and drawing.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../core/clock";
import { EmulatorError, conflict, invalidField } from "../core/errors";
import type { Store } from "../core/store";
import { Assistants, jsonContains, type AssistantsSnapshot, type StoredAssistant } from "./assistants";
import { Crons, type StoredCron } from "./crons";
import { inputMessages, lastText, type Message, type MultitaskStrategy, type RunRequest } from "./input";
import { DEFAULT_AGENT_SETTINGS, type AgentServerSettings } from "./settings";

export { MULTITASK_STRATEGIES, type Message, type MultitaskStrategy, type RunRequest } from "./input";
export { DEFAULT_AGENT_SETTINGS, type AgentServerSettings } from "./settings";

export type RunStatus = "pending" | "running" | "success" | "error" | "timeout" | "interrupted";

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
    /** The thread of a stateless run: not answered by GET or search. */
    temporary?: boolean;
    /** A stateless cron fire's thread (`on_run_completed: delete`): dropped once its run is final. */
    dropWhenDone?: boolean;
}

/** Where a run is now, for its stream: its status, its answer's words and how many it has produced. */
export interface RunProgress {
    status: RunStatus;
    words: string[];
    produced: number;
    /** Time until its next step, its start or its next word, on the emulator clock (Infinity once it is final). */
    nextInMs: number;
    input: Message[];
    aiId: string;
    /** The thread's messages now. */
    messages: Message[];
}

/**
 * What a state directory keeps of the agent servers: the stored records, whole (statuses and messages are
 * computed from their timestamps, crons fire from their `next_at`, so they carry on after a restart). Saved
 * by every method that changes them; the settings are not kept (the command line gives them at every start).
 */
export interface AgentServerSnapshot extends Partial<AssistantsSnapshot> {
    threads: StoredThread[];
    crons?: StoredCron[];
}

/** A deployment whose agent server answers: what `sync` needs of it. */
export interface ServedDeployment {
    id: string;
    created_at: string;
    active_revision_id?: string | null;
}

export class AgentServerModel {
    settings: AgentServerSettings;
    private threads = new Map<string, StoredThread>();
    readonly assistants: Assistants;
    readonly crons: Crons;

    constructor(
        private readonly clock: Clock,
        private readonly initial: Partial<AgentServerSettings> = {},
        private readonly store?: Store<AgentServerSnapshot>,
    ) {
        this.settings = { ...DEFAULT_AGENT_SETTINGS, ...initial };
        this.assistants = new Assistants(clock, () => this.settings.graphs);
        this.crons = new Crons(clock, this);
        const saved = store?.load();
        for (const t of saved?.threads ?? []) this.threads.set(t.thread_id, t);
        this.assistants.load(saved);
        this.crons.load(saved?.crons);
    }

    /** Writes every thread with its runs, the assistants and the crons to the state directory, if there is one. */
    save(): void {
        this.store?.save({ threads: [...this.threads.values()], ...this.assistants.snapshot(), crons: this.crons.snapshot() });
    }

    reset(): void {
        this.threads.clear();
        this.assistants.load(undefined);
        this.crons.load(undefined);
        this.settings = { ...DEFAULT_AGENT_SETTINGS, ...this.initial };
        this.save();
    }

    /** Changes settings; the scheduler switched back on fires each overdue cron once. */
    updateSettings(change: Partial<AgentServerSettings>): AgentServerSettings {
        const wasPaused = this.settings.cronsPaused;
        this.settings = { ...this.settings, ...change };
        if (wasPaused && !this.settings.cronsPaused) this.crons.resume(this.clock.now());
        this.save();
        return this.settings;
    }

    /**
     * What happens at the start of every request to a deployment's server (see the top of this file): gone
     * deployments forgotten, system assistants registered, due cron fires made, finished cron threads dropped.
     */
    sync(d: ServedDeployment, isServed: (deploymentId: string) => boolean): void {
        const now = this.clock.now();
        let changed = this.forgetGone(isServed);
        changed = this.assistants.register(d.id, d.active_revision_id ?? "", Date.parse(d.created_at)) || changed;
        changed = this.crons.fireDue(d.id, now) || changed;
        for (const t of this.threads.values()) {
            if (t.dropWhenDone && t.runs.every((r) => !["pending", "running"].includes(this.status(r, now)))) {
                this.threads.delete(t.thread_id);
                changed = true;
            }
        }
        if (changed) this.save();
    }

    /** Forgets (and saves) the objects of the deployments no longer served. */
    sweep(isServed: (deploymentId: string) => boolean): void {
        if (this.forgetGone(isServed)) this.save();
    }

    /** Forgets every object of the deployments no longer served; answers whether there were any. */
    private forgetGone(isServed: (deploymentId: string) => boolean): boolean {
        const ids = new Set([...this.assistants.deploymentIds(), ...this.crons.deploymentIds(), ...[...this.threads.values()].map((t) => t.deployment_id)]);
        const gone = [...ids].filter((id) => !isServed(id));
        for (const id of gone) {
            this.assistants.forget(id);
            this.crons.forget(id);
            for (const t of this.threads.values()) if (t.deployment_id === id) this.threads.delete(t.thread_id);
        }
        return gone.length > 0;
    }

    // ---- threads ----

    createThread(deploymentId: string, body: { thread_id?: string; metadata?: Record<string, unknown> }): object {
        const now = this.clock.now();
        const t: StoredThread = {
            thread_id: body.thread_id ?? randomUUID(),
            deployment_id: deploymentId,
            created_at: now,
            metadata: body.metadata ?? {},
            runs: [],
        };
        if (this.threads.has(t.thread_id)) throw conflict(`Thread ${t.thread_id} already exists`);
        this.threads.set(t.thread_id, t);
        this.save();
        return this.threadView(t);
    }

    getThread(deploymentId: string, threadId: string): object {
        return this.threadView(this.visibleThread(deploymentId, threadId));
    }

    /** POST /threads/search: by metadata, ids, status and values (each an exact match), sorted, paged. */
    searchThreads(deploymentId: string, q: ThreadSearch): object[] {
        const views = [...this.threads.values()]
            .filter((t) => t.deployment_id === deploymentId && !t.temporary && (!q.ids || q.ids.includes(t.thread_id)))
            .map((t) => this.threadView(t))
            .filter((v) => (!q.status || v.status === q.status) && jsonContains(v.metadata, q.metadata) && jsonContains(v.values, q.values));
        const key = q.sort_by ?? "created_at";
        const order = q.sort_order === "asc" ? 1 : -1;
        // Ties keep creation order, reversed for `desc`: the newest first.
        const sorted = views.map((v, i) => ({ v, i })).sort((a, b) => (a.v[key] < b.v[key] ? -order : a.v[key] > b.v[key] ? order : (a.i - b.i) * order));
        return sorted.map((x) => x.v).slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 10));
    }

    state(deploymentId: string, threadId: string): object {
        const t = this.visibleThread(deploymentId, threadId);
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

    /**
     * Starts a run on the thread, or, without one, on a thread of its own (a stateless run): the strategy
     * decision and the new run, in one synchronous step. Answers the run.
     */
    createRun(deploymentId: string, threadId: string | undefined, body: RunRequest): RunView {
        const run = this.startRun(deploymentId, threadId, body, this.clock.now());
        this.save();
        return run;
    }

    /**
     * `createRun` at instant `now` (a cron's scheduled fire), without saving. `stateless`: what becomes of a
     * new thread: `deleted` (hidden, dropped when done: a stateless cron's default) or `kept` (listed).
     */
    startRun(deploymentId: string, threadId: string | undefined, body: RunRequest, now: number, stateless?: "kept" | "deleted"): RunView {
        const assistant = this.requireAssistant(deploymentId, body.assistant_id);
        const input = inputMessages(body.input);
        const t = threadId === undefined ? this.newThread(deploymentId, now, stateless) : this.visibleThread(deploymentId, threadId);
        const strategy = body.multitask_strategy ?? "enqueue";
        const unfinished = t.runs.filter((r) => ["pending", "running"].includes(this.status(r, now)));
        const effective = strategy === "interrupt" && this.settings.ignoreInterrupt ? "enqueue" : strategy;
        if (unfinished.length && effective === "reject") {
            throw conflict("Thread is already running a task. Wait for it to finish or choose a different multitask strategy.");
        }
        if (unfinished.length && effective === "interrupt") for (const r of unfinished) r.stoppedAt = now;
        if (unfinished.length && effective === "rollback") t.runs = t.runs.filter((r) => !unfinished.includes(r));
        // The server marks a thread with the assistant of the run that starts on it while it is not busy.
        if (!unfinished.length) t.metadata = { ...t.metadata, graph_id: assistant.graph_id, assistant_id: assistant.assistant_id };
        if (!t.runs.length && threadId === undefined) t.metadata = { ...t.metadata, ...(body.metadata ?? {}) };
        const last = lastText(input);
        const run: StoredRun = {
            run_id: randomUUID(),
            thread_id: t.thread_id,
            assistant_id: assistant.assistant_id,
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

    /** GET /threads/{t}/runs: the newest first, by status, paged. */
    listRuns(deploymentId: string, threadId: string, q: { limit: number; offset: number; status?: string }): object[] {
        const now = this.clock.now();
        const runs = [...this.visibleThread(deploymentId, threadId).runs].reverse().map((r) => this.runView(r, now));
        return runs.filter((r) => !q.status || r.status === q.status).slice(q.offset, q.offset + q.limit);
    }

    /** Where the run is now; undefined once it is gone (rolled back). */
    progress(deploymentId: string, threadId: string, runId: string): RunProgress | undefined {
        const r = this.thread(deploymentId, threadId).runs.find((x) => x.run_id === runId);
        if (!r) return undefined;
        const now = this.clock.now();
        const status = this.status(r, now);
        const until = Math.min(now, r.stoppedAt ?? Infinity, this.endAt(r));
        const produced = status === "pending" ? 0 : Math.min(r.words.length, Math.floor((until - r.startAt) / r.stepMs));
        const nextAt = status === "pending" ? r.startAt : status === "running" ? r.startAt + (produced + 1) * r.stepMs : Infinity;
        return {
            status,
            words: r.words,
            produced,
            nextInMs: nextAt - now,
            input: r.input,
            aiId: aiIdOf(r),
            messages: this.messages(this.thread(deploymentId, threadId), now),
        };
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
        this.save();
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
        const runs = this.settings.reorderMessages
            ? [...t.runs.filter((r) => r.stoppedAt === undefined), ...t.runs.filter((r) => r.stoppedAt !== undefined)]
            : t.runs;
        const out: Message[] = [];
        for (const r of runs) {
            const until = Math.min(now, r.stoppedAt ?? Infinity, this.endAt(r));
            if (r.startAt > now || until < r.startAt) continue;
            out.push(...r.input);
            if (r.stoppedAt !== undefined && this.settings.dropPartialOutput) continue;
            const produced = Math.min(r.words.length, Math.floor((until - r.startAt) / r.stepMs));
            if (produced > 0) out.push({ type: "ai", content: r.words.slice(0, produced).join(" "), id: aiIdOf(r) });
        }
        return out;
    }

    private runView(r: StoredRun, now: number): RunView {
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

    private threadView(t: StoredThread): ThreadView {
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

    /** A thread clients may address: a stateless run's thread is not one. */
    private visibleThread(deploymentId: string, threadId: string): StoredThread {
        const t = this.thread(deploymentId, threadId);
        if (t.temporary) throw new EmulatorError(404, { detail: `Thread ${threadId} not found` });
        return t;
    }

    /** A stateless run's thread: hidden (a run's own, or a stateless cron fire's to drop when done) or kept. */
    private newThread(deploymentId: string, now: number, stateless?: "kept" | "deleted"): StoredThread {
        const t: StoredThread = { thread_id: randomUUID(), deployment_id: deploymentId, created_at: now, metadata: {}, runs: [] };
        if (stateless !== "kept") t.temporary = true;
        if (stateless === "deleted") t.dropWhenDone = true;
        this.threads.set(t.thread_id, t);
        return t;
    }

    /** Whether a thread clients may address exists (a cron's thread must). */
    hasThread(deploymentId: string, threadId: string): boolean {
        const t = this.threads.get(threadId);
        return !!t && t.deployment_id === deploymentId && !t.temporary;
    }

    /** DELETE /threads/{id}: the thread, its runs and its crons (the server cascades). */
    deleteThread(deploymentId: string, threadId: string): void {
        if (!this.hasThread(deploymentId, threadId)) throw new EmulatorError(404, { detail: `Thread with ID ${threadId} not found` });
        this.threads.delete(threadId);
        this.crons.removeWhere(deploymentId, { thread_id: threadId });
        this.save();
    }

    /**
     * DELETE /assistants/{id}: the assistant with its versions and crons; its unfinished runs stop (as
     * `interrupt`); with `deleteThreads`, the threads whose metadata names it go too.
     */
    deleteAssistant(deploymentId: string, assistantId: string, deleteThreads: boolean): void {
        this.assistants.delete(deploymentId, assistantId);
        const now = this.clock.now();
        for (const t of [...this.threads.values()].filter((x) => x.deployment_id === deploymentId)) {
            if (deleteThreads && !t.temporary && t.metadata.assistant_id === assistantId) {
                this.threads.delete(t.thread_id);
                this.crons.removeWhere(deploymentId, { thread_id: t.thread_id });
                continue;
            }
            const stopped = t.runs.filter((r) => r.assistant_id === assistantId && ["pending", "running"].includes(this.status(r, now)));
            for (const r of stopped) r.stoppedAt = now;
            if (stopped.length) this.reschedule(t, now);
        }
        this.crons.removeWhere(deploymentId, { assistant_id: assistantId });
        this.save();
    }

    private run(deploymentId: string, threadId: string, runId: string): StoredRun {
        const r = this.thread(deploymentId, threadId).runs.find((x) => x.run_id === runId);
        if (!r) throw new EmulatorError(404, { detail: `Run ${runId} not found` });
        return r;
    }

    /** The run's assistant: by id, or a served graph's name for its system assistant. */
    private requireAssistant(deploymentId: string, assistantId: string): StoredAssistant {
        const found = this.assistants.resolve(deploymentId, assistantId);
        if (!found) {
            throw new EmulatorError(404, {
                detail: `Assistant ${assistantId} not found (this deployment serves the graph${this.settings.graphs.length > 1 ? "s" : ""} ${this.settings.graphs.join(", ")})`,
            });
        }
        return found;
    }
}

export interface ThreadSearch {
    ids?: string[] | null;
    metadata?: Record<string, unknown> | null;
    values?: Record<string, unknown> | null;
    status?: string | null;
    limit?: number;
    offset?: number;
    sort_by?: "thread_id" | "status" | "created_at" | "updated_at" | null;
    sort_order?: "asc" | "desc" | null;
}

export interface RunView {
    run_id: string;
    thread_id: string;
    status: RunStatus;
    [key: string]: unknown;
}

interface ThreadView {
    thread_id: string;
    created_at: string;
    updated_at: string;
    status: string;
    metadata: Record<string, unknown>;
    values: Record<string, unknown>;
}

const aiIdOf = (r: StoredRun) => `ai-${r.run_id}`;
