/**
 * Settings that guard a workspace, with the real CLI: a Pulumi YAML program through the native plugin against the
 * emulator, on one stack (issue 49): a PromptWebhook's URL (the credential of an incoming webhook) and headers
 * secret in the state, the outputs and every command's output, also in the diff of a new URL; a
 * ModelConfiguration whose settings hold the provider's key refused at preview, naming `apiKeySecret`, the key
 * printed nowhere and sent nowhere; two WorkspaceRetentions, OrganizationRetentions or UsageLimits of one type for
 * one scope refused at preview, while the one of each scope checked at the preview and again at the update of one
 * `up` passes; fewer long-lived days warned at preview with the days of traces they cost (for the traces written
 * from then on: an older one is kept), the short-lived tier applied to every existing project warned with the days
 * of traces it deletes at once (and the older trace gone after `up`); a RunRule's backfill applied by the emulator
 * to the runs since its time, once: an update of its name does not send it again; `webhooks[].headers: {}` diffs
 * never, also after a refresh.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { admin, raw } from "../helpers/emulator";
import { createYamlProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
/** An incoming webhook's URL is its credential: the token in its path must never be stored or printed in plain text. */
const HOOK_TOKEN = `T${randomUUID().replace(/-/g, "")}`;
const HOOK_URL = `https://hooks.example.com/services/${HOOK_TOKEN}`;
const NEW_HOOK_TOKEN = `N${randomUUID().replace(/-/g, "")}`;
const NEW_HOOK_URL = `https://hooks.example.com/services/${NEW_HOOK_TOKEN}`;
const HOOK_HEADER = `Bearer h-${randomUUID()}`;
/** The provider's key a user put in a model's settings: refused, printed nowhere, sent nowhere. */
const MODEL_KEY = `sk-proj-${randomUUID().replace(/-/g, "")}`;
const DAY_MS = 24 * 3_600_000;

/** What the program holds, step by step. */
interface Shape {
    hookUrl: string;
    days: number;
    tier: "longlived" | "shortlived";
    applyToAll: boolean;
    ruleName: string;
    /** The model's settings, as YAML. */
    modelSettings?: string;
    /** Resources added to the program (YAML lines, indented as entries of `resources:`). */
    extra?: string[];
}

