/**
 * The interrupt probe of a deployed agent server (docs/service.md 3.2, 4.2; R3), through the
 * official client `@langchain/langgraph-sdk` (what users already call their servers with; measured: a
 * probe against the emulator takes about the graph's own run time, the client adds nothing visible).
 *
 * On a new thread: start a run, watch the thread until that run has produced output, start a second run
 * with `multitask_strategy: "interrupt"`, wait for it, then verify that the first run is `interrupted`,
 * the second `success`, and the thread holds the first run's partial output followed by the second run's.
 * Servers answer fast: if the first run ends before it could be interrupted, the probe tries again with
 * a longer message (twice), instead of failing. The client never retries on its own: a resent run would
 * interrupt the probe's own second run.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { messageText } from "./values";

export interface ProbeOptions {
    url: string;
    apiKey: string;
    assistantId: string;
    /** The first run's input; default a short counting request. */
    message?: string;
    timeoutMs: number;
    /** Delay between reads while watching the first run (default 100 ms). */
    watchMs?: number;
}

export interface ProbeResult {
    threadId: string;
    firstRunId: string;
    secondRunId: string;
    firstRunStatus: string;
    secondRunStatus: string;
    /** Messages in the thread at the end: [human, ai..., human, ai...]. */
    messageCount: number;
    attempts: number;
    durationMs: number;
}

export const DEFAULT_PROBE_MESSAGE = "Count slowly from one to forty, writing each number as a word on its own line.";
const SECOND_MESSAGE = "Stop counting and answer with one word: done.";
const ATTEMPTS = 3;

/** The probe found the server not honouring `interrupt`; the message says what was expected and seen. */
export class ProbeFailedError extends Error {
    constructor(
        message: string,
        readonly seen: Partial<ProbeResult> & { messageTypes?: string[] },
    ) {
        super(message);
        this.name = "ProbeFailedError";
    }
}

interface Msg {
    type?: string;
    role?: string;
    content?: unknown;
}

export async function probeInterrupt(o: ProbeOptions): Promise<ProbeResult> {
    const { Client } = await import("@langchain/langgraph-sdk");
    const client = new Client({ apiUrl: o.url, apiKey: o.apiKey, callerOptions: { maxRetries: 0 }, timeoutMs: Math.min(o.timeoutMs, 60_000) });
    const started = Date.now();
    const deadline = started + o.timeoutMs;
    let message = o.message ?? DEFAULT_PROBE_MESSAGE;
    for (let attempt = 1; ; attempt++) {
        const r = await attemptOnce(client, o, message, deadline);
        if (r !== "first run ended too soon") return { ...r, attempts: attempt, durationMs: Date.now() - started };
        if (attempt === ATTEMPTS) {
            throw new ProbeFailedError(
                `the first run ended before it could be interrupted, ${ATTEMPTS} times (the last probe message had ${message.length} characters): give a longer \`message\``,
                { attempts: attempt },
            );
        }
        message = `${message} ${message}`;
    }
}

async function attemptOnce(
    client: Client,
    o: ProbeOptions,
    message: string,
    deadline: number,
): Promise<Omit<ProbeResult, "attempts" | "durationMs"> | "first run ended too soon"> {
    const thread = await client.threads.create();
    const t = thread.thread_id;
    const first = await client.runs.create(t, o.assistantId, { input: { messages: [{ role: "user", content: message }] } });
    // Watch until the first run has produced output (an AI message after our input), or ended.
    for (;;) {
        await new Promise((res) => setTimeout(res, o.watchMs ?? 100));
        if (Date.now() > deadline)
            throw new ProbeFailedError(`timed out waiting for the first run ${first.run_id} to produce output`, { threadId: t, firstRunId: first.run_id });
        const [state, run] = await Promise.all([client.threads.getState<{ messages?: Msg[] }>(t), client.runs.get(t, first.run_id)]);
        if (!["pending", "running"].includes(run.status)) return "first run ended too soon";
        if ((state.values?.messages ?? []).some((m) => isAi(m))) break;
    }
    const second = await client.runs.create(t, o.assistantId, {
        input: { messages: [{ role: "user", content: SECOND_MESSAGE }] },
        multitaskStrategy: "interrupt",
    });
    await client.runs.join(t, second.run_id, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
    const [a, b, state] = await Promise.all([
        client.runs.get(t, first.run_id),
        client.runs.get(t, second.run_id),
        client.threads.getState<{ messages?: Msg[] }>(t),
    ]);
    const messages = state.values?.messages ?? [];
    const result = {
        threadId: t,
        firstRunId: first.run_id,
        secondRunId: second.run_id,
        firstRunStatus: a.status,
        secondRunStatus: b.status,
        messageCount: messages.length,
    };
    const problems = verify(result, messages, message);
    if (problems.length) {
        throw new ProbeFailedError(
            `interrupt was not honoured: expected the first run interrupted, the second success, and the thread holding the first run's partial output then the second run's output; ` +
                `saw ${problems.join("; ")} (first run ${a.status}, second run ${b.status}, thread messages [${messages.map(kind).join(", ")}])`,
            { ...result, messageTypes: messages.map(kind) },
        );
    }
    return result;
}

/**
 * What differs from the account of `interrupt` in docs/service.md 3.2: the first run interrupted and kept, the second
 * a success, and the thread in that order: the first run's input, its partial output, then the second run's
 * input and its output appended after it.
 */
function verify(r: { firstRunStatus: string; secondRunStatus: string }, messages: Msg[], firstText: string): string[] {
    const problems: string[] = [];
    if (r.firstRunStatus !== "interrupted") problems.push(`the first run ended ${r.firstRunStatus}, not interrupted`);
    if (r.secondRunStatus !== "success") problems.push(`the second run ended ${r.secondRunStatus}, not success`);
    const firstInput = messages.findIndex((m) => isHuman(m) && textOf(m) === firstText);
    const secondInput = messages.findIndex((m) => isHuman(m) && textOf(m) === SECOND_MESSAGE);
    if (firstInput < 0) problems.push("the first run's input is not in the thread");
    if (secondInput < 0) problems.push("the second run's input is not in the thread");
    if (firstInput < 0 || secondInput < 0) return problems;
    if (secondInput < firstInput) {
        problems.push("the second run's messages come before the first run's: its output is not appended after the first run's partial output");
        return problems;
    }
    if (!messages.slice(firstInput + 1, secondInput).some(isAi))
        problems.push("the first run's partial output is not in the thread before the second run's input");
    if (!messages.slice(secondInput + 1).some(isAi)) problems.push("the second run's output is not appended");
    return problems;
}

const kind = (m: Msg) => m.type ?? m.role ?? "?";
const isAi = (m: Msg) => ["ai", "assistant", "AIMessageChunk"].includes(kind(m));
const isHuman = (m: Msg) => ["human", "user"].includes(kind(m));
const textOf = (m: Msg) => messageText(m.content);
