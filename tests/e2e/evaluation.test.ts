/**
 * Online evaluation as code with the real CLI against the emulator (examples/evaluation-rules): one `up` makes a
 * tracing project, a feedback key, an annotation queue, a code evaluator and a rule sending the project's LLM runs
 * to the queue, scored by the evaluator; the official Python client traces a support bot into the project (chains
 * calling LLM runs, one answer long) and finds exactly the LLM runs in the queue, each scored under the key (1 for
 * a short answer, 0 for the long one), the chains neither queued nor scored; `pulumi up --replace` of the alert rule
 * converges in that one up (the alert, whose id is derived from the resource, taken over by the replacement and left
 * by the old resource's delete: one alert on the project, the same; the emulator's admin state lists them, since the
 * service lists none; its webhook, a secret, nowhere in the state in plain text); the drift check after it is green
 * with the runs in the queue; destroy leaves no rule, evaluator, queue, key or alert.
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
/** The alert's webhook (a secret config value): it must never be stored in plain text. */
const WEBHOOK = `https://hooks.example.com/alerts/${randomUUID()}`;

describe("e2e: online evaluation as code (real CLI, examples/evaluation-rules)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `rules-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const name = `support-${randomUUID().slice(0, 6)}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const get = async (path: string) => (await raw(em, "GET", path, { apiKey: API_KEY, tenantId: workspace })).body;
    /** The alert rules the emulator holds in this workspace (no route of the service lists them). */
    const alerts = async () =>
        ((await get("/__admin/evaluation")).alert_rules as Array<{ id: string; tenant_id: string; session_id: string }>).filter(
            (a) => a.tenant_id === workspace,
        );

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        project = createProject("evaluation-rules");
        await project.initStack(
            stack,
            { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace, "evaluation-rules:project": name },
            { "langsmith:apiKey": API_KEY, "evaluation-rules:alertWebhookUrl": WEBHOOK },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    it("up; the Python client's LLM runs land in the queue scored under the key, the chains do not; up --replace of the alert converges in one up; the drift check is green; destroy leaves nothing", async () => {
        await cli("up", "--yes", "--skip-preview");
        const { queueId, feedbackKey: key, alertRuleId } = await project.outputs(stack);
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
        // The engine checks a `--replace` target as a new resource: its create asks for the alert's own id (derived from
        // the resource: docs/service.md R10.3), takes that alert over, and the old resource's delete leaves it (docs/alertRule.md).
        const [sessionId] = (alertRuleId as string).split(":");
        const replaced = await cli(
            "up",
            "--yes",
            "--skip-preview",
            "--replace",
            `urn:pulumi:${stack}::evaluation-rules::pulumi-nodejs:dynamic/langsmith:AlertRule::llm-errors`,
        );
        assert.match(replaced.stdout + replaced.stderr, /not deleted: a create of this run took it over/);
        const held = await alerts();
        assert.equal(held.length, 1, `alerts after the replacement: ${JSON.stringify(held)}`);
        assert.equal(`${held[0].session_id}:${held[0].id}`, alertRuleId, "a second alert made, or the first lost");
        assert.equal(held[0].session_id, sessionId);
        const stored = await project.storedText(stack);
        assert.ok(stored.includes(`${sessionId}:${held[0].id}`), "the state does not hold the new alert");
        assert.ok(!stored.includes(WEBHOOK), "the webhook is in the state in plain text");
        await cli("preview", "--refresh", "--expect-no-changes");
        await cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual(await alerts(), []);
        assert.deepEqual(await get("/api/v1/runs/rules"), []);
        assert.equal((await get("/api/v1/platform/evaluators")).total, 0);
        assert.deepEqual(await get("/api/v1/annotation-queues"), []);
        assert.deepEqual(await get("/api/v1/feedback-configs"), []);
    });
});
