/**
 * Look-ups of the workspace's review objects (the Terraform providers' data sources), for programs that use what
 * another stack or the UI made: `getAnnotationQueue` (by id or exact name), `getFeedbackConfig` (by key) and
 * `getEvaluator` (by id or name). Their results are the resources' own fields, read as refresh reads them, and what
 * traffic changes, which no resource's outputs hold (an evaluator's feedback keys). One implementation behind both
 * front doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 */
import type { EvaluationClient } from "../api/evaluation";
import type { RulesClient } from "../api/rules";
import { checkFunctionArgs, oneOf } from "../kit/check";
import { any, boolean, list, lookup, map, number, string, type FunctionInputs, type FunctionResult } from "../kit/declare";
import { lookupWorkspaceIdField } from "../kit/workspace";
import { type AnnotationQueueInputs, rubricItem } from "./annotationQueue/declare";
import { inputsOf as queueInputsOf } from "./annotationQueue/provider";
import { category, type FeedbackConfigInputs } from "./feedbackConfig/declare";
import { inputsOf as configInputsOf } from "./feedbackConfig/provider";

export const getAnnotationQueueFunction = lookup({
    name: "getAnnotationQueue",
    description:
        "Looks up an annotation queue of the workspace by id or by its exact name (one of them); fails naming it when there is none, and when two queues share the name (the service does not keep names unique), naming their ids.",
    args: { id: string("The queue's id."), name: string("Its exact name."), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The queue's id (a `RunRule`'s `addToAnnotationQueueId`, a `Tagging`'s `resourceId`).", { required: true }),
        name: string("Its name.", { required: true }),
        description: string("What it is for."),
        rubricInstructions: string("What reviewers are told to do."),
        rubricItems: list("The feedback keys reviewers score, in the order shown.", rubricItem),
        defaultDatasetId: string("The dataset reviewed runs are added to by default."),
        numReviewersPerItem: number("How many reviewers review each run.", { required: true }),
        enableReservations: boolean("Whether a reviewer reserves the run they review.", { required: true }),
        reservationMinutes: number("How long a reservation lasts, in minutes.", { required: true }),
        metadata: map("Its metadata.", any("A value.")),
        createdAt: string("When it was made."),
    },
});

export const getFeedbackConfigFunction = lookup({
    name: "getFeedbackConfig",
    description: "Looks up what scores a feedback key of the workspace takes; fails naming the key when the workspace has no config for it.",
    args: { feedbackKey: string("The feedback key (`correctness`).", { required: true }), workspaceId: lookupWorkspaceIdField },
    result: {
        feedbackKey: string("The key.", { required: true }),
        type: string("`continuous`, `categorical` or `freeform`.", { required: true }),
        min: number("The lowest score (continuous), if bounded."),
        max: number("The highest score (continuous), if bounded."),
        categories: list("The scores a categorical key takes, in the order reviewers see them.", category),
        isLowerScoreBetter: boolean("Whether a lower score is better.", { required: true }),
        modifiedAt: string("When the service last changed it."),
    },
});

export const getEvaluatorFunction = lookup({
    name: "getEvaluator",
    description:
        "Looks up a saved evaluator of the workspace by id or by its name (one of them: names are unique in a workspace): its type and the feedback keys its scores were stored under so far; fails naming it when there is none.",
    args: { id: string("The evaluator's id."), name: string("Its name."), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The evaluator's id (a `RunRule`'s `evaluatorId`).", { required: true }),
        name: string("Its name.", { required: true }),
        type: string("`llm` or `code`.", { required: true }),
        feedbackKeys: list(
            "The feedback keys its scores were stored under so far (what traffic changes, which an `Evaluator`'s outputs do not hold).",
            string("A key."),
            { required: true },
        ),
        createdAt: string("When it was made."),
    },
});

export type GetAnnotationQueueArgs = FunctionInputs<typeof getAnnotationQueueFunction>;
/** Its result (written out: the declared rubric nests too deep for the compiler): the queue's settings as refresh reads them. */
export type GetAnnotationQueueResult = Omit<AnnotationQueueInputs, "sessionIds" | "workspaceId"> & { id: string; createdAt?: string };
export type GetFeedbackConfigArgs = FunctionInputs<typeof getFeedbackConfigFunction>;
/** Its result (written out, as the queue's): the key's config as refresh reads it. */
export type GetFeedbackConfigResult = Omit<FeedbackConfigInputs, "workspaceId"> & { modifiedAt?: string };

export type GetEvaluatorArgs = FunctionInputs<typeof getEvaluatorFunction>;
export type GetEvaluatorResult = FunctionResult<typeof getEvaluatorFunction>;

export async function getEvaluator(rc: RulesClient, args: GetEvaluatorArgs): Promise<GetEvaluatorResult> {
    const { by, value } = oneOf("getEvaluator", args, "id", "name");
    const e = by === "id" ? await rc.tryGetEvaluator(value) : await rc.evaluatorNamed(value);
    if (!e) throw new Error(`getEvaluator: the workspace holds no evaluator ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    return { id: e.id, name: e.name, type: e.type, feedbackKeys: e.feedback_keys ?? [], createdAt: e.created_at ?? undefined };
}

export async function getAnnotationQueue(ev: EvaluationClient, args: GetAnnotationQueueArgs): Promise<GetAnnotationQueueResult> {
    const { by, value } = oneOf("getAnnotationQueue", args, "id", "name");
    const named = by === "name" ? await ev.queuesNamed(value) : [];
    if (named.length > 1) {
        const ids = named.map((q) => q.id).join(", ");
        throw new Error(`getAnnotationQueue: the workspace holds ${named.length} queues named ${JSON.stringify(value)} (${ids}): look it up by id`);
    }
    // The list answers no rubric: the queue is read by its id either way.
    const id = by === "id" ? value : named[0]?.id;
    const q = id === undefined ? undefined : await ev.tryGetQueue(id);
    if (!q) throw new Error(`getAnnotationQueue: the workspace holds no annotation queue ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    const { sessionIds: _, workspaceId: __, ...read } = queueInputsOf(q);
    return { id: q.id, ...read, createdAt: q.created_at };
}

export async function getFeedbackConfig(ev: EvaluationClient, args: GetFeedbackConfigArgs): Promise<GetFeedbackConfigResult> {
    checkFunctionArgs("getFeedbackConfig", (c) => {
        c.str(args.feedbackKey, "feedbackKey", true);
    });
    const found = await ev.tryGetFeedbackConfig(args.feedbackKey);
    if (!found) throw new Error(`getFeedbackConfig: the workspace has no feedback config for the key ${JSON.stringify(args.feedbackKey)}`);
    const { workspaceId: _, ...read } = configInputsOf(found);
    return { ...read, modifiedAt: found.modified_at };
}
