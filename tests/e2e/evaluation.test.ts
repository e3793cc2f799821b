/**
 * Online evaluation as code with the real CLI against the emulator (examples/evaluation-rules): one `up` makes a
 * tracing project, a feedback key, an annotation queue, a code evaluator and a rule sending the project's LLM runs
 * to the queue, scored by the evaluator; the official Python client traces a support bot into the project (chains
 * calling LLM runs, one answer long) and finds exactly the LLM runs in the queue, each scored under the key (1 for
 * a short answer, 0 for the long one), the chains neither queued nor scored; the drift check is green with the runs
 * in the queue; destroy leaves no rule, evaluator, queue or key.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { raw } from "../helpers/emulator";
import { createProject, type PulumiProject } from "../helpers/project";
import { pythonPath } from "../helpers/pyarrow";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const SCRIPT = join(__dirname, "..", "emulator", "evaluation", "rules_client.py");

describe("e2e: online evaluation as code (real CLI, examples/evaluation-rules)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `rules-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const name = `support-${randomUUID().slice(0, 6)}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const output = async (n: string) => JSON.parse((await cli("stack", "output", n, "--json")).stdout);
    const get = async (path: string) => (await raw(em, "GET", path, { apiKey: API_KEY, tenantId: workspace })).body;

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        project = createProject("evaluation-rules");
        await project.initStack(
            stack,
            { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace, "evaluation-rules:project": name },
            { "langsmith:apiKey": API_KEY },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    it("up; the Python client's LLM runs land in the queue scored under the key, the chains do not; the drift check is green; destroy leaves nothing", async () => {
        await cli("up", "--yes", "--skip-preview");
        const queueId = await output("queueId");
        const key = await output("feedbackKey");
        const { stdout } = await promisify(execFile)(pythonPath(), [SCRIPT, em.url, API_KEY, workspace, name, queueId, key]);
        const seen = JSON.parse(stdout.trim().split("\n").at(-1) as string) as {
            llm: string[];
            chains: string[];
            queued: string[];
            scores: Record<string, number>;
        };
        assert.equal(seen.llm.length, 3);
        assert.deepEqual([...seen.queued].sort(), [...seen.llm].sort(), "exactly the LLM runs are in the queue");
        assert.deepEqual(
            seen.llm.map((id) => seen.scores[id]),
            [1, 0, 1],
            "each LLM run scored under the key: the long answer 0",
        );
        assert.ok(
            seen.chains.every((id) => !(id in seen.scores)),
            "no chain scored",
        );
        await cli("preview", "--refresh", "--expect-no-changes");
        await cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual(await get("/api/v1/runs/rules"), []);
        assert.equal((await get("/api/v1/platform/evaluators")).total, 0);
        assert.deepEqual(await get("/api/v1/annotation-queues"), []);
        assert.deepEqual(await get("/api/v1/feedback-configs"), []);
    });
});
