/**
 * The DatasetShare, declared once (kit/declare.ts): a dataset shared publicly (docs/service.md R14.5), its share
 * token a secret output. provider.ts holds what a table cannot say.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const datasetShare = resource({
    name: "DatasetShare",
    description:
        "A public share of a dataset: anyone with its token reads the dataset and its examples, without a key (`list_shared_examples(token)`). The token is a secret output. Destroying the resource unshares the dataset (the token stops working); sharing it again makes another token.",
    inputs: {
        datasetId: string("The dataset (a `Dataset`'s id). A change replaces the share.", { required: true, onChange: "replace" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        shareToken: string("The share token (a secret): what a public read names (`/public/<token>/...`).", { secret: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type DatasetShareInputs = Inputs<typeof datasetShare>;
export type DatasetShareOutputs = Outputs<typeof datasetShare>;
