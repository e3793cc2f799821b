/**
 * The Prompt, declared once (kit/declare.ts): a repository of the workspace's prompt hub (docs/service.md R8). Its
 * handle is its identity (a change replaces it); its description, readme, tags and visibility change in place. Its
 * versions are PromptVersion resources (commits), its commit tags PromptTag resources. provider.ts holds what a
 * table cannot say.
 */
import { asSet } from "../../kit/diff";
import { boolean, list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";
import { tagsField } from "../../kit/tags";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const prompt = resource({
    name: "Prompt",
    description:
        "A prompt of the workspace's prompt hub (a repository of versions): its handle names it (`support` is pulled as `support:prod`); a changed handle replaces it. Its versions are `PromptVersion`s, its commit tags `PromptTag`s. Deleting it deletes every version and tag it holds.",
    inputs: {
        handle: string(
            "The prompt's handle, unique in the workspace: lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 100 characters. A change replaces the prompt (and its versions).",
            { required: true, onChange: "replace" },
        ),
        description: string("What the prompt is for.", { onChange: "update" }),
        readme: string("The prompt's readme (Markdown).", { onChange: "update" }),
        tags: list("Labels of the prompt in the hub (not commit tags: those are `PromptTag`s); compared as a set.", string("A label."), {
            onChange: "update",
            compareAs: asSet({ unique: true }),
        }),
        isPublic: boolean("Whether anyone may read it (needs the workspace's hub handle); default false.", { default: false, onChange: "update" }),
        isArchived: boolean("Whether it is archived (hidden from the hub's lists, still pulled); default false.", { default: false, onChange: "update" }),
        resourceTags: tagsField,
        workspaceId: workspaceIdField,
    },
    outputs: {
        promptId: string("The repository's id.", { stable: true }),
        owner: string("The workspace's hub handle (null until the workspace has one): the owner in `owner/handle`.", { nullable: true, stable: true }),
        fullName: string("The name clients pull it by (`owner/handle`, or the handle alone when the workspace has no hub handle).", { stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type PromptInputs = Inputs<typeof prompt>;
export type PromptOutputs = Outputs<typeof prompt>;
