/**
 * The Assistant, declared once (kit/declare.ts): an assistant on a deployed agent server (docs/service.md
 * R6): a graph with the configuration its runs start with. The server versions it: every change of its
 * configuration, context, metadata, name or description makes a new version of the same assistant, never a new
 * one; its graph is fixed. It lives on the server at `url` (a deployment's `customUrl`): another address is
 * another server, so a change of it replaces the assistant. provider.ts holds what a table cannot say.
 */
import { runConfig } from "../agentServerObjects/shared";
import { any, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const newVersion = "A change makes a new version of the same assistant.";

export const assistant = resource({
    name: "Assistant",
    description:
        "An assistant on a deployed agent server: one of its graphs with the configuration, context and metadata its runs start with. The server versions it: a change of any of those, of its name or of its description makes a new version of the same assistant (`version` grows); another graph or another server replaces it. `pulumi refresh` shows a change made outside Pulumi (the UI, an SDK) and the next `up` puts the program's back as a new version. Sends the provider's API key as `x-api-key`.",
    inputs: {
        url: string("The agent server's URL, typically a `Deployment`'s `customUrl`. Another URL is another server: a change replaces the assistant.", {
            required: true,
            onChange: "replace",
            wire: false,
        }),
        graphId: string("The graph it runs, by the name the deployment's graph configuration gives it (`agent`). Fixed: a change replaces the assistant.", {
            required: true,
            onChange: "replace",
        }),
        assistantId: string(
            "Its id on the server (a uuid), what runs and crons name as `assistant_id`. Default: one chosen when it is made and kept while it lives, so that it is known at preview (a dependent `Cron` does not plan a change it will not make). A change replaces the assistant.",
            { onChange: "replace", wire: "assistant_id", filled: true, fromIdentity: true },
        ),
        name: string(`Its name, shown in the UI and matched by \`assistants.search\`. ${newVersion}`, { required: true, onChange: "update" }),
        description: string(`What it is for. ${newVersion}`, { onChange: "update" }),
        config: runConfig(`The run configuration its runs start with. ${newVersion}`, "update"),
        context: map(`The graph's static context (its context schema's values). ${newVersion}`, any("A value."), { onChange: "update" }),
        metadata: map(`Metadata of the assistant. ${newVersion}`, any("A value."), { onChange: "update" }),
    },
    outputs: {
        version: number("The server's version number of it: 1 at creation, one more at every change."),
        createdAt: string("When it was made.", { stable: true }),
        updatedAt: string("When its current version was made.", { nullable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type AssistantInputs = Inputs<typeof assistant>;
export type AssistantOutputs = Outputs<typeof assistant>;
