/**
 * The TagKey, declared once (kit/declare.ts): a resource-tag key of a workspace (docs/service.md R13), unique by its
 * text there; its values are TagValues. Renamed and re-described in place. provider.ts holds what a table cannot say.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const tagKey = resource({
    name: "TagKey",
    description:
        "A resource-tag key of a LangSmith workspace (`team`, `env`): its values are `TagValue`s, put on objects by `Tagging`s or a resource's `tags` argument, and access policies (`AccessPolicy`) key on them. Deleting it deletes its values and takes them off every object.",
    inputs: {
        key: string("The key's text, unique in the workspace, 1 to 255 characters. Renamed in place.", { required: true, onChange: "update" }),
        description: string("What the key is for. Updated in place.", { onChange: "update" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type TagKeyInputs = Inputs<typeof tagKey>;
export type TagKeyOutputs = Outputs<typeof tagKey>;
