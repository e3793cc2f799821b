/**
 * The official LangSmith clients, as released, with a service key made through the emulated service
 * (docs/service.md R7): the Python `langsmith` (in the test venv; tests/emulator/python/org_client.py) makes and
 * lists a tracing project with the classic `Client` given no workspace id (the workspace-scoped key's own
 * workspace is meant) and manages a workspace secret with the generated `Langsmith` client; the JS `langsmith`
 * (a devDependency) makes and reads a project. Once the key is deleted, every one of them fails with 401.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "langsmith";
import { raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { pythonPath } from "../helpers/pyarrow";

const SCRIPT = join(__dirname, "python", "org_client.py");

async function python(url: string, key: string, workspace: string, mode: "use" | "denied"): Promise<Map<string, any>> {
    const { stdout } = await promisify(execFile)(pythonPath(), [SCRIPT, url, key, workspace, mode]);
    const lines = stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { call: string; result: unknown });
    return new Map(lines.map((l) => [l.call, l.result]));
}

describe("emulator: the official clients with a service key made through the API", function () {
    this.timeout(60_000);
    let em: Emulator;
    let ws: string;
    let key: { id: string; key: string };
    before(async () => {
        em = await startTestEmulator();
        ws = (await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, body: { display_name: "clients" } })).body.id;
        key = (await raw(em, "POST", "/api/v1/orgs/current/service-keys", { tenantId: null, body: { description: "clients", workspaces: [ws] } })).body;
    });
    after(() => em.close());

    it("Python: the classic Client traces into the key's workspace without a workspace id; Langsmith manages a workspace secret", async () => {
        const calls = await python(em.url, key.key, ws, "use");
        assert.equal(calls.get("create_project").tenant_id, ws);
        assert.equal(calls.get("read_project"), "org-client-project");
        assert.deepEqual(calls.get("list_projects"), ["org-client-project"]);
        assert.deepEqual(calls.get("secrets_after_upsert"), ["OPENAI_API_KEY"]);
        assert.deepEqual(calls.get("secrets_after_delete"), []);
    });

    it("JS: the Client makes and reads a project with the key", async () => {
        const js = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: key.key });
        const made = await js.createProject({ projectName: "org-js-project" });
        assert.equal(made.tenant_id, ws);
        assert.equal((await js.readProject({ projectName: "org-js-project" })).id, made.id);
    });

    it("after the key is deleted, both clients fail with 401", async () => {
        assert.equal((await raw(em, "DELETE", `/api/v1/orgs/current/service-keys/${key.id}`, { tenantId: null })).status, 200);
        const calls = await python(em.url, key.key, ws, "denied");
        assert.equal(calls.get("list_projects").error, "LangSmithAuthError");
        assert.deepEqual(calls.get("secrets_list"), { error: "AuthenticationError", status: 401 });
        const js = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: key.key });
        await assert.rejects(js.readProject({ projectName: "org-js-project" }), /401/);
    });
});
