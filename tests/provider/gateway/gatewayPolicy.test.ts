/**
 * GatewayPolicy, GatewayPolicyCheck and getGatewayPolicies (provider/gateway/) against the emulator over HTTP, through
 * the registered providers: what preview refuses, naming the field and the fix (a cap that is no positive amount, a
 * rate window the service does not have, a header matcher that is not `X-Gateway-...`, a default policy without its
 * subject, two resources of the program with identical matchers in one family; nothing sent); a per-customer cap and
 * rate limit made, imported, changed in place, replaced on a new type, drift seen, a description removed cleared; a
 * create that would silently update a policy the stack does not hold refused naming it, and taken with
 * LANGSMITH_ADOPT_IDS; the check's preview (how many requests, to which model), its refusal outside a local emulator
 * without maySpend, its run (429 after the count, 402 once spent, another customer passing; a limit the policy does
 * not hold fails in words), what reruns it; the look-up's current spend.
 */
import assert from "node:assert/strict";
import { GATEWAY_ANSWER, tokensOf } from "../../../emulator/gateway";
import { checkGatewayPolicyCheck } from "../../../provider/gateway/gatewayPolicyCheck/provider";
import { Service } from "../../../provider/kit/service";
import { FUNCTIONS, RESOURCES } from "../../../provider/registry";
import { admin, raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const policy = RESOURCES.gatewayPolicy.provider as Provider;
const check = RESOURCES.gatewayPolicyCheck.provider as Provider;
const POLICIES = "/v1/platform/gateway-policies";
const ACME = { "X-Gateway-Customer": "acme" };
const GLOBEX = { "X-Gateway-Customer": "globex" };

async function checked(p: Provider, news: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await p.check({}, news);
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs as Record<string, any>;
}
const cap = (over: Record<string, unknown> = {}) => ({
    name: uniqueName("acme-cap"),
    policyType: "spend_cap",
    matchers: { headers: ACME },
    spendCap: { limitUsd: 5, window: "daily" },
    ...over,
});
const rate = (over: Record<string, unknown> = {}) => ({
    name: uniqueName("acme-rate"),
    policyType: "rate_limit",
    matchers: { headers: ACME },
    rateLimit: { limit: 3, unit: "requests", window: "hour" },
    ...over,
});
const failures = async (p: Provider, news: Record<string, unknown>) => ((await p.check({}, news)).failures ?? []).map((f) => [f.property, f.reason]);

describe("GatewayPolicy, GatewayPolicyCheck and getGatewayPolicies", function () {
    this.timeout(30_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    beforeEach(async () => {
        const now = Date.parse((await admin(em(), "POST", "/clock/advance", { ms: 0 })).now);
        await admin(em(), "POST", "/clock/advance", { ms: 3_600_000 - (now % 3_600_000) + 1 });
    });

    it("check: a cap that is no positive amount, an unknown window, a header that is not X-Gateway-, a default without perSubject, no matcher: refused by field with the fix; nothing sent", async () => {
        em().admin.requests.length = 0;
        const [[p1, r1]] = await failures(policy, cap({ spendCap: { limitUsd: 0, window: "daily" } }));
        assert.deepEqual([p1, /not a positive amount/.test(r1)], ["spendCap.limitUsd", true]);
        const w = await failures(policy, rate({ rateLimit: { limit: 3, unit: "requests", window: "day" } }));
        assert.deepEqual(
            w.map(([p]) => p),
            ["rateLimit.window"],
        );
        assert.match(w[0][1], /minute.*hour/);
        const [[p3, r3]] = await failures(policy, cap({ matchers: { headers: { "X-Team": "a" } } }));
        assert.deepEqual([p3, /X-Gateway-Team/.test(r3)], ['matchers.headers["X-Team"]', true]);
        const [[p4, r4]] = await failures(policy, cap({ policyType: "default_spend_cap", matchers: {} }));
        assert.deepEqual([p4, /perSubject is required/.test(r4)], ["perSubject", true]);
        assert.deepEqual(
            (await failures(policy, cap({ matchers: {} }))).map(([p]) => p),
            ["matchers"],
        );
        assert.deepEqual(
            (await failures(policy, cap({ spendCap: undefined }))).map(([p]) => p),
            ["spendCap"],
        );
        assert.deepEqual(
            (await failures(policy, cap({ rateLimit: { limit: 1, unit: "requests", window: "hour" } }))).map(([p]) => p),
            ["rateLimit"],
        );
        assert.deepEqual(writes(em()), []);
    });

    it("check: two resources of the program with identical matchers in one family are refused at preview; another family's are not", async () => {
        const urn = (n: string) => `urn:pulumi:s::p::langsmith:index:GatewayPolicy::${n}`;
        await checked(policy, { ...cap(), __identity: urn(uniqueName("a")) });
        const second = await failures(policy, { ...cap({ matchers: { headers: { "x-gateway-customer": "acme" } } }), __identity: urn(uniqueName("b")) });
        assert.deepEqual(
            second.map(([p]) => p),
            ["matchers"],
        );
        assert.match(second[0][1], /already holds the gateway policy of family and matchers spend\|customer=acme.*keep one/);
        await checked(policy, { ...rate(), __identity: urn(uniqueName("c")) });
    });

    it("a per-customer cap made, imported, changed in place, drift seen, description cleared; a new type replaces; the spend read", async () => {
        const made = await policy.create(await checked(policy, cap({ description: "acme's daily budget" })));
        assert.equal(made.outs.currentSpendUsd, 0);
        const imported = (await policy.read(made.id, {} as never)).inputs;
        assert.deepEqual(imported, {
            name: made.outs.name,
            description: "acme's daily budget",
            policyType: "spend_cap",
            matchers: { headers: ACME },
            spendCap: { limitUsd: 5, window: "daily" },
            priority: 0,
            enabled: true,
        });
        const news = await checked(policy, cap({ name: made.outs.name, spendCap: { limitUsd: 7, window: "weekly" } }));
        const d = await policy.diff(made.id, made.outs, news);
        assert.deepEqual([d.changes, d.replaces ?? []], [true, []]);
        const u = await policy.update(made.id, made.outs, news);
        const onService = (await raw(em(), "GET", `${POLICIES}/${made.id}`, { tenantId: null })).body;
        assert.deepEqual([onService.config, onService.description], [{ window: "weekly", limit_usd: 7 }, ""]);
        // Spend through the gateway: a refresh keeps the spend the last up saw (it moves with every request: a clean
        // stack's refresh shows no change); an import reads it.
        await fetch(`${em().url}/gateway/openai/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${process.env.LANGSMITH_API_KEY}`, ...ACME },
            body: JSON.stringify({ model: "unpriced", messages: [{ role: "user", content: "Hi" }] }),
        });
        // A change made elsewhere: refresh sees it as drift.
        await raw(em(), "PATCH", `${POLICIES}/${made.id}`, { tenantId: null, body: { enabled: false } });
        const refreshed = await policy.read(made.id, u.outs as never);
        assert.equal(refreshed.props?.enabled, false);
        assert.equal(refreshed.props?.currentSpendUsd, u.outs.currentSpendUsd);
        const asImported = await policy.read(made.id, {} as never);
        assert.ok(Math.abs((asImported.props?.currentSpendUsd as number) - (tokensOf("Hi") + tokensOf(GATEWAY_ANSWER)) * 1e-6) < 1e-12);
        assert.equal((await policy.diff(made.id, refreshed.props as never, news)).changes, true);
        // Another type replaces.
        const asDefault = await checked(policy, cap({ name: made.outs.name, policyType: "default_spend_cap", matchers: {}, perSubject: "X-Gateway-Customer" }));
        assert.deepEqual((await policy.diff(made.id, made.outs, asDefault)).replaces, ["policyType"]);
        await policy.delete(made.id, made.outs as never);
        assert.equal((await raw(em(), "GET", `${POLICIES}/${made.id}`, { tenantId: null })).status, 404);
    });

    it("a create that would update a policy the stack does not hold is refused naming it; LANGSMITH_ADOPT_IDS takes it", async () => {
        const theirs = await raw(em(), "POST", POLICIES, {
            tenantId: null,
            body: {
                name: "someone-elses",
                policy_type: "rate_limit",
                subject_matchers: [{ key: "customer", value: "acme" }],
                config: { unit: "requests", window: "hour", limit: 9 },
            },
        });
        const refused = await rejection(async () => policy.create(await checked(policy, rate())));
        assert.match(
            String(refused?.message),
            new RegExp(`already holds gateway policy ${theirs.body.id} \\("someone-elses", rate_limit\\) with the same matchers`),
        );
        assert.equal((await raw(em(), "GET", `${POLICIES}/${theirs.body.id}`, { tenantId: null })).body.config.limit, 9, "left as it was");
        process.env.LANGSMITH_ADOPT_IDS = theirs.body.id;
        try {
            const taken = await policy.create(await checked(policy, rate()));
            assert.equal(taken.id, theirs.body.id);
            assert.equal((await raw(em(), "GET", `${POLICIES}/${taken.id}`, { tenantId: null })).body.config.limit, 3);
        } finally {
            delete process.env.LANGSMITH_ADOPT_IDS;
        }
    });

    it("GatewayPolicyCheck: preview says how many requests to which model; outside a local emulator it needs maySpend", async () => {
        const args = { policyId: "p", rateLimit: { limit: 3, unit: "requests", window: "hour" }, headers: ACME, otherHeaders: GLOBEX };
        const local = checkGatewayPolicyCheck(args, em().url);
        assert.deepEqual(local.failures, []);
        assert.match(
            String(local.warnings),
            /will send 5 requests to model gpt-4o-mini through http:\/\/127\.0\.0\.1:\d+\/gateway: 3 that must pass, 1 that must get 429, 1 as the other subject/,
        );
        const failuresOf = (r: { failures?: Array<{ property: string; reason: string }> }) => r.failures ?? [];
        const cloud = failuresOf(checkGatewayPolicyCheck(args, "https://api.smith.langchain.com"));
        assert.deepEqual(
            cloud.map((f) => f.property),
            ["maySpend"],
        );
        assert.match(cloud[0].reason, /gateway\.smith\.langchain\.com.*paid model call.*maySpend: true.*would send 5 requests/);
        assert.deepEqual(checkGatewayPolicyCheck({ ...args, maySpend: true }, "https://api.smith.langchain.com").failures, []);
        assert.deepEqual(
            failuresOf(checkGatewayPolicyCheck({ ...args, rateLimit: { limit: 0, unit: "requests", window: "day" } }, em().url)).map((f) => f.property),
            ["rateLimit.limit", "rateLimit.window"],
        );
        assert.deepEqual(
            failuresOf(checkGatewayPolicyCheck(args, "https://langsmith.example.com")).map((f) => f.property),
            ["gatewayUrl"],
        );
        assert.deepEqual(
            failuresOf(checkGatewayPolicyCheck({ policyId: "p" }, em().url)).map((f) => f.property),
            ["rateLimit"],
        );
    });

    it("GatewayPolicyCheck proves a rate limit (429 after exactly its count, globex passing) and a spend cap (402 once spent); a wrong limit fails in words; what reruns it", async () => {
        const r = await policy.create(await checked(policy, rate()));
        const args = await checked(check, { policyId: r.id, rateLimit: r.outs.rateLimit, headers: ACME, otherHeaders: GLOBEX });
        const ran = await check.create(args);
        assert.equal(ran.outs.requestsSent, 5);
        assert.deepEqual(
            ran.outs.steps.map((s: any) => [s.step, s.statuses]),
            [
                ["within", [200, 200, 200]],
                ["past", [429]],
                ["other", [200]],
            ],
        );
        assert.match(ran.outs.steps[1].error, /rate limited by gateway policies/);
        // What reruns it: the limit, not maySpend.
        assert.equal((await check.diff(ran.id, ran.outs, { ...args, rateLimit: { ...args.rateLimit, limit: 4 } })).changes, true);
        assert.equal((await check.diff(ran.id, ran.outs, { ...args, maySpend: true })).changes, false);
        // A limit the policy does not hold.
        const wrong = await rejection(async () => check.create(await checked(check, { ...args, rateLimit: { limit: 4, unit: "requests", window: "hour" } })));
        assert.match(String(wrong?.message), /holds .*"limit":3.*not the limit given: pass the policy's own `rateLimit`/);
        // A spend cap of two and a half requests at the price map's price.
        await raw(em(), "POST", "/api/v1/model-price-map", {
            body: { name: "tiny", match_pattern: "^tiny$", provider: "openai", prompt_cost: "0.001", completion_cost: "0.002" },
        });
        const per = tokensOf("Hi") * 0.001 + 1 * 0.002;
        const initech = { "X-Gateway-Customer": "initech" };
        const c = await policy.create(await checked(policy, cap({ matchers: { headers: initech }, spendCap: { limitUsd: 2.5 * per, window: "daily" } })));
        const spent = await check.create(await checked(check, { policyId: c.id, spendCap: c.outs.spendCap, headers: initech, model: "tiny" }));
        assert.deepEqual(
            spent.outs.steps.map((s: any) => [s.step, s.statuses]),
            [
                ["within", [200, 200]],
                ["past", [402]],
            ],
        );
        const look = await FUNCTIONS.getGatewayPolicies.run(new Service(), { policyType: "spend_cap" });
        assert.deepEqual(
            look.policies.map((p) => p.id),
            [c.id],
        );
        assert.ok(Math.abs((look.policies[0].currentSpendUsd ?? 0) - 2 * per) < 1e-9);
        assert.ok(Math.abs(look.totalSpendUsd - 2 * per) < 1e-9);
    });
});
