/**
 * The emulator's resource tags and access policies (emulator/tags/, docs/service.md R13) over HTTP, as the service's
 * description and the decided rules say: keys and values unique (409), a kind the service cannot tag 422, one
 * tagging per value and object (409), a deleted key taking its values and taggings with it, the project list
 * filtered by `tag_value_id`; an access policy without conditions 400 `{error}`, attached to a role, its deletion refused while
 * held; and all of it across a restart on the same `--state-dir`. The official clients write tags only at a create
 * (`tag_value_ids` of `create_project`/`createProject` and `create_dataset`): judged here by both; neither has tag
 * calls of its own, nor a tag filter on its `/api/v1` project list.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "langsmith";
import { TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";
import { pythonPath } from "../../helpers/pyarrow";

const WS = "/api/v1/workspaces/current";
const ORG = "/api/v1/platform/orgs/current";
const org = { tenantId: null };

async function tagged(em: Emulator) {
    const key = (await raw(em, "POST", `${WS}/tag-keys`, { body: { key: "team" } })).body;
    const value = (await raw(em, "POST", `${WS}/tag-keys/${key.id}/tag-values`, { body: { value: "support" } })).body;
    const project = (await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("tagged") } })).body;
    await raw(em, "POST", "/api/v1/sessions", { body: { name: uniqueName("untagged") } });
    const tagging = await raw(em, "POST", `${WS}/taggings`, { body: { tag_value_id: value.id, resource_type: "project", resource_id: project.id } });
    assert.equal(tagging.status, 200);
    return { key, value, project, tagging: tagging.body };
}
const listedBy = async (em: Emulator, valueId: string) =>
    ((await raw(em, "GET", `/api/v1/sessions?tag_value_id=${valueId}`)).body as Array<{ id: string }>).map((s) => s.id);

describe("emulator: resource tags and access policies", function () {
    this.timeout(30_000);
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
    });
    afterEach(() => em.reset());
    after(() => em.close());

    it("keys and values are unique, a kind the service cannot tag is 422, a tagging is once per value and object, the project list filters by value", async () => {
        const { key, value, project } = await tagged(em);
        assert.equal((await raw(em, "POST", `${WS}/tag-keys`, { body: { key: "team" } })).status, 409);
        assert.equal((await raw(em, "POST", `${WS}/tag-keys/${key.id}/tag-values`, { body: { value: "support" } })).status, 409);
        const bad = await raw(em, "POST", `${WS}/taggings`, { body: { tag_value_id: value.id, resource_type: "run", resource_id: project.id } });
        assert.equal(bad.status, 422);
        assert.deepEqual(bad.body.detail[0].loc, ["body", "resource_type"]);
        assert.equal(
            (await raw(em, "POST", `${WS}/taggings`, { body: { tag_value_id: value.id, resource_type: "project", resource_id: project.id } })).status,
            409,
        );
        assert.equal((await raw(em, "POST", `${WS}/tag-keys`, { body: { key: "x".repeat(256) } })).status, 422);
        assert.deepEqual(await listedBy(em, value.id), [project.id]);
        // Several values: the projects carrying all of them.
        const other = (await raw(em, "POST", `${WS}/tag-keys/${key.id}/tag-values`, { body: { value: "research" } })).body;
        const both = `/api/v1/sessions?tag_value_id=${value.id}&tag_value_id=${other.id}`;
        assert.deepEqual((await raw(em, "GET", both)).body, []);
        await raw(em, "POST", `${WS}/taggings`, { body: { tag_value_id: other.id, resource_type: "project", resource_id: project.id } });
        assert.deepEqual(
            ((await raw(em, "GET", both)).body as Array<{ id: string }>).map((s) => s.id),
            [project.id],
        );
        const onIt = (await raw(em, "GET", `${WS}/tags/resource?resource_type=project&resource_id=${project.id}`)).body;
        assert.deepEqual(
            [onIt[0].key, onIt[0].values.map((v: { value: string }) => v.value).sort(), onIt[0].values[0].taggings.length],
            ["team", ["research", "support"], 1],
        );
        const byValue = (await raw(em, "GET", `${WS}/taggings?tag_value_id=${value.id}`)).body;
        assert.equal(byValue[0].resources.projects[0].resource_name, project.name);
        // Another workspace sees none of it.
        assert.deepEqual((await raw(em, "GET", `${WS}/tag-keys`, { tenantId: "99999999-8888-4777-8666-555555555555" })).body, []);
        // A deleted key takes its values and taggings with it.
        assert.equal((await raw(em, "DELETE", `${WS}/tag-keys/${key.id}`)).status, 200);
        assert.deepEqual((await raw(em, "GET", `${WS}/tags/resource?resource_type=project&resource_id=${project.id}`)).body, []);
        assert.deepEqual(await listedBy(em, value.id), []);
    });

    it("the clients' creates with tag_value_ids (Python create_project, create_dataset; JS createProject) tag what they make; an unknown value makes nothing (404)", async () => {
        const key = (await raw(em, "POST", `${WS}/tag-keys`, { body: { key: "team" } })).body;
        const value = (await raw(em, "POST", `${WS}/tag-keys/${key.id}/tag-values`, { body: { value: "support" } })).body;
        const names = { project: uniqueName("py-tagged"), dataset: uniqueName("py-tagged-ds"), refused: uniqueName("py-refused") };
        const script = `
import json, sys
from langsmith import Client
from langsmith.utils import LangSmithNotFoundError
url, key, ws, value, project, dataset, refused = sys.argv[1:]
c = Client(api_url=url, api_key=key, workspace_id=ws)
p = c.create_project(project, tag_value_ids=[value])
d = c.create_dataset(dataset, tag_value_ids=[value])
try:
    c.create_project(refused, tag_value_ids=["00000000-0000-4000-8000-000000000000"])
    unknown = "made"
except LangSmithNotFoundError as e:
    unknown = "404"
print(json.dumps({"project": str(p.id), "dataset": str(d.id), "unknown": unknown, "refused_made": c.has_project(refused)}))
`;
        const args = ["-c", script, em.url, TEST_API_KEY, TEST_TENANT, value.id, names.project, names.dataset, names.refused];
        const py = JSON.parse((await promisify(execFile)(pythonPath(), args)).stdout);
        assert.deepEqual([py.unknown, py.refused_made], ["404", false]);
        const js = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT });
        const jsProject = await js.createProject({ projectName: uniqueName("js-tagged"), tagValueIds: [value.id] });
        assert.deepEqual((await listedBy(em, value.id)).sort(), [py.project, jsProject.id].sort());
        const [on] = (await raw(em, "GET", `${WS}/taggings?tag_value_id=${value.id}`)).body as Array<{
            resources: Record<string, Array<{ resource_id: string }>>;
        }>;
        const ids = (kind: string) => on.resources[kind].map((r) => r.resource_id).sort();
        assert.deepEqual([ids("projects"), ids("datasets")], [[py.project, jsProject.id].sort(), [py.dataset]]);
    });

    it("an access policy needs a condition (400 {error}), attaches to a role the organization holds (also by role_ids as made), and is not deleted while held", async () => {
        const body = (conditions: unknown[]) => ({
            name: uniqueName("pol"),
            effect: "allow",
            condition_groups: [{ permission: "projects:read", resource_type: "project", conditions }],
        });
        const empty = await raw(em, "POST", `${ORG}/access-policies`, { ...org, body: body([]) });
        assert.equal(empty.status, 400, empty.text);
        assert.match(empty.body.error, /body\.condition_groups\.0\.conditions: /);
        assert.equal((await raw(em, "POST", `${ORG}/access-policies`, { ...org, body: { ...body([]), condition_groups: [] } })).status, 400);
        const cond = { attribute_name: "resource_tag_key", attribute_key: "team", operator: "equals", attribute_value: "support" };
        const p = (await raw(em, "POST", `${ORG}/access-policies`, { ...org, body: body([cond]) })).body;
        const role = (
            await raw(em, "POST", "/api/v1/orgs/current/roles", {
                ...org,
                body: { display_name: uniqueName("r"), description: "", permissions: ["projects:read"] },
            })
        ).body;
        assert.equal(
            (await raw(em, "POST", `${ORG}/roles/00000000-0000-4000-8000-000000000000/access-policies`, { ...org, body: { access_policy_ids: [p.id] } }))
                .status,
            404,
        );
        assert.equal((await raw(em, "POST", `${ORG}/roles/${role.id}/access-policies`, { ...org, body: { access_policy_ids: [p.id] } })).status, 200);
        assert.deepEqual((await raw(em, "GET", `${ORG}/access-policies/${p.id}`, org)).body.role_ids, [role.id]);
        // The description's `role_ids` attaches as the policy is made; an unknown role 404 and nothing made.
        const unknownRole = await raw(em, "POST", `${ORG}/access-policies`, {
            ...org,
            body: { ...body([cond]), role_ids: ["00000000-0000-4000-8000-000000000000"] },
        });
        assert.equal(unknownRole.status, 404, unknownRole.text);
        const withRole = await raw(em, "POST", `${ORG}/access-policies`, { ...org, body: { ...body([cond]), role_ids: [role.id] } });
        assert.equal(withRole.status, 201, withRole.text);
        assert.deepEqual(withRole.body.role_ids, [role.id]);
        assert.equal((await raw(em, "GET", `${ORG}/access-policies`, org)).body.access_policies.length, 2);
        assert.equal((await raw(em, "DELETE", `${ORG}/roles/${role.id}/access-policies/${withRole.body.id}`, org)).status, 200);
        assert.equal((await raw(em, "DELETE", `${ORG}/access-policies/${withRole.body.id}`, org)).status, 204);
        const refused = await raw(em, "DELETE", `${ORG}/access-policies/${p.id}`, org);
        assert.equal(refused.status, 409);
        assert.match(refused.body.detail, new RegExp(role.id));
        // A deleted role's attachment no longer holds the policy.
        assert.equal((await raw(em, "DELETE", `/api/v1/orgs/current/roles/${role.id}`, org)).status, 200);
        assert.equal((await raw(em, "DELETE", `${ORG}/access-policies/${p.id}`, org)).status, 204);
    });

    it("keeps keys, values, taggings, policies and attachments in --state-dir across a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "tags-state-"));
        try {
            const one = await startTestEmulator({ stateDir: dir });
            const { value, project } = await tagged(one);
            const cond = { attribute_name: "resource_tag_key", attribute_key: "team", operator: "equals", attribute_value: "support" };
            const p = (
                await raw(one, "POST", `${ORG}/access-policies`, {
                    ...org,
                    body: { name: "kept", effect: "deny", condition_groups: [{ permission: "projects:read", resource_type: "project", conditions: [cond] }] },
                })
            ).body;
            await one.close();
            const two = await startTestEmulator({ stateDir: dir });
            try {
                assert.deepEqual(await listedBy(two, value.id), [project.id]);
                assert.equal((await raw(two, "GET", `${ORG}/access-policies/${p.id}`, org)).body.name, "kept");
            } finally {
                await two.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
