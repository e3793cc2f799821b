/**
 * What run rules cost ingestion (docs/service.md R10.4): runs posted over HTTP (`POST /runs/batch`, 100 ended runs a
 * request, four requests in flight, as the official clients' background threads send them) into a project with ten
 * enabled rules and into one with none, in alternating rounds on one in-process emulator. The ten rules read
 * different filters at a sampling rate of 0.2; half add to an annotation queue, half to a dataset (code evaluators,
 * a subprocess per run, are left out: their cost is the sandbox's, off the ingest path). Two figures per project:
 * runs ingested per second (every request answered) and runs per second until the engine has taken them all.
 * BENCH_RULES_N changes the runs per project (default 20,000).
 */
import { randomUUID } from "node:crypto";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { TEST_API_KEY, TEST_TENANT } from "../tests/helpers/emulator";
import { printTable } from "./util";

const N = Number(process.env.BENCH_RULES_N ?? 20_000);
const BATCH = 100;
const IN_FLIGHT = 4;
const ROUNDS = 10;
const FILTERS = [
    'eq(run_type, "llm")',
    'eq(run_type, "chain")',
    'has(tags, "prod")',
    "gt(latency, 1)",
    'eq(name, "model")',
    'and(eq(run_type, "llm"), has(tags, "beta"))',
    'eq(status, "error")',
    'search("refund")',
    'eq(metadata_key, "customer")',
    "gte(total_tokens, 100)",
];

async function call(em: Emulator, method: string, path: string, body: unknown): Promise<any> {
    const r = await fetch(em.url + path, {
        method,
        headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-tenant-id": TEST_TENANT },
        body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
    return r.json();
}

function batch(project: string): { post: unknown[] } {
    const start = Date.now() - 2_000;
    return {
        post: Array.from({ length: BATCH }, (_, i) => ({
            id: randomUUID(),
            name: i % 3 ? "model" : "chain",
            run_type: i % 3 ? "llm" : "chain",
            start_time: new Date(start).toISOString(),
            end_time: new Date(start + (i % 5) * 400).toISOString(),
            inputs: { question: `how do I get a refund for order ${i}?` },
            outputs: { answer: "through the orders page" },
            tags: i % 2 ? ["prod"] : ["beta"],
            extra: { metadata: { customer: "acme" } },
            total_tokens: i * 3,
            session_name: project,
        })),
    };
}

/** Posts `count` runs into the project, IN_FLIGHT requests at a time; answers the ms until all are answered and until the engine is idle. */
async function ingest(em: Emulator, project: string, count: number): Promise<{ answered: number; settled: number }> {
    const t0 = performance.now();
    let left = count / BATCH;
    const worker = async () => {
        while (left-- > 0) await call(em, "POST", "/runs/batch", batch(project));
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const answered = performance.now() - t0;
    await em.automations.engine.idle();
    return { answered, settled: performance.now() - t0 };
}

async function tenRules(em: Emulator, project: string): Promise<void> {
    const session = await call(em, "POST", "/api/v1/sessions", { name: project });
    const queue = await call(em, "POST", "/api/v1/annotation-queues", { name: `${project}-queue` });
    const dataset = await call(em, "POST", "/api/v1/datasets", { name: `${project}-dataset` });
    for (const [i, filter] of FILTERS.entries()) {
        const action = i % 2 ? { add_to_annotation_queue_id: queue.id } : { add_to_dataset_id: dataset.id };
        await call(em, "POST", "/api/v1/runs/rules", { display_name: `rule ${i}`, session_id: session.id, sampling_rate: 0.2, filter, ...action });
    }
}

export async function ruleEngineBench(): Promise<void> {
    const em = await startEmulator({ apiKeys: [TEST_API_KEY], keyWorkspaceId: TEST_TENANT });
    try {
        await tenRules(em, "bench-rules");
        await call(em, "POST", "/api/v1/sessions", { name: "bench-none" });
        // Warm up both (the JIT, the engine's first rules), then alternate, so the machine's load falls on both alike.
        await ingest(em, "bench-none", 1_000);
        await ingest(em, "bench-rules", 1_000);
        const totals = { none: { answered: 0, settled: 0 }, ten: { answered: 0, settled: 0 } };
        for (let r = 0; r < ROUNDS; r++) {
            for (const [key, project] of [
                ["none", "bench-none"],
                ["ten", "bench-rules"],
            ] as const) {
                const t = await ingest(em, project, N / ROUNDS);
                totals[key].answered += t.answered;
                totals[key].settled += t.settled;
            }
        }
        const rate = (ms: number) => Math.round((N / ms) * 1000);
        const logs = em.automations.engine.logs.filter((l) => l.run_session_id).length;
        console.log(`\nRun rules on ingestion: ${N} runs per project, batches of ${BATCH}, ${IN_FLIGHT} in flight, ${ROUNDS} alternating rounds`);
        printTable([
            ["project", "ingested runs/s", "taken by the rules, runs/s", "rule applications"],
            ["no rules", String(rate(totals.none.answered)), String(rate(totals.none.settled)), "0"],
            ["ten rules", String(rate(totals.ten.answered)), String(rate(totals.ten.settled)), String(logs)],
        ]);
        const cost = (1 - totals.none.answered / totals.ten.answered) * 100;
        console.log(`ten rules cost ingestion ${cost.toFixed(1)} % (the aim: within 20 %)`);
    } finally {
        await em.close();
    }
}
