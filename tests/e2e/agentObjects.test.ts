/**
 * Assistant and Cron on the real Pulumi engine, judged by both official clients (`@langchain/langgraph-sdk`
 * here, Python `langgraph-sdk` through programs/agent_objects_judge.py): examples/agent-objects (a Deployment,
 * an Assistant on it, a Cron running it, an AgentServerCheck of the assistant) and its Python twin
 * examples/python-agent-objects through the native plugin, against the emulator. After `up` both clients see
 * the assistant's configuration and versions and the cron's schedule; the cron fires on the emulator's clock
 * and its run shows in `runs.list`; a change made with an SDK shows in `pulumi preview --refresh` and
 * `up --refresh` puts the program's back as a new version; a new revision changes neither; a replaced
 * deployment replaces both, in order; a CLI killed after the server made each (its answer held back) leaves
 * nothing the next `up` makes twice or cannot take in; `pulumi import` of both by `<url>|<id>` (the native
 * plugin) reads back what the program says; destroy deletes both; the API key is in no state and no output.
 *
 * Its `pulumi` commands (issue 50: more than 8, on three stacks): each example lives its whole life on one stack
 * (one `up`, one `destroy`), each step on what the one before left; a `preview` only where its plan or its drift
 * is asserted (the SDK's change, a new revision, the replacement, the import); an `up` per change that step makes.
 * The killed runs have a stack of their own: the kill leaves a stack no other step could go on from.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@langchain/langgraph-sdk";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { withEnv } from "../helpers/async";
import { killedWhen } from "../helpers/cli";
import { admin } from "../helpers/emulator";
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

    /** The agent-server objects deleted since the request log was cleared (answered 2xx, or 404 when gone already), in order. */
    const agentDeletes = () =>
        em.admin.requests
            .filter((r) => r.method === "DELETE" && r.path.startsWith("/__agents/") && (r.status < 300 || r.status === 404))
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

            await cli("up", "--yes", "--skip-preview");
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
            await cli("up", "--refresh", "--yes", "--skip-preview");
            const back = await jsSees(out.deploymentUrl, out.assistantId);
            assert.deepEqual([back.assistant?.config.configurable, back.assistant?.version, back.crons[0].enabled], [{ model: "gpt-4o" }, 3, true]);

            await cli("config", "set", "agent-objects:model", "gpt-5");
            await cli("config", "set", "agent-objects:repoRef", "release-2");
            const revision = await cli("preview", "--diff");
            assert.doesNotMatch(revision.stdout, /replace/, "a new revision and a new version replace nothing");
            assert.match(revision.stdout, /~ \S*Assistant: \(update\)[\s\S]*?model\s*: "gpt-4o" => "gpt-5"/);
            await cli("up", "--yes", "--skip-preview");
            const updated = await project.outputs(stack);
            assert.deepEqual(
                [updated.assistantId, updated.cronId, updated.deploymentUrl, updated.assistantVersion],
                [out.assistantId, out.cronId, out.deploymentUrl, 4],
                "a new version of the same assistant; a new revision changes neither",
            );

            await cli("config", "set", "agent-objects:name", `renamed-${stack}`);
            const plan = await cli("preview", "--diff");
            // The new URL is not known before the deployment is made: the preview shows an update, `up` replaces.
            assert.match(plan.stdout, /\+-\S*Deployment: \(replace\)[\s\S]*~ \S*Assistant: \(update\)[\s\S]*url\s*: "[^"]+" => \[unknown\]/);
            em.admin.requests.length = 0;
            await cli("up", "--yes", "--skip-preview");
            const replaced = await project.outputs(stack);
            assert.notEqual(replaced.deploymentUrl, out.deploymentUrl);
            assert.notEqual(replaced.assistantId, out.assistantId, "a new assistant on the new server");
            assert.equal((await jsSees(replaced.deploymentUrl, replaced.assistantId)).crons[0].cron_id, replaced.cronId, "the cron too");
            assert.deepEqual(agentDeletes(), [`/runs/crons/${out.cronId}`, `/assistants/${out.assistantId}`], "the old ones deleted, the cron first");

            const exported = JSON.stringify(await project.exportStack(stack));
            assert.ok(!exported.includes(API_KEY) && !project.transcript.join("\n").includes(API_KEY), "the API key stored or printed");
            em.admin.requests.length = 0;
            await cli("destroy", "--yes", "--skip-preview");
            assert.deepEqual(agentDeletes(), [`/runs/crons/${replaced.cronId}`, `/assistants/${replaced.assistantId}`], "the cron, then the assistant");
        });

        it("a pulumi CLI killed after the server made the assistant, then the cron: the next up names each and the way in; LANGSMITH_ADOPT_IDS takes it in; none made twice", async () => {
            const stack = `killed-${randomUUID().slice(0, 8)}`;
            const workspace = randomUUID();
            const config = { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": workspace, "agent-objects:integrationId": randomUUID() };
            await project.initStack(stack, config, { "langsmith:apiKey": API_KEY });
            const up = (adopt: string[] = []) =>
                project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { allowFailure: true, env: { LANGSMITH_ADOPT_IDS: adopt.join(",") } });
            /** Whatever `path` finds on the stack's agent server (none before its deployment is served). */
            const found = async (path: string, body: object): Promise<Array<Record<string, string>>> => {
                const url = em.controlPlane.allDeployments().find((d) => d.tenant_id === workspace)?.source_config.custom_url;
                if (!url) return [];
                const res = await fetch(`${url}${path}`, {
                    method: "POST",
                    headers: { "x-api-key": API_KEY, "content-type": "application/json" },
                    body: JSON.stringify(body),
                });
                return res.ok ? ((await res.json()) as Array<Record<string, string>>) : [];
            };
            const assistants = () => found("/assistants/search", { name: "support" });
            const crons = () => found("/runs/crons/search", {});
            /** Kills `pulumi up` once the server made what `made` finds, its answer held back; then lifts the lock. */
            const killedOnceMade = async (path: string, made: () => Promise<unknown[]>, adopt: string[] = []) => {
                await admin(em, "POST", "/faults", { method: "POST", path, kind: "latency", latencyMs: 120_000, when: "after" });
                await withEnv({ LANGSMITH_ADOPT_IDS: adopt.join(",") }, () =>
                    killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", stack], async () => (await made()).length === 1),
                );
                await admin(em, "DELETE", "/faults");
                await project.pulumi(["cancel", "--yes", "--stack", stack], { allowFailure: true });
            };

            await killedOnceMade("/assistants$", assistants);
            const [assistant] = await assistants();
            const refused = await up();
            assert.notEqual(refused.code, 0);
            assert.match(refused.stdout + refused.stderr, new RegExp(`LANGSMITH_ADOPT_IDS=${assistant.assistant_id} pulumi up`));

            await killedOnceMade("/runs/crons$", crons, [assistant.assistant_id]);
            const [cron] = await crons();
            const again = await up();
            assert.notEqual(again.code, 0);
            assert.match(again.stdout + again.stderr, new RegExp(`already holds cron ${cron.cron_id}[\\s\\S]*LANGSMITH_ADOPT_IDS=${cron.cron_id} pulumi up`));

            assert.equal((await up([cron.cron_id])).code, 0);
            const out = await project.outputs(stack);
            assert.deepEqual([out.assistantId, out.cronId], [assistant.assistant_id, cron.cron_id], "the killed runs' objects, taken in");
            assert.deepEqual([(await assistants()).length, (await crons()).length], [1, 1], "none made twice");
            await project.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
        });
    });

    describe("examples/python-agent-objects (the native plugin)", () => {
        let project: PulumiProject;
        before(() => {
            project = createPythonProject("python-agent-objects");
        });
        after(() => project?.remove());

        it("up; both clients see it; a change made with an SDK shows in preview --refresh; a new revision previews them unchanged; a schedule change updates the cron in place; import of both by <url>|<id> then no change; destroy", async () => {
            const stack = `pyobjects-${randomUUID().slice(0, 8)}`;
            const config = { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID(), "python-agent-objects:integrationId": randomUUID() };
            await project.initStack(stack, config, { "langsmith:apiKey": API_KEY });
            const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);

            await cli("up", "--yes", "--skip-preview");
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

            // The plugin previews outputs: a new revision keeps the deployment's URL, so the objects on it are no change.
            await cli("config", "set", "python-agent-objects:repoRef", "release-2");
            const revision = await cli("preview", "--diff");
            assert.match(revision.stdout, /~ langsmith:index:Deployment: \(update\)/);
            assert.doesNotMatch(revision.stdout, /Assistant|Cron|\[unknown\]/, "the assistant and the cron unchanged, nothing unknown");
            await cli("config", "set", "python-agent-objects:schedule", "30 8 * * *");
            await cli("up", "--refresh", "--yes", "--skip-preview");
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
            await cli("destroy", "--yes", "--skip-preview");
            // Imported resources carry no dependency on each other: the order is the engine's, and a cron deleted
            // with its assistant first answers 404, which is done.
            assert.deepEqual(agentDeletes().sort(), [`/assistants/${out.assistantId}`, `/runs/crons/${out.cronId}`]);
        });
    });
});
