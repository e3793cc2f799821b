/**
 * The Example, declared once (kit/declare.ts): one example of a dataset declared in the program, for the few written
 * by hand (docs/service.md R14.1); many, or a file: `DatasetExamples`. provider.ts holds what a table cannot say.
 */
import { any, list, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const example = resource({
    name: "Example",
    description:
        "One example of a dataset, declared in the program: its inputs, reference outputs, metadata and splits, each changed in place (each change a new version of the dataset). For many, or a file of them, use `DatasetExamples`; in a dataset a `DatasetExamples` holds, set its `exclusive` to false, or it takes this example for one of its own to delete.",
    inputs: {
        datasetId: string("The dataset (a `Dataset`'s id). A change replaces the example.", { required: true, onChange: "replace" }),
        inputs: map("The example's inputs (`{question: ...}`). Updated in place.", any("A value."), { required: true, onChange: "update" }),
        outputs: map("Its reference outputs. Updated in place.", any("A value."), { onChange: "update" }),
        metadata: map("Its metadata (the split is `split`, not a metadata key). Updated in place.", any("A value."), { onChange: "update" }),
        split: list('The splits it is in (`["train"]`); absent: `base`. Updated in place.', string("A split's name."), { onChange: "update" }),
        workspaceId: workspaceIdField,
        requestedExampleId: string(
            "The id the create gives the example: derived from the resource's URN, its dataset and workspace, so that a create a killed `pulumi up` made is found by it and not made twice. Read only at creation.",
            { onChange: "none", filled: true, fromIdentity: true, hidden: true },
        ),
    },
    outputs: {
        createdAt: string("When it was made."),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ExampleInputs = Inputs<typeof example>;
export type ExampleOutputs = Outputs<typeof example>;
