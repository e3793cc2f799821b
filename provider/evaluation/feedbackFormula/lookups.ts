/**
 * `getFeedbackFormula`: a feedback formula of the workspace that a program does not manage, by its id, or by its key
 * on a dataset or tracing project (docs/service.md R9.5: a key names one formula there); its fields as refresh reads
 * them, and when the service last changed it. One implementation behind both front doors (dynamic/functions.ts, the
 * plugin's Invoke). Nothing here changes anything on the service.
 */
import type { FeedbackFormulasClient } from "../../api/feedbackFormulas";
import { checkFunctionArgs, isSet } from "../../kit/check";
import { list, lookup, string, type FunctionInputs } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { type FeedbackFormulaInputs, formulaPart } from "./declare";
import { inputsOf } from "./provider";

export const getFeedbackFormulaFunction = lookup({
    name: "getFeedbackFormula",
    description:
        "Looks up a feedback formula of the workspace by its id, or by its `feedbackKey` on a dataset (`datasetId`) or tracing project (`sessionId`); fails naming what it looked for when there is none.",
    args: {
        id: string("The formula's id."),
        feedbackKey: string("Its key (with `datasetId` or `sessionId`)."),
        datasetId: string("The dataset it is on (with `feedbackKey`)."),
        sessionId: string("The tracing project it is on (with `feedbackKey`)."),
        workspaceId: lookupWorkspaceIdField,
    },
    result: {
        id: string("The formula's id.", { required: true }),
        feedbackKey: string("The key its score is shown under.", { required: true }),
        aggregationType: string("`sum` or `avg`.", { required: true }),
        parts: list("The weighted keys, in order.", formulaPart, { required: true }),
        datasetId: string("The dataset it is on, if any."),
        sessionId: string("The tracing project it is on, if any."),
        createdAt: string("When it was made.", { required: true }),
        modifiedAt: string("When the service last changed it.", { required: true }),
    },
});

export type GetFeedbackFormulaArgs = FunctionInputs<typeof getFeedbackFormulaFunction>;
/** Its result (written out, as getFeedbackConfig's): the formula as refresh reads it. */
export type GetFeedbackFormulaResult = Omit<FeedbackFormulaInputs, "workspaceId"> & { id: string; createdAt: string; modifiedAt: string };

export async function getFeedbackFormula(fc: FeedbackFormulasClient, args: GetFeedbackFormulaArgs): Promise<GetFeedbackFormulaResult> {
    const fn = "getFeedbackFormula";
    const byId = isSet(args.id);
    const scoped = [args.datasetId, args.sessionId].filter(isSet).length;
    checkFunctionArgs(fn, (c) => {
        if (byId && (isSet(args.feedbackKey) || scoped)) c.fail("id", "give either id, or feedbackKey with datasetId or sessionId, not both");
        if (!byId && !isSet(args.feedbackKey)) c.fail("feedbackKey", "give id, or feedbackKey with datasetId or sessionId");
        if (!byId && scoped !== 1) c.fail("datasetId", "with feedbackKey, give exactly one of datasetId and sessionId (a key names one formula there)");
    });
    const found = byId
        ? await fc.tryGet(args.id as string)
        : await fc.keyed({ datasetId: args.datasetId || undefined, sessionId: args.sessionId || undefined }, args.feedbackKey as string);
    if (!found) {
        const what = byId
            ? `of id ${JSON.stringify(args.id)}`
            : `under the key ${JSON.stringify(args.feedbackKey)} on ${args.datasetId ? `dataset ${args.datasetId}` : `tracing project ${args.sessionId}`}`;
        throw new Error(`${fn}: the workspace holds no feedback formula ${what}`);
    }
    const { workspaceId: _, ...read } = inputsOf(found);
    return { id: found.id, ...read, createdAt: found.created_at, modifiedAt: found.modified_at };
}
