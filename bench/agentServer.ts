/**
 * Agent servers: the emulator's under 100 concurrent threads, and what the AgentServerCheck adds to
 * `pulumi up`.
 *   1. 100 threads at once, each making runs one after another (create + join, a one-word echo at 1 ms a
 *      word) for BENCH_AGENT_RUNS runs each (default 20): runs per second and latency p50/p99, through the
 *      official SDK and through plain HTTP (undici) side by side, which is the cost of the official client.
 *   2. 100 streamed runs at once (`runs.stream`, `messages-tuple`, a 50-word answer at 10 ms a word, so
 *      100 chunks per second per run at best): time to the first chunk p50/p99 and chunks per second in
 *      all, through the official SDK and through plain HTTP (undici, reading the server-sent events).
 *   3. `pulumi up` of examples/github-deployment (real CLI, emulator at a tenth of its revision timing,
 *      the built-in graph at its default 150 ms a word) with the check and without it.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import { request } from "undici";
import { scaledTiming } from "../emulator/controlPlane/revisions";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { createProject } from "../tests/helpers/project";
import { githubBody } from "../tests/helpers/emulator";
import { printTable, summary } from "./util";

const THREADS = 100;
const RUNS = Number(process.env.BENCH_AGENT_RUNS ?? 20);
const KEY = "bench-key";

interface Caller {
    thread(): Promise<string>;
    runAndJoin(thread: string): Promise<void>;
}

function sdkCaller(url: string): Caller {
    const c = new Client({ apiUrl: url, apiKey: KEY, callerOptions: { maxRetries: 0 } });
    return {
        thread: async () => (await c.threads.create()).thread_id,
        runAndJoin: async (t) => {
            const r = await c.runs.create(t, "agent", { input: { messages: [{ role: "user", content: "hi" }] } });
            await c.runs.join(t, r.run_id);
        },
    };
}

function rawCaller(url: string): Caller {
    const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
        const res = await request(url + path, {
            method,
            headers: { "x-api-key": KEY, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
        });
        return res.body.json() as Promise<Record<string, string>>;
    };
    return {
        thread: async () => (await call("POST", "/threads", {})).thread_id,
        runAndJoin: async (t) => {
            const r = await call("POST", `/threads/${t}/runs`, { assistant_id: "agent", input: { messages: [{ role: "user", content: "hi" }] } });
            await call("GET", `/threads/${t}/runs/${r.run_id}/join`);
        },
    };
}

async function load(caller: Caller): Promise<string[]> {
    const threads = await Promise.all(Array.from({ length: THREADS }, () => caller.thread()));
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
        threads.map(async (t) => {
            for (let i = 0; i < RUNS; i++) {
                const t0 = performance.now();
                await caller.runAndJoin(t);
                latencies.push(performance.now() - t0);
            }
        }),
    );
    const seconds = (performance.now() - started) / 1000;
    const s = summary(latencies);
    return [String(latencies.length), `${Math.round(latencies.length / seconds)}`, `${s.p50.toFixed(0)} ms`, `${s.p99.toFixed(0)} ms`];
}

const STREAMS = 100;
const STREAM_WORDS = 50;
const STREAM_STEP_MS = 10;
const streamInput = { messages: [{ role: "user", content: Array.from({ length: STREAM_WORDS }, (_, i) => `w${i}`).join(" ") }] };

/** One streamed run: calls `onChunk` on each word's chunk. */
type Streamer = (onChunk: () => void) => Promise<void>;

function sdkStreamer(url: string): Streamer {
    const c = new Client({ apiUrl: url, apiKey: KEY, callerOptions: { maxRetries: 0 } });
    return async (onChunk) => {
        for await (const part of c.runs.stream(null, "agent", { input: streamInput, streamMode: "messages-tuple" })) if (part.event === "messages") onChunk();
    };
}

function rawStreamer(url: string): Streamer {
    return async (onChunk) => {
        const res = await request(`${url}/runs/stream`, {
            method: "POST",
            headers: { "x-api-key": KEY, "content-type": "application/json", accept: "text/event-stream" },
            body: JSON.stringify({ assistant_id: "agent", input: streamInput, stream_mode: "messages-tuple" }),
        });
        let text = "";
        for await (const piece of res.body) {
            text += piece.toString();
            const events = text.split("\n\n");
            text = events.pop()!;
            for (const e of events) if (e.startsWith("event: messages\n")) onChunk();
        }
    };
}

