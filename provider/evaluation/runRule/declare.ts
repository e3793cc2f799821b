/**
 * The RunRule, declared once (kit/declare.ts): an automation on a tracing project or a dataset (docs/service.md
 * R10.2): the runs its filters match, sampled at its rate, are added to an annotation queue or a dataset, sent to
 * webhooks (their URLs and headers secret) and scored by a saved `Evaluator` or inline ones (never both). Everything
 * changes in place; what the service normalises (code) never diffs.
 */
import { CODE_LANGUAGES, normalizeCode } from "../../api/schemas/rules";
import { canonicalJson, instant } from "../../kit/diff";
import { any, boolean, list, map, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const filter = (what: string) =>
    string(`${what}, in the trace query syntax of bulk exports (\`and(eq(run_type, "llm"), gt(latency, 2))\`); checked at preview. Updated in place.`, {
        onChange: "update",
    });

const codeEvaluator = object("RunRuleCodeEvaluator", "An inline code evaluator.", {
    code: string("Defines `perform_eval(run, example)` (Python) or `performEval(run, example)` (JavaScript) returning `{feedback_key: score}`.", {
        required: true,
    }),
    language: string("`python` (the default) or `javascript`.", { values: CODE_LANGUAGES }),
});

const llmEvaluator = object("RunRuleLlmEvaluator", "An inline LLM-as-judge evaluator (the service runs it with the model given; the emulator never does).", {
    hubRef: string("A hub prompt (`handle` or `handle:tag`) holding the judge's instructions."),
    prompt: list("The judge's messages, each `[role, template]`, when not from the hub.", list("A role and its template.", string("The role or template."))),
    schema: map("The JSON schema of the judge's answer (its scores' keys and types).", any("A part of the schema.")),
    variableMapping: map("How the prompt's variables are filled from the run.", string("A run field.")),
    model: map("The model configuration the judge calls (the service's serialized chat model, or a ModelConfiguration's settings).", any("A setting.")),
});

const webhook = object("RunRuleWebhook", "A URL called with the runs the rule takes.", {
    url: string("The http or https URL called.", { required: true }),
    headers: map("Headers sent with each call.", string("A header's value.")),
});

const normalized = (v: unknown) =>
    canonicalJson(
        Array.isArray(v)
            ? v.map((c) => (c && typeof c === "object" ? { ...c, code: normalizeCode(String(c.code ?? "")), language: c.language ?? "python" } : c))
            : v,
    );

/** Webhooks as the service keeps them (a read answers empty headers as none): `headers: {}` is no headers. */
const webhooksAsKept = (v: unknown) =>
    canonicalJson(
        Array.isArray(v)
            ? v.map((w) => (w && typeof w === "object" && w.headers && !Object.keys(w.headers).length ? { ...w, headers: undefined } : w))
            : (v ?? []),
    );

export const runRule = resource({
    name: "RunRule",
    description:
        "An automation on a tracing project (or a dataset's experiments): the runs its filters match, sampled at `samplingRate`, are added to an annotation queue or a dataset, sent to webhooks and scored by a saved `Evaluator` or inline evaluators. Everything changes in place; it must go before the evaluator, queue or dataset it names (its inputs make them its dependencies).",
    inputs: {
        name: string("Its name (the service's `display_name`). Updated in place.", { required: true, onChange: "update" }),
        sessionId: string("The tracing project whose runs it takes (a `TracingProject`'s id); this or `datasetId`. Updated in place.", { onChange: "update" }),
        datasetId: string("The dataset whose experiments' runs it takes; this or `sessionId`. Updated in place.", { onChange: "update" }),
        samplingRate: number("The share of matching runs taken, 0 to 1. Updated in place.", { required: true, onChange: "update" }),
        isEnabled: boolean("Whether it takes runs (default true). Updated in place.", { onChange: "update", compareAs: (v: unknown) => v ?? true }),
        filter: filter("The runs it takes"),
        traceFilter: filter("What the root run of their trace must match"),
        treeFilter: filter("What some run of their trace must match"),
        evaluatorId: string("A saved `Evaluator`'s id that scores the runs; not with inline evaluators. Updated in place.", { onChange: "update" }),
        codeEvaluators: list("Inline code evaluators; not with `evaluatorId`. Compared as the service keeps the code. Updated in place.", codeEvaluator, {
            onChange: "update",
            compareAs: normalized,
        }),
        llmEvaluators: list("Inline LLM-as-judge evaluators; not with `evaluatorId`. Updated in place.", llmEvaluator, {
            onChange: "update",
            compareAs: (v: unknown) => canonicalJson(v ?? []),
        }),
        addToAnnotationQueueId: string("An `AnnotationQueue`'s id the runs are added to. Updated in place.", { onChange: "update" }),
        addToDatasetId: string("A `Dataset`'s id the runs are added to, as examples. Updated in place.", { onChange: "update" }),
        webhooks: list("URLs called with the runs it takes: secret (URLs carry tokens, headers credentials). Updated in place.", webhook, {
            secret: true,
            onChange: "update",
            compareAs: webhooksAsKept,
        }),
        backfillFrom: string(
            "Apply it also to the runs since this time (RFC 3339): the service starts a backfill when a write names it, so it is sent at the create and when it changes, never again. Updated in place.",
            { onChange: "update", compareAs: instant },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type RunRuleInputs = Inputs<typeof runRule>;
export type RunRuleOutputs = Outputs<typeof runRule>;
