/**
 * The events of a streamed run (`POST /threads/{t}/runs/stream`, `POST /runs/stream`), in the order and
 * shapes the LangGraph server sends them for the built-in graph (one node, `agent`, answering word by word):
 *
 *   - `metadata` `{run_id, attempt}` first, whatever the modes;
 *   - `values`: the thread's state when the run starts (its input added), and again when it ends;
 *   - `updates`: `{agent: {messages: [the answer]}}` when the node ends;
 *   - `messages` (the server's own message mode): `messages/complete` with the input, `messages/metadata`
 *     on the answer's first word, `messages/partial` with the whole answer so far on every word, and
 *     `messages/complete` with the answer at the end;
 *   - `messages-tuple`: `messages` `[chunk, metadata]` on every word (the chunk is the new word only).
 *
 * A run stopped on the way (`interrupt`, a cancel) ends its stream where it stopped, with no error event,
 * as the server does for a run interrupted by another; a run rolled back ends its stream at once. Words come
 * as the emulator clock passes their time: a pushed clock sends the rest at once.
 */
import type { AgentServerModel, Message, RunProgress } from "./model";

export const STREAM_MODES = ["values", "updates", "messages", "messages-tuple"] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

export interface StreamEvent {
    event: string;
    data: unknown;
}

/** The events of run `runId` of the thread, for `modes`, as they happen. */
export async function* runEvents(
    model: AgentServerModel,
    deploymentId: string,
    threadId: string,
    runId: string,
    modes: readonly StreamMode[],
): AsyncGenerator<StreamEvent> {
    const look = () => model.progress(deploymentId, threadId, runId);
    yield { event: "metadata", data: { run_id: runId, attempt: 1 } };
    let p = look();
    while (p?.status === "pending") p = await later(p, look);
    if (!p) return;
    yield* started(p, modes);
    let sent = 0;
    for (;;) {
        for (; sent < p.produced; sent++) yield* word(p, sent, modes, { run_id: runId, thread_id: threadId });
        if (p.status !== "running") break;
        const next = await later(p, look);
        if (!next) return;
        p = next;
    }
    if (p.status === "success") yield* ended(p, modes);
}

/** Waits until the run's next step (on the emulator clock, read every 50 ms at most), then looks again. */
async function later(p: RunProgress, look: () => RunProgress | undefined): Promise<RunProgress | undefined> {
    await new Promise((r) => setTimeout(r, Math.max(2, Math.min(50, p.nextInMs))));
    return look();
}

/** The thread's state as the run starts: without the run's answer. */
function* started(p: RunProgress, modes: readonly StreamMode[]): Generator<StreamEvent> {
    const before = p.messages.filter((m) => m.id !== p.aiId);
    if (modes.includes("messages")) yield { event: "messages/complete", data: p.input };
    if (modes.includes("values")) yield { event: "values", data: { messages: before } };
}

/** The answer's word `i` (0-based). */
function* word(p: RunProgress, i: number, modes: readonly StreamMode[], run: { run_id: string; thread_id: string }): Generator<StreamEvent> {
    const metadata = { ...run, graph_id: "agent", langgraph_node: "agent", langgraph_step: 1 };
    if (modes.includes("messages")) {
        if (i === 0) yield { event: "messages/metadata", data: { [p.aiId]: { metadata } } };
        yield { event: "messages/partial", data: [answer(p, i + 1)] };
    }
    if (modes.includes("messages-tuple")) {
        const chunk = { type: "AIMessageChunk", content: (i > 0 ? " " : "") + p.words[i], id: p.aiId };
        yield { event: "messages", data: [chunk, metadata] };
    }
}

/** The node's end: its update, the final state, the complete answer. */
function* ended(p: RunProgress, modes: readonly StreamMode[]): Generator<StreamEvent> {
    const full = answer(p, p.words.length);
    if (modes.includes("updates")) yield { event: "updates", data: { agent: { messages: [full] } } };
    if (modes.includes("values")) yield { event: "values", data: { messages: p.messages } };
    if (modes.includes("messages")) yield { event: "messages/complete", data: [full] };
}

function answer(p: RunProgress, words: number): Message {
    return { type: "ai", content: p.words.slice(0, words).join(" "), id: p.aiId };
}
