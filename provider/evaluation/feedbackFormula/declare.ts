/**
 * The FeedbackFormula, declared once (kit/declare.ts): a weighted sum or average of feedback keys under a key of its
 * own, on one dataset (its experiments) or one tracing project (docs/service.md R9.5). Its dataset or project is fixed
 * (a change replaces it); its key, aggregation and parts change in place (one PUT). provider.ts holds what a table
 * cannot say.
 */
import { AGGREGATION_TYPES } from "../../api/schemas/feedbackFormulas";
import { list, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** A weighted key of a formula (kept out of the resource's literal, as FeedbackConfig's category is). */
export const formulaPart = object("FeedbackFormulaPart", "A feedback key and its weight in the formula.", {
    key: string("A feedback key the workspace has a `FeedbackConfig` for (`correctness`).", { required: true }),
    weight: number("Its weight (a number; negative counts against).", { required: true }),
});

export const feedbackFormula = resource({
    name: "FeedbackFormula",
    description:
        "A composite score: a weighted sum (`sum`: Σ weight·score) or average (`avg`: Σ weight·score / Σ weight) of feedback keys, under a key of its own, on one dataset (its experiments) or one tracing project; the service scores each run that has every part. Each part's key must have a `FeedbackConfig` in the workspace (checked at `up`). Its dataset or project is fixed (a change replaces it); the rest changes in place. Imported by its id.",
    inputs: {
        feedbackKey: string("The key the formula's score is shown under (`overall`), not one of its parts. Updated in place.", {
            required: true,
            onChange: "update",
        }),
        aggregationType: string("`sum` (Σ weight·score, the default) or `avg` (Σ weight·score / Σ weight). Updated in place.", {
            values: AGGREGATION_TYPES,
            default: "sum",
            onChange: "update",
        }),
        parts: list("The weighted keys (1 to 50, each key once), in order. Updated in place.", formulaPart, { required: true, onChange: "update" }),
        datasetId: string("The dataset whose experiments it scores (a `Dataset`'s id); exactly one of this and `sessionId`. A change replaces it.", {
            onChange: "replace",
        }),
        sessionId: string("The tracing project whose runs it scores (a `TracingProject`'s id); exactly one of this and `datasetId`. A change replaces it.", {
            onChange: "replace",
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type FeedbackFormulaInputs = Inputs<typeof feedbackFormula>;
export type FeedbackFormulaOutputs = Outputs<typeof feedbackFormula>;
