/**
 * The last lines of `bash scripts/setup.sh` (scripts/next-steps.sh): once the test tools are built, as they
 * are whenever the tests run, they say how to run the Python and YAML examples too, naming directories and a key that
 * exist.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

describe("docs: what scripts/setup.sh says to run next", () => {
    it("the main job, the tests, and the Python examples with the sandbox; every example and key it names exists", () => {
        // It speaks on stderr, as every step of setup.sh does.
        const out = execFileSync("bash", ["-c", "bash scripts/next-steps.sh 2>&1"], { cwd: ROOT, encoding: "utf8" });
        assert.match(out, /npm run stack \(the main job\) or npm test/);
        assert.match(out, /Python examples .*\n.*npm run emulator -- --sandbox; then cd examples\/python-sandbox \(it reads every key the sandbox prints\)/);
        for (const example of ["python-sandbox", "python-quickstart", "python-minio-export"])
            assert.ok(existsSync(join(ROOT, "examples", example, "__main__.py")), example);
        assert.match(readFileSync(join(ROOT, "examples", "python-quickstart", "__main__.py"), "utf8"), /config\.require\("integrationId"\)/);
        assert.match(out, /the same for Pulumi YAML in examples\/yaml-sandbox \(yaml-quickstart also wants openaiApiKey/);
        assert.ok(existsSync(join(ROOT, "examples", "yaml-sandbox", "Pulumi.yaml")));
        assert.match(
            readFileSync(join(ROOT, "examples", "yaml-quickstart", "Pulumi.yaml"), "utf8"),
            /^config:\n {2}integrationId:\n(.*\n)*? {2}openaiApiKey:\n {4}type: string\n {4}secret: true/m,
        );
    });
});
