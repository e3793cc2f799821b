/**
 * Names in the program's spelling (provider/kit/spelling.ts): to a Python program, every declared field, look-up
 * and resource option in snake_case, to a Go program in PascalCase (a look-up as `LookupX` or `GetX`), values and
 * config keys as they are; a check failure moved to its reason. The snake_case it says is the generated Python
 * SDK's, and the Go names the generated Go SDK's, name for name (the SDKs' own words for every schema property).
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { KEYS } from "../../../provider/config";
import { snakeCase } from "../../../provider/kit/declare";
import { speakGo, speakPython, speakSchema, spokenPath, spoken, spokenFailure } from "../../../provider/kit/spelling";
import { declaredNames, goNames } from "../../../provider/plugin/server";
import { RESOURCES } from "../../../provider/registry";

const SDK = join(__dirname, "../../../sdk/python/pulumi_langsmith");
const GO_SDK = join(__dirname, "../../../sdk/go/langsmith");

describe("kit/spelling: the program's spelling", () => {
    afterEach(() => speakSchema());
    const runRule = RESOURCES.runRule.declaration.inputs;

    it("to any program but a Python or Go one, everything as it is", () => {
        assert.equal(spoken("samplingRate must be between 0 and 1"), "samplingRate must be between 0 and 1");
        const f = { property: "samplingRate", reason: "samplingRate must be between 0 and 1" };
        assert.deepEqual(spokenFailure(runRule, f), f);
    });

    it("to a Python program: declared names, look-ups and resource options in snake_case; quoted values, config keys and other words as they are", () => {
        speakPython(declaredNames());
        assert.equal(
            spoken(
                'samplingRate 5 of webhooks[0] with customTimeouts, getDeployment; "samplingRate" as written; langsmith:workspaceId; workspaceId; toISOString',
            ),
            'sampling_rate 5 of webhooks[0] with custom_timeouts, get_deployment; "samplingRate" as written; langsmith:workspaceId; workspace_id; toISOString',
        );
    });

    it("a property path: each declared field in snake_case, list indices and a map's keys (the program's data) kept", () => {
        speakPython(declaredNames());
        assert.equal(spokenPath(runRule, "llmEvaluators[0].variableMapping.runInput"), "llm_evaluators[0].variable_mapping.runInput");
        assert.equal(spokenPath(runRule, "webhooks[1].headers.X-Api-Key"), "webhooks[1].headers.X-Api-Key");
        assert.equal(spokenPath(RESOURCES.tracingProject.declaration.inputs, "tags.costCenter"), "tags.costCenter");
        assert.equal(spokenPath(runRule, "webhooks[0].headrs"), "webhooks[0].headrs");
    });

    it("a failure to a Python program: on no property (the engine would show its value as {<nil>}), its reason naming it, prefixed where it did not", () => {
        speakPython(declaredNames());
        assert.deepEqual(spokenFailure(runRule, { property: "samplingRate", reason: "samplingRate must be between 0 and 1, got 5" }), {
            property: "",
            reason: "sampling_rate must be between 0 and 1, got 5",
        });
        assert.deepEqual(spokenFailure(runRule, { property: "sessionId", reason: "give one of the two" }), {
            property: "",
            reason: "session_id: give one of the two",
        });
    });

    it("the snake_case said is the generated Python SDK's: every property of every type the SDK declares", () => {
        const names = new Map<string, string>();
        for (const f of readdirSync(SDK).filter((f) => f.endsWith(".py"))) {
            const text = readFileSync(join(SDK, f), "utf8");
            for (const m of text.matchAll(/@pulumi\.getter\(name="(\w+)"\)\s*\n\s*def (\w+)\(/g)) names.set(m[1], m[2]);
        }
        assert.ok(names.size > 100, `only ${names.size} properties found in the SDK`);
        for (const [camel, python] of names) assert.equal(snakeCase(camel), python, camel);
        // The provider's settings are config keys, said so in every language (`langsmith:apiKey`): not translated.
        const declared = new Set([...declaredNames(), ...Object.keys(KEYS)]);
        for (const camel of names.keys()) assert.ok(declared.has(camel), `${camel} is in the SDK, not among the names a Python program hears`);
    });

    it("to a Go program: declared names in PascalCase, look-ups as the Go SDK's functions, a failure's leading field and path so; quoted values and config keys as they are", () => {
        speakGo(goNames());
        assert.equal(
            spoken('samplingRate 5 with customTimeouts, getDeployment, getDeploymentRevisions; "samplingRate" as written; langsmith:workspaceId; toISOString'),
            'SamplingRate 5 with CustomTimeouts, LookupDeployment, GetDeploymentRevisions; "samplingRate" as written; langsmith:workspaceId; toISOString',
        );
        assert.equal(spokenPath(runRule, "llmEvaluators[0].variableMapping.runInput"), "LlmEvaluators[0].VariableMapping.runInput");
        const key = RESOURCES.serviceKey.declaration.inputs;
        assert.deepEqual(spokenFailure(key, { property: "expiresAt", reason: "expiresAt 2020-01-01T00:00:00Z is in the past: set a later expiresAt" }), {
            property: "",
            reason: "ExpiresAt 2020-01-01T00:00:00Z is in the past: set a later ExpiresAt",
        });
        // A one-word field leading its failure is spelt so; elsewhere in the prose it stays a word.
        const deployment = RESOURCES.deployment.declaration.inputs;
        assert.deepEqual(spokenFailure(deployment, { property: "name", reason: 'name "Not_A_Name" may only contain lowercase letters' }), {
            property: "",
            reason: 'Name "Not_A_Name" may only contain lowercase letters',
        });
        assert.deepEqual(spokenFailure(deployment, { property: "sourceRevisionConfig.repoRef", reason: "give a branch" }), {
            property: "",
            reason: "SourceRevisionConfig.RepoRef: give a branch",
        });
    });

    it("the Go names said are the generated Go SDK's: every field of every type, every look-up's function", () => {
        const fields = new Map<string, string>();
        const functions = new Map<string, string>();
        for (const f of readdirSync(GO_SDK).filter((f) => f.endsWith(".go"))) {
            const text = readFileSync(join(GO_SDK, f), "utf8");
            for (const m of text.matchAll(/^\t(\w+) [^`\n]*`pulumi:"(\w+)"`/gm)) fields.set(m[2], m[1]);
            for (const m of text.matchAll(/^func (\w+)\(ctx \*pulumi\.Context, args [^)]*\)[^{]*\{\n(?:.*\n){0,3}?.*ctx\.Invoke\("langsmith:index:(\w+)"/gm))
                functions.set(m[2], m[1]);
        }
        assert.ok(fields.size > 100, `only ${fields.size} fields found in the Go SDK`);
        assert.ok(functions.size > 20, `only ${functions.size} look-ups found in the Go SDK`);
        const go = goNames();
        const declared = new Set([...go.keys(), ...Object.keys(KEYS)]);
        for (const [camel, name] of fields) {
            assert.ok(declared.has(camel), `${camel} is in the Go SDK, not among the names a Go program hears`);
            if (!(camel in KEYS)) assert.equal(go.get(camel), name, camel);
        }
        for (const [camel, name] of functions) assert.equal(go.get(camel), name, camel);
    });
});
