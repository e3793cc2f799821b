/**
 * The fuzzer in the suite: schemathesis (in the test virtualenv, scripts/python/requirements.txt) runs LangSmith's
 * OpenAPI descriptions against an emulator over the operations the provider calls (fuzz.py, fuzzed.json), with a
 * fixed seed: no server error, not even a 501 (each operation it runs is one the emulator serves, the platform ones at
 * the description's `/v1/platform/...` too), no answer outside the schema, no allowed data refused as malformed.
 * What it sends is logged like every test's traffic, so the contract check judges those answers too.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Emulator, startTestEmulator, TEST_API_KEY, TEST_TENANT } from "../helpers/emulator";
import { pythonPath } from "../helpers/pyarrow";

const run = promisify(execFile);

describe("contract: the fuzzer", function () {
    this.timeout(600_000);
    let emulator: Emulator;
    before(async () => {
        emulator = await startTestEmulator({ timing: { speed: "immediate" } });
    });
    after(() => emulator.close());

    it("schemathesis over the operations the provider calls finds no server error (nor a 501: each is served), no answer outside the schema, no allowed data refused", async () => {
        const args = [join(__dirname, "fuzz.py"), "--url", emulator.url, "--api-key", TEST_API_KEY, "--tenant", TEST_TENANT];
        const out = await run(pythonPath(), args, { maxBuffer: 64 * 1024 * 1024 }).then(
            (r) => ({ code: 0, text: r.stdout }),
            (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, text: `${e.stdout ?? ""}\n${e.stderr ?? ""}` }),
        );
        process.stdout.write(
            `${out.text
                .split("\n")
                .filter((l) => /^---|generated|failures|passed in/.test(l))
                .join("\n")}\n`,
        );
        assert.equal(out.code, 0, out.text.slice(-6000));
        assert.match(out.text, /--- langsmith: \d+ operations[\s\S]*\d+ generated, \d+ passed/);
        assert.match(out.text, /--- control-plane: \d+ operations[\s\S]*\d+ generated, \d+ passed/);
    });
});
