/**
 * The engine watchdog's parts (provider/kit/watchdog.ts) in this process: where the engine listens,
 * the probes against a real listening socket, and that nothing starts (no timer, no signal handler) where
 * there is no engine, as in every test that calls a provider directly. The whole processes are tested in
 * tests/provider/plugin/lifecycle.test.ts.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { engineAddress, guardProcess, watchEngine } from "../../../provider/kit/watchdog";
import { eventually, sleep } from "../../helpers/async";

/** Runs `fn` with `process.argv` set to `argv`, then puts it back. */
function withArgv<T>(argv: string[], fn: () => T): T {
    const saved = process.argv;
    process.argv = argv;
    try {
        return fn();
    } finally {
        process.argv = saved;
    }
}

describe("provider/kit/watchdog", () => {
    it("engineAddress: the dynamic-provider host's last argument, after Pulumi's logging and tracing flags; none in another process", () => {
        const host = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";
        assert.equal(withArgv(["node", host, "127.0.0.1:40123"], engineAddress), "127.0.0.1:40123");
        assert.equal(
            withArgv(["node", host, "--logtostderr", "-v=9", "--tracing", "http://127.0.0.1:9411", "127.0.0.1:40123"], engineAddress),
            "127.0.0.1:40123",
        );
        assert.equal(withArgv(["node", "/p/node_modules/.bin/mocha", "127.0.0.1:40123"], engineAddress), undefined);
        assert.equal(withArgv(["node", host], engineAddress), undefined);
    });

    it("guardProcess: without an engine address (tests, a program) installs no signal handler", () => {
        const before = [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
        guardProcess();
        assert.deepEqual([process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")], before);
    });

    it("watchEngine: an engine that listens is alive; once its port is closed, onGone is called once, after 2 failed probes", async () => {
        const server = createServer((socket) => socket.destroy());
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
        let gone = 0;
        const stop = watchEngine(address, () => gone++, { intervalMs: 50 });
        try {
            await sleep(500);
            assert.equal(gone, 0, "alive while it listens");
            await new Promise((resolve) => server.close(resolve));
            assert.ok(await eventually(() => gone > 0, 5_000), "onGone called");
            await sleep(300);
            assert.equal(gone, 1);
        } finally {
            stop();
        }
    });

    it("watchEngine: never keeps a process alive by itself (a process with only the watchdog ends at once)", () => {
        const watchdog = join(__dirname, "../../../dist/provider/kit/watchdog.js");
        const script = `require(${JSON.stringify(watchdog)}).watchEngine("127.0.0.1:9", () => { process.exitCode = 3; });`;
        const started = Date.now();
        const r = spawnSync(process.execPath, ["-e", script], { timeout: 10_000 });
        assert.equal(r.status, 0, String(r.stderr));
        assert.ok(Date.now() - started < 5_000);
    });
});
