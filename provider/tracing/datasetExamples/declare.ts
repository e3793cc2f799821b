/**
 * The DatasetExamples, declared once (kit/declare.ts): the examples of a `Dataset`, from a JSONL or CSV file in the
 * repository or a list in the program, synced by content (docs/service.md R14; rows.ts and sync.ts say how). The state
 * holds a hash per example and the version the last `up` made, never the data. provider.ts holds what a table cannot say.
 */
import { any, boolean, list, map, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** One example of a list in the program (kept out of the resource's literal: TypeScript types a program's list of them more cheaply). */
export const datasetExample = object("DatasetExample", "One example: its inputs, and optionally its reference outputs, metadata, splits and id.", {
    inputs: map("The example's inputs (`{question: ...}`). Required.", any("A value."), { required: true }),
    outputs: map("Its reference outputs.", any("A value.")),
    metadata: map("Its metadata (the split is `split`, not a metadata key).", any("A value.")),
    split: list('The splits it is in (`["train"]`); absent: `base`.', string("A split's name.")),
    id: string(
        "Its id on the service (a UUID), which then names it: a change of its inputs patches it. Absent, its inputs name it (a change of them is a new example).",
    ),
});

export const datasetExamples = resource({
    name: "DatasetExamples",
    description:
        "The examples of a dataset, from a JSONL or CSV file of the repository (`file`) or a list in the program (`examples`), synced by content: an `up` adds the rows that are new, patches those that changed and deletes those removed, in the service's bulk calls, and an unchanged file sends nothing. An example is known by its `id` when a row gives one, else by its inputs. With `exclusive` (the default) the rows are the whole dataset: examples added elsewhere are drift that `refresh` shows and the next `up` deletes. The state holds a hash per example, never the data. One per dataset.",
    inputs: {
        datasetId: string(
            "The dataset (a `Dataset`'s id). A change replaces the resource (the examples move: made in the new dataset, deleted from the old).",
            {
                required: true,
                onChange: "replace",
            },
        ),
        file: string(
            "A file of examples, relative to the program's directory: `.jsonl` (one JSON object a line: `inputs`, and optionally `outputs`, `metadata`, `split`, `id`) or `.csv` (a header naming those columns; `inputs`, `outputs` and `metadata` cells hold JSON objects, `split` a name or a JSON list). Its rows are compared by content at every preview. Exactly one of `file` and `examples`.",
            { onChange: "update" },
        ),
        examples: list("The examples, in the program (for a few). Exactly one of `file` and `examples`.", datasetExample, { onChange: "update" }),
        exclusive: boolean(
            "Whether the rows are the whole dataset (default true): examples no row names (added in the UI or by an SDK) are deleted by the next `up`. False: they are kept, and only the examples this resource made are managed. Updated in place.",
            { default: true, onChange: "update" },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        exampleCount: number("How many examples the rows are.", { integer: true }),
        asOf: string(
            "The dataset version (its time) the last `up` that changed examples left: read `as_of` it (`list_examples(dataset_id=..., as_of=...)`), or tag it with a `DatasetVersionTag`, to read exactly these rows. Empty while the dataset has no version (no example was ever written).",
        ),
        exampleHashes: list("Per example: 12 hex characters of SHA-256 of its identity, then 12 of its content; sorted.", string("A hash."), { hidden: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type DatasetExamplesInputs = Inputs<typeof datasetExamples>;
export type DatasetExamplesOutputs = Outputs<typeof datasetExamples>;
