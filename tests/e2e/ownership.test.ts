/**
 * Who owns a fact, and what a field removed from the program does, with the real CLI: a Pulumi YAML program through
 * the native plugin against the emulator, on one stack (issue 49).
 *
 * - One person as an `OrganizationMember` (the provider's workspace) and a `WorkspaceMember` in one more workspace,
 *   as docs/organizationMember.md tells users to do it: the organization member owns the workspaces it joined, the
 *   workspace member its own; the drift check after both are made plans nothing, and the person keeps the other
 *   workspace with its role (a refresh once read it into the organization member's `workspaceIds`, and the next
 *   `up` took the person out of it).
 * - A project's `tags: {team: support}` beside a `Tagging` of `team=billing` on it: a description change leaves the
 *   Tagging's value on (the tags argument once took every value of a key it names off), and the Tagging does not drift.
 * - An LLM-as-judge `Evaluator` pinned to a tag: `promptRef` removed from the program unpins it on the service
 *   (the PATCH once left it out, and the service merges), and the next preview plans nothing.
 * - A third release moves both facts in one `up`: the other workspace from the `WorkspaceMember` into the organization
 *   member's `workspaceIds`, and `team=billing` from the `Tagging` into the project's `tags`. The resource that lets a
 *   fact go is deleted last (the engine's deletes come after updates), and its delete leaves what the other now
 *   holds (kit/adoption.ts `claim`): the person stays in the workspace, the project keeps its value, and the drift
 *   check plans nothing (both were lost until the next `up`).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { admin, raw } from "../helpers/emulator";
import { createYamlProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: two resources never own one fact; a field removed is cleared (Pulumi YAML, native plugin)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `own-${randomUUID().slice(0, 8)}`;
    const home = randomUUID();
    let other = "";
    const alice = `alice-${randomUUID().slice(0, 6)}@example.com`;
    const id = randomUUID().slice(0, 6);
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const get = async (path: string, tenantId: string | null = home) => (await raw(em, "GET", path, { apiKey: API_KEY, tenantId })).body;

    /**
     * The program: the first release, the second (the workspace member added, a new description, the judge unpinned), or
     * the third (the other workspace and the billing value moved to the organization member and the project's tags).
     */
    function program(release: 1 | 2 | 3): string {
        const second = release === 2;
        return `name: ownership
runtime: yaml
resources:
  alice:
    type: langsmith:OrganizationMember
    properties:
      email: ${alice}
      roleId: ORGANIZATION_USER
      workspaceIds: [${release === 3 ? `${home}, ${other}` : home}]
      workspaceRoleId: WORKSPACE_VIEWER
${
    second
        ? `  aliceElsewhere:
    type: langsmith:WorkspaceMember
    properties:
      email: ${alice}
      roleId: WORKSPACE_USER
      workspaceId: ${other}
    options:
      dependsOn:
        - \${alice}
`
        : ""
}  team:
    type: langsmith:TagKey
    properties:
      key: team
  billing:
    type: langsmith:TagValue
    properties:
      tagKeyId: \${team.id}
      value: billing
  support:
    type: langsmith:TracingProject
    properties:
      name: support-${id}
      description: ${release > 1 ? "the support bot, second release" : "the support bot"}
      tags:
        team: ${release === 3 ? "billing" : "support"}
    options:
      dependsOn:
        - \${team}
${
    release === 3
        ? ""
        : `  billingReads:
    type: langsmith:Tagging
    properties:
      tagValueId: \${billing.id}
      resourceType: project
      resourceId: \${support.id}
`
}  judge:
    type: langsmith:Evaluator
    properties:
      name: judge-${id}
      type: llm
      promptHandle: support-judge
${release === 1 ? "      promptRef: prod\n" : ""}      variableMapping:
        question: input.question
`;
    }

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
        const made = await raw(em, "POST", "/api/v1/workspaces", { apiKey: API_KEY, tenantId: null, body: { display_name: "Home", id: home } });
        assert.equal(made.status, 200, made.text);
        other = (await raw(em, "POST", "/api/v1/workspaces", { apiKey: API_KEY, tenantId: null, body: { display_name: "Other" } })).body.id;
        // The program is written here at each release: a copy of an empty directory to start.
        const empty = mkdtempSync(join(tmpdir(), "ownership-"));
        project = createYamlProject(empty);
        rmSync(empty, { recursive: true });
        writeFileSync(join(project.dir, "Pulumi.yaml"), program(1));
        await project.initStack(stack, { "langsmith:endpoint": em.url, "langsmith:workspaceId": home }, { "langsmith:apiKey": API_KEY });
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    /** The values (of any key) on the project: `GET .../taggings` lists each value with the objects it is on. */
    async function valuesOn(projectId: string): Promise<string[]> {
        const values: Array<{ tag_value: string; resources: Record<string, Array<{ resource_id: string }>> }> =
            await get("/api/v1/workspaces/current/taggings");
        return values
            .filter((v) => Object.values(v.resources).some((rs) => rs.some((r) => r.resource_id === projectId)))
            .map((v) => v.tag_value)
            .sort();
    }

    it("the second release (a workspace member beside the organization member, a description changed, promptRef removed): the Tagging's value stays, the judge is unpinned, the person keeps both workspaces; the drift check plans nothing", async () => {
        await cli("up", "--yes", "--skip-preview");
        await admin(em, "POST", "/org/invitations/accept", { email: alice });
        writeFileSync(join(project.dir, "Pulumi.yaml"), program(2));
        await cli("up", "--yes", "--skip-preview");

        const [support] = await get(`/api/v1/sessions?name=support-${id}`);
        assert.deepEqual(await valuesOn(support.id), ["billing", "support"], "the Tagging's value taken off by the project's update");
        const { evaluators } = await get("/api/v1/platform/evaluators");
        assert.equal(evaluators.length, 1);
        assert.ok(!evaluators[0].llm_evaluator.commit_hash_or_tag, `the judge still pinned: ${JSON.stringify(evaluators[0].llm_evaluator)}`);
        const roleIn = async (ws: string) =>
            (await get(`/api/v1/workspaces/current/members/active?emails=${alice}`, ws)).map((m: { role_name: string }) => m.role_name);
        assert.deepEqual([await roleIn(home), await roleIn(other)], [["WORKSPACE_VIEWER"], ["WORKSPACE_USER"]]);

        // The CI drift check: a refresh reads each resource's own facts only (the organization member's workspaces, the
        // project's own tag, the judge's ref), so nothing differs from the program and the next up would change nothing.
        await cli("preview", "--refresh", "--expect-no-changes", "--diff");
    });

    it("the third release moves the other workspace and team=billing to the organization member and the project's tags in one up: neither is lost; the drift check plans nothing", async () => {
        writeFileSync(join(project.dir, "Pulumi.yaml"), program(3));
        const up = await cli("up", "--yes", "--skip-preview");
        assert.match(up.stdout, /WorkspaceMember \S+ in \S+: left in the workspace/);
        assert.match(up.stdout, /Tagging \S+: left on its object/);
        const [support] = await get(`/api/v1/sessions?name=support-${id}`);
        assert.deepEqual(await valuesOn(support.id), ["billing"], "the moved value taken off by the Tagging's delete");
        const members = await get(`/api/v1/workspaces/current/members/active?emails=${alice}`, other);
        assert.deepEqual(
            members.map((m: { role_name: string }) => m.role_name),
            ["WORKSPACE_VIEWER"],
            "the person taken out of the moved workspace by the workspace member's delete",
        );
        await cli("preview", "--refresh", "--expect-no-changes", "--diff");
    });
});
