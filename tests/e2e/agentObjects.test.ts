/**
 * Assistant and Cron on the real Pulumi engine, judged by both official clients (`@langchain/langgraph-sdk`
 * here, Python `langgraph-sdk` through programs/agent_objects_judge.py): examples/agent-objects (a Deployment,
 * an Assistant on it, a Cron running it, an AgentServerCheck of the assistant) and its Python twin
 * examples/python-agent-objects through the native plugin, against the emulator. After `up` both clients see
 * the assistant's configuration and versions and the cron's schedule; the cron fires on the emulator's clock
 * and its run shows in `runs.list`; a change made with an SDK shows in `pulumi preview --refresh` and
 * `up --refresh` puts the program's back as a new version; a new revision changes neither; a replaced
 * deployment replaces both, in order; `pulumi import` of both by `<url>|<id>` (the native plugin) reads back what
 * the program says; destroy deletes both; the API key is in no state and no output.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@langchain/langgraph-sdk";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, createPythonProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const JUDGE = join(__dirname, "programs", "agent_objects_judge.py");

interface Seen {
    assistant: { config: { configurable: Record<string, unknown> }; version: number; graph_id: string } | null;
    versions: Array<{ version: number }>;
    crons: Array<{ cron_id: string; schedule: string; enabled: boolean }>;
    runs: Array<{ run_id: string }>;
}

/** What the official Python client sees of an assistant on the server at `url`. */
async function pythonSees(url: string, assistantId: string): Promise<Seen> {
    const python = process.env.PULUMI_LANGSMITH_PYTHON ?? "python3";
    const { stdout } = await promisify(execFile)(python, [JUDGE, url, API_KEY, assistantId], { maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout);
}

/** What the official JS client sees of the same. */
async function jsSees(url: string, assistantId: string): Promise<Seen> {
    const client = new Client({ apiUrl: url, apiKey: API_KEY });
    const assistant = await client.assistants.get(assistantId).catch(() => null);
    if (!assistant) return { assistant: null, versions: [], crons: [], runs: [] };
    const runs = [];
    for (const t of await client.threads.search({ limit: 100 }))
        runs.push(...(await client.runs.list(t.thread_id)).filter((r) => r.assistant_id === assistantId));
    return {
        assistant: assistant as unknown as Seen["assistant"],
        versions: await client.assistants.getVersions(assistantId),
        crons: (await client.crons.search({ assistantId })) as Seen["crons"],
        runs,
    };
}

describe("e2e: Assistant and Cron through the real pulumi CLI, judged by both official langgraph clients", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, agentServer: { stepMs: 20 } });
    });
    after(async () => {
        await em?.close();
    });

    /** The agent-server objects deleted since the request log was cleared, each answered 2xx, in order. */
    const agentDeletes = () =>
        em.admin.requests
            .filter((r) => r.method === "DELETE" && r.path.startsWith("/__agents/") && r.status < 300)
            .map((r) => r.path.replace(/^\/__agents\/[^/]+/, ""));
    /** Moves the emulator's clock just past `iso`. */
    const clockPast = (iso: string) => em.clock.advance(Math.max(0, Date.parse(iso) - em.clock.now()) + 1_000);

    describe("examples/agent-objects (TypeScript)", () => {
        let project: PulumiProject;
        before(() => {
            project = createProject("agent-objects");
        });
        after(() => project?.remove());

        it("up; both clients see it; the cron fires; an SDK's change shows in preview --refresh and up --refresh puts it back; a new version in place; a replaced deployment replaces both; destroy", async () => {
            const stack = `objects-${randomUUID().slice(0, 8)}`;
            const config = { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID(), "agent-objects:integrationId": randomUUID() };
            await project.initStack(stack, config, { "langsmith:apiKey": API_KEY });
            const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

            await cli("up", "--yes");
            const out = await project.outputs(stack);
            assert.deepEqual([out.assistantVersion, out.checkFirstRun], [1, "interrupted"], "the check ran on the assistant Pulumi made");
            for (const seen of [await jsSees(out.deploymentUrl, out.assistantId), await pythonSees(out.deploymentUrl, out.assistantId)]) {
                assert.deepEqual([seen.assistant?.graph_id, seen.assistant?.config.configurable, seen.versions.length], ["agent", { model: "gpt-4o" }, 1]);
                assert.deepEqual(
                    seen.crons.map((c) => [c.cron_id, c.schedule]),
                    [[out.cronId, "0 9 * * 1-5"]],
                );
            }
            await cli("preview", "--refresh", "--expect-no-changes");

            clockPast(out.nextDigest);
            const [js, py] = [await jsSees(out.deploymentUrl, out.assistantId), await pythonSees(out.deploymentUrl, out.assistantId)];
            assert.ok(js.runs.length >= 1, "the cron's run, in runs.list (JS)");
            assert.deepEqual(
                py.runs.map((r) => r.run_id),
                js.runs.map((r) => r.run_id),
                "the same runs (Python)",
            );

            // Changed outside Pulumi, as the UI or an SDK would.
            const sdk = new Client({ apiUrl: out.deploymentUrl, apiKey: API_KEY });
            await sdk.assistants.update(out.assistantId, { config: { configurable: { model: "edited" } } });
            await sdk.crons.update(out.cronId, { enabled: false });
            const drift = await project.pulumi(["preview", "--refresh", "--expect-no-changes", "--diff", "--stack", stack], { allowFailure: true });
            assert.notEqual(drift.code, 0, "the drift check fails");
            assert.match(drift.stdout, /~ \S*Assistant: \(update\)[\s\S]*?model\s*: "edited" => "gpt-4o"/);
            assert.match(drift.stdout, /~ \S*Cron: \(update\)[\s\S]*?enabled\s*: false => true/);
            await cli("up", "--refresh", "--yes");
            const back = await jsSees(out.deploymentUrl, out.assistantId);
            assert.deepEqual([back.assistant?.config.configurable, back.assistant?.version, back.crons[0].enabled], [{ model: "gpt-4o" }, 3, true]);

            await cli("config", "set", "agent-objects:model", "gpt-5");
            await cli("config", "set", "agent-objects:repoRef", "release-2");
            const revision = await cli("preview", "--diff");
            assert.doesNotMatch(revision.stdout, /replace/, "a new revision and a new version replace nothing");
            assert.match(revision.stdout, /~ \S*Assistant: \(update\)[\s\S]*?model\s*: "gpt-4o" => "gpt-5"/);
            await cli("up", "--yes");
            const updated = await project.outputs(stack);
            assert.deepEqual(
                [updated.assistantId, updated.cronId, updated.deploymentUrl, updated.assistantVersion],
                [out.assistantId, out.cronId, out.deploymentUrl, 4],
                "a new version of the same assistant; a new revision changes neither",
            );

            await cli("config", "set", "agent-objects:name", `renamed-${stack}`);
            const plan = await cli("preview", "--diff");
            assert.match(plan.stdout, /\+-\S*Assistant: \(replace\)/);
            assert.match(plan.stdout, /\+-\S*Cron: \(replace\)/);
            await cli("up", "--yes");
            const replaced = await project.outputs(stack);
            assert.notEqual(replaced.deploymentUrl, out.deploymentUrl);
            assert.equal((await jsSees(replaced.deploymentUrl, replaced.assistantId)).crons[0].cron_id, replaced.cronId, "both on the new server");

            const exported = JSON.stringify(await project.exportStack(stack));
            assert.ok(!exported.includes(API_KEY) && !project.transcript.join("\n").includes(API_KEY), "the API key stored or printed");
            em.admin.requests.length = 0;
            await cli("destroy", "--yes");
            assert.deepEqual(agentDeletes(), [`/runs/crons/${replaced.cronId}`, `/assistants/${replaced.assistantId}`], "the cron, then the assistant");
        });
    });

    describe("examples/python-agent-objects (the native plugin)", () => {
        let project: PulumiProject;
        before(() => {
            project = createPythonProject("python-agent-objects");
        });
        after(() => project?.remove());

        it("up; both clients see it; a change made with an SDK shows in preview --refresh; a schedule change updates the cron in place; import of both by <url>|<id> then no change; destroy", async () => {
            const stack = `pyobjects-${randomUUID().slice(0, 8)}`;
            const config = { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID(), "python-agent-objects:integrationId": randomUUID() };
            await project.initStack(stack, config, { "langsmith:apiKey": API_KEY });
            const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

            await cli("up", "--yes");
            const out = await project.outputs(stack);
            for (const seen of [await jsSees(out.url, out.assistantId), await pythonSees(out.url, out.assistantId)]) {
                assert.deepEqual([seen.assistant?.config.configurable, seen.crons.map((c) => c.cron_id)], [{ model: "gpt-4o" }, [out.cronId]]);
            }
            await cli("preview", "--refresh", "--expect-no-changes");

            const sdk = new Client({ apiUrl: out.url, apiKey: API_KEY });
            await sdk.assistants.update(out.assistantId, { metadata: { team: "edited" } });
            const drift = await project.pulumi(["preview", "--refresh", "--expect-no-changes", "--diff", "--stack", stack], { allowFailure: true });
            assert.notEqual(drift.code, 0);
            assert.match(drift.stdout, /~ \S*Assistant: \(update\)[\s\S]*?team\s*: "edited" => "support"/);

            await cli("config", "set", "python-agent-objects:schedule", "30 8 * * *");
            await cli("up", "--refresh", "--yes");
            const after = await project.outputs(stack);
            assert.deepEqual([after.cronId, after.assistantId], [out.cronId, out.assistantId], "updated in place");
            assert.equal((await jsSees(out.url, out.assistantId)).crons[0].schedule, "30 8 * * *");

            // Both taken out of the state (kept on the server, as if made outside Pulumi), then imported by <url>|<id>.
            const urns = (await project.exportStack(stack)).deployment.resources.map((r: { urn: string }) => r.urn);
            for (const type of ["Cron", "Assistant"])
                await cli(
                    "state",
                    "delete",
                    urns.find((u: string) => u.includes(`langsmith:index:${type}::`)),
                    "--yes",
                );
            await cli("import", "langsmith:index:Assistant", "support", `${out.url}|${out.assistantId}`, "--yes", "--generate-code=false", "--protect=false");
            await cli("import", "langsmith:index:Cron", "daily-digest", `${out.url}|${out.cronId}`, "--yes", "--generate-code=false", "--protect=false");
            await cli("preview", "--expect-no-changes");
            await cli("preview", "--refresh", "--expect-no-changes");
            assert.equal((await jsSees(out.url, out.assistantId)).versions.length, 3, "import changed nothing on the server");
            em.admin.requests.length = 0;
            await cli("destroy", "--yes");
            assert.deepEqual(agentDeletes(), [`/runs/crons/${out.cronId}`, `/assistants/${out.assistantId}`], "the cron, then the assistant");
        });
    });
});
