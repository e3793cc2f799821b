/**
 * `--state-dir` for every area: an emulator process killed with SIGKILL and started again on the same
 * directory (and port) answers the same deployments, revisions, delete requests, threads and runs, with
 * statuses that carry on as the emulator clock (kept too) says; no secret value is in any file of the
 * directory. Also: the agent servers' records are kept whole (fields this code does not know included),
 * and a reset is kept.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { systemAssistantId } from "../../provider/api/schemas/agentServer";
import { AgentServerModel } from "../../emulator/agentServer/model";
import { Clock } from "../../emulator/core/clock";
import { Store } from "../../emulator/core/store";
import { TEST_API_KEY, admin, dockerBody, githubBody, raw, startEmulatorProcess, startTestEmulator } from "../helpers/emulator";

const SECRET_GITHUB = `sk-persist-github-${process.pid}-7f3a9c`;
const SECRET_IMAGE = `sk-persist-image-${process.pid}-b81d42`;
/** Every status lasts 100 times its default: a github revision is BUILDING from 80 s to 280 s; a delete takes 50 s. */
const ARGS = ["--speed", "timed", "--scale", "100", "--agent-step-ms", "1000"];
const LONG_INPUT = "one two three four five six seven eight nine ten";

type Msg = { type: string; content: unknown };
/** Where an emulator answers (a process of its own or one in this process). */
type At = { url: string };
interface Server {
    child: ChildProcess;
    url: string;
}

