/**
 * Names in the program's spelling (provider/kit/spelling.ts): to a Python program, every declared field, look-up
 * and resource option in snake_case, values and config keys as they are; a check failure moved to its reason. The
 * snake_case it says is the generated Python SDK's, name for name (the SDK's own words for every schema property).
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { KEYS } from "../../../provider/config";
import { snakeCase } from "../../../provider/kit/declare";
import { pythonPath, speakPython, speakSchema, spoken, spokenFailure } from "../../../provider/kit/spelling";
import { declaredNames } from "../../../provider/plugin/server";
import { RESOURCES } from "../../../provider/registry";

const SDK = join(__dirname, "../../../sdk/python/pulumi_langsmith");

describe("kit/spelling: the program's spelling", () => {
    afterEach(() => speakSchema());
    const runRule = RESOURCES.runRule.declaration.inputs;

    it("to any program but a Python one, everything as it is", () => {
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
        assert.equal(pythonPath(runRule, "llmEvaluators[0].variableMapping.runInput"), "llm_evaluators[0].variable_mapping.runInput");
        assert.equal(pythonPath(runRule, "webhooks[1].headers.X-Api-Key"), "webhooks[1].headers.X-Api-Key");
        assert.equal(pythonPath(RESOURCES.tracingProject.declaration.inputs, "tags.costCenter"), "tags.costCenter");
        assert.equal(pythonPath(runRule, "webhooks[0].headrs"), "webhooks[0].headrs");
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
});
