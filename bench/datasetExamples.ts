/**
 * `npm run bench examples`: a `DatasetExamples` of 10,000 examples of about 2 KB from a JSONL file
 * (bench/programs/golden-examples), with the real CLI against the emulator: the first `up`, an `up` after 100 rows
 * changed, an unchanged `up`: wall time, requests the emulator received (and of them, writes to the examples), the
 * state's bytes. Beside them, in the same run, what a team's own sync script does with the official Python client
 * (`create_examples` of the 10,000 into a dataset of its own). Aims (issue 51): the first `up` under 30 s, the change
 * under 5 s and at most 3 writes, the unchanged `up` no write, the state under 1 MB. BENCH_EXAMPLES sets the count.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../emulator/core/server";
import { pythonPath } from "../tests/helpers/pyarrow";
import { createProject } from "../tests/helpers/project";
import { printTable, rng } from "./util";

const COUNT = Number(process.env.BENCH_EXAMPLES ?? 10_000);
const KEY = "bench-key";

/** Row `i` of the file, about 2 KB; `version` changes its answer. */
function row(i: number, version = 0, random = rng(i)): string {
    const filler = Array.from({ length: 30 }, () => Math.floor(random() * 1e12).toString(36)).join(" ");
    const context = `${filler} ${filler} ${filler}`.slice(0, 1_800);
    return JSON.stringify({
        inputs: { question: `Question ${i}: how do I ...?`, context },
        outputs: { answer: `Answer ${i}, revision ${version}.` },
        metadata: { source: i % 2 ? "tickets" : "docs" },
        split: i % 10 ? "train" : "test",
    });
}

/** The official Python client's `create_examples` of the same rows into a dataset of its own (what a sync script does). */
const PY_SYNC = `
import json, sys, time, warnings
from langsmith import Client
warnings.simplefilter("ignore")
url, key, workspace, path = sys.argv[1:5]
client = Client(api_url=url, api_key=key, workspace_id=workspace)
rows = [json.loads(l) for l in open(path) if l.strip()]
start = time.time()
ds = client.create_dataset("bench-sdk-" + str(int(start)))
client.create_examples(dataset_id=ds.id, examples=[{"inputs": r["inputs"], "outputs": r["outputs"], "metadata": r["metadata"], "split": r["split"]} for r in rows])
print(json.dumps({"s": time.time() - start}))
`;

export async function datasetExamplesBench(): Promise<void> {
    console.log(`\n== DatasetExamples: ${COUNT.toLocaleString("en")} examples of about 2 KB from a JSONL file (real CLI, emulator over HTTP) ==`);
    const em = await startEmulator({ apiKeys: [KEY] });
    const project = createProject(join(__dirname, "programs", "golden-examples"));
    const file = join(project.dir, "golden.jsonl");
    const lines = Array.from({ length: COUNT }, (_, i) => row(i));
    writeFileSync(file, `${lines.join("\n")}\n`);
    const workspace = randomUUID();
    try {
        const stack = `bench-${randomUUID().slice(0, 8)}`;
        await project.initStack(stack, { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace }, { "langsmith:apiKey": KEY });
        const rows = [["", "wall s", "requests", "example writes", "state bytes"]];
        const measure = async (label: string) => {
            em.admin.requests = [];
            const r = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]);
            const requests = em.admin.requests.filter((q) => !q.path.startsWith("/__admin"));
            const writes = requests.filter((q) => q.method !== "GET" && /\/examples/.test(q.path)).length;
            const state = JSON.stringify(await project.exportStack(stack)).length;
            rows.push([label, (r.ms / 1000).toFixed(1), String(requests.length), String(writes), state.toLocaleString("en")]);
        };
        await measure(`up: ${COUNT.toLocaleString("en")} new`);
        const changed = Math.min(100, COUNT);
        for (let i = 0; i < changed; i++) lines[i * Math.floor(COUNT / changed)] = row(i * Math.floor(COUNT / changed), 1);
        writeFileSync(file, `${lines.join("\n")}\n`);
        await measure(`up: ${changed} rows changed`);
        await measure("up: unchanged");
        const sdk = await promisify(execFile)(pythonPath(), ["-c", PY_SYNC, em.url, KEY, workspace, file], { maxBuffer: 1 << 24 });
        rows.push([`official Python client: create_examples of ${COUNT.toLocaleString("en")}`, JSON.parse(sdk.stdout).s.toFixed(1), "", "", ""]);
        printTable(rows);
        await project.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
    } finally {
        await em.close();
        project.remove();
    }
}
