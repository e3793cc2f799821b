/**
 * Every example that can run against `langsmith-emulator --sandbox` reads the keys the sandbox prints: each
 * key an example requires (`config.require*` in TypeScript, `config.require*` in Python) is one of the
 * sandbox's `pulumi config set` lines (emulator/sandbox/sandbox.ts `pulumiLines`), so a user who pastes
 * them gets no "missing required configuration". Found by a user: examples/python-minio-export read
 * `sessionId`, `startTime`, `endpointUrl`, `accessKeyId` and `secretAccessKey` while the sandbox printed
 * other names. And the other way round: examples/python-sandbox and examples/yaml-sandbox, the programs the
 * sandbox names, read every key it prints (the GitHub integration id a `Deployment` needs included: issue 39
 * item 9 found it was not printed).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { pulumiLines, SANDBOX_PROGRAMS, type Sandbox } from "../../emulator/sandbox/sandbox";

const ROOT = join(__dirname, "../..");

/** The examples that write exports into an S3-compatible bucket, as the sandbox's MinIO is (aws-s3-export needs AWS). */
const SANDBOX_EXAMPLES = ["self-hosted-minio/index.ts", "python-minio-export/__main__.py", "python-sandbox/__main__.py", "yaml-sandbox/Pulumi.yaml"];
/** The programs the sandbox names, which read every key it prints. */
const WHOLE_PROGRAMS = ["python-sandbox/__main__.py", "yaml-sandbox/Pulumi.yaml"];

/** The keys the sandbox prints a line for, without the namespace the CLI adds to a project's own keys. */
function printedKeys(): Set<string> {
    const sandbox = {
        apiKey: "lsv2_sk_x",
        workspaceId: "w",
        integrationId: "i",
        project: { session_id: "p", start: "2026-11-18T00:00:00Z", end: "2026-11-25T00:00:00Z", count: 1 },
        storage: { endpoint: "http://127.0.0.1:9000", bucket: "b", region: "us-east-1", credentials: { accessKeyId: "a", secretAccessKey: "s" } },
        pulumiState: { dir: "/tmp/s", kept: false },
    } as unknown as Sandbox;
    const keys = pulumiLines(sandbox, "http://127.0.0.1:8787")
        .map((l) => /^pulumi config set (?:--secret )?(\S+) /.exec(l)?.[1])
        .filter((k): k is string => !!k);
    return new Set(keys);
}

/**
 * The keys a program requires: `config.require("k")`, `requireSecret`, `require_secret`, `require_int` and the
 * like; in Pulumi YAML, each key of the `config:` section without a default.
 */
function requiredKeys(source: string, file: string): string[] {
    if (!file.endsWith(".yaml")) return [...source.matchAll(/config\.require\w*\(\s*"([^"]+)"/g)].map((m) => m[1]);
    const section = /^config:\n((?:[ #].*\n|\n)*)/m.exec(source)?.[1] ?? "";
    const entries = section.split(/^ {2}(?=\S)/m).filter((e) => /^[\w:]+:/.test(e));
    return entries.filter((e) => !/^ {4}default:/m.test(e)).map((e) => e.slice(0, e.indexOf(":")));
}
const keysOf = (example: string) => requiredKeys(readFileSync(join(ROOT, "examples", example), "utf8"), example);

describe("docs: the examples read the keys `langsmith-emulator --sandbox` prints", () => {
    const printed = printedKeys();

    it("the sandbox prints the program's keys: the tracing project, the range and the bucket's", () => {
        for (const k of [
            "integrationId",
            "tracingProjectId",
            "exportStart",
            "exportEnd",
            "bucket",
            "s3Endpoint",
            "s3Region",
            "s3AccessKeyId",
            "s3SecretAccessKey",
        ])
            assert.ok(printed.has(k), k);
    });

    for (const example of SANDBOX_EXAMPLES) {
        it(`${example}: every key it requires is printed`, () => {
            const required = keysOf(example);
            assert.ok(required.length >= 5, `found only ${required} in ${example}`);
            const missing = required.filter((k) => !printed.has(k));
            assert.deepEqual(missing, [], `${example} requires keys the sandbox does not print`);
        });
    }

    for (const example of WHOLE_PROGRAMS) {
        it(`${example}: reads every key the sandbox prints, and the sandbox names it`, () => {
            assert.ok(existsSync(join(ROOT, "examples", example)));
            assert.ok(SANDBOX_PROGRAMS.includes(`examples/${example.split("/")[0]}`), SANDBOX_PROGRAMS);
            const required = new Set(keysOf(example));
            const unread = [...printed].filter((k) => !k.startsWith("langsmith:") && !required.has(k));
            assert.deepEqual(unread, [], `${example} does not read keys the sandbox prints`);
        });
    }
});
