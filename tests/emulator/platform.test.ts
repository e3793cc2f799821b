/**
 * The emulator's platform area (emulator/platform, docs/service.md R18) over HTTP, on the description's
 * `/v1/platform/...` paths: tools by handle and by id (a handle taken 409, one the service does not take 400, the
 * list's query and pages), Fleet MCP servers (header values never answered, a name taken 409, a URL that is not https
 * 400, a user's own OAuth client and the list's `X-Ls-User-Id`), features' models (a feature the service does not
 * have 400 naming those it has; a disabled default refused; DELETE back to the service's own), refusals in the
 * platform's `{error}` shape, the permissions (a Viewer key reads, may not write: 403), and `--state-dir` (kept across
 * a restart, header values never in plain text on disk).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { raw, startTestEmulator, type Emulator } from "../helpers/emulator";
import { newWorkspace, roleId } from "../helpers/org";

const TOOLS = "/v1/platform/tools";
const SERVERS = "/v1/platform/fleet/mcp-servers";
const FEATURES = "/v1/platform/features";
const tool = (handle: string, over: Record<string, unknown> = {}) => ({
    handle,
    name: `Tool ${handle}`,
    description: "Finds orders.",
    parameters: { type: "object", properties: { email: { type: "string" } } },
    ...over,
});
const SECRET = "Bearer s3cret-header-value";

describe("emulator: platform tools, MCP servers, features' models", function () {
    this.timeout(20_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    afterEach(() => em.reset());
    after(() => em.close());

    it("tools: made (201), read by handle and by id, changed by either, listed with query and pages; a handle taken is 409, one the service does not take 400, in {error}", async () => {
        const made = await raw(em, "POST", TOOLS, { body: tool("search-orders", { metadata: { owner: "support" } }) });
        assert.equal(made.status, 201, made.text);
        assert.equal(made.body.enabled, true);
        const again = await raw(em, "POST", TOOLS, { body: tool("search-orders") });
        assert.deepEqual([again.status, again.body.error], [409, 'tool with handle "search-orders" already exists']);
        const bad = await raw(em, "POST", TOOLS, { body: tool("Search Orders") });
        assert.equal(bad.status, 400);
        assert.match(bad.body.error, /invalid handle "Search Orders"/);
        const missing = await raw(em, "POST", TOOLS, { body: { handle: "x" } });
        assert.equal(missing.status, 400);
        assert.match(missing.body.error, /body\.name: .*\(missing\)/);
        assert.equal((await raw(em, "GET", `${TOOLS}/search-orders`)).body.id, made.body.id);
        const patched = await raw(em, "PATCH", `${TOOLS}/id/${made.body.id}`, { body: { enabled: false, name: "Orders" } });
        assert.deepEqual([patched.status, patched.body.enabled, patched.body.name, patched.body.handle], [200, false, "Orders", "search-orders"]);
        const handle = await raw(em, "PATCH", `${TOOLS}/search-orders`, { body: { handle: "other" } });
        assert.equal(handle.status, 400, "the handle is fixed: the update payload has none");
        for (const h of ["a-1", "a-2", "b-1"]) assert.equal((await raw(em, "POST", TOOLS, { body: tool(h) })).status, 201);
        const page = await raw(em, "GET", `${TOOLS}?limit=2&offset=0`);
        assert.deepEqual([page.body.tools.length, page.body.total, page.body.next_offset], [2, 4, 2]);
        const query = await raw(em, "GET", `${TOOLS}?query=a-`);
        assert.deepEqual(
            query.body.tools.map((t: { handle: string }) => t.handle),
            ["a-1", "a-2"],
        );
        assert.equal((await raw(em, "DELETE", `${TOOLS}/a-1`)).status, 204);
        assert.equal((await raw(em, "DELETE", `${TOOLS}/id/${made.body.id}`)).status, 204);
        const gone = await raw(em, "GET", `${TOOLS}/id/${made.body.id}`);
        assert.deepEqual([gone.status, typeof gone.body.error], [404, "string"]);
        const elsewhere = await raw(em, "GET", `${TOOLS}/a-2`, { tenantId: await newWorkspace(em) });
        assert.equal(elsewhere.status, 404, "tools are the workspace's");
    });

    it("MCP servers: header values are never answered; a name taken is 409, a URL that is not https 400; PATCH rotates; a per-user OAuth client makes can_invoke true for that user", async () => {
        const made = await raw(em, "POST", SERVERS, {
            body: { name: "orders", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", value: SECRET }] },
        });
        assert.equal(made.status, 201, made.text);
        assert.deepEqual([made.body.auth_type, made.body.headers, made.body.can_invoke], ["headers", [{ name: "Authorization" }], true]);
        assert.ok(!made.text.includes(SECRET));
        const taken = await raw(em, "POST", SERVERS, { body: { name: "orders", url: "https://other.example.com" } });
        assert.deepEqual([taken.status, taken.body.error], [409, 'MCP server named "orders" already exists']);
        const http = await raw(em, "POST", SERVERS, { body: { name: "plain", url: "http://mcp.example.com" } });
        assert.equal(http.status, 400);
        assert.match(http.body.error, /https URL is required/);
        assert.equal((await raw(em, "POST", SERVERS, { body: { name: "local", url: "http://localhost:8080/mcp" } })).status, 201);
        const rotated = await raw(em, "PATCH", `${SERVERS}/${made.body.id}`, {
            body: { headers: [{ name: "X-Key", value: "k2-secret" }], url: "https://mcp2.example.com" },
        });
        assert.deepEqual(
            [rotated.status, rotated.body.id, rotated.body.headers, rotated.body.url],
            [200, made.body.id, [{ name: "X-Key" }], "https://mcp2.example.com"],
        );
        const noMode = await raw(em, "POST", SERVERS, { body: { name: "o", url: "https://o.example.com", auth_type: "oauth" } });
        assert.deepEqual([noMode.status, noMode.body.error], [400, "oauth_mode is required with auth_type oauth"]);
        const oauth = await raw(em, "POST", SERVERS, {
            body: { name: "o", url: "https://o.example.com", auth_type: "oauth", oauth_mode: "per_user_dynamic_client" },
        });
        assert.equal(oauth.body.can_invoke, false);
        const reg = await raw(em, "POST", `${SERVERS}/${oauth.body.id}/oauth-provider`, { body: { ls_user_id: "user-1" } });
        assert.equal(reg.status, 200, reg.text);
        assert.equal(typeof reg.body.oauth_provider_id, "string");
        const asUser = async (user: string) =>
            (await raw(em, "GET", SERVERS, { headers: { "X-Ls-User-Id": user } })).body.find((s: { id: string }) => s.id === oauth.body.id).can_invoke;
        assert.deepEqual([await asUser("user-1"), await asUser("user-2")], [true, false]);
        const onHeaders = await raw(em, "POST", `${SERVERS}/${made.body.id}/oauth-provider`, { body: { ls_user_id: "user-1" } });
        assert.equal(onHeaders.status, 400);
        assert.equal((await raw(em, "DELETE", `${SERVERS}/${made.body.id}`)).status, 204);
        assert.equal((await raw(em, "GET", `${SERVERS}/${made.body.id}`)).status, 404);
    });

    it("features: every feature listed; a default set, a disabled default refused, disabling the default refused; DELETE puts the service's own back; an unknown feature is 400 naming those there are", async () => {
        const list = await raw(em, "GET", FEATURES);
        assert.deepEqual(
            list.body.map((f: { feature: string }) => f.feature),
            ["playground", "evaluators", "fleet", "polly", "insights_thinking", "insights_summarization"],
        );
        assert.equal((await raw(em, "PUT", `${FEATURES}/polly/default-model`, { body: { model: "openai:gpt-4.1-mini" } })).status, 204);
        assert.equal((await raw(em, "PUT", `${FEATURES}/polly/disabled-models`, { body: { model: "openai:o3" } })).status, 204);
        const disabledDefault = await raw(em, "PUT", `${FEATURES}/polly/default-model`, { body: { model: "openai:o3" } });
        assert.deepEqual([disabledDefault.status, disabledDefault.body.error], [400, 'model "openai:o3" is disabled for feature polly']);
        const disableDefault = await raw(em, "PUT", `${FEATURES}/polly/disabled-models`, { body: { model: "openai:gpt-4.1-mini" } });
        assert.equal(disableDefault.status, 400);
        const polly = async () => (await raw(em, "GET", FEATURES)).body.find((f: { feature: string }) => f.feature === "polly");
        assert.deepEqual(await polly(), { feature: "polly", default_model: "openai:gpt-4.1-mini", disabled_models: ["openai:o3"] });
        assert.equal((await raw(em, "DELETE", `${FEATURES}/polly/disabled-models/openai:o3`)).status, 204);
        assert.equal((await raw(em, "DELETE", `${FEATURES}/polly/default-model`)).status, 204);
        assert.deepEqual(await polly(), { feature: "polly", disabled_models: [] });
        const unknown = await raw(em, "PUT", `${FEATURES}/autocomplete/default-model`, { body: { model: "m" } });
        assert.equal(unknown.status, 400);
        assert.match(unknown.body.error, /unknown feature "autocomplete": the features are playground, evaluators, fleet, polly/);
    });

    it("permissions: a Viewer key of the workspace reads tools, servers and features, and may write none (403 naming workspaces:manage)", async () => {
        const ws = await newWorkspace(em);
        const res = await raw(em, "POST", "/api/v1/orgs/current/service-keys", {
            tenantId: null,
            body: { description: "viewer", workspaces: [ws], role_id: await roleId(em, "WORKSPACE_VIEWER") },
        });
        const key = res.body.key as string;
        for (const path of [TOOLS, SERVERS, FEATURES]) assert.equal((await raw(em, "GET", path, { apiKey: key, tenantId: ws })).status, 200, path);
        const writes: Array<[string, string, unknown]> = [
            ["POST", TOOLS, tool("t")],
            ["POST", SERVERS, { name: "s", url: "https://s.example.com" }],
            ["PUT", `${FEATURES}/polly/default-model`, { model: "m" }],
        ];
        for (const [method, path, body] of writes) {
            const r = await raw(em, method, path, { apiKey: key, tenantId: ws, body });
            assert.deepEqual([r.status, r.body.detail], [403, "This API key's role WORKSPACE_VIEWER lacks the permission workspaces:manage."], path);
        }
    });

    it("--state-dir: tools, servers and features' models survive a restart; no header value is on disk in plain text", async () => {
        const dir = mkdtempSync(join(tmpdir(), "platform-state-"));
        try {
            let e = await startTestEmulator({ stateDir: dir });
            const made = await raw(e, "POST", SERVERS, {
                body: { name: "kept", url: "https://kept.example.com", headers: [{ name: "Authorization", value: SECRET }] },
            });
            assert.equal((await raw(e, "POST", TOOLS, { body: tool("kept") })).status, 201);
            assert.equal((await raw(e, "PUT", `${FEATURES}/fleet/default-model`, { body: { model: "anthropic:claude-sonnet-4-5" } })).status, 204);
            await e.close();
            for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), "utf8").includes(SECRET.slice(7)), f);
            e = await startTestEmulator({ stateDir: dir });
            assert.equal((await raw(e, "GET", `${TOOLS}/kept`)).status, 200);
            assert.deepEqual((await raw(e, "GET", `${SERVERS}/${made.body.id}`)).body.headers, [{ name: "Authorization" }]);
            const fleet = (await raw(e, "GET", FEATURES)).body.find((f: { feature: string }) => f.feature === "fleet");
            assert.equal(fleet.default_model, "anthropic:claude-sonnet-4-5");
            await e.close();
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
