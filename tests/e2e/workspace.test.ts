/**
 * A workspace, the service key a team's CI uses and a team's stack whose only credential is that key, with the
 * real CLI against the emulator (its organization area: keys it makes authenticate with their scope, 401 once
 * deleted) and MinIO, in TypeScript (examples/workspace-admin, examples/workspace-team: the key copied from an
 * output into the team's config, as CI does) and in Python (examples/python-workspace-*: the key read through
 * a stack reference into an explicit provider). The admin stack makes the workspace, a key scoped to it, a
 * deployment and a tracing project in it; the team's stack, with that key alone, makes an export of the
 * project into a bucket; the key works in its workspace and nowhere else; moving its expiry rotates it (the new
 * key made first, the old one 401 afterwards) and the team's stack goes on with the new one; destroy leaves
 * nothing, and the key is refused. No key, secret or storage credential is in any state or output. And access
 * as code in Python (examples/python-workspace-access) against a server that holds to LangSmith's description
 * alone (tests/contract/describedOnly.ts): a workspace, a role that writes secrets, a secret, a member.
 *
 * Its `pulumi` commands (issue 50: more than 8): per language one admin stack and one team stack, each `up` once,
 * again at the rotation (the admin's makes the new key, the team's takes it), the team's drift check after it and
 * a `destroy` each; the access stack's `up`, its `up --refresh` after the changes, its drift check and `destroy`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { startDescribedOnly } from "../contract/describedOnly";
import { admin as emulatorAdmin, raw } from "../helpers/emulator";
import { startMinio, type MinioServer } from "../helpers/minio";
import { createProject, createPythonProject, type PulumiProject } from "../helpers/project";

const ADMIN_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const DAY = 24 * 3600_000;

describe("e2e: a workspace, its CI's service key, and a team's stack that holds only that key (real CLI)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let minio: MinioServer;
    let backend: string;
    before(async () => {
        minio = await startMinio();
        em = await startEmulator({ apiKeys: [ADMIN_KEY], timing: { speed: "immediate", deleteMs: 0 } });
        backend = mkdtempSync(join(tmpdir(), "workspace-backend-"));
    });
    after(async () => {
        await em?.close();
        await minio?.stop();
        rmSync(backend, { recursive: true, force: true });
    });

    /** Whether `key` may read the tracing project in `workspace` (200), or the status the service answers. */
    const statusWith = async (key: string, workspace: string, projectId: string) =>
        (await raw(em, "GET", `/api/v1/sessions/${projectId}`, { apiKey: key, tenantId: workspace })).status;
    const workspaces = async () => (await raw(em, "GET", "/api/v1/workspaces", { apiKey: ADMIN_KEY, tenantId: null })).body as Array<{ id: string }>;
    const secretOutput = async (p: PulumiProject, stack: string, name: string) =>
        (await p.pulumi(["stack", "output", name, "--show-secrets", "--stack", stack])).stdout.trim();

    /** Every text a stack keeps or prints must be free of these. */
    async function assertNoSecret(p: PulumiProject, stack: string, secrets: string[], printed: string) {
        const stored = await p.storedText(stack);
        for (const s of secrets) {
            assert.ok(!stored.includes(s), `a secret is in the state of ${stack}`);
            assert.ok(!printed.includes(s), `a secret was printed by a command on ${stack}`);
        }
    }

    /** The end of both tests: no key or storage secret kept or printed; destroy of both stacks; the key refused, the workspace gone. */
    async function searchedAndDestroyed(o: {
        admin: PulumiProject;
        team: PulumiProject;
        stack: string;
        keys: string[];
        printed: string;
        workspaceId: string;
        projectId: string;
    }) {
        await assertNoSecret(o.admin, o.stack, o.keys, o.printed);
        await assertNoSecret(o.team, o.stack, [...o.keys, minio.users.writeDelete.secretAccessKey], o.printed);
        await o.team.pulumi(["destroy", "--yes", "--skip-preview", "--stack", o.stack]);
        await o.admin.pulumi(["destroy", "--yes", "--skip-preview", "--stack", o.stack]);
        assert.equal(await statusWith(o.keys.at(-1)!, o.workspaceId, o.projectId), 401, "the key is refused after destroy");
        assert.ok(!(await workspaces()).some((w) => w.id === o.workspaceId), "the workspace is gone");
    }

    const storage = () => ({ bucket: "exports", s3Endpoint: minio.endpoint, s3AccessKeyId: minio.users.writeDelete.accessKeyId });

    it("TypeScript: admin stack makes the workspace, a scoped key, a deployment and a project; the team's stack exports with the key alone; rotation; destroy", async () => {
        const admin = createProject("workspace-admin");
        const team = createProject("workspace-team");
        try {
            for (const p of [admin, team]) p.useBackend(`file://${backend}`);
            const stack = `ts-${randomUUID().slice(0, 8)}`;
            const service = { "langsmith:controlPlaneUrl": em.url, "langsmith:endpoint": em.url };
            await admin.initStack(
                stack,
                { ...service, "workspace-admin:integrationId": randomUUID(), "workspace-admin:keyExpiresAt": new Date(Date.now() + 30 * DAY).toISOString() },
                { "langsmith:apiKey": ADMIN_KEY },
            );
            let printed = (await admin.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            const out = await admin.outputs(stack);
            const key = await secretOutput(admin, stack, "ciKeySecret");
            assert.match(key, /^lsv2_sk_/);
            assert.equal(await statusWith(key, out.workspaceId, out.projectId), 200, "the key works in its workspace");
            const elsewhere = (await raw(em, "GET", "/api/v1/sessions", { apiKey: key, tenantId: randomUUID() })).status;
            assert.equal(elsewhere, 403, "and nowhere else");
            const deployments = await raw(em, "GET", "/v2/deployments", { apiKey: ADMIN_KEY, tenantId: out.workspaceId });
            assert.deepEqual(
                deployments.body.resources.map((d: { name: string }) => d.name),
                [out.deploymentName],
                "the deployment is in the new workspace",
            );

            // The team's CI: its only LangSmith credential is the key, copied from the admin stack's output.
            const s3 = storage();
            await team.initStack(
                stack,
                { ...service, "workspace-team:adminStack": `organization/workspace-admin/${stack}`, ...prefixed("workspace-team", s3) },
                { "langsmith:apiKey": key, "workspace-team:s3SecretAccessKey": minio.users.writeDelete.secretAccessKey },
            );
            printed += (await team.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            const teamOut = await team.outputs(stack);
            const exports = await raw(em, "GET", `/api/v1/bulk-exports/${teamOut.exportId}`, { apiKey: ADMIN_KEY, tenantId: out.workspaceId });
            assert.equal(exports.status, 200, "the export is in the team's workspace");

            // Rotation: the new key is made before the old one is deleted; the team's stack goes on with the new one.
            await admin.pulumi(["config", "set", "workspace-admin:keyExpiresAt", new Date(Date.now() + 60 * DAY).toISOString(), "--stack", stack]);
            const rotated = await admin.pulumi(["up", "--yes", "--skip-preview", "--stack", stack]);
            printed += rotated.stdout;
            assert.match(rotated.stdout, /\+- +\S*ServiceKey +ci +replaced/);
            const newKey = await secretOutput(admin, stack, "ciKeySecret");
            assert.notEqual(newKey, key);
            assert.deepEqual([await statusWith(key, out.workspaceId, out.projectId), await statusWith(newKey, out.workspaceId, out.projectId)], [401, 200]);
            await team.pulumi(["config", "set", "--secret", "langsmith:apiKey", newKey, "--stack", stack]);
            // An `up` records the new key (a refresh first would read with the one the state holds, now refused).
            printed += (await team.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            printed += (await team.pulumi(["preview", "--refresh", "--expect-no-changes", "--stack", stack])).stdout;

            await searchedAndDestroyed({ admin, team, stack, keys: [key, newKey], printed, workspaceId: out.workspaceId, projectId: out.projectId });
        } finally {
            admin.remove();
            team.remove();
        }
    });

    it("Python: the team's provider reads the key through a stack reference; a rotation needs no copy; destroy leaves nothing", async () => {
        const admin = createPythonProject("python-workspace-admin");
        const team = createPythonProject("python-workspace-team");
        try {
            for (const p of [admin, team]) p.useBackend(`file://${backend}`);
            const stack = `py-${randomUUID().slice(0, 8)}`;
            const expiry = (days: number) => new Date(Date.now() + days * DAY).toISOString();
            await admin.initStack(
                stack,
                { "langsmith:controlPlaneUrl": em.url, "langsmith:endpoint": em.url, "python-workspace-admin:keyExpiresAt": expiry(30) },
                { "langsmith:apiKey": ADMIN_KEY },
            );
            let printed = (await admin.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            const out = await admin.outputs(stack);
            const key = await secretOutput(admin, stack, "ciKeySecret");
            assert.equal(await statusWith(key, out.workspaceId, out.projectId), 200);

            await team.initStack(
                stack,
                {
                    "python-workspace-team:adminStack": `organization/python-workspace-admin/${stack}`,
                    "python-workspace-team:langsmithUrl": em.url,
                    ...prefixed("python-workspace-team", storage()),
                },
                { "python-workspace-team:s3SecretAccessKey": minio.users.writeDelete.secretAccessKey },
            );
            printed += (await team.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;

            await admin.pulumi(["config", "set", "python-workspace-admin:keyExpiresAt", expiry(60), "--stack", stack]);
            printed += (await admin.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            const newKey = await secretOutput(admin, stack, "ciKeySecret");
            assert.equal(await statusWith(key, out.workspaceId, out.projectId), 401, "the old key stops once the new one exists");
            // The stack reference hands the team's provider the new key at its next `up`: nothing copied by hand (a
            // refresh before it would read with the key the state holds, now refused).
            printed += (await team.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            printed += (await team.pulumi(["preview", "--refresh", "--expect-no-changes", "--stack", stack])).stdout;

            await searchedAndDestroyed({ admin, team, stack, keys: [key, newKey], printed, workspaceId: out.workspaceId, projectId: out.projectId });
        } finally {
            admin.remove();
            team.remove();
        }
    });

    it("Python, against a server that holds to LangSmith's description alone: a workspace, a role that writes secrets, a secret, a member; rename, role change, drift check, destroy", async () => {
        const described = await startDescribedOnly(em.url);
        const access = createPythonProject("python-workspace-access");
        const openai = `sk-${randomUUID()}`;
        const email = `lead-${randomUUID().slice(0, 8)}@example.com`;
        const asAdmin = { apiKey: ADMIN_KEY, tenantId: null };
        try {
            access.useBackend(`file://${backend}`);
            const stack = `access-${randomUUID().slice(0, 8)}`;
            await access.initStack(
                stack,
                { "langsmith:controlPlaneUrl": described.url, "langsmith:endpoint": described.url, "python-workspace-access:leadEmail": email },
                { "langsmith:apiKey": ADMIN_KEY, "python-workspace-access:openaiApiKey": openai },
            );
            let printed = (await access.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])).stdout;
            const out = await access.outputs(stack);
            assert.equal(out.leadStatus, "pending", "invited: not yet in the organization");
            assert.deepEqual(await emulatorAdmin(em, "GET", `/org/secrets/${out.workspaceId}/OPENAI_API_KEY`), { value: openai });
            const role = (await raw(em, "GET", "/api/v1/orgs/current/roles", asAdmin)).body.find((r: { id: string }) => r.id === out.roleId);
            assert.deepEqual(role.permissions, ["workspaces:read", "workspaces:manage-secrets"]);

            // The lead accepts; the rename goes to the workspace itself (X-Tenant-Id naming it), the role change is read back.
            await emulatorAdmin(em, "POST", "/org/invitations/accept", { email });
            await access.pulumi(["config", "set", "python-workspace-access:team", "platform", "--stack", stack]);
            await access.pulumi(["config", "set", "python-workspace-access:leadRole", "WORKSPACE_VIEWER", "--stack", stack]);
            printed += (await access.pulumi(["up", "--yes", "--skip-preview", "--refresh", "--stack", stack])).stdout;
            const named = (await raw(em, "GET", "/api/v1/workspaces", asAdmin)).body.find((w: { id: string }) => w.id === out.workspaceId);
            assert.equal(named.display_name, "platform team");
            const lead = (await raw(em, "GET", `/api/v1/workspaces/current/members/active?emails=${email}`, { apiKey: ADMIN_KEY, tenantId: out.workspaceId }))
                .body;
            assert.deepEqual(
                lead.map((m: { role_name: string }) => m.role_name),
                ["WORKSPACE_VIEWER"],
            );
            assert.equal((await access.outputs(stack)).leadStatus, "active");
            printed += (await access.pulumi(["preview", "--refresh", "--expect-no-changes", "--stack", stack])).stdout;

            await assertNoSecret(access, stack, [ADMIN_KEY, openai], printed);
            await access.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
            assert.ok(!(await workspaces()).some((w) => w.id === out.workspaceId), "the workspace is gone");
            assert.equal(
                (await raw(em, "GET", "/api/v1/orgs/current/roles", asAdmin)).body.find((r: { id: string }) => r.id === out.roleId),
                undefined,
            );
        } finally {
            access.remove();
            await described.close();
        }
    });
});

/** Config keys of a project: `{bucket: "x"}` as `{"<project>:bucket": "x"}`. */
const prefixed = (project: string, o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`${project}:${k}`, v]));
