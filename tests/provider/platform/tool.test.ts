/**
 * Tool and getTool (provider/platform/tool, docs/service.md R18.1) against the emulator over HTTP, through the
 * registered provider and function: what preview refuses, naming the field (a handle the service would not take,
 * parameters that are no object schema; nothing sent); made, changed in place, a change made elsewhere seen by refresh,
 * a removed optional field cleared on the service; a handle the workspace already holds (the service's 409) refused
 * with its id, taken over when LANGSMITH_ADOPT_IDS names it; the look-up by handle and by id.
 */
import assert from "node:assert/strict";
import { Service } from "../../../provider/kit/service";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { withEnv } from "../../helpers/async";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const tool = RESOURCES.tool.provider as Provider;
const TOOLS = "/v1/platform/tools";
const args = (handle: string, over: Record<string, unknown> = {}) => ({
    handle,
    name: "Search orders",
    description: "Finds orders.",
    parameters: { type: "object", properties: { email: { type: "string" } } },
    metadata: { owner: "support" },
    ...over,
});
async function checked(news: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const r = await tool.check(olds, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}
const getTool = (a: Record<string, unknown>) => FUNCTIONS.getTool.run(new Service(), a as never);

describe("Tool and getTool", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();

    it("check: a handle the service would not take, parameters that are no object schema fail at preview by property with the fix; nothing is sent", async () => {
        em().admin.requests.length = 0;
        const failures = async (news: Record<string, unknown>) => (await tool.check({}, news)).failures ?? [];
        const handle = await failures(args("Search Orders"));
        assert.deepEqual(
            handle.map((f) => f.property),
            ["handle"],
        );
        assert.match(String(handle[0].reason), /handle must be 1 to 64 lower-case letters, digits, '-' or '_'.*got "Search Orders"/);
        const params = await failures(args("ok", { parameters: { type: "string" } }));
        assert.deepEqual(
            params.map((f) => f.property),
            ["parameters.type"],
        );
        assert.match(String(params[0].reason), /the JSON schema of an object/);
        assert.deepEqual((await failures({ handle: "x" })).map((f) => f.property).sort(), ["description", "name", "parameters"]);
        assert.deepEqual(writes(em()), []);
    });

    it("made, changed in place (PATCH by id), a change made elsewhere seen by refresh, a removed optional field cleared on the service, deleted", async () => {
        const handle = uniqueName("orders");
        const made = await tool.create(await checked(args(handle, { returns: { type: "array" } })));
        const onService = async () => (await raw(em(), "GET", `${TOOLS}/id/${made.id}`)).body;
        assert.deepEqual([(await onService()).handle, (await onService()).metadata], [handle, { owner: "support" }]);
        const news = await checked(args(handle, { enabled: false, description: "Finds orders by email." }), made.outs);
        const d = await tool.diff(made.id, made.outs, news);
        assert.deepEqual([d.changes, d.replaces ?? []], [true, []]);
        assert.deepEqual((await tool.diff(made.id, made.outs, await checked(args("other"), made.outs))).replaces, ["handle"]);
        const updated = await tool.update(made.id, made.outs, news);
        assert.deepEqual([(await onService()).enabled, (await onService()).id], [false, made.id]);
        // A change in the UI: seen by refresh, planned back.
        assert.equal((await raw(em(), "PATCH", `${TOOLS}/${handle}`, { body: { name: "Renamed" } })).status, 200);
        const read = await tool.read(made.id, updated.outs as never);
        assert.equal(read.inputs?.name, "Renamed");
        assert.equal((await tool.diff(made.id, read.props as never, news)).changes, true);
        // returns and metadata removed from the program: cleared on the service.
        const bare = await checked({ handle, name: "n", description: "d", parameters: { type: "object" } }, read.props as never);
        await tool.update(made.id, read.props as never, bare);
        const after = await onService();
        assert.deepEqual([after.returns ?? {}, after.metadata ?? {}, after.enabled], [{}, {}, true]);
        assert.deepEqual(await tool.read(made.id, bare), { id: made.id, props: { ...bare, createdAt: made.outs.createdAt, schemaVersion: 1 }, inputs: bare });
        await tool.delete(made.id, bare);
        assert.equal((await raw(em(), "GET", `${TOOLS}/id/${made.id}`)).status, 404);
        assert.deepEqual(await tool.read(made.id, bare), {});
    });

    it("a handle the workspace already holds is refused with its id (the service answers 409); LANGSMITH_ADOPT_IDS takes it over", async () => {
        const handle = uniqueName("held");
        const theirs = await raw(em(), "POST", TOOLS, { body: args(handle, { name: "Theirs" }) });
        assert.equal(theirs.status, 201);
        const inputs = await checked(args(handle));
        const e = await rejection(() => tool.create(inputs));
        assert.match(e.message, new RegExp(`Tool: the workspace already holds tool ${theirs.body.id} of handle "${handle}"`));
        assert.match(e.message, /LANGSMITH_ADOPT_IDS=/);
        assert.match(e.message, /give this one another handle/);
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: theirs.body.id }, () => tool.create(inputs));
        assert.equal(taken.id, theirs.body.id);
        assert.equal((await raw(em(), "GET", `${TOOLS}/${handle}`)).body.name, "Search orders");
    });

    it("getTool: by handle and by id; none fails naming it; both or neither refused", async () => {
        const handle = uniqueName("look");
        const made = await tool.create(await checked(args(handle)));
        const byHandle = await getTool({ handle });
        assert.deepEqual([byHandle.id, byHandle.name, byHandle.enabled, byHandle.metadata], [made.id, "Search orders", true, { owner: "support" }]);
        assert.equal((await getTool({ id: made.id })).handle, handle);
        assert.match((await rejection(() => getTool({ handle: "nope" }))).message, /getTool: the workspace's tool registry holds no tool of handle "nope"/);
        assert.match((await rejection(() => getTool({ handle, id: made.id }))).message, /give exactly one of handle and id/);
    });
});
