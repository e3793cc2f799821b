/**
 * The organization's edge as code with the real CLI against the emulator (examples/organization-edge), the issue's
 * "done when": one `up` makes a per-customer spend cap and rate limit on the LLM gateway (matched on
 * `X-Gateway-Customer`), a GatewayPolicyCheck that proves the rate limit at `up`, SAML single sign-on, a SCIM token, a
 * service account with a personal access token, and a data plane awaited until active. Then requests through the
 * emulator's gateway: the capped customer past its rate limit gets 429 and, in the next hour, past its cap 402,
 * while another customer's still pass. The bot's token is rotated by an `up` while a client polls with the old one
 * until the stack's output names the new one: it never sees a 401 before the switch, and the new token is made
 * in place (the old one works until the next `up` revokes it). The drift check is green; destroy leaves nothing, and no
 * token that still works.
 * Five engine commands on one stack.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { sleep } from "../helpers/async";
import { admin, raw } from "../helpers/emulator";
import { createProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const RATE = 3;
const DAY = 86_400_000;

describe("e2e: the organization's edge as code (real CLI, examples/organization-edge)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `edge-${randomUUID().slice(0, 8)}`;
    let workspace: string;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    /** The stack's outputs, secrets shown (the tokens a client would be handed). */
    const outputsShown = async () => JSON.parse((await cli("stack", "output", "--json", "--show-secrets")).stdout);
    /** One chat completion through the emulator's gateway as `customer` would send it: its status. */
    const chat = async (customer: string): Promise<{ status: number }> => {
        const res = await request(`${em.url}/gateway/openai/v1/chat/completions`, {
            method: "POST",
            headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", "x-gateway-customer": customer },
            // What the check sends too (one answer token), so that every request costs the same.
            body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }], max_tokens: 1 }),
        });
        await res.body.dump();
        return { status: res.statusCode };
    };
    /** What a key may read of the workspace: 200 while it works, 401 once it does not. */
    const keyWorks = async (key: string) => (await raw(em, "GET", "/api/v1/sessions?limit=1", { apiKey: key, tenantId: workspace })).status;
    /**
     * The resources of the stack's checkpoint as the file backend holds it (read while an `up` writes it: undefined
     * while the file is being written). A replaced resource's old state is kept, marked `delete`, until it is deleted.
     */
    const checkpointResources = (): Array<{ type: string; id: string; delete?: boolean; outputs?: any }> | undefined => {
        try {
            return JSON.parse(readFileSync(join(project.stateDir, ".pulumi", "stacks", "organization-edge", `${stack}.json`), "utf8")).checkpoint.latest
                .resources;
        } catch {
            return undefined;
        }
    };
    /** The stack's output `name` as the checkpoint holds it (undefined while the file is being written). */
    const stackOutput = (name: string): string | undefined => checkpointResources()?.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs?.[name];
    /** The token the stack's outputs name, once the file reads whole ("none" if it names none for a second). */
    const namedToken = async (): Promise<string> => {
        for (let i = 0; i < 200; i++) {
            const id = stackOutput("botTokenId");
            if (id !== undefined) return id;
            await sleep(5);
        }
        return "none";
    };
    /** The live resource of `type` the state holds, once the file reads whole. */
    const stateHolds = async (type: string) => {
        for (;;) {
            const all = checkpointResources();
            if (all) return all.find((r) => r.type === `pulumi-nodejs:dynamic/langsmith:${type}` && !r.delete);
            await sleep(5);
        }
    };

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        // The workspace the bot joins and first sign-ins land in: the organization's own.
        const made = await raw(em, "POST", "/api/v1/workspaces", { apiKey: API_KEY, tenantId: null, body: { display_name: "edge" } });
        workspace = made.body.id;
        // The emulator's day starts a second ago: the hour's rate window and the day's spend are the test's alone.
        const now = Date.now();
        await admin(em, "POST", "/clock/advance", { ms: DAY - (now % DAY) + 1_000 });
        // One request's price at the gateway, as the customer's will cost (the model's price), read from a spend cap's
        // spend: the test's cap is four and a half requests.
        const policies = "/v1/platform/gateway-policies";
        const as = { apiKey: API_KEY, tenantId: null };
        const probe = { name: "probe", policy_type: "spend_cap", action: "block", subject_matchers: [{ key: "customer", value: "initech" }] };
        const probeCap = await raw(em, "POST", policies, { ...as, body: { ...probe, config: { window: "daily", limit_usd: 1 } } });
        assert.equal((await chat("initech")).status, 200);
        const price: number = (await raw(em, "GET", `${policies}/${probeCap.body.id}`, as)).body.current_spend_usd;
        assert.ok(price > 0, "the probe's request was priced");
        assert.equal((await raw(em, "DELETE", `${policies}/${probeCap.body.id}`, as)).status, 204);
        const capUsd = 4.5 * price;
        project = createProject("organization-edge");
        await project.initStack(
            stack,
            {
                "langsmith:endpoint": em.url,
                "langsmith:workspaceId": workspace,
                "organization-edge:capUsd": String(capUsd),
                "organization-edge:requestsPerWindow": String(RATE),
                "organization-edge:rateWindow": "hour",
            },
            { "langsmith:apiKey": API_KEY, "organization-edge:byocExternalId": `ext-${randomUUID()}` },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    it("up: the check proves the customer's rate limit; 429 past it and 402 past the cap while another customer passes; a token rotated with no 401 before the switch; drift check green; destroy leaves nothing that works", async () => {
        await cli("up", "--yes", "--skip-preview");
        const out = await outputsShown();
        const check = await stateHolds("GatewayPolicyCheck");
        const steps = check?.outputs.steps.map((s: { step: string; statuses: number[] }) => `${s.step} ${s.statuses.join(",")}`);
        assert.deepEqual(steps, [`within ${Array(RATE).fill(200).join(",")}`, "past 429", "other 200"]);
        assert.equal(out.dataPlaneStatus, "active");

        // The check spent the hour's requests: the customer is refused, another is not.
        assert.equal((await chat("acme")).status, 429);
        assert.equal((await chat("globex")).status, 200);
        // The next hour, the same day: the customer's spend (the check's three requests) and one more reach the cap of
        // four and a half; the next would pass it (402). The other customer still passes.
        await admin(em, "POST", "/clock/advance", { ms: 3_600_000 });
        assert.deepEqual([(await chat("acme")).status, (await chat("acme")).status], [200, 402]);
        assert.equal((await chat("globex")).status, 200);

        // Rotation: a new description makes a new token, in place (docs/personalAccessToken.md "Rotation"). A client
        // polls with the old one until the stack's output `botTokenId` names the new one.
        const oldKey: string = out.botKey;
        assert.equal(await keyWorks(oldKey), 200);
        await project.setConfig(stack, { "organization-edge:botTokenDescription": "release-bot-2027-01" });
        em.admin.requests = [];
        let upDone = false;
        const up = cli("up", "--yes", "--skip-preview").finally(() => (upDone = true));
        // A status counts against the rotation only if the stack's outputs still named the old token once it came back.
        const polled: Array<{ status: number; named: string }> = [];
        while (!upDone) {
            const status = await keyWorks(oldKey);
            polled.push({ status, named: await namedToken() });
            await sleep(20);
        }
        await up;
        const beforeSwitch = polled.filter((p) => p.named === out.botTokenId);
        assert.ok(beforeSwitch.length > 10, `the client polled during the up (${beforeSwitch.length} times before the switch)`);
        assert.deepEqual([...new Set(beforeSwitch.map((p) => p.status))], [200], "a 401 with the old token before the stack's outputs named the new one");
        assert.notEqual(await namedToken(), out.botTokenId, "the stack's outputs name the new token");
        const tokenCalls = () => em.admin.requests.filter((q) => /personal-access-tokens/.test(q.path) && q.method !== "GET").map((q) => q.method);
        assert.deepEqual(tokenCalls(), ["POST"], "the new token made; the old one not revoked by this up");
        assert.equal(await keyWorks(oldKey), 200, "the old token works until the next up");
        const pat = await stateHolds("PersonalAccessToken");
        assert.deepEqual([pat?.id, pat?.outputs.retiring], [out.botTokenId, [out.botTokenId]], "the resource's id stays; the old token retiring");
        // The next up revokes it (and changes nothing else).
        em.admin.requests = [];
        await cli("up", "--yes", "--skip-preview");
        assert.deepEqual(tokenCalls(), ["DELETE"], "the next up revokes the retiring token");
        assert.deepEqual((await stateHolds("PersonalAccessToken"))?.outputs.retiring, []);
        const rotated = await outputsShown();
        const newKey: string = rotated.botKey;
        assert.notEqual(newKey, oldKey);
        assert.equal(await keyWorks(oldKey), 401);
        assert.equal(await keyWorks(newKey), 200);

        const stored = await project.storedText(stack);
        const scimToken: string = rotated.scimToken;
        for (const secret of [oldKey, newKey, scimToken]) assert.ok(!stored.includes(secret), "a token in plain text in the state");

        const morning = await cli("preview", "--refresh", "--expect-no-changes", "--diff");
        const changed = morning.stdout.split("\n").filter((l) => /^\s*~/.test(l) && !/^~ pulumi:pulumi:Stack: \(refresh\)$/.test(l));
        assert.deepEqual(changed, [], morning.stdout);

        const scim = async () =>
            (await request(`${em.url}/scim/v2/ServiceProviderConfig`, { headers: { authorization: `Bearer ${scimToken}` } }).then((r) => (r.body.dump(), r)))
                .statusCode;
        assert.equal(await scim(), 200);
        await cli("destroy", "--yes", "--skip-preview");
        assert.equal(await keyWorks(newKey), 401);
        assert.equal(await scim(), 401);
        const policies = (await raw(em, "GET", "/v1/platform/gateway-policies", { apiKey: API_KEY, tenantId: workspace })).body as Array<{ id: string }>;
        assert.deepEqual(
            policies.filter((p) => [out.capPolicyId, out.ratePolicyId].includes(p.id)),
            [],
        );
        assert.deepEqual((await raw(em, "GET", "/api/v1/orgs/current/sso-settings", { apiKey: API_KEY, tenantId: null })).body, []);
        const accounts = (await raw(em, "GET", "/api/v1/service-accounts", { apiKey: API_KEY, tenantId: null })).body as Array<{ id: string }>;
        assert.ok(!accounts.some((a) => a.id === out.botId), "the service account is gone");
        const planes = (await raw(em, "GET", "/orgs/current/data-planes", { apiKey: API_KEY, tenantId: null })).body;
        assert.ok(!JSON.stringify(planes).includes(out.dataPlaneId), "the data plane is gone");
    });
});
