/**
 * Evaluation data as code: the golden dataset of the support bot, its examples kept in `golden.jsonl` (reviewed like
 * code; an `up` writes only the rows that changed), the `prod` tag on the version this `up` made (experiments read
 * `as_of="prod"`), the reviewers' keys and a weighted `overall` score of them, a saved view of the project's failing
 * LLM calls, and a dashboard of two charts: the project's latency and its `overall` score.
 */
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const name = config.get("name") ?? "support-bot";

const golden = new langsmith.Dataset("golden", { name: `${name}-golden`, description: "What the support bot must answer" });
const examples = new langsmith.DatasetExamples("golden", { datasetId: golden.id, file: "golden.jsonl" });
const prod = new langsmith.DatasetVersionTag("prod", { datasetId: golden.id, tag: "prod", asOf: examples.asOf });

const project = new langsmith.TracingProject("support-bot", { name });
const correctness = new langsmith.FeedbackConfig("correctness", { feedbackKey: `${name}-correctness`, type: "continuous", min: 0, max: 1 });
const helpfulness = new langsmith.FeedbackConfig("helpfulness", { feedbackKey: `${name}-helpfulness`, type: "continuous", min: 0, max: 1 });
const overall = new langsmith.FeedbackFormula("overall", {
    feedbackKey: `${name}-overall`,
    aggregationType: "avg",
    sessionId: project.id,
    parts: [
        { key: correctness.feedbackKey, weight: 0.7 },
        { key: helpfulness.feedbackKey, weight: 0.3 },
    ],
});

const llmErrors = new langsmith.ProjectView("llm-errors", {
    sessionId: project.id,
    displayName: "LLM errors",
    filter: 'and(eq(run_type, "llm"), eq(error, true))',
});

const health = new langsmith.Dashboard("health", { title: `${name} health`, description: "Latency and what reviewers score" });
const latency = new langsmith.Chart("latency", {
    dashboardId: health.id,
    title: "Latency",
    index: 0,
    series: [{ name: "p50", metric: "latency_p50", filters: { projectIds: [project.id] } }],
});
const score = new langsmith.Chart("overall", {
    dashboardId: health.id,
    title: "Overall score",
    index: 1,
    series: [{ name: "overall", metric: "feedback_score_avg", feedbackKey: overall.feedbackKey, filters: { projectIds: [project.id] } }],
});

export const datasetId = golden.id;
export const exampleCount = examples.exampleCount;
export const prodAsOf = prod.asOf;
export const projectId = project.id;
export const overallKey = overall.feedbackKey;
export const viewId = llmErrors.id;
export const dashboardId = health.id;
export const chartIds = [latency.id, score.id];
