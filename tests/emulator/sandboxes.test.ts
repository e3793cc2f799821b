/**
 * The emulator's sandboxes (docs/service.md R17.2) through the official Python client as released
 * (`langsmith.sandbox.SandboxClient`, in the test venv; tests/emulator/python/sandbox_client.py): a snapshot built
 * and awaited until ready, a sandbox started from it, the snapshot's delete refused while the sandbox uses it (the
 * client shows the service's words), a snapshot captured from the sandbox, everything deleted after.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { TEST_API_KEY, startTestEmulator, type Emulator } from "../helpers/emulator";
import { pythonPath } from "../helpers/pyarrow";

describe("emulator: sandbox snapshots and boxes through the official Python client", function () {
    this.timeout(60_000);
    let em: Emulator;
    before(async () => void (em = await startTestEmulator()));
    after(() => em.close());

    it("builds a snapshot, starts a sandbox from it, refuses the snapshot's delete naming the sandbox, captures one from the sandbox, deletes them", async () => {
        const { stdout } = await promisify(execFile)(pythonPath(), [join(__dirname, "python", "sandbox_client.py"), em.url, TEST_API_KEY]);
        const calls = new Map(
            stdout
                .trim()
                .split("\n")
                .map((l) => JSON.parse(l) as { call: string; result: any })
                .map((l) => [l.call, l.result]),
        );
        assert.equal(calls.get("create_snapshot").status, "ready");
        assert.equal(calls.get("create_sandbox").name, "py-box");
        const refused = calls.get("delete_snapshot_in_use");
        assert.notEqual(refused, "succeeded", "a snapshot a sandbox uses was deleted");
        assert.match(refused.message, /is used by sandboxes: py-box; delete them first/);
        assert.equal(calls.get("capture_snapshot").status, "ready");
        assert.deepEqual(calls.get("list_snapshots"), ["py-base", "py-warm"]);
        assert.deepEqual(calls.get("after"), []);
    });
});
