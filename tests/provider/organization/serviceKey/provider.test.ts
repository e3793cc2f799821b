/**
 * ServiceKey (provider/serviceKey) against the emulator's organization API over HTTP (docs/service.md R7):
 * check (bad input refused at preview, nothing sent), diff, create of an organization-scoped and a
 * workspace-scoped key that then authenticates with its scope, roles changed in place, a rotation (the old
 * key works until its delete), delete (401), a lost create answer (the orphan deleted, exactly one key left),
 * an identical key refused then replaced through LANGSMITH_ADOPT_IDS, refresh and import by id. Every key
 * value made is searched for in every error and warning the tests saw: none may hold one.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../../provider/api/client";
import { OrganizationClient } from "../../../../provider/api/organization";
import { secretOutputs } from "../../../../provider/kit/declare";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { serviceKey } from "../../../../provider/organization/serviceKey/declare";
import { checkServiceKey, createServiceKeyProvider } from "../../../../provider/organization/serviceKey/provider";
import { stderrOf, withEnv } from "../../../helpers/async";
import { TEST_API_KEY, TEST_SETTLE_MS, admin, raw, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";
import { newWorkspace, roleId } from "../../../helpers/org";

const KEYS = "/api/v1/orgs/current/service-keys";
const LATER = "2099-01-01T00:00:00.000Z";

describe("ServiceKey", function () {
    this.timeout(20_000);
    let em: Emulator;
    /** Every key value a create answered, and every error and warning text the tests saw. */
    const keys: string[] = [];
    const texts: string[] = [];
    before(async () => void (em = await startTestEmulator()));
    after(async () => {
        await em?.close();
    });
    beforeEach(() => {
        em.reset();
        timeoutMs = 5_000;
    });

    /** How long the clients wait for an answer (ms): one test shortens it. */
    let timeoutMs = 5_000;
    const org = () =>
        new OrganizationClient(
            new HttpClient({
                baseUrl: em.url,
                apiKey: TEST_API_KEY,
                apiKeyHeader: "X-API-Key",
                retryBaseMs: 5,
                retryMaxMs: 20,
                settleMs: TEST_SETTLE_MS,
                timeoutMs,
            }),
        );
    const provider = () => {
        const p = createServiceKeyProvider({ organization: org });
        void p.configure!({ config: { get: (k: string) => ({ "langsmith:apiKey": TEST_API_KEY, "langsmith:endpoint": em.url })[k] } } as never);
        return p;
    };
    const checked = (news: Record<string, unknown>, olds: Record<string, unknown> = {}) => {
        const r = checkServiceKey(olds, news);
        assert.deepEqual(r.failures, []);
        return r.inputs as Record<string, any> & { description: string };
    };
    /** A provider call whose warnings (stderr outside an engine) and error are kept for the final search. */
    async function seen<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: Error; warnings: string }> {
        let value: T | undefined;
        let error: Error | undefined;
        const warnings = await stderrOf(async () => {
            try {
                value = await fn();
            } catch (e) {
                error = e as Error;
            }
        });
        texts.push(warnings, error ? `${error.message}\n${error.stack}` : "");
        return { value, error, warnings };
    }
    const create = async (inputs: Record<string, unknown>) => {
        const r = await seen(() => provider().create!(inputs));
        if (r.error) throw r.error;
        keys.push(r.value!.outs.key);
        return { ...r.value!, warnings: r.warnings };
    };
    const listed = async (description: string) => (await org().listServiceKeys()).filter((k) => k.description === description);
    /** The requests that could change something, since the log was last cleared. */
    const writes = async () =>
        (await admin(em, "GET", "/requests")).filter((q: { method: string; path: string }) => q.method !== "GET" && !q.path.startsWith("/__admin"));
    const status = async (key: string, method: string, path: string, tenantId: string | null, body?: unknown) =>
        (await raw(em, method, path, { apiKey: key, tenantId, body })).status;

    it("check: a past expiry, orgRoleId with workspaceIds, an unknown or misplaced role, bad workspace ids fail on their properties; an unknown value passes", async () => {
        const ws = "0b1c0000-0000-4000-8000-000000000001";
        const reasons = (news: Record<string, unknown>, olds = {}) => checkServiceKey(olds, news).failures!.map((f) => [f.property, f.reason]);
        assert.deepEqual(reasons({ description: "ci", expiresAt: "2020-01-01T00:00:00Z" }), [
            ["expiresAt", "expiresAt 2020-01-01T00:00:00.000Z is in the past: a key must expire in the future (or leave expiresAt out: it never expires)"],
        ]);
        assert.match(reasons({ description: "ci", expiresAt: "next week" })[0][1], /expiresAt must be an ISO 8601 timestamp with a time zone/);
        assert.deepEqual(reasons({ description: "ci", workspaceIds: [ws], orgRoleId: "ORGANIZATION_ADMIN" }), [
            ["orgRoleId", "orgRoleId applies only to organization-scoped keys (without workspaceIds): a workspace-scoped key has no organization role"],
        ]);
        // The UI calls WORKSPACE_USER Editor: the error says so (issue 39 item 10).
        assert.deepEqual(reasons({ description: "ci", roleId: "editor" }), [
            [
                "roleId",
                "roleId must be a role's id (a uuid) or one of WORKSPACE_ADMIN (Admin), WORKSPACE_USER (Editor), WORKSPACE_VIEWER (Viewer); got \"editor\": the UI's Editor role is WORKSPACE_USER",
            ],
        ]);
        assert.deepEqual(reasons({ description: "ci", roleId: "workspace_viewer", orgRoleId: "WORKSPACE_USER" }), [
            [
                "roleId",
                'roleId must be a role\'s id (a uuid) or one of WORKSPACE_ADMIN (Admin), WORKSPACE_USER (Editor), WORKSPACE_VIEWER (Viewer); got "workspace_viewer": did you mean WORKSPACE_VIEWER?',
            ],
            ["orgRoleId", "orgRoleId: WORKSPACE_USER is a workspace role; orgRoleId takes an organization role (set WORKSPACE_USER as roleId)"],
        ]);
        assert.deepEqual(reasons({ description: " ", workspaceIds: [] }), [
            ["description", "description must not be blank"],
            ["workspaceIds", "workspaceIds must name at least one workspace; leave it out for an organization-scoped key"],
        ]);
        assert.deepEqual(reasons({ description: "ci " }), [["description", 'description "ci " must not begin or end with spaces']]);
        assert.deepEqual(reasons({ description: "ci", workspaceIds: ["ws-1"] }), [
            ["workspaceIds[0]", 'workspaceIds[0] must be a workspace id (a uuid), not "ws-1"'],
        ]);
        assert.deepEqual(reasons({ description: "ci", workspaceIds: [UNKNOWN], roleId: UNKNOWN, expiresAt: UNKNOWN }), []);
        assert.deepEqual(reasons({ description: "ci", workspaceIds: UNKNOWN, orgRoleId: "ORGANIZATION_ADMIN" }), [], "a list not known yet may be empty");
        const defaults = checked({ description: "ci", expiresAt: "2099-01-01T01:00:00+01:00" });
        assert.deepEqual(defaults, { description: "ci", roleId: "WORKSPACE_ADMIN", orgRoleId: "ORGANIZATION_USER", expiresAt: LATER });
        assert.equal(checked({ description: "ci", workspaceIds: [ws] }).orgRoleId, undefined, "no organization role for a workspace-scoped key");
        // The key the state holds expired since: a warning (the stack still previews), not a failure.
        const expired = checkServiceKey({ expiresAt: "2020-01-01T00:00:00.000Z" }, { description: "ci", expiresAt: "2020-01-01T00:00:00Z" });
        assert.deepEqual([expired.failures, expired.warnings.length], [[], 1]);
        assert.match(expired.warnings[0], /expired at 2020-01-01T00:00:00.000Z.*Set a later expiresAt/);
    });

    it("check (provider): a role uuid the organization does not have is refused naming the roles it has; nothing is sent", async () => {
        const ghost = "0b1c0000-0000-4000-8000-0000000000ff";
        await admin(em, "DELETE", "/requests");
        const r = await provider().check!({}, { description: "ci", roleId: ghost, orgRoleId: await roleId(em, "WORKSPACE_USER") });
        const reasons = Object.fromEntries(r.failures!.map((f) => [f.property, f.reason]));
        assert.match(
            reasons.roleId,
            new RegExp(
                `^roleId: the organization has no role ${ghost}; its workspace roles are Admin \\(WORKSPACE_ADMIN\\), Editor \\(WORKSPACE_USER\\), Viewer \\(WORKSPACE_VIEWER\\)`,
            ),
        );
        assert.match(reasons.orgRoleId, /^orgRoleId: .* is Editor, a workspace role; its organization roles are Organization Admin \(ORGANIZATION_ADMIN\)/);
        assert.deepEqual(await writes(), [], "a check reads, never writes");
        assert.deepEqual((await provider().check!({}, { description: "ci", roleId: "WORKSPACE_VIEWER" })).failures, []);
    });

    it("diff: description, workspaceIds, expiresAt replace (creating the new key first); roles update in place; same set or instant is no change", async () => {
        const [a, b] = ["0b1c0000-0000-4000-8000-00000000000a", "0b1c0000-0000-4000-8000-00000000000b"];
        const olds = { ...checked({ description: "ci", workspaceIds: [a, b], expiresAt: LATER }), key: "k" };
        const d = (news: Record<string, unknown>) => provider().diff!("id", olds, checked(news));
        const same = await d({ description: "ci", workspaceIds: [b.toUpperCase(), a], expiresAt: "2099-01-01T01:00:00+01:00" });
        assert.equal(same.changes, false);
        const rotated = await d({ description: "ci", workspaceIds: [a, b], expiresAt: "2099-06-01T00:00:00Z" });
        assert.deepEqual([rotated.replaces, rotated.deleteBeforeReplace], [["expiresAt"], false]);
        assert.deepEqual((await d({ description: "ci-2", workspaceIds: [a] })).replaces, ["description", "workspaceIds", "expiresAt"]);
        const role = (await d({ description: "ci", workspaceIds: [a, b], expiresAt: LATER, roleId: "WORKSPACE_VIEWER" })) as {
            replaces?: string[];
            updates?: string[];
        };
        assert.deepEqual([role.replaces, role.updates], [[], ["roleId"]]);
    });

    it("declaration: key is the one secret output, for both front doors", () => {
        assert.deepEqual(secretOutputs(serviceKey), ["key"]);
    });

    it("create: an organization-scoped key authenticates at once; read keeps the key (never answered again); delete answers 401 after", async () => {
        const inputs = checked({ description: uniqueName("org-ci"), orgRoleId: "ORGANIZATION_VIEWER" });
        const made = await create(inputs);
        assert.match(made.outs.key, /^lsv2_sk_[0-9a-f]{32}_[0-9a-f]{10}$/);
        assert.deepEqual(
            [made.outs.accessScope, made.outs.shortKey, made.outs.roleId, made.outs.orgRoleId],
            ["organization", `lsv2_sk_...${made.outs.key.slice(-4)}`, "WORKSPACE_ADMIN", "ORGANIZATION_VIEWER"],
        );
        const [k] = await listed(inputs.description);
        assert.deepEqual([k.id, k.org_role_id, k.key], [made.id, await roleId(em, "ORGANIZATION_VIEWER"), undefined]);
        assert.equal(await status(made.outs.key, "GET", "/api/v1/workspaces", null), 200);
        assert.equal(await status(made.outs.key, "POST", "/api/v1/workspaces", null, { display_name: "no" }), 403, "Organization Viewer");

        const read = await provider().read!(made.id, made.outs);
        assert.deepEqual([read.props!.key, read.inputs], [made.outs.key, inputs], "refresh: no drift, the key kept");
        await provider().delete!(made.id, made.outs);
        assert.equal(await status(made.outs.key, "GET", "/api/v1/workspaces", null), 401);
        assert.deepEqual(await provider().read!(made.id, made.outs), {}, "gone: leaves the stack");
        await provider().delete!(made.id, made.outs); // already gone: done
    });

    it("create: built-in roles are read once a provider's run (their ids never change); a role given by id is read afresh", async () => {
        const p = provider();
        const roleReads = () => em.admin.requests.filter((q) => q.method === "GET" && q.path === "/api/v1/orgs/current/roles").length;
        em.admin.requests = [];
        for (const d of ["first", "second"]) keys.push((await p.create!(checked({ description: uniqueName(d), orgRoleId: "ORGANIZATION_VIEWER" }))).outs.key);
        assert.equal(roleReads(), 1, "the second key's built-in roles taken from the first read");
        const viewer = (await org().listRoles()).find((r) => r.name === "ORGANIZATION_VIEWER")!;
        em.admin.requests = [];
        const byId = await p.create!(checked({ description: uniqueName("by-id"), orgRoleId: viewer.id }));
        keys.push(byId.outs.key);
        assert.equal(roleReads(), 1, "a role by id is read afresh");
        assert.equal((await org().listServiceKeys()).find((k) => k.id === byId.id)?.org_role_id, viewer.id);
    });

    it("create: a workspace-scoped key works in its workspace only; a role changes in place (same key); refresh shows a role changed outside", async () => {
        const [ws, other] = [await newWorkspace(em), await newWorkspace(em)];
        const inputs = checked({ description: uniqueName("ws-ci"), workspaceIds: [ws], roleId: "WORKSPACE_VIEWER", expiresAt: LATER });
        const made = await create(inputs);
        assert.equal(made.outs.accessScope, "workspace");
        assert.equal(made.outs.workspaceNames!.length, 1);
        assert.equal(await status(made.outs.key, "GET", "/api/v1/datasets", ws), 200);
        assert.equal(await status(made.outs.key, "GET", "/api/v1/datasets", other), 403);
        assert.equal(await status(made.outs.key, "POST", "/api/v1/datasets", ws, { name: uniqueName("d") }), 403, "Viewer cannot create");

        const news = { ...inputs, roleId: "WORKSPACE_USER" };
        const updated = await seen(() => provider().update!(made.id, made.outs, news));
        assert.equal(updated.value!.outs.key, made.outs.key, "an update keeps the key");
        assert.equal(await status(made.outs.key, "POST", "/api/v1/datasets", ws, { name: uniqueName("d") }), 200, "Editor may");
        assert.equal((await listed(inputs.description)).length, 1);

        await org().updateServiceKey(made.id, { role_id: await roleId(em, "WORKSPACE_ADMIN") });
        const refreshed = await provider().read!(made.id, updated.value!.outs);
        assert.deepEqual(refreshed.inputs, { ...news, roleId: "WORKSPACE_ADMIN" }, "drift: the role the service holds");
    });

    it("rotation: the new key is made while the old one works; the old one answers 401 only once deleted", async () => {
        const inputs = checked({ description: uniqueName("rotate"), expiresAt: LATER });
        const old = await create(inputs);
        const news = checked({ ...inputs, expiresAt: "2099-06-01T00:00:00Z" });
        assert.deepEqual((await provider().diff!(old.id, old.outs, news)).replaces, ["expiresAt"]);
        const fresh = await create(news);
        assert.notEqual(fresh.outs.key, old.outs.key);
        assert.deepEqual(
            [await status(old.outs.key, "GET", "/api/v1/workspaces", null), await status(fresh.outs.key, "GET", "/api/v1/workspaces", null)],
            [200, 200],
            "both work between the create and the delete",
        );
        await provider().delete!(old.id, old.outs);
        assert.deepEqual(
            [await status(old.outs.key, "GET", "/api/v1/workspaces", null), await status(fresh.outs.key, "GET", "/api/v1/workspaces", null)],
            [401, 200],
        );
    });

    for (const [what, fault] of [
        ["answered 502 after the service made it", { kind: "status", status: 502, when: "after" }],
        ["dropped while the service still works (made 300 ms later)", { kind: "drop", when: "during", latencyMs: 300 }],
        ["held 1.5 s after the service made it, past the client's timeout", { kind: "latency", when: "after", latencyMs: 1_500 }],
        [
            "answered 200 with a body that is no key (holding a key-like string)",
            { kind: "status", status: 200, when: "after", body: { key: "lsv2_sk_fakefakefakefakefakefakefakefake_0123456789", description: 7 } },
        ],
    ] as const) {
        it(`create: an answer ${what}: the orphan (its secret lost) is deleted, the create sent once more, exactly one key left`, async () => {
            const inputs = checked({ description: uniqueName("lost") });
            if (fault.kind === "latency") timeoutMs = 500;
            em.addFault({ method: "POST", path: `^${KEYS}$`, ...fault } as never);
            const made = await create(inputs);
            const left = await listed(inputs.description);
            assert.deepEqual(
                left.map((k) => k.id),
                [made.id],
            );
            assert.match(made.warnings, /the answer to the create was lost .*that key was deleted, and the create sent once more/s);
            assert.equal(await status(made.outs.key, "GET", "/api/v1/workspaces", null), 200);
            assert.ok(!made.warnings.includes("lsv2_sk_fake"), "an answer's body is never put in a message");
        });
    }

    it("create: lost twice: both orphans deleted, the create fails, no key left", async () => {
        const inputs = checked({ description: uniqueName("lost-twice") });
        em.addFault({ method: "POST", path: `^${KEYS}$`, kind: "status", status: 502, when: "after", count: 2 } as never);
        const r = await seen(() => provider().create!(inputs));
        assert.match(r.error!.message, /failed twice without an answer .*the key it made was deleted: nothing was created/);
        assert.deepEqual(await listed(inputs.description), []);
    });

    it("create: an answer without the key fails and deletes the key it made: none is left that nobody holds, and no stack holds a null key", async () => {
        const inputs = checked({ description: uniqueName("keyless") });
        const keyless = () => {
            const o = org();
            const send = o.createServiceKey.bind(o);
            o.createServiceKey = async (b) => {
                const { key, ...shown } = await send(b);
                keys.push(key!);
                return shown;
            };
            return o;
        };
        const r = await seen(() => createServiceKeyProvider({ organization: keyless }).create!(inputs));
        assert.match(r.error!.message, /answer held no `key`.*that key was deleted, and nothing was created/);
        assert.deepEqual(await listed(inputs.description), []);
    });

    it("create: an identical key is refused with its id (or a forced replace's old key); LANGSMITH_ADOPT_IDS makes a new one and deletes it", async () => {
        const ws = await newWorkspace(em);
        const inputs = checked({ description: uniqueName("killed"), workspaceIds: [ws], expiresAt: LATER });
        // What a `pulumi up` killed after the service made the key leaves: the key, its secret never recorded.
        const orphan = (await raw(em, "POST", KEYS, { tenantId: null, body: { description: inputs.description, workspaces: [ws], expires_at: LATER } })).body;
        keys.push(orphan.key);
        await admin(em, "DELETE", "/requests");
        const refused = await seen(() => provider().create!(inputs));
        assert.match(refused.error!.message, new RegExp(`already holds service key ${orphan.id} .*its secret cannot be read back`));
        assert.match(refused.error!.message, new RegExp(`LANGSMITH_ADOPT_IDS=${orphan.id} pulumi up`));
        assert.deepEqual(await writes(), [], "nothing sent");
        await create({ ...inputs, expiresAt: "2099-06-01T00:00:00.000Z" }); // another expiry: another key, made

        const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: orphan.id }, () => create(inputs));
        assert.notEqual(adopted.id, orphan.id);
        assert.match(adopted.warnings, new RegExp(`key ${orphan.id} .*named by LANGSMITH_ADOPT_IDS, was deleted and key ${adopted.id} made in its place`));
        assert.deepEqual([await status(orphan.key, "GET", "/api/v1/datasets", ws), await status(adopted.outs.key, "GET", "/api/v1/datasets", ws)], [401, 200]);
        assert.deepEqual(
            (await listed(inputs.description)).filter((k) => k.expires_at === LATER).map((k) => k.id),
            [adopted.id],
        );
    });

    it("create: a role that does not exist (past the check) fails naming the roles there are; nothing is sent", async () => {
        await admin(em, "DELETE", "/requests");
        const r = await seen(() => provider().create!(checked({ description: "ci", roleId: "0b1c0000-0000-4000-8000-0000000000ff" })));
        assert.match(
            r.error!.message,
            /^ServiceKey: roleId: the organization has no role .*; its workspace roles are Admin \(WORKSPACE_ADMIN\).*Nothing was sent\.$/,
        );
        assert.deepEqual(await writes(), []);
    });

    it("import: read by id gives the inputs (workspaces by id, a built-in role by name), no key", async () => {
        const ws = await newWorkspace(em);
        const body = {
            description: uniqueName("imported"),
            workspaces: [ws],
            role_id: await roleId(em, "WORKSPACE_VIEWER"),
            expires_at: "2099-01-01T00:00:00Z",
        };
        const made = (await raw(em, "POST", KEYS, { tenantId: null, body })).body;
        keys.push(made.key);
        const r = await provider().read!(made.id);
        assert.deepEqual(r.inputs, { description: body.description, workspaceIds: [ws], roleId: "WORKSPACE_VIEWER", expiresAt: LATER });
        assert.deepEqual([r.props!.key, r.props!.accessScope], [null, "workspace"]);
        assert.deepEqual((await provider().diff!(made.id, r.props!, checked(r.inputs!))).changes, false, "the program pulumi import writes matches");
    });

    it("no error or warning these tests saw holds a key", () => {
        assert.ok(keys.length >= 8, `${keys.length} keys made`);
        const leaked = keys.filter((k) => texts.some((t) => t.includes(k) || t.includes(k.slice(8, 40))));
        assert.deepEqual(leaked, []);
    });
});