describe("emulator: --state-dir keeps every area across kill -9", function () {
    this.timeout(90_000);
    let dir: string;
    const children: ChildProcess[] = [];

    before(() => {
        dir = mkdtempSync(join(tmpdir(), "emulator-state-"));
    });
    after(() => {
        for (const c of children) c.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
    });

    async function start(extra: string[] = []): Promise<Server> {
        const s = await startEmulatorProcess(["--state-dir", dir, ...ARGS, ...extra]);
        children.push(s.child);
        return s;
    }
    async function kill(s: Server): Promise<void> {
        s.child.kill("SIGKILL");
        await new Promise((r) => s.child.once("exit", r));
    }
    /** Moves the emulator clock; answers its time after the move (ms). */
    const advance = async (s: At, ms: number) => Date.parse((await admin(s, "POST", "/clock/advance", { ms })).now);
    const get = async (s: At, path: string) => (await raw(s, "GET", path)).body;
    const create = async (s: At, path: string, body: unknown) => {
        const res = await raw(s, "POST", path, { body });
        assert.equal(res.status, 201, res.text);
        return res.body;
    };
    const agents = (url: string) => new Client({ apiUrl: url, apiKey: TEST_API_KEY, callerOptions: { maxRetries: 0 } });
    const messages = async (c: Client, threadId: string) =>
        (await c.threads.getState<{ messages: Msg[] }>(threadId)).values.messages.map((m) => `${m.type}: ${m.content}`);

    it("deployments, revisions mid-BUILDING, a delete in progress, threads and a run mid-way come back and carry on", async () => {
        const first = await start();
        const port = new URL(first.url).port;
        const served = await create(first, "/v2/deployments", githubBody(undefined, { secrets: [{ name: "OPENAI_API_KEY", value: SECRET_GITHUB }] }));
        const image = await create(first, "/api-host/v2/deployments", dockerBody(undefined, { secrets: [{ name: "TOKEN", value: SECRET_IMAGE }] }));
        const deleted = await create(first, "/v2/deployments", githubBody());
        await advance(first, 500_000); // all three DEPLOYED (a github revision takes 460 s)

        const client = agents(served.source_config.custom_url);
        const thread = await client.threads.create({ metadata: { owner: "persistence" } });
        const done = await client.runs.create(thread.thread_id, "agent", { input: { messages: [{ role: "user", content: "hello persistent world" }] } });
        await advance(first, 5_000);
        assert.equal((await client.runs.get(thread.thread_id, done.run_id)).status, "success");

        const building = await create(first, "/v2/deployments", githubBody());
        await advance(first, 81_000);
        assert.equal((await get(first, `/v2/deployments/${building.id}/revisions/${building.latest_revision_id}`)).status, "BUILDING");
        assert.equal((await raw(first, "DELETE", `/v2/deployments/${deleted.id}`)).status, 204);
        const midway = await client.runs.create(thread.thread_id, "agent", { input: { messages: [{ role: "user", content: LONG_INPUT }] } });
        const before = {
            now: await advance(first, 3_500),
            list: await get(first, "/v2/deployments?limit=100"),
            messages: await messages(client, thread.thread_id),
        };
        const revisionsBefore = await get(first, `/v2/deployments/${served.id}/revisions`);
        assert.equal(before.list.resources.length, 4);
        assert.deepEqual(before.messages.slice(-1), ["ai: one two three"]);

        await kill(first);
        const second = await start(["--port", port]);
        const again = agents(served.source_config.custom_url);

        // The clock carries on from where it was (the time it was down counts too).
        assert.ok((await advance(second, 0)) >= before.now, "the emulator clock went back after the restart");
        // The same deployments, as they were, with their statuses where the clock says.
        const list = await get(second, "/v2/deployments?limit=100");
        const shown = (l: any) => l.resources.map((d: any) => [d.id, d.name, d.status, d.latest_revision_id, d.active_revision_id, d.created_at, d.secrets]);
        assert.deepEqual(shown(list), shown(before.list));
        assert.deepEqual(list.resources.find((d: any) => d.id === image.id).secrets, [{ name: "TOKEN", value: "" }]);
        assert.equal(list.resources.find((d: any) => d.id === deleted.id).status, "AWAITING_DELETE");
        assert.deepEqual(await get(second, `/v2/deployments/${served.id}/revisions`), revisionsBefore);
        const revision = `/v2/deployments/${building.id}/revisions/${building.latest_revision_id}`;
        assert.equal((await get(second, revision)).status, "BUILDING", "the revision mid-BUILDING did not come back where it was");

        // Threads and runs: the finished run, the one mid-way (running, its partial output), the metadata.
        assert.deepEqual((await again.threads.get(thread.thread_id)).metadata, {
            owner: "persistence",
            graph_id: "agent",
            assistant_id: systemAssistantId("agent"),
        });
        assert.equal((await again.runs.get(thread.thread_id, done.run_id)).status, "success");
        assert.equal((await again.runs.get(thread.thread_id, midway.run_id)).status, "running");
        const partial = await messages(again, thread.thread_id);
        assert.deepEqual(partial.slice(0, 3), ["human: hello persistent world", "ai: hello persistent world", `human: ${LONG_INPUT}`]);
        // Its words so far, and more if the clock ran on while it was down (how many depends on the machine's load).
        assert.match(partial[3], /^ai: one two three( \w+)*$/);

        // Both carry on as the clock moves: the build ends, the delete completes, the run finishes.
        await advance(second, 200_000);
        assert.equal((await get(second, revision)).status, "AWAITING_DEPLOY");
        assert.equal((await raw(second, "GET", `/v2/deployments/${deleted.id}`)).status, 404);
        assert.equal((await again.runs.get(thread.thread_id, midway.run_id)).status, "success");
        assert.equal((await messages(again, thread.thread_id))[3], `ai: ${LONG_INPUT}`);
        await advance(second, 200_000);
        assert.equal((await get(second, `/v2/deployments/${building.id}`)).status, "READY");

        // The revision counter is kept: a new revision of the first deployment's ref gets a commit sha of its own.
        const shas = revisionsBefore.resources.map((r: any) => r.source_revision_config.repo_commit_sha);
        const patched = await raw(second, "PATCH", `/v2/deployments/${served.id}`, { body: { source_revision_config: { repo_ref: "main" } } });
        assert.equal(patched.status, 200, patched.text);
        assert.ok(!shas.includes(patched.body.source_revision_config.repo_commit_sha), "a commit sha was handed out twice");
        await kill(second);

        // No secret value in plain text in any file of the directory; sealed, they open with its key.
        const files = readdirSync(dir);
        for (const f of ["clock.json", "control-plane.json", "agent-server.json", "credentials.key"]) assert.ok(files.includes(f), `${f} missing`);
        for (const f of files) {
            const text = readFileSync(join(dir, f), "utf8");
            assert.ok(!text.includes(SECRET_GITHUB) && !text.includes(SECRET_IMAGE), `${f} holds a secret value in plain text`);
        }
        const store = new Store<any>(dir, "control-plane.json");
        const sealed = store.load().deployments.flatMap((d: any) => d.secrets.map((s: any) => store.open<string>(s.sealedValue)));
        assert.deepEqual(sealed.sort(), [SECRET_GITHUB, SECRET_IMAGE].sort());
    });

    it("the agent servers keep their records whole: fields this code does not know survive a restore and a save", () => {
        const own = mkdtempSync(join(tmpdir(), "agent-state-"));
        try {
            const thread = { thread_id: "t-1", deployment_id: "d-1", created_at: 1, metadata: {}, runs: [], later: { added: "by another change" } };
            writeFileSync(join(own, "agent-server.json"), JSON.stringify({ threads: [thread] }));
            const model = new AgentServerModel(new Clock(), {}, new Store(own, "agent-server.json"));
            assert.equal((model.getThread("d-1", "t-1") as { thread_id: string }).thread_id, "t-1");
            model.createThread("d-1", { thread_id: "t-2" });
            const saved = JSON.parse(readFileSync(join(own, "agent-server.json"), "utf8"));
            assert.deepEqual(
                saved.threads.map((t: any) => t.thread_id),
                ["t-1", "t-2"],
            );
            assert.deepEqual(saved.threads[0].later, { added: "by another change" });
        } finally {
            rmSync(own, { recursive: true, force: true });
        }
    });

    it("a reset is kept: started again on the directory, the emulator has nothing and its clock is back at zero", async () => {
        const own = mkdtempSync(join(tmpdir(), "reset-state-"));
        try {
            let em = await startTestEmulator({ stateDir: own, timing: { speed: "immediate" } });
            await create(em, "/v2/deployments", githubBody());
            em.clock.advance(3_600_000);
            await em.close();
            em = await startTestEmulator({ stateDir: own, timing: { speed: "immediate" } });
            assert.equal((await get(em, "/v2/deployments")).resources.length, 1);
            assert.ok(em.clock.now() - Date.now() >= 3_600_000 - 1_000, "the clock offset was not kept");
            await admin(em, "POST", "/reset");
            await em.close();
            em = await startTestEmulator({ stateDir: own, timing: { speed: "immediate" } });
            assert.equal((await get(em, "/v2/deployments")).resources.length, 0);
            assert.ok(Math.abs(em.clock.now() - Date.now()) < 1_000, "the reset clock was not kept");
            await em.close();
        } finally {
            rmSync(own, { recursive: true, force: true });
        }
    });
});

