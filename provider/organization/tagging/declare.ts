/**
 * The Tagging, declared once (kit/declare.ts): a tag value put on one object of the workspace (docs/service.md R13),
 * named by its kind (the service's `ResourceType`: checked at preview) and id. Nothing changes in place: another
 * value or object replaces it. provider.ts holds what a table cannot say.
 */
import { TAGGABLE_TYPES } from "../../api/schemas/tags";
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const tagging = resource({
    name: "Tagging",
    description:
        "A tag value on one object of the workspace (a project, a dataset, a deployment, a prompt, an annotation queue, an experiment...), by the object's kind and id: what a resource's `tags` argument makes for the objects this provider manages, for the others. Any change replaces it; deleting it takes the value off (the key and value stay). Imported by `<resourceType>/<resourceId>/<tagValueId>` (or `<workspaceId>/<resourceType>/<resourceId>/<tagValueId>`).",
    inputs: {
        tagValueId: string("The id of the value (a `TagValue`'s id). A change replaces the tagging.", { required: true, onChange: "replace" }),
        resourceType: string(
            `The kind of the object, one the service can tag: ${TAGGABLE_TYPES.map((t) => `\`${t}\``).join(", ")}. A change replaces the tagging.`,
            {
                required: true,
                values: TAGGABLE_TYPES,
                onChange: "replace",
            },
        ),
        resourceId: string("The object's id (a UUID: a project's, a dataset's, a deployment's, a prompt's `promptId`). A change replaces the tagging.", {
            required: true,
            onChange: "replace",
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type TaggingInputs = Inputs<typeof tagging>;
export type TaggingOutputs = Outputs<typeof tagging>;
