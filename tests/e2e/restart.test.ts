/**
 * A stack outlives its emulator (`--state-dir`), through the real `pulumi` CLI: examples/quickstart is up
 * against an emulator process, the emulator is killed with SIGKILL and started again on the same directory
 * and port; the CI drift check (`preview --refresh --expect-no-changes`) finds the same deployment as the
 * stack holds, and destroy deletes it. The directory never holds the stack's secret in plain text.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProject, type PulumiProject } from "../helpers/project";
import { raw, startEmulatorProcess } from "../helpers/emulator";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const AGENT_SECRET = `sk-agent-${randomUUID()}`;
const STACK = "restart";

describe("e2e: a stack survives an emulator killed with SIGKILL (--state-dir)", function () {
    this.timeout(10 * 60_000);
    let dir: string;
    let project: PulumiProject;
    const children: ChildProcess[] = [];

    before(() => {
        dir = mkdtempSync(join(tmpdir(), "emulator-e2e-state-"));
        project = createProject("quickstart");
    });
    after(() => {
        for (const c of children) c.kill("SIGKILL");
        project?.remove();
        rmSync(dir, { recursive: true, force: true });
    });

    /** The built emulator on the state directory (a tenth of its default timing), on `port` (0: a free one). */
    async function start(port: string) {
        const em = await startEmulatorProcess(["--state-dir", dir, "--api-key", API_KEY, "--scale", "0.1", "--port", port]);
        children.push(em.child);
        return em;
    }

    it("up, kill -9, restart on the same directory and port: preview --refresh --expect-no-changes passes, destroy deletes", async () => {
        const first = await start("0");
        const port = new URL(first.url).port;
        const workspace = randomUUID();
        await project.initStack(
            STACK,
            { "langsmith:controlPlaneUrl": first.url, "langsmith:workspaceId": workspace },
            { "langsmith:apiKey": API_KEY, "quickstart:agentSecret": AGENT_SECRET },
        );
        const cli = (...args: string[]) => project.pulumi([...args, "--stack", STACK]);
        await cli("up", "--yes");
        const out = await project.outputs(STACK);
        assert.equal(out.revisionStatus, "DEPLOYED");

        first.child.kill("SIGKILL");
        await new Promise((r) => first.child.once("exit", r));
        const second = await start(port);
        const deployment = () => raw(second, "GET", `/v2/deployments/${out.deploymentId}`, { apiKey: API_KEY, tenantId: workspace });
        assert.equal((await deployment()).body.latest_revision_id, out.revisionId);

        await cli("preview", "--refresh", "--expect-no-changes");
        await cli("destroy", "--yes", "--skip-preview");
        assert.equal((await deployment()).status, 404);

        for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), "utf8").includes(AGENT_SECRET), `${f} holds the secret in plain text`);
    });
});
