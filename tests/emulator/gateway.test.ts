/**
 * The emulator's LLM gateway (docs/service.md R19, emulator/gateway/): its policies over HTTP as the description has
 * them (the create that updates the policy of its family with the same matchers, refusals in the platform's words, the
 * organization permission), and the gateway's chat completion sent as an OpenAI-compatible client sends it (a bearer
 * LangSmith key): its fixed answer and token count, the price of the workspace's model price map, 429 past a rate
 * limit and 402 past a spend cap per `X-Gateway-Customer` value (one customer refused, another still passing), the
 * children a default policy materializes, windows that move with the emulator's clock, and `--state-dir`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GATEWAY_ANSWER, tokensOf } from "../../emulator/gateway";
import { TEST_API_KEY, TEST_TENANT, admin, raw, startTestEmulator, type Emulator } from "../helpers/emulator";

const POLICIES = "/v1/platform/gateway-policies";
const customer = (value: string) => [{ key: "customer", value }];

async function policy(em: Emulator, body: Record<string, unknown>): Promise<any> {
    const r = await raw(em, "POST", POLICIES, { tenantId: null, body: { action: "block", ...body } });
    assert.equal(r.status, 201, r.text);
    return r.body;
}

/** One chat completion as an OpenAI-compatible client sends it (bearer key), with `headers`. */
async function chat(em: Emulator, headers: Record<string, string> = {}, o: { model?: string; prompt?: string; key?: string } = {}) {
    const res = await fetch(`${em.url}/gateway/openai/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${o.key ?? TEST_API_KEY}`, ...headers },
        body: JSON.stringify({ model: o.model ?? "gpt-4o-mini", messages: [{ role: "user", content: o.prompt ?? "Hi" }] }),
    });
    return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get("retry-after") };
}

/** The statuses of `n` completions in a row. */
async function statuses(em: Emulator, n: number, headers: Record<string, string>, o: { model?: string } = {}): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await chat(em, headers, o)).status);
    return out;
}

/** Moves the emulator's clock to the start of the next hour (so no window ends while a test runs). */
async function toNextHour(em: Emulator): Promise<void> {
    const now = Date.parse((await admin(em, "POST", "/clock/advance", { ms: 0 })).now);
    await admin(em, "POST", "/clock/advance", { ms: 3_600_000 - (now % 3_600_000) + 1 });
}

const ACME = { "X-Gateway-Customer": "acme" };
const GLOBEX = { "X-Gateway-Customer": "globex" };

