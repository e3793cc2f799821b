/** Helpers of the organization-area tests (docs/service.md R7): built-in role ids by name, a new workspace. */
import assert from "node:assert/strict";
import { TEST_API_KEY, raw, uniqueName, type Emulator } from "./emulator";

/** A role's id, looked up by name in `GET /api/v1/orgs/current/roles`, as clients must. */
export async function roleId(em: Emulator, name: string): Promise<string> {
    const res = await raw(em, "GET", "/api/v1/orgs/current/roles", { tenantId: null });
    return res.body.find((r: { name: string }) => r.name === name).id;
}

/** A workspace made through `POST /api/v1/workspaces` (with the admin's key unless given another): its id. */
export async function newWorkspace(em: Emulator, apiKey = TEST_API_KEY): Promise<string> {
    const res = await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, apiKey, body: { display_name: uniqueName("ws") } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
}
