/**
 * ServiceAccount, PersonalAccessToken, ApiKey and ScimToken (provider/organization/{serviceAccount,
 * personalAccessToken,apiKey,scimToken}, the shared tokens/) against the emulator over HTTP (docs/service.md R21):
 * bad input refused at preview before anything is sent; a service account's token that authenticates as the
 * account; a rotation in place that makes the new token while the old one works until the next up; an expired
 * token seen by refresh and rotated; a lost create answer; a SCIM token that opens the SCIM API until deleted; the look-up. Every secret
 * made is searched for in every error and warning the tests saw: none may hold one.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../../../provider/api/client";
import { TokensClient } from "../../../../provider/api/tokens";
import { secretOutputs } from "../../../../provider/kit/declare";
import { createApiKeyProvider } from "../../../../provider/organization/apiKey/provider";
import { apiKey } from "../../../../provider/organization/apiKey/declare";
import { personalAccessToken } from "../../../../provider/organization/personalAccessToken/declare";
import { createPersonalAccessTokenProvider } from "../../../../provider/organization/personalAccessToken/provider";
import { scimToken } from "../../../../provider/organization/scimToken/declare";
import { createScimTokenProvider } from "../../../../provider/organization/scimToken/provider";
import { createServiceAccountProvider } from "../../../../provider/organization/serviceAccount/provider";
import { getServiceAccount } from "../../../../provider/organization/serviceAccount/lookups";
import { stderrOf } from "../../../helpers/async";
import { TEST_API_KEY, TEST_SETTLE_MS, TEST_TENANT, admin, raw, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";
import { newWorkspace } from "../../../helpers/org";

const PATS = "/api/v1/orgs/current/personal-access-tokens";
const DAY = 86_400_000;

describe("tokens: ServiceAccount, PersonalAccessToken, ApiKey, ScimToken", function () {
    this.timeout(20_000);
    let em: Emulator;
    const secrets: string[] = [];
    const texts: string[] = [];
    before(async () => void (em = await startTestEmulator()));
    after(async () => {
        await em?.close();
    });
    beforeEach(() => em.reset());

    const tokens = () =>
        new TokensClient(
            new HttpClient({
                baseUrl: em.url,
                apiKey: TEST_API_KEY,
                apiKeyHeader: "X-API-Key",
                retryBaseMs: 5,
                retryMaxMs: 20,
                settleMs: TEST_SETTLE_MS,
                timeoutMs: 5_000,
            }),
        );
    const configured = <P extends { configure?: (r: never) => Promise<void> }>(p: P, workspaceId?: string): P => {
        const cfg: Record<string, string | undefined> = {
            "langsmith:apiKey": TEST_API_KEY,
            "langsmith:endpoint": em.url,
            "langsmith:workspaceId": workspaceId,
        };
        void p.configure!({ config: { get: (k: string) => cfg[k] } } as never);
        return p;
    };
    const pats = () => configured(createPersonalAccessTokenProvider({ tokens }));
    const accounts = () => configured(createServiceAccountProvider({ tokens }));
    /** A provider call whose warnings and error are kept for the final search. */
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
    async function checked(p: { check?: Function }, news: Record<string, unknown>) {
        const r = await p.check!({}, news);
        assert.deepEqual(r.failures ?? [], []);
        return r.inputs as Record<string, any>;
    }
    async function create(p: { create?: Function }, inputs: Record<string, unknown>, secretName = "key") {
        const r = await seen(() => p.create!(inputs) as Promise<{ id: string; outs: Record<string, any> }>);
        if (r.error) throw r.error;
        secrets.push(r.value!.outs[secretName]);
        return { ...r.value!, warnings: r.warnings };
    }
    async function update(p: { update?: Function }, id: string, olds: Record<string, unknown>, news: Record<string, unknown>, secretName = "key") {
        const r = await seen(() => p.update!(id, olds, news) as Promise<{ outs: Record<string, any> }>);
        if (r.error) throw r.error;
        secrets.push(r.value!.outs[secretName]);
        return r.value!;
    }
    const status = async (key: string, path: string, tenantId: string | null, method = "GET", body?: unknown) =>
        (await raw(em, method, path, { apiKey: key, tenantId, body })).status;

    it("check: a past expiresAt, both lifetimes, a lifetime under a day or beyond the organization's maximum, a blank description, ids that are not uuids fail on their properties; nothing is sent", async () => {
        await admin(em, "DELETE", "/requests");
        const failures = async (p: { check?: Function }, news: Record<string, unknown>) =>
            Object.fromEntries(((await p.check!({}, news)).failures ?? []).map((f: { property: string; reason: string }) => [f.property, f.reason]));
        const f = await failures(pats(), { description: " ", expiresAt: "2020-01-01T00:00:00Z", serviceAccountId: "bot" });
        assert.match(f.description, /must not be blank/);
        assert.match(f.expiresAt, /in the past.*set a later expiresAt.*or expiresInDays/);
        assert.match(
            (await failures(pats(), { description: "x", expiresAt: "2099-01-01T00:00:00Z", expiresInDays: 3 })).expiresInDays,
            /expiresAt or expiresInDays, not both/,
        );
        assert.match(f.serviceAccountId, /must be an id \(a uuid\)/);
        assert.match((await failures(pats(), { description: "x", expiresInDays: 0.5 })).expiresInDays, /whole number of days from 1/);
        // The organization's maxima (its settings, as an OrganizationSettings sets them), read from its info at preview.
        await raw(em, "PATCH", "/api/v1/orgs/current/info", { tenantId: null, body: { max_pat_expiry_days: 30, max_api_key_expiry_days: 7 } });
        await admin(em, "DELETE", "/requests"); // the settings are the test's: the checks below must send nothing
        const capped = pats();
        assert.match(
            (await failures(capped, { description: "x", expiresInDays: 31 })).expiresInDays,
            /beyond the organization's max_pat_expiry_days \(30 days\): set at most 30/,
        );
        const far = new Date(Date.now() + 40 * DAY).toISOString();
        assert.match((await failures(capped, { description: "x", expiresAt: far })).expiresAt, /beyond the organization's max_pat_expiry_days/);
        const keys = configured(createApiKeyProvider({ tokens }), TEST_TENANT);
        assert.match((await failures(keys, { description: "x", roleId: "editor", expiresInDays: 8 })).roleId, /WORKSPACE_USER/);
        assert.match((await failures(keys, { description: "x", expiresInDays: 8 })).expiresInDays, /max_api_key_expiry_days \(7 days\)/);
        const sa = await failures(accounts(), { name: "", workspaces: [{ workspaceId: "nope" }, { workspaceId: TEST_TENANT, roleId: "ORGANIZATION_ADMIN" }] });
        assert.match(sa.name, /must not be blank/);
        assert.match(sa["workspaces[0].workspaceId"], /uuid/);
        assert.match(sa["workspaces[1].roleId"], /organization role/);
        const writes = (await admin(em, "GET", "/requests")).filter(
            (q: { method: string; path: string }) => q.method !== "GET" && !q.path.startsWith("/__admin"),
        );
        assert.deepEqual(writes, [], "a preview refusing bad input sends nothing");
    });

    it("declaration: each token's secret is its one secret output, for both front doors", () => {
        assert.deepEqual(secretOutputs(personalAccessToken), ["key"]);
        assert.deepEqual(secretOutputs(apiKey), ["key"]);
        assert.deepEqual(secretOutputs(scimToken), ["token"]);
    });

    it("a ServiceAccount with a PersonalAccessToken: the token acts as the account (its workspace and role), refresh keeps it, getServiceAccount finds it; deleting the account ends it", async () => {
        const ws = await newWorkspace(em);
        const saInputs = await checked(accounts(), { name: uniqueName("bot"), workspaces: [{ workspaceId: ws, roleId: "WORKSPACE_USER" }] });
        const sa = await create(accounts(), saInputs, "organizationId");
        assert.ok(sa.outs.organizationIdentityId);
        const inputs = await checked(pats(), { description: "bot-token", serviceAccountId: sa.id, expiresInDays: 30 });
        const pat = await create(pats(), inputs);
        assert.match(pat.outs.key, /^lsv2_pt_/);
        assert.equal(pat.outs.expired, false);
        assert.ok(Math.abs(Date.parse(pat.outs.validUntil) - (Date.now() + 30 * DAY)) < 60_000);
        assert.equal(await status(pat.outs.key, "/sessions", ws), 200);
        assert.equal(await status(pat.outs.key, "/sessions", ws, "POST", { name: "p" }), 403, "an Editor may not create projects");
        assert.equal(await status(pat.outs.key, "/api/v1/service-accounts", null, "POST", { name: "x" }), 403, "no organization role");
        const read = await pats().read!(pat.id, pat.outs);
        assert.equal(read.props!.key, pat.outs.key, "the service never answers it again: the recorded one stands");
        assert.deepEqual(read.inputs, inputs);
        const found = await getServiceAccount(tokens(), { name: saInputs.name });
        assert.equal(found.id, sa.id);
        await assert.rejects(getServiceAccount(tokens(), { name: "nobody" }), /has no service account named "nobody"/);
        await accounts().delete!(sa.id, sa.outs);
        assert.equal(await status(pat.outs.key, "/sessions", ws), 401);
        assert.deepEqual(await pats().read!(pat.id, pat.outs), {}, "gone with its account");
    });

    it("rotation in place (R21.7): a new description makes a new token under the same id, the old one working until the next up revokes it; a refresh changes nothing; destroy revokes every token", async () => {
        const inputs = await checked(pats(), { description: uniqueName("rotate"), expiresInDays: 10 });
        const old = await create(pats(), inputs);
        assert.equal(old.outs.tokenId, old.id);
        const news = await checked(pats(), { ...inputs, description: `${inputs.description}-2` });
        const diff = await pats().diff!(old.id, old.outs, news);
        assert.deepEqual([diff.replaces, diff.changes, diff.deleteBeforeReplace], [[], true, false], "an update, not a replacement");
        const rotated = (await update(pats(), old.id, old.outs, news)).outs;
        assert.notEqual(rotated.tokenId, old.id, "a new token");
        assert.deepEqual([rotated.retiring, rotated.description], [[old.id], news.description]);
        const keys = async (...ks: string[]) => Promise.all(ks.map((k) => status(k, "/sessions", TEST_TENANT)));
        assert.deepEqual(await keys(old.outs.key, rotated.key), [200, 200], "the old token works until the next up");
        assert.deepEqual((await pats().read!(old.id, rotated)).props, rotated, "a refresh changes nothing");
        const next = await pats().diff!(old.id, rotated, news);
        assert.deepEqual([next.replaces, next.changes], [[], true], "the next up plans an update: it revokes the retiring token");
        const settled = (await update(pats(), old.id, rotated, news)).outs;
        assert.deepEqual([settled.retiring, settled.key, settled.tokenId], [[], rotated.key, rotated.tokenId]);
        assert.deepEqual(await keys(old.outs.key, settled.key), [401, 200]);
        assert.equal((await pats().diff!(old.id, settled, news)).changes, false, "then nothing to do");
        const again = (await update(pats(), old.id, settled, { ...news, description: `${inputs.description}-3` })).outs;
        await pats().delete!(old.id, again);
        assert.deepEqual(await keys(settled.key, again.key), [401, 401], "destroy revokes the token in use and the retiring one");
    });

    it("rotation in place from a state written before it (no tokenId, no retiring): read, a clean diff, then a rotation and its revoke; an ApiKey's new workspace stays a replacement", async () => {
        const inputs = await checked(pats(), { description: uniqueName("older"), expiresInDays: 10 });
        const made = await create(pats(), inputs);
        const { tokenId: _t, retiring: _r, ...older } = made.outs;
        assert.equal((await pats().diff!(made.id, older, inputs)).changes, false, "nothing planned for an older state");
        const read = (await pats().read!(made.id, older)).props!;
        assert.deepEqual([read.tokenId, read.retiring], [made.id, []]);
        const news = await checked(pats(), { ...inputs, description: `${inputs.description}-2` });
        const rotated = (await update(pats(), made.id, older, news)).outs;
        assert.deepEqual(rotated.retiring, [made.id]);
        await update(pats(), made.id, rotated, news);
        assert.equal(await status(made.outs.key, "/sessions", TEST_TENANT), 401, "the older state's token revoked by the next up");
        const [ws, other] = [await newWorkspace(em), await newWorkspace(em)];
        const keys = configured(createApiKeyProvider({ tokens }), ws);
        const key = await create(keys, await checked(keys, { description: "k", workspaceId: ws }));
        const moved = await keys.diff!(key.id, key.outs, await checked(keys, { description: "k", workspaceId: other }));
        assert.deepEqual([moved.replaces, moved.deleteBeforeReplace], [["workspaceId"], false]);
    });

    it("expiry: once expiresInDays has passed (the emulator's clock), refresh shows it expired and the next up rotates it in place with a new lifetime; a fixed expiresAt that has passed fails the preview with the fix", async () => {
        const ws = await newWorkspace(em);
        const keys = configured(createApiKeyProvider({ tokens }), ws);
        const inputs = await checked(keys, { description: "tracing", roleId: "WORKSPACE_VIEWER", expiresInDays: 1 });
        const made = await create(keys, inputs);
        assert.equal(await status(made.outs.key, "/sessions", null), 200, "a workspace key speaks to its workspace");
        assert.equal(await status(made.outs.key, "/sessions", null, "POST", { name: "p" }), 403, "as a Viewer");
        await admin(em, "POST", "/clock/advance", { ms: DAY + 60_000 });
        assert.equal(await status(made.outs.key, "/sessions", null), 401);
        const refreshed = await keys.read!(made.id, made.outs);
        assert.equal(refreshed.props!.expired, true, "refresh shows the token expired (drift)");
        assert.equal(refreshed.props!.key, made.outs.key);
        const diff = await keys.diff!(made.id, refreshed.props!, inputs);
        assert.deepEqual(
            [diff.replaces, (diff as { updates?: string[] }).updates, diff.changes],
            [[], ["expiresInDays"], true],
            "renewed in place (a rotation)",
        );
        const renewed = await update(keys, made.id, refreshed.props!, inputs);
        assert.deepEqual([renewed.outs.retiring, await status(renewed.outs.key, "/sessions", null)], [[made.id], 200]);
        assert.ok(Date.parse(renewed.outs.validUntil) > Date.parse(made.outs.validUntil) + DAY / 2, "a new lifetime from now");
        const fixed = await keys.check!({ expiresAt: made.outs.validUntil }, { description: "x", expiresAt: "2020-01-01T00:00:00Z" });
        assert.match(fixed.failures?.[0]?.reason ?? "", /in the past.*expiresInDays/);
    });

    it("rotation with its account: a token of the account's replacement, of the same description, is made beside the old account's token (no twin refusal)", async () => {
        const ws = await newWorkspace(em);
        const first = await create(accounts(), await checked(accounts(), { name: uniqueName("old"), workspaces: [{ workspaceId: ws }] }), "organizationId");
        const second = await create(accounts(), await checked(accounts(), { name: uniqueName("new"), workspaces: [{ workspaceId: ws }] }), "organizationId");
        const old = await create(pats(), await checked(pats(), { description: "bot", serviceAccountId: first.id, expiresInDays: 30 }));
        const fresh = await create(pats(), await checked(pats(), { description: "bot", serviceAccountId: second.id, expiresInDays: 30 }));
        assert.deepEqual([await status(old.outs.key, "/sessions", ws), await status(fresh.outs.key, "/sessions", ws)], [200, 200]);
    });

    it("create: an answer lost after the service made the token: that token is deleted and the create sent once more, exactly one left", async () => {
        const inputs = await checked(pats(), { description: uniqueName("lost"), expiresInDays: 5 });
        em.addFault({ method: "POST", path: `^${PATS}$`, kind: "status", status: 502, when: "after" } as never);
        const made = await create(pats(), inputs);
        const left = (await tokens().listPersonalAccessTokens()).filter((t) => t.description === inputs.description);
        assert.deepEqual(
            left.map((t) => t.id),
            [made.id],
        );
        assert.match(made.warnings, /the answer to the create was lost .*that token was deleted, and the create sent once more/s);
        assert.equal(await status(made.outs.key, "/sessions", TEST_TENANT), 200);
    });

    it("create: an identical live token (what a killed `up` leaves) is refused with its id", async () => {
        const inputs = await checked(pats(), { description: uniqueName("killed"), expiresAt: "2099-01-01T00:00:00Z" });
        const orphan = (await raw(em, "POST", PATS, { tenantId: null, body: { description: inputs.description, expires_at: inputs.expiresAt } })).body;
        secrets.push(orphan.key);
        const refused = await seen(() => pats().create!(inputs));
        assert.match(refused.error!.message, new RegExp(`already holds ${orphan.id}.*LANGSMITH_ADOPT_IDS`, "s"));
    });

    it("ScimToken: the token opens the SCIM API; the description changes in place (same token); delete: 401", async () => {
        const scim = configured(createScimTokenProvider({ tokens }));
        const inputs = await checked(scim, { description: "okta", expiresInDays: 90 });
        const made = await create(scim, inputs, "token");
        assert.equal(made.outs.scimUrl, `${em.url}/scim/v2`);
        const bearer = { authorization: `Bearer ${made.outs.token}` };
        assert.equal((await raw(em, "GET", "/scim/v2/Users", { apiKey: null, tenantId: null, headers: bearer })).status, 200);
        const news = await checked(scim, { description: "entra", expiresInDays: 90 });
        const diff = await scim.diff!(made.id, made.outs, news);
        assert.deepEqual([diff.replaces, diff.changes], [[], true]);
        const updated = await scim.update!(made.id, made.outs, news);
        assert.equal(updated.outs.token, made.outs.token);
        assert.equal(updated.outs.description, "entra");
        await scim.delete!(made.id, updated.outs);
        assert.equal((await raw(em, "GET", "/scim/v2/Users", { apiKey: null, tenantId: null, headers: bearer })).status, 401);
    });

    it("no error or warning these tests saw holds a secret", () => {
        const made = secrets.filter(Boolean);
        assert.ok(made.length >= 5);
        for (const s of made) for (const t of texts) assert.ok(!t.includes(s) && !t.includes(s.slice(8, 40)), "a secret in a message");
    });
});
