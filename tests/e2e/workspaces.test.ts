/**
 * A workspace per resource with the real CLI (programs/workspaces-ts, the TypeScript resources): a tracing
 * project whose `workspaceId` another resource of the same program makes (unknown at the first preview,
 * which passes and shows it created), made in that workspace in one `up` and not in the provider's; no drift;
 * naming the provider's workspace explicitly on the other project is no change; destroy deletes each where
 * it is. The provider-level cases (replace on a move, old state, import, a bad id): tests/provider/kit/workspace.test.ts.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

describe("e2e: workspaceId fed by a resource of the same program (real CLI)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `ws-${randomUUID().slice(0, 8)}`;
    const provider = randomUUID();
    const name = `traces-${randomUUID().slice(0, 8)}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    /** The projects named `name` in a workspace, as the emulator holds them. */
    const projectsIn = async (tenant: string) => {
        const r = await fetch(`${em.url}/api/v1/sessions?name=${name}`, { headers: { "x-api-key": API_KEY, "x-tenant-id": tenant } });
        return ((await r.json()) as Array<{ id: string }>).map((s) => s.id);
    };

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 0 } });
        project = createProject(join(__dirname, "programs", "workspaces-ts"));
        await project.initStack(
            stack,
            { "langsmith:controlPlaneUrl": em.url, "langsmith:endpoint": em.url, "langsmith:workspaceId": provider, "workspaces-ts:name": name },
            { "langsmith:apiKey": API_KEY },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    it("preview with the workspace unknown, one up makes each project in its workspace, no drift, the provider's named is no change, destroy", async () => {
        const pv = await cli("preview", "--diff");
        assert.match(pv.stdout, /\+ pulumi-nodejs:dynamic\/langsmith:TracingProject: \(create\)\n(?: {8}.*\n)*? {8}workspaceId\s*: \[unknown\]/);
        assert.match(pv.stdout, /\+ 4 to create/);
        assert.deepEqual(
            em.admin.requests.filter((r) => r.method !== "GET"),
            [],
            "preview changed something on the service",
        );

        await cli("up", "--yes", "--skip-preview");
        const out = JSON.parse((await cli("stack", "output", "--json")).stdout);
        assert.notEqual(out.workspaceId, provider);
        assert.deepEqual([out.thereTenant, out.hereTenant], [out.workspaceId, provider]);
        assert.deepEqual(await projectsIn(out.workspaceId), [out.thereId], "made in the workspace the program made");
        assert.deepEqual(await projectsIn(provider), [out.hereId], "the same name in the provider's workspace is the other project");

        const drift = await project.pulumi(["preview", "--refresh", "--expect-no-changes", "--stack", stack], { allowFailure: true });
        assert.equal(drift.code, 0, drift.stdout + drift.stderr);
        await cli("config", "set", "workspaces-ts:hereWorkspaceId", provider);
        const named = await project.pulumi(["preview", "--expect-no-changes", "--diff", "--stack", stack], { allowFailure: true });
        assert.equal(named.code, 0, `naming the provider's workspace changed something:\n${named.stdout}${named.stderr}`);

        await cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual([await projectsIn(out.workspaceId), await projectsIn(provider)], [[], []]);
    });
});