describe("emulator: the LLM gateway and its policies (/v1/platform/gateway-policies, /gateway/{provider}/v1/chat/completions)", function () {
    this.timeout(60_000);
    let em: Emulator;
    let dir: string;
    before(async () => {
        dir = mkdtempSync(join(tmpdir(), "gateway-"));
        em = await startTestEmulator({ keyWorkspaceId: TEST_TENANT, stateDir: dir });
    });
    after(async () => {
        await em?.close();
        rmSync(dir, { recursive: true, force: true });
    });
    beforeEach(async () => {
        await em.reset();
        await toNextHour(em);
    });

    it("a create with the matchers of a policy of its family updates that one (its id kept, 201); another family's is its own", async () => {
        const cap = await policy(em, {
            name: "acme-cap",
            policy_type: "spend_cap",
            subject_matchers: customer("acme"),
            config: { window: "daily", limit_usd: 5 },
        });
        assert.equal(cap.current_spend_usd, 0);
        assert.equal(cap.parent_policy_id, undefined);
        const again = await policy(em, {
            name: "acme-cap-2",
            policy_type: "spend_cap",
            subject_matchers: customer("acme"),
            config: { window: "monthly", limit_usd: 9 },
        });
        assert.equal(again.id, cap.id);
        assert.deepEqual([again.name, again.config], ["acme-cap-2", { window: "monthly", limit_usd: 9 }]);
        const rate = await policy(em, {
            name: "acme-rate",
            policy_type: "rate_limit",
            subject_matchers: customer("acme"),
            config: { unit: "requests", window: "minute", limit: 3 },
        });
        assert.notEqual(rate.id, cap.id);
        assert.equal(rate.current_spend_usd, undefined);
        const list = await raw(em, "GET", POLICIES, { tenantId: null });
        assert.deepEqual(list.body.map((p: any) => p.name).sort(), ["acme-cap-2", "acme-rate"]);
    });

    it("refusals in the platform's words: a config of another shape, an unknown key, a name taken, a PATCH onto another's matchers; 404 once deleted", async () => {
        const bad = await raw(em, "POST", POLICIES, {
            tenantId: null,
            body: { name: "x", policy_type: "rate_limit", subject_matchers: customer("a"), config: { window: "day", limit: 3, unit: "requests" } },
        });
        assert.equal(bad.status, 400);
        assert.match(bad.body.error, /config\.window/);
        const key = await raw(em, "POST", POLICIES, {
            tenantId: null,
            body: { name: "x", policy_type: "guard", subject_matchers: [{ key: "X-Team", value: "a" }], config: { version: 1, detect: { pii: true } } },
        });
        assert.equal(key.status, 400);
        assert.match(key.body.error, /subject_matchers\[0\]\.key/);
        const a = await policy(em, { name: "a", policy_type: "spend_cap", subject_matchers: customer("a"), config: { window: "daily", limit_usd: 1 } });
        await policy(em, { name: "b", policy_type: "spend_cap", subject_matchers: customer("b"), config: { window: "daily", limit_usd: 1 } });
        const taken = await raw(em, "POST", POLICIES, {
            tenantId: null,
            body: { name: "a", policy_type: "spend_cap", subject_matchers: customer("c"), config: { window: "daily", limit_usd: 1 } },
        });
        assert.equal(taken.status, 409);
        const onto = await raw(em, "PATCH", `${POLICIES}/${a.id}`, { tenantId: null, body: { subject_matchers: customer("b") } });
        assert.equal(onto.status, 409);
        assert.match(onto.body.error, /same family/);
        assert.equal((await raw(em, "DELETE", `${POLICIES}/${a.id}`, { tenantId: null })).status, 204);
        assert.equal((await raw(em, "GET", `${POLICIES}/${a.id}`, { tenantId: null })).status, 404);
    });

    it("a workspace-scoped service key may not manage the organization's policies (403), as the service answers", async () => {
        const made = await raw(em, "POST", "/api/v1/orgs/current/service-keys", { tenantId: null, body: { description: "ws", workspaces: [TEST_TENANT] } });
        assert.equal(made.status, 200, made.text);
        const r = await raw(em, "POST", POLICIES, {
            apiKey: made.body.key,
            tenantId: null,
            body: { name: "x", policy_type: "spend_cap", subject_matchers: customer("a"), config: { window: "daily", limit_usd: 1 } },
        });
        assert.equal(r.status, 403, r.text);
        // It may still call the gateway, in its workspace.
        assert.equal((await chat(em, {}, { key: made.body.key })).status, 200);
    });

    it("a completion: the fixed answer, tokens a quarter of the characters, 401 without a key", async () => {
        const prompt = "How many tokens is this?";
        const r = await chat(em, {}, { prompt });
        assert.equal(r.status, 200);
        assert.equal(r.body.choices[0].message.content, GATEWAY_ANSWER);
        assert.deepEqual(r.body.usage, {
            prompt_tokens: tokensOf(prompt),
            completion_tokens: tokensOf(GATEWAY_ANSWER),
            total_tokens: tokensOf(prompt) + tokensOf(GATEWAY_ANSWER),
        });
        const anon = await fetch(`${em.url}/gateway/openai/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{}",
        });
        assert.equal(anon.status, 401);
    });

    it("a per-customer rate limit: 429 right after its count for acme while globex passes; the next window lets acme through", async () => {
        await policy(em, {
            name: "acme-rate",
            policy_type: "rate_limit",
            subject_matchers: customer("acme"),
            config: { unit: "requests", window: "minute", limit: 3 },
        });
        assert.deepEqual(await statuses(em, 4, ACME), [200, 200, 200, 429]);
        const refused = await chat(em, ACME);
        assert.equal(refused.body.error.message, "rate limited by gateway policies: acme-rate");
        assert.ok(Number(refused.retryAfter) > 0 && Number(refused.retryAfter) <= 60);
        assert.deepEqual(await statuses(em, 2, GLOBEX), [200, 200]);
        await admin(em, "POST", "/clock/advance", { ms: 60_000 });
        assert.equal((await chat(em, ACME)).status, 200);
    });

    it("a token rate limit counts prompt and answer tokens: refused when the next request would pass it", async () => {
        const per = tokensOf("Hi") + tokensOf(GATEWAY_ANSWER);
        await policy(em, {
            name: "acme-tokens",
            policy_type: "rate_limit",
            subject_matchers: customer("acme"),
            config: { unit: "tokens", window: "hour", limit: 2 * per + 1 },
        });
        assert.deepEqual(await statuses(em, 3, ACME), [200, 200, 429]);
    });

    it("a spend cap at the price map's price: 402 once the next request would pass it, current_spend_usd its spend, globex unaffected", async () => {
        // gpt-4o-mini: 0.15 and 0.6 dollars a million tokens (built in); a workspace entry for `tiny-model`.
        const priced = await raw(em, "POST", "/api/v1/model-price-map", {
            body: { name: "tiny", match_pattern: "^tiny-model$", provider: "openai", prompt_cost: "0.001", completion_cost: "0.002" },
        });
        assert.equal(priced.status, 200, priced.text);
        const cost = tokensOf("Hi") * 0.001 + tokensOf(GATEWAY_ANSWER) * 0.002;
        const cap = await policy(em, {
            name: "acme-cap",
            policy_type: "spend_cap",
            subject_matchers: customer("acme"),
            config: { window: "daily", limit_usd: 2.5 * cost },
        });
        assert.deepEqual(await statuses(em, 3, ACME, { model: "tiny-model" }), [200, 200, 402]);
        const after = (await raw(em, "GET", `${POLICIES}/${cap.id}`, { tenantId: null })).body;
        assert.ok(Math.abs(after.current_spend_usd - 2 * cost) < 1e-9, String(after.current_spend_usd));
        assert.equal((await chat(em, ACME, { model: "tiny-model" })).body.error.message, "request blocked by gateway policies: acme-cap");
        assert.deepEqual(await statuses(em, 3, GLOBEX, { model: "tiny-model" }), [200, 200, 200]);
        // The default price where no entry matches ($1 a million tokens).
        const cheap = await policy(em, {
            name: "globex-cap",
            policy_type: "spend_cap",
            subject_matchers: customer("globex"),
            config: { window: "hourly", limit_usd: 1 },
        });
        await chat(em, GLOBEX, { model: "unpriced-model" });
        const spent = (await raw(em, "GET", `${POLICIES}/${cheap.id}`, { tenantId: null })).body.current_spend_usd;
        assert.ok(Math.abs(spent - (tokensOf("Hi") + tokensOf(GATEWAY_ANSWER)) * 1e-6) < 1e-12, String(spent));
    });

    it("a default rate limit materializes a child per customer (parent_policy_id), each its own counter; an admin create takes one over; deleting the default deletes the rest", async () => {
        const def = await policy(em, {
            name: "each-customer",
            policy_type: "default_rate_limit",
            subject_matchers: customer(""),
            config: { unit: "requests", window: "hour", limit: 1 },
        });
        assert.deepEqual(await statuses(em, 2, ACME), [200, 429]);
        assert.deepEqual(await statuses(em, 2, GLOBEX), [200, 429]);
        const children = (await raw(em, "GET", POLICIES, { tenantId: null })).body.filter((p: any) => p.parent_policy_id === def.id);
        assert.deepEqual(children.map((c: any) => c.subject_matchers[0].value).sort(), ["acme", "globex"]);
        assert.ok(children.every((c: any) => c.is_system_generated && c.policy_type === "rate_limit"));
        const taken = await policy(em, {
            name: "acme-own",
            policy_type: "rate_limit",
            subject_matchers: customer("acme"),
            config: { unit: "requests", window: "hour", limit: 5 },
        });
        assert.equal(taken.id, children.find((c: any) => c.subject_matchers[0].value === "acme").id);
        assert.equal(taken.parent_policy_id, undefined);
        assert.equal((await chat(em, ACME)).status, 200);
        assert.equal((await raw(em, "DELETE", `${POLICIES}/${def.id}`, { tenantId: null })).status, 204);
        const left = (await raw(em, "GET", POLICIES, { tenantId: null })).body;
        assert.deepEqual(
            left.map((p: any) => p.name),
            ["acme-own"],
        );
    });

    it("--state-dir keeps the policies and their spend across a restart", async () => {
        const cap = await policy(em, {
            name: "kept",
            policy_type: "spend_cap",
            subject_matchers: customer("acme"),
            config: { window: "monthly", limit_usd: 10 },
        });
        await chat(em, ACME);
        const before = (await raw(em, "GET", `${POLICIES}/${cap.id}`, { tenantId: null })).body.current_spend_usd;
        assert.ok(before > 0);
        await em.close();
        em = await startTestEmulator({ keyWorkspaceId: TEST_TENANT, stateDir: dir });
        const again = (await raw(em, "GET", `${POLICIES}/${cap.id}`, { tenantId: null })).body;
        assert.equal(again.current_spend_usd, before);
    });
});
