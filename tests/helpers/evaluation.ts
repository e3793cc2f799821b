/**
 * Fixtures for the evaluation area's tests (docs/service.md R9): runs traced into a project over the tracing API (as
 * the official clients' `POST /runs` sends them), and what the official Python client answers on feedback configs,
 * annotation queues and feedback (tests/emulator/evaluation/evaluation_client.py).
 */
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Emulator, raw } from "./emulator";
import { pythonPath } from "./pyarrow";

const CLIENT = join(__dirname, "..", "emulator", "evaluation", "evaluation_client.py");

/** Traces `n` finished LLM runs into the project named `project` (made on first use); answers their ids. */
export async function traceRuns(em: Pick<Emulator, "url">, project: string, n: number): Promise<string[]> {
    const ids = Array.from({ length: n }, () => randomUUID());
    const now = Date.now();
    const post = ids.map((id, i) => ({
        id,
        name: `llm ${i}`,
        run_type: "llm",
        start_time: new Date(now - 1000).toISOString(),
        end_time: new Date(now).toISOString(),
        session_name: project,
        inputs: { question: `q${i}` },
        outputs: { answer: `a${i}` },
    }));
    const r = await raw(em, "POST", "/runs/batch", { body: { post } });
    if (r.status !== 202) throw new Error(`tracing answered ${r.status}: ${r.text}`);
    return ids;
}

/** The official Python client's answers, by call, for the scenario of evaluation_client.py on `key` and two runs. */
export async function evaluatedByPython(url: string, apiKey: string, workspace: string, key: string, runs: [string, string]): Promise<Map<string, any>> {
    const { stdout } = await promisify(execFile)(pythonPath(), [CLIENT, url, apiKey, workspace, key, ...runs]);
    const lines = stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { call: string; result: unknown });
    return new Map(lines.map((l) => [l.call, l.result]));
}
