/**
 * The PromptVersion, declared once (kit/declare.ts): one commit of a prompt (docs/service.md R8.2). It is written on
 * the prompt's latest commit as read at the time of the write, and never changed: any change of its arguments is
 * a new commit (a replacement). Deleting it leaves the commit in the hub (the service deletes commits only with
 * their prompt).
 */
import { any, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const promptVersion = resource({
    name: "PromptVersion",
    description:
        "A version (commit) of a prompt: its manifest, written on the prompt's latest version read at the time of the write. Any change is a new version (a replacement), never a rewrite; deleting it leaves the commit in the hub (commits go only with their prompt).",
    inputs: {
        promptHandle: string("The handle of the prompt it belongs to (a `Prompt`'s `handle`). A change makes a new version there.", {
            required: true,
            onChange: "replace",
        }),
        manifest: map(
            'The prompt as LangChain serializes it: `{lc: 1, type: "constructor", id: ["langchain", "prompts", "chat", "ChatPromptTemplate"], kwargs: {messages: [...], input_variables: [...]}}` (what `langchain_core.load.dumps` writes; a chat template, a string template, a structured prompt, or a sequence of a prompt and a model). Checked at preview to be a prompt the official clients can load. A change makes a new version.',
            any("A key of the serialized object."),
            { required: true, onChange: "replace" },
        ),
        description: string("What changed in this version (at most 1000 characters). A change makes a new version.", { onChange: "replace" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        commitHash: string("The version's commit hash (pull it as `handle:<commitHash>`).", { stable: true }),
        commitId: string("The commit's id.", { stable: true }),
        parentCommitHash: string("The hash of the version it was written on (null for the prompt's first).", { nullable: true, stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type PromptVersionInputs = Inputs<typeof promptVersion>;
export type PromptVersionOutputs = Outputs<typeof promptVersion>;
