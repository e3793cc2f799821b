/**
 * What `--state-dir` costs: every change is saved (one JSON snapshot per area, rewritten whole and renamed)
 * before it is answered. Measured in process, on the models, so the figure is the snapshot's own cost:
 *   1. control plane: 1,000 github deployments with a secret each, then a PATCH of each (a second
 *      revision): the snapshot's size, and the time per change at that size, with and without a directory;
 *   2. agent servers: 1,000 threads with three runs each: the snapshot's size and the time of one save.
 * BENCH_STATE_N changes the count (default 1000).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentServerModel } from "../emulator/agentServer/model";
import { Clock } from "../emulator/core/clock";
import { ControlPlaneModel } from "../emulator/controlPlane/model";
import { Store } from "../emulator/core/store";
import { githubBody } from "../tests/helpers/emulator";
import { printTable, summary } from "./util";

const N = Number(process.env.BENCH_STATE_N ?? 1000);
const TENANT = "11111111-2222-4333-8444-555555555555";

/** Milliseconds each call of `f` took. */
function timed(count: number, f: (i: number) => void): number[] {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        f(i);
        out.push(performance.now() - t0);
    }
    return out;
}

/** N deployments created then patched once each; the times of the patches (made at the full size). */
function controlPlane(stateDir: string | undefined): number[] {
    const cp = new ControlPlaneModel({ stateDir, timing: { speed: "manual" } });
    for (let i = 0; i < N; i++) cp.createDeployment(TENANT, githubBody(`bench-${i}`, { secrets: [{ name: "OPENAI_API_KEY", value: `sk-${i}` }] }));
    const all = cp.listDeployments(TENANT, { limit: N, offset: 0 }).resources;
    return timed(all.length, (i) => cp.patchDeployment(TENANT, all[i].id, { source_revision_config: { repo_ref: "release-2" } }));
}

/** N threads with three runs each; the times of 20 saves. */
function agentServer(stateDir: string): number[] {
    const model = new AgentServerModel(new Clock(), { stepMs: 1 }, new Store(stateDir, "agent-server.json"));
    // What every request does first: here, registers the graph's system assistant the runs name.
    model.sync({ id: "dep", created_at: new Date().toISOString(), active_revision_id: "bench" }, () => true);
    for (let i = 0; i < N; i++) {
        const { thread_id } = model.createThread("dep", {}) as { thread_id: string };
        for (const text of ["hello there", "tell me more", "thanks a lot"]) {
            model.createRun("dep", thread_id, { assistant_id: "agent", input: { messages: [{ role: "user", content: text }] } });
        }
    }
    return timed(20, () => model.save());
}

const ms = (xs: number[]) => {
    const s = summary(xs);
    return [s.mean.toFixed(2), s.p50.toFixed(2), s.p99.toFixed(2)];
};
const kb = (file: string) => `${(statSync(file).size / 1024).toFixed(0)} KiB`;

export async function stateDirBench(): Promise<void> {
    console.log(`\n== --state-dir: snapshot size and time per change, ${N} objects ==`);
    const dir = mkdtempSync(join(tmpdir(), "bench-state-dir-"));
    try {
        const memory = controlPlane(undefined);
        const disk = controlPlane(dir);
        const agents = agentServer(dir);
        printTable([
            ["what", "snapshot", "mean ms", "p50 ms", "p99 ms"],
            [`PATCH of one of ${N} deployments, memory only`, "-", ...ms(memory)],
            [`PATCH of one of ${N} deployments, --state-dir`, kb(join(dir, "control-plane.json")), ...ms(disk)],
            [`save of ${N} threads x 3 runs`, kb(join(dir, "agent-server.json")), ...ms(agents)],
        ]);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
