/**
 * A deterministic generator of trace runs for the emulated tracing projects that bulk export reads: the
 * same seed, project and range always give the same runs, so a test can count what an export must have
 * written. Every exportable field of docs/service.md 2.8 is filled with realistic values and types: traces of a root
 * `chain` run with `llm`, `tool` and `retriever` children, dotted orders, token counts and costs on LLM runs,
 * JSON inputs, outputs, extra, events and feedback, some errors.
 *
 * Runs come out of an iterator, trace after trace (traces in start-time order, a trace's runs together),
 * so a million of them never sit in memory at once. Start times are spread over [start, end) (start
 * inclusive, end exclusive, as the service's range is).
 *
 * Not emulated: real model payloads (inputs and outputs are short made-up texts), reference examples
 * beyond an occasional id, attachments.
 */
import type { FilterableRun } from "./filterEval";

export interface GeneratorOptions {
    seed: number;
    tenantId: string;
    /** The tracing project (`session_id`, docs/service.md 2.8). */
    sessionId: string;
    /** ISO timestamps; runs start in [start, end). */
    start: string;
    end: string;
    /** How many runs in all (roots and children). */
    count: number;
}

/** One run with every exportable field of docs/service.md 2.8. JSON fields are objects; timestamps ISO strings (µs). */
export interface GeneratedRun extends FilterableRun {
    tenant_id: string;
    session_id: string;
    trace_id: string;
    parent_run_id: string | null;
    parent_run_ids: string[];
    reference_example_id: string | null;
    end_time: string;
    status: "success" | "error";
    is_root: boolean;
    dotted_order: string;
    trace_tier: "longlived" | "shortlived";
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown> | null;
    error: string | null;
    extra: { metadata: Record<string, unknown> } & Record<string, unknown>;
    events: Array<{ name: string; time: string }>;
    tags: string[];
    feedback_stats: Record<string, { n: number; avg: number }> | null;
    total_tokens: number;
    prompt_tokens: number;
    completion_tokens: number;
    total_cost: number | null;
    prompt_cost: number | null;
    completion_cost: number | null;
    first_token_time: string | null;
}

/** sfc32: a small, fast, seedable generator (uniform in [0, 1)). */
function random(seed: number): () => number {
    let a = 0x9e3779b9,
        b = 0x243f6a88,
        c = 0xb7e15162,
        d = seed >>> 0;
    const next = () => {
        a >>>= 0;
        b >>>= 0;
        c >>>= 0;
        d >>>= 0;
        let t = (a + b) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (c << 21) | (c >>> 11);
        d = (d + 1) | 0;
        t = (t + d) | 0;
        c = (c + t) | 0;
        return (t >>> 0) / 4294967296;
    };
    for (let i = 0; i < 12; i++) next();
    return next;
}

const QUESTIONS = ["What is LangSmith?", "Summarize the ticket", "Translate to French", "Find the invoice", "Plan a trip to Lisbon"];
const TOOLS = ["search", "calculator", "sql_query", "weather", "lookup_order"];
const MODELS = ["ChatOpenAI", "ChatAnthropic", "ChatVertexAI"];
const TAGS = ["prod", "staging", "v2", "experiment", "customer-facing"];
const ERRORS = ["RateLimitError: 429 Too Many Requests", "TimeoutError: tool call exceeded 30s", "ValueError: could not parse output"];

/**
 * Timestamps are formatted by hand from a per-day cache (Date#toISOString and a regular expression for
 * each of a run's seven timestamps were most of the generator's time).
 */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"));
let cachedDay = NaN;
let cachedDayIso = ""; // `2026-11-01T`
let cachedDayCompact = ""; // `20261101T`
function timeParts(us: number): [iso: string, compact: string, hms: string, hmsCompact: string, fraction: string] {
    const second = Math.floor(us / 1_000_000);
    const day = Math.floor(second / 86_400);
    if (day !== cachedDay) {
        cachedDay = day;
        cachedDayIso = new Date(day * 86_400_000).toISOString().slice(0, 11);
        cachedDayCompact = cachedDayIso.replace(/-/g, "");
    }
    const sod = second - day * 86_400;
    const h = TWO[Math.floor(sod / 3600)],
        m = TWO[Math.floor((sod % 3600) / 60)],
        sec = TWO[sod % 60];
    return [cachedDayIso, cachedDayCompact, `${h}:${m}:${sec}`, `${h}${m}${sec}`, String(1_000_000 + (us - second * 1_000_000)).slice(1)];
}

/** Microsecond-precision ISO timestamp (`2026-11-01T10:00:00.123456Z`) of microseconds since the epoch. */
function isoMicros(us: number): string {
    const [day, , hms, , fraction] = timeParts(us);
    return `${day}${hms}.${fraction}Z`;
}

