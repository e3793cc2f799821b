/**
 * The Deployment provider's delete against the emulator over real HTTP: it waits until the deployment
 * answers 404, a deployment already gone (or never there) is done, and a wait cancelled or longer than
 * `timeouts.delete` fails saying so.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { createDeploymentProvider } from "../../../../provider/controlPlane/deployment/index";
import { rejection, uniqueName, type Emulator } from "../../../helpers/emulator";
import { githubArgs, recorded } from "../../../helpers/deploymentInputs";
import { FAST_PHASES, MISSING_ID, useDeploymentProvider, type Provider } from "../../../helpers/deploymentProvider";

describe("Deployment provider against the emulator", function () {
    this.timeout(10_000);
    let em: Emulator;
    let cp: ControlPlaneClient;
    let provider: Provider;
    const { live, requests, create } = useDeploymentProvider((w) => ({ em, cp, provider } = w));

    describe("delete", () => {
        it("delete: waits until the deployment answers 404", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 150 });
            const name = uniqueName("del-wait");
            const { id, outs } = await create(githubArgs(name));
            em.admin.requests = [];
            const started = Date.now();
            await provider.delete!(id, recorded(outs));
            assert.ok(Date.now() - started >= 100, "returned before the deletion finished");
            assert.equal(await cp.tryGetDeployment(id), undefined);
            assert.equal(live(name).length, 0);
            const gets = requests("GET", new RegExp(`^/v2/deployments/${id}$`)).map((r) => r.status);
            assert.ok(gets.length >= 2, `polled GET: ${gets}`);
            assert.equal(gets[gets.length - 1], 404);
            assert.equal(gets[0], 200);
        });

        it("delete: the deleted deployment is read 250 ms after the DELETE, then twice as long each time up to every 2 s", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const { id, outs } = await create(githubArgs(uniqueName("del-pace")));
            const delays: number[] = [];
            const ac = new AbortController();
            const sleep = async (ms: number) => {
                if (delays.push(ms) >= 6) ac.abort(new Error("enough reads"));
                await new Promise((r) => setTimeout(r, 5));
            };
            const e = await rejection(() => createDeploymentProvider({ client: () => cp, sleep, signal: ac.signal }).delete!(id, recorded(outs)));
            assert.match(e.message, /cancelled \(enough reads\)/);
            assert.deepEqual(delays, [250, 500, 1000, 2000, 2000, 2000]);
        });

        it("delete: 404 is done (deleting twice is fine)", async () => {
            const name = uniqueName("del-twice");
            const { id, outs } = await create(githubArgs(name));
            await provider.delete!(id, recorded(outs));
            await provider.delete!(id, recorded(outs));
            assert.equal(live(name).length, 0);
        });

        it("delete: an id that never existed is done", async () => {
            await provider.delete!(MISSING_ID, {});
        });

        it("delete: a cancelled wait for the deployment to disappear fails at once, saying the next run finishes the delete", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const name = uniqueName("del-cancel");
            const { id, outs } = await create(githubArgs(name));
            const ac = new AbortController();
            const p = createDeploymentProvider({ deletePollMs: 3_600_000, client: () => cp, signal: ac.signal });
            setTimeout(() => ac.abort(new Error("the provider received SIGINT")), 300);
            const started = Date.now();
            const e = await rejection(() => p.delete!(id, recorded(outs)));
            assert.ok(Date.now() - started < 5_000);
            assert.equal(
                e.message,
                `deployment ${id} was deleted, but the wait for it to disappear was cancelled (the provider received SIGINT); it stays in the stack, and the next \`pulumi up\` or \`pulumi destroy\` finishes the delete`,
            );
        });

        it("delete: a deletion that does not finish in timeouts.delete fails clearly", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const name = uniqueName("del-timeout");
            const { id, outs } = await create(githubArgs(name, { timeouts: { delete: 0.05 } }));
            const e = await rejection(() => provider.delete!(id, recorded(outs)));
            assert.match(e.message, /still exists/);
            assert.ok(e.message.includes(id));
        });
    });
});
