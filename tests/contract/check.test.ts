/**
 * The contract check itself (check.ts, description.ts): it must fail what the descriptions refuse, pass what
 * they allow, and see what a real emulator logs. Each case would pass silently if its rule were removed.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Exchange } from "../../emulator/core/exchangeLog";
import { TracingClient } from "../../provider/api/tracing";
import { type Emulator, startTestEmulator, TEST_API_KEY, TEST_TENANT } from "../helpers/emulator";
import { ContractCheck, readExchanges } from "./check";
import { Descriptions } from "./description";

const descriptions = new Descriptions();
const SESSION_ID = "0b7c4a51-3f0e-4d55-9d0e-2b0a2f6f6c11";
const session = {
    id: SESSION_ID,
    name: "p",
    start_time: "2026-11-26T10:00:00.000000+00:00",
    tenant_id: TEST_TENANT,
    trace_tier: "longlived",
};

function exchange(o: Partial<Exchange>): Exchange {
    return {
        method: "GET",
        path: `/api/v1/sessions/${SESSION_ID}`,
        prefix: "",
        query: {},
        headers: { apiKey: true, bearer: false, serviceKey: false, tenantId: TEST_TENANT, userAgent: "pulumi-langsmith" },
        status: 200,
        response: session,
        ...o,
    };
}

function violations(x: Exchange): string[] {
    const check = new ContractCheck(descriptions);
    check.judge(x);
    return check.violations.map((v) => `${v.side}: ${v.message}`);
}

describe("contract check", () => {
    it("find: the most literal operation wins, and the tracing API is found without its /api/v1 prefix", () => {
        assert.equal(descriptions.find("GET", "/api/v1/workspaces/current/members/active")?.template, "/api/v1/workspaces/current/members/active");
        assert.equal(descriptions.find("GET", `/sessions/${SESSION_ID}`)?.template, "/api/v1/sessions/{session_id}");
        assert.equal(descriptions.find("GET", "/v2/deployments")?.description, "control-plane");
        assert.equal(descriptions.find("PATCH", "/api/v1/no-such-thing"), undefined);
    });

    it("answers: a body that fits passes; a missing required field, a wrong type and a bad format are each named", () => {
        assert.deepEqual(violations(exchange({})), []);
        const { tenant_id: _t, ...noTenant } = session;
        assert.match(violations(exchange({ response: noTenant })).join("\n"), /answer \/: must have required property 'tenant_id'/);
        assert.match(violations(exchange({ response: { ...session, name: 7 } })).join("\n"), /answer \/name: must be string, got 7/);
        assert.match(violations(exchange({ response: { ...session, id: "nope" } })).join("\n"), /answer \/id: must match format "uuid"/);
    });

    it("answers: an undeclared success status fails unless listed as newer; an undeclared error needs {detail}", () => {
        assert.match(violations(exchange({ status: 201 })).join("\n"), /status 201 is not among the operation's answers \(200, 422\)/);
        assert.deepEqual(violations(exchange({ method: "DELETE", status: 202, response: {} })), []);
        assert.deepEqual(violations(exchange({ status: 404, response: { detail: "Session not found" } })), []);
        assert.match(violations(exchange({ status: 404, response: { error: "x" } })).join("\n"), /error 404 without the service's error shape/);
    });

    it("requests: an undescribed operation fails for our clients only; a listed newer one passes", () => {
        const undescribed = exchange({ method: "PATCH", path: "/api/v1/no-such-thing", status: 404, response: { detail: "Not Found" } });
        assert.match(violations(undescribed).join("\n"), /no operation of the descriptions/);
        assert.deepEqual(violations({ ...undescribed, headers: { ...undescribed.headers, userAgent: "langsmith-py/0.4" } }), []);
        assert.deepEqual(violations(exchange({ method: "PUT", path: "/api/v1/workspaces/current/secrets/K", body: { value: "v" }, response: {} })), []);
    });

    it("requests: security, unknown query parameters, parameter types, a missing or unexpected body, a body that does not fit", () => {
        const bearerOnly = exchange({ path: "/api/v1/orgs/permissions", response: [] });
        assert.match(violations(bearerOnly).join("\n"), /security: the operation takes Bearer Auth; the request sent none of these/);
        assert.match(violations(exchange({ query: { nmae: ["p"] } })).join("\n"), /query: nmae is not a parameter of this operation/);
        assert.match(violations(exchange({ query: { include_stats: ["maybe"] } })).join("\n"), /query include_stats \/: must be boolean/);
        assert.deepEqual(violations(exchange({ query: { include_stats: ["true"] } })), []);
        assert.match(violations(exchange({ path: "/api/v1/sessions/not-a-uuid", status: 422, response: { detail: [] } })).join("\n"), /path session_id/);
        const create = { method: "POST", path: "/api/v1/sessions" };
        assert.match(violations(exchange({ ...create })).join("\n"), /requires a body; none was sent/);
        assert.match(violations(exchange({ ...create, body: { name: 5 } })).join("\n"), /body \/name: must be string/);
        assert.deepEqual(violations(exchange({ ...create, body: { name: "p", trace_tier: "longlived" } })), []);
        assert.match(violations(exchange({ body: { name: "p" } })).join("\n"), /a body was sent to an operation that takes none/);
    });

    it("known departures: a field newer than the description and a test's probe are counted apart; the same words elsewhere fail", () => {
        const check = new ContractCheck(descriptions);
        const allExperiments = { bulk_export_destination_id: SESSION_ID, start_time: "2026-11-01T00:00:00Z", all_experiments: true };
        check.judge(exchange({ method: "POST", path: "/api/v1/bulk-exports", body: allExperiments, status: 422, response: { detail: [] } }));
        check.judge(exchange({ path: "/v2/ok", status: 403, response: { detail: "X-Tenant-Id header is required." } }));
        assert.deepEqual([check.figures.newerFields, check.figures.probes, check.violations], [1, 1, []]);
        const bare = violations(
            exchange({ method: "POST", path: "/api/v1/bulk-exports", body: { all_experiments: true }, response: { detail: [] }, status: 422 }),
        );
        assert.match(bare.join("\n"), /required property 'start_time'/);
        assert.doesNotMatch(bare.join("\n"), /session_id/);
        assert.match(violations(exchange({ path: "/v2/elsewhere", status: 404, response: { detail: "Not Found" } })).join("\n"), /no operation/);
    });

    describe("with a real emulator", () => {
        let emulator: Emulator;
        let dir: string;
        before(async () => {
            dir = mkdtempSync(join(tmpdir(), "exchanges-"));
            emulator = await startTestEmulator({ exchangeLog: dir });
        });
        after(async () => {
            await emulator.close();
            rmSync(dir, { recursive: true, force: true });
        });

        it("log: our client's requests and the answers are logged, keys as presence only, and judged", async () => {
            const tracing = TracingClient.connect({ baseUrl: emulator.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT });
            const { session: made } = await tracing.createSession({ name: `contract-${Date.now()}` });
            await tracing.getSession(made.id);
            const logged = [...readExchanges(dir)];
            assert.ok(logged.some((x) => x.method === "POST" && x.path === "/api/v1/sessions" && (x.body as { name: string }).name.startsWith("contract-")));
            assert.ok(logged.every((x) => x.headers.apiKey === true && !JSON.stringify(x).includes(TEST_API_KEY)));
            const check = new ContractCheck(descriptions);
            for (const x of logged) check.judge(x);
            assert.equal(check.figures.requestsValidated, logged.length);
            assert.deepEqual(check.violations, []);
        });
    });
});
