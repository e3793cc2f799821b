/**
 * Usage limits and retention on the emulated service (docs/service.md R11), over real HTTP: a limit per type and
 * workspace (upserted, a second of a type refused), ingest past a limit refused with 429 and kept out whole;
 * retention settings that decide a new project's tier and, applied to all projects, the existing ones'; a
 * workspace's long-lived days; all kept in `--state-dir`. The official clients do not read these objects: the
 * contract check judges the exchanges.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_TENANT, raw, startTestEmulator, type Emulator } from "../helpers/emulator";

const LIMITS = "/api/v1/usage-limits";

/** A root run posted to `project` (a new trace). */
const rootRun = (project: string) => ({
    id: randomUUID(),
    name: "r",
    run_type: "chain",
    start_time: new Date().toISOString(),
    session_name: project,
    inputs: {},
});

describe("emulator: usage limits and retention", () => {
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());
    beforeEach(() => em.reset());

    it("usage limits: one per type (a second refused, 409), changed by id, deleted (404 once gone)", async () => {
        const made = await raw(em, "PUT", LIMITS, { body: { limit_type: "monthly_traces", limit_value: 10 } });
        assert.equal(made.status, 200);
        assert.equal(made.body.tenant_id, TEST_TENANT);
        const second = await raw(em, "PUT", LIMITS, { body: { limit_type: "monthly_traces", limit_value: 20 } });
        assert.equal(second.status, 409);
        assert.match(second.body.detail, new RegExp(`already has a monthly_traces usage limit \\(${made.body.id}\\)`));
        const changed = await raw(em, "PUT", LIMITS, { body: { id: made.body.id, limit_type: "monthly_traces", limit_value: 20 } });
        assert.equal(changed.body.limit_value, 20);
        assert.equal((await raw(em, "PUT", LIMITS, { body: { limit_type: "monthly_traces", limit_value: -1, id: made.body.id } })).status, 400);
        assert.equal((await raw(em, "PUT", LIMITS, { body: { limit_type: "weekly", limit_value: 1 } })).status, 422);
        assert.deepEqual(
            (await raw(em, "GET", LIMITS)).body.map((l: { id: string }) => l.id),
            [made.body.id],
        );
        assert.equal((await raw(em, "DELETE", `${LIMITS}/${made.body.id}`)).status, 200);
        assert.equal((await raw(em, "DELETE", `${LIMITS}/${made.body.id}`)).status, 404);
        assert.deepEqual((await raw(em, "GET", LIMITS)).body, []);
    });

    it("ingest past a limit is refused whole (429, in words naming the limit); child runs and other workspaces are not counted", async () => {
        await raw(em, "PUT", LIMITS, { body: { limit_type: "monthly_traces", limit_value: 2 } });
        const first = rootRun("limited");
        assert.equal((await raw(em, "POST", "/runs/batch", { body: { post: [first] } })).status, 202);
        const child = { ...rootRun("limited"), parent_run_id: first.id, trace_id: first.id };
        assert.equal((await raw(em, "POST", "/runs/batch", { body: { post: [child, rootRun("limited")] } })).status, 202, "a child run is no new trace");
        const over = await raw(em, "POST", "/runs/batch", { body: { post: [rootRun("limited")] } });
        assert.equal(over.status, 429);
        assert.match(over.body.detail, /monthly_traces limit is 2 traces a month and 2 were ingested this month/);
        const project = (await raw(em, "GET", "/sessions?name=limited")).body[0];
        assert.equal(project.run_count, 3, "the refused request kept nothing");
        const other = randomUUID();
        await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, body: { display_name: "Other", id: other } });
        assert.equal((await raw(em, "POST", "/runs/batch", { tenantId: other, body: { post: [rootRun("free")] } })).status, 202);
    });

    it("retention: a new project takes the workspace's default tier, else the organization's; applied to all, the existing ones change", async () => {
        const before = (await raw(em, "POST", "/sessions", { body: { name: "before" } })).body;
        assert.equal(before.trace_tier, "longlived");
        assert.deepEqual((await raw(em, "GET", "/api/v1/ttl-settings")).body, []);
        const org = await raw(em, "PUT", "/api/v1/orgs/ttl-settings", { tenantId: null, body: { default_trace_tier: "shortlived" } });
        assert.equal(org.status, 200);
        assert.equal(org.body.tenant_id, null);
        assert.equal((await raw(em, "POST", "/sessions", { body: { name: "org-default" } })).body.trace_tier, "shortlived");
        await raw(em, "PUT", "/api/v1/ttl-settings", { body: { default_trace_tier: "longlived" } });
        assert.equal((await raw(em, "POST", "/sessions", { body: { name: "ws-default" } })).body.trace_tier, "longlived");
        assert.equal((await raw(em, "POST", "/sessions", { body: { name: "own", trace_tier: "shortlived" } })).body.trace_tier, "shortlived", "its own wins");
        const applied = await raw(em, "PUT", "/api/v1/ttl-settings", { body: { default_trace_tier: "shortlived", apply_to_all_projects: true } });
        assert.equal(applied.body.apply_to_all_projects, true);
        assert.equal((await raw(em, "GET", `/sessions/${before.id}`)).body.trace_tier, "shortlived");
        const listed = (await raw(em, "GET", "/api/v1/orgs/ttl-settings", { tenantId: null })).body;
        assert.deepEqual(listed.map((s: { tenant_id: string | null }) => s.tenant_id).sort(), [TEST_TENANT, null].sort());
        assert.equal((await raw(em, "PUT", "/api/v1/ttl-settings", { body: { default_trace_tier: "forever" } })).status, 422);
    });

    it("a workspace's long-lived days: 400 until set (is_custom), kept in --state-dir with the limits and settings", async () => {
        const dir = mkdtempSync(join(tmpdir(), "settings-"));
        const disk = await startTestEmulator({ stateDir: dir });
        try {
            assert.deepEqual((await raw(disk, "GET", "/workspaces/current/ttl-settings")).body, {
                tenant_id: TEST_TENANT,
                longlived_ttl_days: 400,
                is_custom: false,
            });
            assert.equal((await raw(disk, "PUT", "/workspaces/current/ttl-settings", { body: { longlived_ttl_days: 0 } })).status, 400);
            await raw(disk, "PUT", "/workspaces/current/ttl-settings", { body: { longlived_ttl_days: 90 } });
            await raw(disk, "PUT", LIMITS, { body: { limit_type: "monthly_longlived_traces", limit_value: 5 } });
            await raw(disk, "PUT", "/api/v1/ttl-settings", { body: { default_trace_tier: "shortlived" } });
        } finally {
            await disk.close();
        }
        const again = await startTestEmulator({ stateDir: dir });
        try {
            assert.equal((await raw(again, "GET", "/workspaces/current/ttl-settings")).body.longlived_ttl_days, 90);
            assert.equal((await raw(again, "GET", LIMITS)).body[0].limit_value, 5);
            assert.equal((await raw(again, "GET", "/api/v1/ttl-settings")).body[0].default_trace_tier, "shortlived");
        } finally {
            await again.close();
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
