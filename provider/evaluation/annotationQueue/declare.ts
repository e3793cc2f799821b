/**
 * The AnnotationQueue, declared once (kit/declare.ts): a review queue of the workspace (docs/service.md R9.2): its
 * rubric (the feedback keys reviewers score), default dataset, reviewers per run and reservations change in place;
 * the projects it was made for (`sessionIds`) are taken at creation only, so a change replaces it (but the first
 * after an import: provider.ts). The runs in the queue are data, never managed here. provider.ts holds what a table
 * cannot say.
 */
import { asSet } from "../../kit/diff";
import { any, boolean, list, map, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const descriptions = (what: string) => map(`What each ${what} means to a reviewer, by ${what}.`, string("What it means."));

/** A feedback key of a queue's rubric (kept out of the resource's literal: inline, TypeScript finds a program's rubric too deep to type). */
export const rubricItem = object("AnnotationQueueRubricItem", "A feedback key of the rubric, with what its scores mean.", {
    feedbackKey: string("The feedback key scored.", { required: true }),
    description: string("What the key measures, as reviewers read it."),
    valueDescriptions: descriptions("value"),
    scoreDescriptions: descriptions("score"),
    isRequired: boolean("Whether a reviewer must score it."),
    isAssertion: boolean("Whether the key is a pass/fail assertion."),
});

export const annotationQueue = resource({
    name: "AnnotationQueue",
    description:
        "A review queue of the workspace: people (or a RunRule) put traced runs in it, reviewers score them under its rubric's feedback keys. Its settings change in place; the runs in it are data, never read as drift and never removed by an update. Deleting it deletes the queue and the runs' places in it (not the runs).",
    inputs: {
        name: string(
            "The queue's name (the service does not keep names unique; this provider refuses a second queue of the same name in the workspace). Updated in place.",
            {
                required: true,
                onChange: "update",
            },
        ),
        description: string("What the queue is for. Updated in place.", { onChange: "update" }),
        rubricInstructions: string("What reviewers are told to do (Markdown). Updated in place.", { onChange: "update" }),
        rubricItems: list(
            "The feedback keys reviewers score, in the order shown (a `FeedbackConfig`'s `feedbackKey` says what scores each takes). Updated in place.",
            rubricItem,
            { onChange: "update" },
        ),
        defaultDatasetId: string("The dataset (a `Dataset`'s id) reviewed runs are added to by default. Updated in place.", {
            onChange: "update",
            nullable: true,
        }),
        numReviewersPerItem: number("How many reviewers review each run (at least 1); default 1. Updated in place.", {
            integer: true,
            default: 1,
            onChange: "update",
        }),
        enableReservations: boolean("Whether a reviewer reserves the run they review, so no one else takes it; default true. Updated in place.", {
            default: true,
            onChange: "update",
        }),
        reservationMinutes: number("How long a reservation lasts, in minutes (at least 1); default 1. Updated in place.", {
            integer: true,
            default: 1,
            onChange: "update",
        }),
        sessionIds: list(
            "The tracing projects (their ids) the queue is for; compared as a set. The service takes them at creation only: a change replaces the queue.",
            string("A tracing project's id."),
            {
                onChange: "replace",
                compareAs: asSet({ unique: true, caseless: true }),
            },
        ),
        metadata: map("Metadata of the queue. Updated in place.", any("A value."), { onChange: "update" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        queueId: string("The queue's id (the resource's id): what a RunRule's `addToAnnotationQueueId` names.", { stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
        sessionIdsUnread: boolean(
            "Set by `pulumi import`: the state holds no `sessionIds`, which the service answers nowhere (docs/service.md R9.2), so the program's are recorded by the next `up` (an update that sends nothing), not a replacement.",
            { hidden: true },
        ),
    },
});

export type AnnotationQueueInputs = Inputs<typeof annotationQueue>;
export type AnnotationQueueOutputs = Outputs<typeof annotationQueue>;
