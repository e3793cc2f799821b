/**
 * The JS twin of trace_runs.py: the official JS client (`langsmith` 0.12.0) traces `traces` calls of a
 * `traceable` RAG chain with three children (four runs each) through its own batching, then
 * `awaitPendingTraceBatches()`. Prints one JSON line: the runs made, the seconds from the first run created
 * to the last batch delivered, and the encoding the client chose from /info. Run in a process of its own
 * by bench/tracedRuns.ts: `node -r ts-node/register/transpile-only traceRuns.ts <url> <api key> <project> <traces>`.
 */
import { Client } from "langsmith";
import { traceable } from "langsmith/traceable";

const [url, apiKey, project, traces] = process.argv.slice(2);
const client = new Client({ apiUrl: url, apiKey });
const as = (name: string, run_type: string) => ({ name, run_type, client, project_name: project, tracingEnabled: true });

const retrieve = traceable(
    async (question: string) => [0, 1, 2].map((i) => ({ page_content: `passage ${i} on ${question}`, metadata: { source: `kb/doc-${i}.md` } })),
    as("retrieve", "retriever"),
);
const chat = traceable(
    async (question: string, docs: unknown[]) => ({
        choices: [{ message: { role: "assistant", content: `From ${docs.length} passages: the answer to '${question}'.` } }],
        usage_metadata: { input_tokens: 180 + question.length, output_tokens: 42, total_tokens: 222 + question.length },
    }),
    { ...as("ChatOpenAI", "llm"), metadata: { ls_provider: "openai", ls_model_name: "gpt-4o-mini" } },
);
const formatAnswer = traceable(
    async (reply: { choices: Array<{ message: { content: string } }> }) => reply.choices[0].message.content.trim(),
    as("format_answer", "tool"),
);
const rag = traceable(async (question: string) => formatAnswer(await chat(question, await retrieve(question))), as("rag", "chain"));

async function main() {
    const started = performance.now();
    for (let i = 0; i < Number(traces); i++) await rag(`question ${i}`);
    await client.awaitPendingTraceBatches();
    const seconds = (performance.now() - started) / 1000;
    // The client's own (private) choice: zstd, gzip, or undefined for uncompressed multipart.
    const encoding = (client as unknown as { _queueEncoding(): string | undefined })._queueEncoding();
    console.log(JSON.stringify({ runs: Number(traces) * 4, seconds, transport: encoding ? `multipart+${encoding}` : "multipart" }));
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
