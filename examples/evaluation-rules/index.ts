/**
 * Online evaluation as code: the tracing project `support-bot`, the feedback key `concise` (a score 0 to 1), an
 * annotation queue reviewers work through with it, a code evaluator that scores an answer's length, and the rule
 * that sends the project's LLM runs (sampled at `samplingRate`) to the queue, scored by the evaluator. The rule
 * names the queue and the evaluator by their ids, so Pulumi makes them first and deletes the rule first. An alert
 * calls a webhook (its URL a secret: `evaluation-rules:alertWebhookUrl`) when more than 5 % of the LLM runs of the
 * last 15 minutes fail.
 */
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();

const project = new langsmith.TracingProject("support-bot", { name: config.get("project") ?? "support-bot" });

const concise = new langsmith.FeedbackConfig("concise", {
    feedbackKey: "concise",
    type: "continuous",
    min: 0,
    max: 1,
});

const queue = new langsmith.AnnotationQueue("llm-review", {
    name: pulumi.interpolate`${project.name} LLM review`,
    description: "LLM answers of the support bot, for review",
    rubricInstructions: "Is the answer short and correct?",
    rubricItems: [{ feedbackKey: concise.feedbackKey, description: "1 when the answer is short enough" }],
});

const evaluator = new langsmith.Evaluator("concise", {
    name: pulumi.interpolate`${project.name} concise`,
    type: "code",
    code: [
        "def perform_eval(run, example):",
        "    answer = str((run.get('outputs') or {}).get('answer', ''))",
        "    return {'concise': 1 if len(answer) <= 40 else 0}",
    ].join("\n"),
});

const rule = new langsmith.RunRule("llm-runs", {
    name: "LLM runs to review",
    sessionId: project.id,
    filter: 'eq(run_type, "llm")',
    samplingRate: config.getNumber("samplingRate", { min: 0, max: 1 }) ?? 1,
    addToAnnotationQueueId: queue.id,
    evaluatorId: evaluator.id,
});

const errors = new langsmith.AlertRule("llm-errors", {
    sessionId: project.id,
    name: "LLM error rate",
    description: "more than 5 % of the LLM runs of the last 15 minutes failed",
    attribute: "error_count",
    aggregation: "pct",
    windowMinutes: 15,
    operator: "gt",
    threshold: 5,
    filter: 'eq(run_type, "llm")',
    actions: [{ target: "webhook", url: config.getSecret("alertWebhookUrl") ?? "https://hooks.example.com/support-bot/alerts" }],
});

export const projectName = project.name;
export const queueId = queue.id;
export const feedbackKey = concise.feedbackKey;
export const ruleId = rule.id;
export const alertRuleId = errors.id;