describe("e2e: settings that guard a workspace (real CLI, Pulumi YAML through the native plugin)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    let programDir: string;
    const stack = `settings-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const suffix = randomUUID().slice(0, 6);
    let session: { id: string; name: string };
    /** Runs traced before the rule exists: three 5 days old (its backfill takes them), one 100 days old. */
    const recent = [randomUUID(), randomUUID(), randomUUID()];
    const old = randomUUID();
    const backfillFrom = () => new Date(em.clock.now() - 10 * DAY_MS).toISOString();
    let backfill: string;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const failing = (...args: string[]) => project.pulumi([...args, "--stack", stack], { allowFailure: true });
    const get = async (path: string, tenantId: string | null = workspace) => (await raw(em, "GET", path, { apiKey: API_KEY, tenantId })).body;
    /** How the service answers a traced run: 200 while it keeps it, 404 once expired (docs/service.md R11.5). */
    const runStatus = async (id: string) => (await raw(em, "GET", `/api/v1/runs/${id}`, { apiKey: API_KEY, tenantId: workspace })).status;

    const base: Shape = { hookUrl: HOOK_URL, days: 400, tier: "longlived", applyToAll: false, ruleName: "backfilled" };

    /** The program for `s`, written over the project's Pulumi.yaml. */
    function write(s: Shape): void {
        const text = [
            "name: settings",
            "runtime: yaml",
            "resources:",
            "  hook:",
            "    type: langsmith:PromptWebhook",
            "    properties:",
            `      url: ${s.hookUrl}`,
            `      headers: { Authorization: "${HOOK_HEADER}" }`,
            "      triggers: [commit]",
            "  model:",
            "    type: langsmith:ModelConfiguration",
            "    properties:",
            `      name: fast-${suffix}`,
            "      model: openai:gpt-4o-mini",
            "      apiKeySecret: OPENAI_API_KEY",
            `      settings: ${s.modelSettings ?? "{ temperature: 0 }"}`,
            "  retention:",
            "    type: langsmith:WorkspaceRetention",
            "    properties:",
            `      defaultTraceTier: ${s.tier}`,
            `      applyToAllProjects: ${s.applyToAll}`,
            `      longLivedTtlDays: ${s.days}`,
            "  orgRetention:",
            "    type: langsmith:OrganizationRetention",
            "    properties:",
            "      defaultTraceTier: longlived",
            "  limit:",
            "    type: langsmith:UsageLimit",
            "    properties:",
            "      limitType: monthly_traces",
            "      limitValue: 100000",
            "  examples:",
            "    type: langsmith:Dataset",
            "    properties:",
            `      name: backfilled-${suffix}`,
            "  rule:",
            "    type: langsmith:RunRule",
            "    properties:",
            `      name: ${s.ruleName}`,
            `      sessionId: ${session.id}`,
            "      samplingRate: 1",
            "      addToDatasetId: ${examples.id}",
            `      backfillFrom: "${backfill}"`,
            "      webhooks:",
            "        - url: http://127.0.0.1:9/rule",
            "          headers: {}",
            ...(s.extra ?? []),
            "outputs:",
            "  hookUrl: ${hook.url}",
            "  ruleId: ${rule.id}",
            "  datasetId: ${examples.id}",
        ];
        writeFileSync(join(project.dir, "Pulumi.yaml"), `${text.join("\n")}\n`);
    }

    /** The examples the rule added to the dataset, by the run each came from. */
    async function examplesBySource(datasetId: string): Promise<string[]> {
        await admin(em, "POST", "/evaluation/idle");
        const examples = (await get(`/api/v1/examples?dataset=${datasetId}&limit=100`)) as Array<{ source_run_id: string }>;
        return examples.map((e) => e.source_run_id).sort();
    }

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        const made = await raw(em, "POST", "/api/v1/workspaces", { apiKey: API_KEY, tenantId: null, body: { display_name: "Settings", id: workspace } });
        assert.equal(made.status, 200, made.text);
        const s = await raw(em, "POST", "/api/v1/sessions", { apiKey: API_KEY, tenantId: workspace, body: { name: `traced-${suffix}` } });
        assert.equal(s.status, 200, s.text);
        session = s.body;
        const run = (id: string, ageDays: number) => {
            const start = new Date(em.clock.now() - ageDays * DAY_MS);
            return {
                id,
                name: "answer",
                run_type: "llm",
                start_time: start.toISOString(),
                end_time: new Date(start.getTime() + 500).toISOString(),
                inputs: { q: id },
                outputs: { a: "ok" },
                session_name: session.name,
            };
        };
        const post = [...recent.map((id) => run(id, 5)), run(old, 100)];
        const traced = await raw(em, "POST", "/runs/batch", { apiKey: API_KEY, tenantId: workspace, body: { post } });
        assert.equal(traced.status, 202, traced.text);
        backfill = backfillFrom();
        programDir = mkdtempSync(join(tmpdir(), "settings-program-"));
        writeFileSync(join(programDir, "Pulumi.yaml"), "name: settings\nruntime: yaml\n");
        project = createYamlProject(programDir);
        await project.initStack(stack, { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace }, { "langsmith:apiKey": API_KEY });
    });
    after(async () => {
        project?.remove();
        rmSync(programDir, { recursive: true, force: true });
        await em?.close();
    });

    it("up (its preview and update check each settings resource of one scope twice, refusing none); the webhook's URL and headers secret everywhere; the backfill applied to the runs since its time", async () => {
        write(base);
        await cli("up", "--yes");
        const stored = await project.storedText(stack);
        for (const [what, secret] of Object.entries({ "the webhook's URL": HOOK_TOKEN, "its header": HOOK_HEADER })) {
            assert.ok(!stored.includes(secret), `${what} is in the state in plain text`);
            assert.ok(!project.transcript.join("\n").includes(secret), `${what} is in a command's output`);
        }
        const outputs = await project.outputs(stack);
        assert.equal(outputs.hookUrl, "[secret]", "the webhook's URL is a plain output");
        assert.deepEqual(await examplesBySource(outputs.datasetId), [...recent].sort(), "the backfill took the runs since its time, once each");
    });

    it("the drift check is green: webhooks[].headers {} is no change, before or after a refresh", async () => {
        await cli("preview", "--refresh", "--expect-no-changes", "--diff");
    });

    it("a model's settings holding the provider's key (at any depth) are refused at preview, naming apiKeySecret; the key printed nowhere, sent nowhere", async () => {
        write({ ...base, modelSettings: `{ temperature: 0, api_key: "${MODEL_KEY}", model_kwargs: { extra_body: { openai_api_key: "${MODEL_KEY}" } } }` });
        const pv = await failing("preview");
        const said = pv.stdout + pv.stderr;
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.match(said, /settings\.api_key/);
        assert.match(said, /settings\.model_kwargs\.extra_body\.openai_api_key/);
        assert.match(said, /apiKeySecret/);
        assert.ok(!project.transcript.join("\n").includes(MODEL_KEY), "the key is in a command's output");
        const saved = JSON.stringify(await get("/api/v1/playground-settings"));
        assert.ok(!saved.includes(MODEL_KEY), "the key was sent");
    });

    it("a second WorkspaceRetention, OrganizationRetention or UsageLimit of one type for one scope is refused at preview (a preview each: the engine stops at the first refusal)", async () => {
        const again = (name: string, type: string, ...properties: string[]) => [
            `  ${name}:`,
            `    type: langsmith:${type}`,
            "    properties:",
            ...properties.map((p) => `      ${p}`),
        ];
        // Which of the two is refused depends on the order the engine checks them in: either names the other.
        for (const [first, name, extra] of [
            ["retention", "retentionAgain", again("retentionAgain", "WorkspaceRetention", "defaultTraceTier: shortlived")],
            ["orgRetention", "orgRetentionAgain", again("orgRetentionAgain", "OrganizationRetention", "defaultTraceTier: shortlived")],
            ["limit", "limitAgain", again("limitAgain", "UsageLimit", "limitType: monthly_traces", "limitValue: 5")],
        ] as const) {
            write({ ...base, extra: [...extra] });
            const pv = await failing("preview");
            assert.notEqual(pv.code, 0, `the preview with ${name} passed`);
            const either = `(${first}|${name})`;
            assert.match(pv.stdout + pv.stderr, new RegExp(`resource '${either}'.* has a problem: \\w+ "${either}" of this program already holds`), name);
        }
    });

    it("fewer long-lived days warn at preview with the days of traces they cost and that it cannot be undone, a new webhook URL shows as [secret]; up applies them, the older traces kept", async () => {
        write({ ...base, hookUrl: NEW_HOOK_URL, days: 30 });
        const pv = await cli("preview", "--diff");
        // With --diff the warnings are printed on stderr.
        const said = pv.stdout + pv.stderr;
        assert.match(said, /longLivedTtlDays 400 -> 30: .* 370 days less than now .* cannot be undone/);
        for (const token of [HOOK_TOKEN, NEW_HOOK_TOKEN]) assert.ok(!said.includes(token), "a webhook URL is printed in the diff");
        await cli("up", "--yes", "--skip-preview");
        // The days apply to the traces written from now on (docs/service.md R11.5): the 100-day-old one is still there.
        assert.equal(await runStatus(old), 200, "fewer days took an older trace");
        assert.ok(!(await project.storedText(stack)).includes(NEW_HOOK_TOKEN), "the new webhook URL is in the state in plain text");
    });

    it("the short-lived tier for every existing project warns with the days of traces it deletes, and up deletes them; a change of the rule's name sends no backfill again", async () => {
        write({ ...base, hookUrl: NEW_HOOK_URL, days: 30, tier: "shortlived", applyToAll: true, ruleName: "backfilled-renamed" });
        const up = await cli("up", "--yes");
        assert.match(
            up.stdout + up.stderr,
            /defaultTraceTier shortlived applied to every existing project .* older than 14 days are deleted at once \(up to 16 days of traces.*This cannot be undone/,
        );
        assert.equal(await runStatus(old), 404, "the 100-day-old trace, short-lived now, is still there");
        const { datasetId } = await project.outputs(stack);
        assert.deepEqual(await examplesBySource(datasetId), [...recent].sort(), "the update sent the backfill again");
    });
});