describe("emulator: --state-dir keeps the organization's data planes and the sandboxes (docs/service.md R17)", function () {
    this.timeout(30_000);

    it("a data plane mid-provisioning and a snapshot with the box started from it come back; the data plane carries on to active; no external id is kept", async () => {
        const dir = mkdtempSync(join(tmpdir(), "emulator-planes-"));
        try {
            const first = await startTestEmulator({ stateDir: dir });
            const externalId = `ext-persist-${process.pid}-5c2e`;
            const snap = await raw(first, "POST", "/api/v2/sandboxes/snapshots", {
                body: { name: "persist", docker_image: "python:3.12-slim", fs_capacity_bytes: 1024 },
            });
            first.clock.advance(1_500); // built
            const box = await raw(first, "POST", "/api/v2/sandboxes/boxes", { body: { name: "persist-box", snapshot_id: snap.body.id } });
            assert.equal(box.status, 201, box.text);
            const dp = await raw(first, "POST", "/api/v1/orgs/current/data-planes", {
                tenantId: null,
                body: { name: "persist", region: "us-east-1", role_arn: "arn:aws:iam::123456789012:role/r", external_id: externalId },
            });
            assert.deepEqual([dp.status, dp.body.status], [202, "requested"]);
            first.clock.advance(600); // provisioning until 2.5 s after its request
            await first.close();
            for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), "utf8").includes(externalId), `${f} holds the external id`);
            const again = await startTestEmulator({ stateDir: dir });
            try {
                assert.equal((await raw(again, "GET", `/api/v1/orgs/current/data-planes/${dp.body.id}`, { tenantId: null })).body.status, "provisioning");
                again.clock.advance(5_000);
                assert.equal((await raw(again, "GET", `/api/v1/orgs/current/data-planes/${dp.body.id}`, { tenantId: null })).body.status, "active");
                assert.equal((await raw(again, "GET", `/api/v2/sandboxes/snapshots/${snap.body.id}`)).body.status, "ready");
                const refused = await raw(again, "DELETE", `/api/v2/sandboxes/snapshots/${snap.body.id}`);
                assert.deepEqual([refused.status, refused.body.detail.error], [409, "snapshot_in_use"], "the box is kept too");
            } finally {
                await again.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
