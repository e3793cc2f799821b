/**
 * The PromptTag, declared once (kit/declare.ts): a commit tag of a prompt (docs/service.md R8.4), the name clients
 * pull (`support:prod`). Moving it to another version is an update in place (the service's PATCH of a tag), never a
 * delete and re-create.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const promptTag = resource({
    name: "PromptTag",
    description:
        "A commit tag of a prompt (`prod`, pulled as `handle:prod`): moving it to another version is an update in place, so a promotion is a new `PromptVersion` and the tag's `commitHash` set to it, in one `pulumi up`.",
    inputs: {
        promptHandle: string("The handle of the prompt (a `Prompt`'s `handle`). A change replaces the tag.", { required: true, onChange: "replace" }),
        name: string("The tag's name, unique in the prompt (`prod`, `staging`). A change replaces the tag.", { required: true, onChange: "replace" }),
        commitHash: string("The version it names: a `PromptVersion`'s `commitHash` (a version of this very prompt). A change moves the tag in place.", {
            required: true,
            onChange: "update",
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        commitId: string("The id of the commit it names."),
        tagId: string("The tag's id.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type PromptTagInputs = Inputs<typeof promptTag>;
export type PromptTagOutputs = Outputs<typeof promptTag>;
