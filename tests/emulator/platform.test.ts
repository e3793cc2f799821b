/**
 * The platform operations answer their refusals as the platform does, every one of them (core/server.ts
 * PLATFORM_PATH, once for all their routes): 400 `{error}`, never a 422 HTTPValidationError (their description lists
 * none: core/errors.ts asPlatformError), under `/api/v1/platform`, bare `/platform` and the description's
 * `/v1/platform`; also for a body that cannot be read (which no route's handler sees). Another path keeps its 422.
 */
import assert from "node:assert/strict";
import { raw, startTestEmulator, type Emulator } from "../helpers/emulator";

describe("emulator: the platform's refusals", () => {
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    after(() => em?.close());

    it("a body the schemas refuse, and one that is no JSON, answer 400 {error} on every platform path; elsewhere 422", async () => {
        const paths = [
            "/api/v1/platform/evaluators",
            "/platform/evaluators",
            "/v1/platform/evaluators",
            "/api/v1/platform/alerts/00000000-0000-4000-8000-000000000000",
        ];
        for (const path of paths) {
            for (const body of [{ name: 1 }, "{not json"]) {
                const r = await raw(em, "POST", path, { body });
                assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
                assert.equal(typeof r.body.error, "string", r.text);
            }
        }
        const policy = await raw(em, "POST", "/api/v1/platform/orgs/current/access-policies", { tenantId: null, body: "{not json" });
        assert.equal(policy.status, 400, policy.text);
        assert.match(policy.body.error, /body: JSON decode error \(json_invalid\)/);
        const elsewhere = await raw(em, "POST", "/api/v1/feedback-configs", { body: "{not json" });
        assert.equal(elsewhere.status, 422, elsewhere.text);
    });
});
