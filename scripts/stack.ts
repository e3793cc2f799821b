/**
 * `npm run stack`: the main job, a Pulumi stack against the local emulator. Starts the emulator, installs
 * the quickstart program with the packed package (as a user would), then on the real engine:
 * `up` (waits for the revision to be DEPLOYED), a `preview --refresh --expect-no-changes` (drift check),
 * and `destroy`. Pass `--keep` to skip the destroy and leave the emulator running until Ctrl-C.
 */
import { randomUUID } from "node:crypto";
import { scaledTiming } from "../emulator/controlPlane/model";
import { startEmulator } from "../emulator/server";
import { createProject, type OpResult } from "./lib/project";

async function main() {
    const keep = process.argv.includes("--keep");
    const apiKey = `lsv2_local_${randomUUID().slice(0, 8)}`;
    // Phases at a fifth of the emulator's defaults: a github revision takes about a second.
    const em = await startEmulator({ apiKeys: [apiKey], timing: { phaseMs: scaledTiming(1 / 5).phaseMs } });
    console.log(`emulator listening on ${em.url}`);
    console.log("installing examples/quickstart with the packed package ...");
    const project = createProject("quickstart");
    const opts = {
        stack: "dev",
        config: { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": randomUUID() },
        secretConfig: { "langsmith:apiKey": apiKey, "quickstart:agentSecret": "sk-local-example" },
    };
    const ops = [{ op: "up" as const }, { op: "preview" as const, refresh: true, expectNoChanges: true }];
    const { results, log } = await project.run(opts, keep ? ops : [...ops, { op: "destroy" as const }]);
    process.stdout.write(log);
    const failed = results.find((r: OpResult) => !r.ok);
    for (const r of results) console.log(`${r.op}: ${r.ok ? "ok" : "FAILED"} in ${(r.ms / 1000).toFixed(1)}s`);
    const up = results.find((r) => r.op === "up");
    if (up?.outputs) console.log("stack outputs:", up.outputs);
    if (failed) {
        console.error(`${failed.op} failed: ${failed.error}`);
        process.exitCode = 1;
    }
    if (keep && !failed) {
        console.log(`state: ${project.stateDir} (passphrase pulumi-langsmith-local); emulator stays up, Ctrl-C to stop`);
        return;
    }
    await em.close();
    project.remove();
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
