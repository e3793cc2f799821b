/**
 * The TagValue, declared once (kit/declare.ts): a value of a resource-tag key (docs/service.md R13), unique by its
 * text under its key. Its key is its identity (a change replaces it); its text and description change in place.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const tagValue = resource({
    name: "TagValue",
    description:
        "A value of a resource-tag key (`support` of `team`), put on objects by `Tagging`s or a resource's `tags` argument. Another key replaces it; its text changes in place. Deleting it takes it off every object. Imported by its id (`<valueId>`, or `<workspaceId>/<valueId>`).",
    inputs: {
        tagKeyId: string("The id of its key (a `TagKey`'s id). A change replaces the value.", { required: true, onChange: "replace" }),
        value: string("The value's text, unique under its key, 1 to 255 characters. Changed in place.", { required: true, onChange: "update" }),
        description: string("What the value means. Updated in place.", { onChange: "update" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type TagValueInputs = Inputs<typeof tagValue>;
export type TagValueOutputs = Outputs<typeof tagValue>;
