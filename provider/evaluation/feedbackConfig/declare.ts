/**
 * The FeedbackConfig, declared once (kit/declare.ts): what scores a feedback key of the workspace takes
 * (docs/service.md R9.1). The key is its identity (a change replaces it); its type, range, categories and direction
 * change in place. provider.ts holds what a table cannot say.
 */
import { FEEDBACK_TYPES } from "../../api/schemas/evaluation";
import { boolean, list, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** A category of a categorical key (kept out of the resource's literal: TypeScript types a program's list of them more cheaply). */
export const category = object("FeedbackCategory", "A category: its score and the label a reviewer picks.", {
    value: number("The score the category stands for.", { required: true }),
    label: string("What a reviewer sees (`correct`)."),
});

export const feedbackConfig = resource({
    name: "FeedbackConfig",
    description:
        "What scores a feedback key of the workspace takes: a number between `min` and `max` (`continuous`), one of its `categories` (`categorical`), or anything (`freeform`). Reviewers, annotation queues and evaluators score under the key; feedback that does not fit is refused. The key names it: a changed key replaces it; everything else changes in place. Deleting it leaves the feedback given under the key.",
    inputs: {
        feedbackKey: string("The feedback key (`correctness`), unique in the workspace. A change replaces the config.", {
            required: true,
            onChange: "replace",
        }),
        type: string("`continuous`, `categorical` or `freeform`. Updated in place.", { required: true, values: FEEDBACK_TYPES, onChange: "update" }),
        min: number("The lowest score (continuous only); absent: no lower bound. Updated in place.", { onChange: "update" }),
        max: number("The highest score (continuous only), not below `min`; absent: no upper bound. Updated in place.", { onChange: "update" }),
        categories: list(
            "The scores a categorical key takes (at least one, their values distinct), in the order reviewers see them. Updated in place.",
            category,
            { onChange: "update" },
        ),
        isLowerScoreBetter: boolean("Whether a lower score is better (an error rate, a latency); default false. Updated in place.", {
            default: false,
            onChange: "update",
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        modifiedAt: string("When the service last changed it."),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type FeedbackConfigInputs = Inputs<typeof feedbackConfig>;
export type FeedbackConfigOutputs = Outputs<typeof feedbackConfig>;