/** STREAMS streamed runs at once: first chunk p50/p99, chunks in all and per second. */
async function streamLoad(stream: Streamer): Promise<string[]> {
    const firsts: number[] = [];
    let chunks = 0;
    const started = performance.now();
    await Promise.all(
        Array.from({ length: STREAMS }, async () => {
            const t0 = performance.now();
            let first = true;
            await stream(() => {
                chunks++;
                if (first) firsts.push(performance.now() - t0);
                first = false;
            });
        }),
    );
    const seconds = (performance.now() - started) / 1000;
    const s = summary(firsts);
    return [String(chunks), `${s.p50.toFixed(0)} ms`, `${s.p99.toFixed(0)} ms`, `${Math.round(chunks / seconds)}`, `${seconds.toFixed(2)} s`];
}

async function deployedUrl(em: Emulator): Promise<string> {
    const res = await request(`${em.url}/v2/deployments`, {
        method: "POST",
        headers: { "x-api-key": KEY, "x-tenant-id": "bench", "content-type": "application/json" },
        body: JSON.stringify(githubBody("bench")),
    });
    return ((await res.body.json()) as { source_config: { custom_url: string } }).source_config.custom_url;
}

async function checkCost(): Promise<string[][]> {
    const em = await startEmulator({ apiKeys: [KEY], timing: { speed: "timed", phaseMs: scaledTiming(1 / 10).phaseMs, deleteMs: 300 } });
    const project = createProject("github-deployment");
    const rows: string[][] = [];
    try {
        for (const check of ["false", "true"]) {
            const stack = `bench-${check}-${randomUUID().slice(0, 6)}`;
            await project.initStack(
                stack,
                {
                    "langsmith:controlPlaneUrl": em.url,
                    "langsmith:workspaceId": randomUUID(),
                    "github-deployment:integrationId": randomUUID(),
                    "github-deployment:repoUrl": "https://github.com/acme/agent",
                    "github-deployment:check": check,
                },
                { "langsmith:apiKey": KEY },
            );
            const up = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]);
            const outs = await project.outputs(stack);
            rows.push([
                check === "true" ? "up, Deployment + AgentServerCheck" : "up, Deployment alone",
                `${(up.ms / 1000).toFixed(1)} s`,
                outs.checkMs ? `${(outs.checkMs / 1000).toFixed(2)} s` : "-",
            ]);
            await project.pulumi(["destroy", "--yes", "--stack", stack]);
        }
    } finally {
        await em.close();
        project.remove();
    }
    return rows;
}

export async function agentServerBench(): Promise<void> {
    console.log(`\n== agent server: ${THREADS} threads at once, ${RUNS} runs each (create + join) ==`);
    const em = await startEmulator({ apiKeys: [KEY], timing: { speed: "immediate" }, agentServer: { stepMs: 1 } });
    try {
        const url = await deployedUrl(em);
        printTable([
            ["client", "runs", "runs/s", "p50", "p99"],
            ["@langchain/langgraph-sdk", ...(await load(sdkCaller(url)))],
            ["undici (plain HTTP)", ...(await load(rawCaller(url)))],
        ]);
    } finally {
        await em.close();
    }
    console.log(`\n== agent server: ${STREAMS} streamed runs at once (messages-tuple, ${STREAM_WORDS} words at ${STREAM_STEP_MS} ms a word) ==`);
    const streaming = await startEmulator({ apiKeys: [KEY], timing: { speed: "immediate" }, agentServer: { stepMs: STREAM_STEP_MS } });
    try {
        const url = await deployedUrl(streaming);
        const ideal = `ideal: ${STREAM_WORDS} chunks in ${(STREAM_WORDS * STREAM_STEP_MS) / 1000} s per run, ${(STREAMS * 1000) / STREAM_STEP_MS} chunks/s in all`;
        printTable([
            ["client", "chunks", "first chunk p50", "p99", "chunks/s", "wall"],
            ["@langchain/langgraph-sdk", ...(await streamLoad(sdkStreamer(url)))],
            ["undici (plain HTTP)", ...(await streamLoad(rawStreamer(url)))],
        ]);
        console.log(ideal);
    } finally {
        await streaming.close();
    }
    console.log("\n== what the AgentServerCheck adds to pulumi up (real CLI, built-in graph at 150 ms a word) ==");
    printTable([["command", "wall", "check (durationMs)"], ...(await checkCost())]);
}
