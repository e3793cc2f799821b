/** A dataset whose examples are `golden.jsonl` (bench/datasetExamples.ts writes its 10,000 rows). */
import * as langsmith from "pulumi-langsmith";

const golden = new langsmith.Dataset("golden", { name: "bench-golden" });
const examples = new langsmith.DatasetExamples("golden", { datasetId: golden.id, file: "golden.jsonl" });

export const datasetId = golden.id;
export const asOf = examples.asOf;