/** `20261101T100000123456Z<id>`: the service's dotted-order segment for a run. */
function dottedSegment(us: number, id: string): string {
    const [, day, , hms, fraction] = timeParts(us);
    return `${day}${hms}${fraction}Z${id}`;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** The seeded draws a generator makes: numbers, picks and uuids. */
interface Draws {
    rnd: () => number;
    pick<T>(xs: readonly T[]): T;
    uuid(): string;
}

function drawsOf(seed: number): Draws {
    const rnd = random(seed);
    // A version-4 uuid from four 32-bit draws (one draw per hex digit was the other half of the time).
    const word = () => {
        const x = Math.floor(rnd() * 4294967296);
        return HEX[x >>> 24] + HEX[(x >>> 16) & 255] + HEX[(x >>> 8) & 255] + HEX[x & 255];
    };
    return {
        rnd,
        pick: (xs) => xs[Math.floor(rnd() * xs.length)],
        uuid: () => {
            const a = word(),
                b = word(),
                c = word(),
                d = word();
            return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${"89ab"[parseInt(c[0], 16) & 3]}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
        },
    };
}

/** What the runs of one trace share; `childStart` moves on with each child. */
interface Trace {
    id: string;
    startUs: number;
    question: string;
    tags: string[];
    childStart: number;
}

/** The runs of one tracing project over a range, in start-time order. */
export function* generateRuns(o: GeneratorOptions): Generator<GeneratedRun> {
    const d = drawsOf(o.seed);
    const startUs = Date.parse(o.start) * 1000;
    const spanUs = Date.parse(o.end) * 1000 - startUs;
    if (!(spanUs > 0)) throw new RangeError("generateRuns: end must be after start");
    let made = 0;
    for (let traceIndex = 0; made < o.count; traceIndex++) {
        // Traces start evenly over the range, a little jittered; each has 1 to 4 runs.
        const size = Math.min(o.count - made, 1 + Math.floor(d.rnd() * 4));
        const expectedTraces = Math.max(1, Math.round(o.count / 2.5));
        const traceStart = startUs + Math.floor(Math.min(0.999999, (traceIndex + d.rnd()) / expectedTraces) * spanUs);
        const id = d.uuid();
        const question = d.pick(QUESTIONS);
        const trace: Trace = { id, startUs: traceStart, question, tags: TAGS.filter(() => d.rnd() < 0.3), childStart: traceStart };
        for (let k = 0; k < size; k++) yield runOf(d, o, trace, k === 0, made++);
    }
}

/** One run of a trace (the root, a chain, or a child: llm, tool or retriever), every exportable field filled. */
function runOf(d: Draws, o: GeneratorOptions, t: Trace, isRoot: boolean, index: number): GeneratedRun {
    const { rnd, pick } = d;
    const id = isRoot ? t.id : d.uuid();
    const runType = isRoot ? "chain" : pick(["llm", "llm", "tool", "retriever"] as const);
    const durationUs = Math.floor((runType === "llm" ? 800_000 : 150_000) * (0.5 + rnd() * 2));
    const start = isRoot ? t.startUs : (t.childStart += Math.floor(rnd() * 50_000));
    const failed = rnd() < 0.05;
    const prompt = runType === "llm" ? 50 + Math.floor(rnd() * 1500) : 0;
    const completion = runType === "llm" ? 10 + Math.floor(rnd() * 400) : 0;
    return {
        id,
        tenant_id: o.tenantId,
        session_id: o.sessionId,
        trace_id: t.id,
        parent_run_id: isRoot ? null : t.id,
        parent_run_ids: isRoot ? [] : [t.id],
        reference_example_id: isRoot && rnd() < 0.1 ? d.uuid() : null,
        name: isRoot ? "AgentExecutor" : runType === "llm" ? pick(MODELS) : runType === "tool" ? pick(TOOLS) : "VectorStoreRetriever",
        run_type: runType,
        start_time: isoMicros(start),
        end_time: isoMicros(start + durationUs),
        status: failed ? "error" : "success",
        is_root: isRoot,
        dotted_order: isRoot ? dottedSegment(start, id) : `${dottedSegment(t.startUs, t.id)}.${dottedSegment(start, id)}`,
        trace_tier: rnd() < 0.8 ? "shortlived" : "longlived",
        inputs: runType === "llm" ? { messages: [{ role: "user", content: t.question }] } : { input: t.question },
        outputs: failed ? null : runType === "llm" ? { generations: [{ text: `Answer ${index}` }] } : { output: `Result ${index}` },
        error: failed ? pick(ERRORS) : null,
        extra: { metadata: { customer: pick(["acme", "globex", "initech"]), ls_run_depth: isRoot ? 0 : 1 }, runtime: { sdk: "langsmith-js" } },
        events: [
            { name: "start", time: isoMicros(start) },
            { name: "end", time: isoMicros(start + durationUs) },
        ],
        tags: t.tags,
        feedback_stats: isRoot && rnd() < 0.3 ? { correctness: { n: 1, avg: Math.round(rnd() * 100) / 100 } } : null,
        total_tokens: prompt + completion,
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_cost: runType === "llm" ? prompt * 2.5e-6 + completion * 1e-5 : null,
        prompt_cost: runType === "llm" ? prompt * 2.5e-6 : null,
        completion_cost: runType === "llm" ? completion * 1e-5 : null,
        first_token_time: runType === "llm" ? isoMicros(start + Math.floor(durationUs * 0.3)) : null,
    };
}
