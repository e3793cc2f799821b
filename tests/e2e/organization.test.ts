/**
 * The organization's rules with the real CLI against the emulator (examples/organization-rules): one `up` sets the
 * usage limits, the organization's and the workspace's retention (its preview saying what destroy puts back),
 * the audit project's own tier, the auditor's invitation and the listener; the drift check is green; ingest past
 * the limit is refused; the audit project and the deployment carry the tag `team: audit`, the project list filtered
 * by it finds the project, the role holds the access policy over it; `destroy` lifts the limits, puts the
 * retention defaults back, cancels the invitation, deletes the listener, the role and the policy, and takes the tags
 * off (the key and value stay).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { raw } from "../helpers/emulator";
import { createProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: the organization's rules (real CLI, examples/organization-rules)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `org-rules-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const auditor = `auditor-${randomUUID().slice(0, 6)}@example.com`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const get = async (path: string, tenantId: string | null = workspace) => (await raw(em, "GET", path, { apiKey: API_KEY, tenantId })).body;
    const orgSettings = async () => (await get("/api/v1/orgs/ttl-settings", null)).find((s: { tenant_id: string | null }) => !s.tenant_id);

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
        const made = await raw(em, "POST", "/api/v1/workspaces", { apiKey: API_KEY, tenantId: null, body: { display_name: "Rules", id: workspace } });
        assert.equal(made.status, 200, made.text);
        project = createProject("organization-rules");
        await project.initStack(
            stack,
            {
                "langsmith:endpoint": em.url,
                "langsmith:controlPlaneUrl": em.url,
                "langsmith:workspaceId": workspace,
                "organization-rules:monthlyTraces": "1",
                "organization-rules:auditor": auditor,
            },
            { "langsmith:apiKey": API_KEY },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    /** The ids of the objects tagged (with `valueId`, or any value): `GET .../taggings` lists each value with its objects by type. */
    async function taggedWith(valueId?: string): Promise<string[]> {
        const values: Array<{ resources: Record<string, Array<{ resource_id: string }>> }> = await get(
            `/api/v1/workspaces/current/taggings${valueId ? `?tag_value_id=${valueId}` : ""}`,
        );
        return values.flatMap((v) => Object.values(v.resources).flatMap((rs) => rs.map((r) => r.resource_id)));
    }

    /** The project and the deployment carry team=audit; the project list filtered by it finds the project; the role holds the policy. */
    async function assertTagged(): Promise<void> {
        const outputs = JSON.parse((await cli("stack", "output", "--json", "--show-secrets")).stdout);
        const [key] = (await get("/api/v1/workspaces/current/tag-keys")).filter((k: { key: string }) => k.key === "team");
        const [value] = (await get(`/api/v1/workspaces/current/tag-keys/${key.id}/tag-values`)).filter((v: { value: string }) => v.value === "audit");
        const tagged = (await taggedWith(value.id)).sort();
        const [audit] = await get("/api/v1/sessions");
        assert.deepEqual(tagged, [audit.id, outputs.deploymentId].sort(), "the project and the deployment tagged team=audit");
        assert.deepEqual(
            (await get(`/api/v1/sessions?tag_value_id=${value.id}`)).map((p: { id: string }) => p.id),
            [audit.id],
        );
        const held = await get(`/api/v1/platform/orgs/current/roles/${outputs.readerRoleId}/access-policies`, null);
        assert.deepEqual(
            held.map((p: { name: string }) => p.name),
            [`audit-projects-only-${stack}`],
        );
    }

    it("up sets every rule (its preview says what destroy puts back), tags the project and the deployment, restricts a role by the tag; the drift check is green; ingest past the limit is refused", async () => {
        const up = await cli("up", "--yes");
        assert.match(`${up.stdout}`, /retention settings exist once and are taken over as they are/);
        assert.deepEqual((await get("/api/v1/usage-limits")).map((l: { limit_type: string; limit_value: number }) => [l.limit_type, l.limit_value]).sort(), [
            ["monthly_longlived_traces", 50000],
            ["monthly_traces", 1],
        ]);
        assert.equal((await get("/api/v1/ttl-settings"))[0].default_trace_tier, "shortlived");
        assert.equal((await get("/workspaces/current/ttl-settings")).longlived_ttl_days, 180);
        assert.equal((await orgSettings()).default_trace_tier, "shortlived");
        const projects = await get("/api/v1/sessions");
        assert.deepEqual(
            projects.map((p: { trace_tier: string }) => p.trace_tier),
            ["longlived"],
            "the audit project's own tier wins",
        );
        assert.deepEqual(
            (await get("/api/v1/orgs/current/members/pending", null)).map((p: { email: string }) => p.email),
            [auditor],
        );
        assert.equal((await get("/v2/listeners")).resources.length, 1);
        await assertTagged();
        await cli("preview", "--refresh", "--expect-no-changes");

        const run = (name: string) => ({ post: [{ id: randomUUID(), name, run_type: "chain", start_time: new Date().toISOString(), inputs: {} }] });
        assert.equal((await raw(em, "POST", "/runs/batch", { apiKey: API_KEY, tenantId: workspace, body: run("first") })).status, 202);
        const over = await raw(em, "POST", "/runs/batch", { apiKey: API_KEY, tenantId: workspace, body: run("second") });
        assert.equal(over.status, 429, over.text);
    });

    it("destroy lifts the limits, puts the retention defaults back, cancels the invitation, deletes the listener and the policy, takes the tags off (the key stays)", async () => {
        await cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual(await get("/api/v1/usage-limits"), []);
        const ws = (await get("/api/v1/ttl-settings"))[0];
        assert.deepEqual([ws.default_trace_tier, ws.apply_to_all_projects], ["longlived", false]);
        assert.equal((await get("/workspaces/current/ttl-settings")).longlived_ttl_days, 400);
        assert.equal((await orgSettings()).default_trace_tier, "longlived");
        assert.deepEqual(await get("/api/v1/orgs/current/members/pending", null), []);
        assert.deepEqual((await get("/v2/listeners")).resources, []);
        assert.deepEqual(await taggedWith(), [], "tags left on");
        assert.equal((await get("/api/v1/workspaces/current/tag-keys")).length, 1, "the key stays");
        assert.deepEqual((await get("/api/v1/platform/orgs/current/access-policies", null)).access_policies, []);
    });
});
