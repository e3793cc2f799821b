/**
 * The Evaluator, declared once (kit/declare.ts): a saved, reusable evaluator (docs/service.md R10.1) that run rules
 * name by `evaluatorId`: an LLM-as-judge (a prompt of the hub and how run fields fill its variables) or code
 * (`perform_eval(run, example)` in Python or JavaScript). Its type is fixed (a change replaces); the rest changes
 * in place. The service keeps code normalised: compared through the same normalisation, it never diffs.
 */
import { CODE_LANGUAGES, EVALUATOR_TYPES, normalizeCode } from "../../api/schemas/rules";
import { canonicalJson } from "../../kit/diff";
import { map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const evaluator = resource({
    name: "Evaluator",
    description:
        "A saved evaluator that run rules score runs with: an LLM-as-judge (`type: llm`, a prompt of the hub and its variable mapping) or code (`type: code`, a `perform_eval(run, example)` returning `{key: score}`). The type is fixed (a change replaces); the rest changes in place. A rule using it must go first: the service refuses to delete an evaluator in use.",
    inputs: {
        name: string("Its name, unique in the workspace. Updated in place.", { required: true, onChange: "update" }),
        type: string("`llm` (LLM-as-judge) or `code`. A change replaces it.", { required: true, values: EVALUATOR_TYPES, onChange: "replace" }),
        code: string(
            "The code of a `code` evaluator: defines `perform_eval(run, example)` (Python) or `performEval(run, example)` (JavaScript) returning `{feedback_key: score}`. Compared as the service keeps it (line ends, trailing whitespace). Updated in place.",
            {
                onChange: "update",
                compareAs: (v: unknown) => (typeof v === "string" ? normalizeCode(v) : v),
            },
        ),
        language: string("The language of `code`: `python` (the default) or `javascript`. Updated in place.", {
            values: CODE_LANGUAGES,
            onChange: "update",
            compareAs: (v: unknown, i: Record<string, unknown>) => (i.type === "code" ? (v ?? "python") : v),
        }),
        promptHandle: string("The hub prompt of an `llm` evaluator (a `Prompt`'s `handle`): its instructions and output schema. Updated in place.", {
            onChange: "update",
        }),
        promptRef: string("The commit hash or tag of `promptHandle` the judge uses (absent: the latest). Updated in place.", { onChange: "update" }),
        variableMapping: map('How the prompt\'s variables are filled from the run: `{question: "input.question"}`. Updated in place.', string("A run field."), {
            onChange: "update",
            compareAs: (v: unknown) => canonicalJson(v ?? {}),
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type EvaluatorInputs = Inputs<typeof evaluator>;
export type EvaluatorOutputs = Outputs<typeof evaluator>;
