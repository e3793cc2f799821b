/**
 * The DatasetVersionTag, declared once (kit/declare.ts): a tag (`prod`) on a version of a dataset (docs/service.md
 * R14.3), which the official clients read examples `as_of`. Moving it is an update in place. provider.ts holds what a
 * table cannot say.
 */
import { instant } from "../../kit/diff";
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const datasetVersionTag = resource({
    name: "DatasetVersionTag",
    description:
        'A tag (`prod`) on a version of a dataset: `list_examples(dataset_id=..., as_of="prod")` reads exactly the examples of that version, while later changes make new versions. Moving it to another version (`asOf`) is an update in place. The service has no call that removes a tag: destroying the resource leaves it where it is (it goes with the dataset), and says so.',
    inputs: {
        datasetId: string("The dataset (a `Dataset`'s id). A change replaces the tag.", { required: true, onChange: "replace" }),
        tag: string("The tag's name (`prod`), unique in the dataset. A change replaces the resource (the old name stays where it was: see above).", {
            required: true,
            onChange: "replace",
        }),
        asOf: string(
            "The version to tag: its time (ISO 8601), typically a `DatasetExamples`' `asOf`. Must be a version of the dataset (one of `GET /datasets/{id}/versions`: checked at preview when known). Moved in place.",
            { required: true, onChange: "update", compareAs: instant },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type DatasetVersionTagInputs = Inputs<typeof datasetVersionTag>;
export type DatasetVersionTagOutputs = Outputs<typeof datasetVersionTag>;
