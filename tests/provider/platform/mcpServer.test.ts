/**
 * McpServer and getMcpServer (provider/platform/mcpServer, docs/service.md R18.2) against the emulator over HTTP,
 * through the registered provider and function: what preview refuses, naming the field and never the secret (a URL
 * that is not https, headers on an OAuth server, an OAuth server without its mode or shared provider, an empty header
 * value as `pulumi import` writes it; nothing sent); a credential change is a PATCH of the same server (rotation, not a
 * replace), a name change a replace; refresh sees the URL and the header names changed elsewhere, and
 * keeps the header values it cannot see; a service refusal's error holds no secret; a name taken refused with its id;
 * the look-up answers no secret.
 */
import assert from "node:assert/strict";
import { secretInputs } from "../../../provider/kit/declare";
import { Service } from "../../../provider/kit/service";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const server = RESOURCES.mcpServer.provider as Provider;
const SERVERS = "/v1/platform/fleet/mcp-servers";
const TOKEN = "Bearer tok-0123456789-secret";
const args = (name: string, over: Record<string, unknown> = {}) => ({ name, url: "https://mcp.example.com/mcp", headers: { Authorization: TOKEN }, ...over });
async function checked(news: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const r = await server.check(olds, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}

describe("McpServer and getMcpServer", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();

    it("the URL, the headers and the OAuth provider are declared secret: both front doors keep them encrypted in the state (dailyDrift reads it)", () => {
        assert.deepEqual(secretInputs(RESOURCES.mcpServer.declaration).sort(), ["headers", "oauthProviderId", "url"]);
    });

    it("check: a URL that is not https, headers on an OAuth server, an OAuth server without its mode or provider, an empty header value fail at preview by property, never showing a secret; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const failures = async (news: Record<string, unknown>) => (await server.check({}, news)).failures ?? [];
        const url = await failures(args("s", { url: "http://mcp.internal.example.com/secret-path" }));
        assert.deepEqual(
            url.map((f) => f.property),
            ["url"],
        );
        assert.match(String(url[0].reason), /url must be an https URL \(http only for localhost\)/);
        assert.ok(!String(url[0].reason).includes("secret-path"));
        assert.deepEqual(await failures(args("s", { url: "http://localhost:3000/mcp" })), []);
        const oauth = await failures(args("s", { authType: "oauth" }));
        assert.deepEqual(oauth.map((f) => f.property).sort(), ["headers", "oauthMode"]);
        const shared = await failures({ name: "s", url: "https://x.example.com", authType: "oauth", oauthMode: "legacy_shared_provider" });
        assert.deepEqual(
            shared.map((f) => f.property),
            ["oauthProviderId"],
        );
        const imported = await failures(args("s", { headers: { Authorization: "" } }));
        assert.deepEqual(
            imported.map((f) => f.property),
            ["headers.Authorization"],
        );
        assert.match(String(imported[0].reason), /the service never returns header values, so `pulumi import` writes ""/);
        const twice = await failures(args("s", { headers: { "X-Key": "a", "x-key": "b" } }));
        assert.deepEqual(
            twice.map((f) => f.property),
            ["headers.x-key"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("a credential change is a PATCH of the same server (rotation), a name change a replace; refresh sees the URL and header names, keeps the values it cannot see; deleted", async () => {
        const name = uniqueName("orders");
        const made = await server.create(await checked(args(name)));
        const onService = async () => (await raw(em(), "GET", `${SERVERS}/${made.id}`)).body;
        assert.deepEqual((await onService()).headers, [{ name: "Authorization" }]);
        const rotated = await checked(
            args(name, { headers: { Authorization: "Bearer rotated-secret-value" }, url: "https://mcp2.example.com/mcp" }),
            made.outs,
        );
        const d = await server.diff(made.id, made.outs, rotated);
        assert.deepEqual([d.changes, d.replaces ?? []], [true, []]);
        assert.deepEqual((await server.diff(made.id, made.outs, await checked(args("renamed"), made.outs))).replaces, ["name"]);
        const updated = await server.update(made.id, made.outs, rotated);
        assert.deepEqual([(await onService()).id, (await onService()).url], [made.id, "https://mcp2.example.com/mcp"]);
        // A clean refresh keeps the values the service never answers: no change planned.
        const clean = await server.read(made.id, updated.outs as never);
        assert.equal(clean.inputs?.headers?.Authorization, "Bearer rotated-secret-value");
        assert.equal((await server.diff(made.id, clean.props as never, rotated)).changes, false);
        // Changed in the UI: another URL and another header name, seen by refresh and planned back.
        const patched = await raw(em(), "PATCH", `${SERVERS}/${made.id}`, {
            body: { url: "https://evil.example.com", headers: [{ name: "X-Other", value: "v" }] },
        });
        assert.equal(patched.status, 200, patched.text);
        const read = await server.read(made.id, updated.outs as never);
        assert.deepEqual([read.inputs?.url, read.inputs?.headers], ["https://evil.example.com", { "X-Other": "" }]);
        const back = await server.diff(made.id, read.props as never, rotated);
        assert.deepEqual([back.changes, back.replaces ?? []], [true, []]);
        await server.update(made.id, read.props as never, rotated);
        assert.deepEqual([(await onService()).url, (await onService()).headers], ["https://mcp2.example.com/mcp", [{ name: "Authorization" }]]);
        await server.delete(made.id, rotated);
        assert.deepEqual(await server.read(made.id, rotated), {});
    });

    it("a name the workspace holds is refused with its id; a refusal of the service holds no secret in its words", async () => {
        const name = uniqueName("held");
        const theirs = await raw(em(), "POST", SERVERS, { body: { name, url: "https://theirs.example.com" } });
        const e = await rejection(async () => server.create(await checked(args(name))));
        assert.match(e.message, new RegExp(`McpServer: the workspace already holds MCP server ${theirs.body.id} named "${name}"`));
        // The service refuses the URL (the check let it through: unknown at preview); its words never echo the secret.
        em().addFault({
            kind: "status",
            method: "POST",
            path: "^/api/v1/platform/fleet/mcp-servers$",
            status: 400,
            body: { error: `bad url https://x.example.com ${TOKEN}` },
        });
        const refused = await rejection(async () => server.create(await checked(args(uniqueName("s"), { url: "https://x.example.com" }))));
        assert.match(refused.message, /400 Bad Request/);
        assert.ok(!refused.message.includes(TOKEN), refused.message);
        assert.ok(!refused.message.includes("https://x.example.com"), refused.message);
    });

    it("getMcpServer: by name and by id, the header names and auth, never a secret", async () => {
        const name = uniqueName("look");
        const made = await server.create(await checked(args(name)));
        const found = await FUNCTIONS.getMcpServer.run(new Service(), { name } as never);
        assert.deepEqual([found.id, found.authType, found.headerNames, found.canInvoke], [made.id, "headers", ["Authorization"], true]);
        assert.ok(!JSON.stringify(found).includes(TOKEN));
        assert.ok(!JSON.stringify(found).includes("mcp.example.com"));
        assert.equal((await FUNCTIONS.getMcpServer.run(new Service(), { id: made.id } as never)).name, name);
        const none = await rejection(() => FUNCTIONS.getMcpServer.run(new Service(), { name: "nope" } as never));
        assert.match(none.message, /getMcpServer: the workspace holds no MCP server named "nope"/);
    });
});
