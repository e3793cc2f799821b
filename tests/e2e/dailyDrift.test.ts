/**
 * The drift log a team reads every morning, with the real CLI and the native plugin: a stack of every resource kind
 * (programs/every-kind, a Pulumi YAML program; the test fails on a kind of the schema missing there) is applied, the
 * official JS client traces a working day into its project (chains with LLM runs, one failing, feedback on them; the
 * runs' token usage priced by the stack's `ModelPriceMap`: their `total_cost` read back),
 * the rules score them, queue them and keep examples, the emulator's clock moves a night on (the schedule exports its
 * hours, the cron runs), and the morning's `pulumi preview --refresh --expect-no-changes --diff` passes and prints no
 * `~` line: no default the service fills in, no figure that traffic, the clock or the stack's own later resources
 * change, shows as a refresh's change. Then `destroy`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "langsmith";
import { getCurrentRunTree, traceable } from "langsmith/traceable";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { raw } from "../helpers/emulator";
import { startMinio, type MinioServer } from "../helpers/minio";
import { createYamlProject, type PulumiProject } from "../helpers/project";

const ROOT = resolve(__dirname, "../..");
const PROGRAM = join(__dirname, "programs", "every-kind");
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

/** The resource kinds the schema serves, and those the program declares. */
function kinds(): { served: string[]; declared: string[] } {
    const served = Object.keys(JSON.parse(readFileSync(join(ROOT, "provider/plugin/schema.json"), "utf8")).resources).map((t) => t.split(":").pop()!);
    const declared = [...readFileSync(join(PROGRAM, "Pulumi.yaml"), "utf8").matchAll(/^ {4}type: langsmith:(\w+)$/gm)].map((m) => m[1]);
    return { served: served.sort(), declared: [...new Set(declared)].sort() };
}

/**
 * A working day of the support bot, traced by the official JS client into `project`: answers, one failing model call,
 * feedback on each answer. Each model call is of `modelName` and sends its token usage; answers the ids of those that
 * answered.
 */
async function workingDay(client: Client, project: string, feedbackKey: string, modelName: string): Promise<string[]> {
    const options = { client, project_name: project, tracingEnabled: true };
    const calls: string[] = [];
    const model = traceable(
        async (q: string) => {
            if (q.includes("refund")) throw new Error("the model timed out");
            const run = getCurrentRunTree();
            calls.push(run.id);
            run.metadata.usage_metadata = { input_tokens: 1000, output_tokens: 100, total_tokens: 1100, input_token_details: { cache_read: 200 } };
            return { answer: `About ${q}: see the help centre.` };
        },
        { ...options, name: "model", run_type: "llm", metadata: { ls_provider: "openai", ls_model_name: modelName } },
    );
    const answered: string[] = [];
    const bot = traceable(
        async (q: string) => {
            answered.push(getCurrentRunTree().id);
            return model(q).catch(() => ({ answer: "Sorry, try again later." }));
        },
        { ...options, name: "support-bot" },
    );
    for (const q of ["shipping", "a refund", "opening hours"]) await bot(q);
    await client.awaitPendingTraceBatches();
    for (const id of answered) await client.createFeedback(id, feedbackKey, { score: 1 });
    return calls;
}

/** The secret header of the stack's McpServer. */
const MCP_TOKEN = `Bearer mcp-${randomUUID()}`;

describe("e2e: the daily drift check of a stack of every resource kind (real CLI, YAML, native plugin)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let minio: MinioServer;
    let project: PulumiProject;
    const stack = `daily-${randomUUID().slice(0, 8)}`;
    const suffix = randomUUID().slice(0, 6);
    const workspace = randomUUID();
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

    before(async () => {
        minio = await startMinio();
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, bulkExport: { installation: "self-hosted" } });
        const made = await raw(em, "POST", "/api/v1/workspaces", { apiKey: API_KEY, tenantId: null, body: { display_name: "Daily", id: workspace } });
        assert.equal(made.status, 200, made.text);
        project = createYamlProject(PROGRAM);
        await project.initStack(
            stack,
            {
                "langsmith:endpoint": em.url,
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:workspaceId": workspace,
                "every-kind:integrationId": "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44",
                "every-kind:s3Endpoint": minio.endpoint,
                "every-kind:s3AccessKeyId": minio.users.writeDelete.accessKeyId,
                "every-kind:suffix": suffix,
            },
            {
                "langsmith:apiKey": API_KEY,
                "every-kind:s3SecretAccessKey": minio.users.writeDelete.secretAccessKey,
                "every-kind:alertWebhookUrl": `https://hooks.example.com/alerts/${randomUUID()}`,
                "every-kind:anthropicKey": `sk-ant-${randomUUID()}`,
                "every-kind:mcpToken": MCP_TOKEN,
            },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
        await minio?.stop();
    });

    it("declares every resource kind the schema serves", () => {
        const { served, declared } = kinds();
        assert.deepEqual(declared, served);
    });

    it("up, a working day traced by the official client, then the morning's preview --refresh --expect-no-changes --diff prints no ~ line", async () => {
        await cli("up", "--yes", "--skip-preview");
        // The McpServer's header values (docs/mcpServer.md), from a secret key or written in the program: never in plain text.
        const stored = await project.storedText(stack);
        for (const value of [MCP_TOKEN, `team-key-${suffix}`])
            assert.ok(!stored.includes(value), `the MCP server's header value ${value} is in the state in plain text`);
        const { projectName } = await project.outputs(stack);
        const client = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: API_KEY, workspaceId: workspace });
        const calls = await workingDay(client, projectName, `concise-${suffix}`, `house-model-${suffix}`);
        // Priced by the stack's ModelPriceMap: 200 cached input tokens at 5e-7, 800 at 1e-6, 100 output tokens at 2e-6.
        const costs = await Promise.all(calls.map(async (id) => ((await client.readRun(id)) as { total_cost?: unknown }).total_cost));
        assert.deepEqual(costs, ["0.0011", "0.0011"]);
        // The night: the schedule exports its hours, the cron runs, the clock reaches the next morning.
        const night = await raw(em, "POST", "/__admin/clock/advance", { apiKey: API_KEY, tenantId: workspace, body: { ms: 20 * 3_600_000 } });
        assert.equal(night.status, 200, night.text);
        const morning = await cli("preview", "--refresh", "--expect-no-changes", "--diff");
        // The engine heads every refresh with the stack's own `~ pulumi:pulumi:Stack: (refresh)` line, even for a program
        // without resources (Pulumi 3.259): every other `~` line is a resource's.
        const changed = morning.stdout.split("\n").filter((l) => /^\s*~/.test(l) && !/^~ pulumi:pulumi:Stack: \(refresh\)$/.test(l));
        assert.deepEqual(changed, [], morning.stdout);
        await cli("destroy", "--yes", "--skip-preview");
    });
});
