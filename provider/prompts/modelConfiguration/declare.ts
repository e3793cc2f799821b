/**
 * The ModelConfiguration, declared once (kit/declare.ts): a model configuration saved in the playground
 * (docs/service.md R8.7), which prompts, evaluators and the playground name: a model of a provider, its settings,
 * the WorkspaceSecret that holds the provider's API key, and a base URL. Everything changes in place.
 */
import { any, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const modelConfiguration = resource({
    name: "ModelConfiguration",
    description:
        "A model configuration saved in the playground (what prompts, evaluators and the playground name): a provider's model, its settings, the `WorkspaceSecret` key that holds the provider's API key, and a base URL. Everything changes in place.",
    inputs: {
        name: string("The name it is listed by. Updated in place.", { required: true, onChange: "update" }),
        description: string("What it is for. Updated in place.", { onChange: "update" }),
        model: string("The model, as `provider:model`: `openai:gpt-4o-mini`, `anthropic:claude-sonnet-4-5`. Updated in place.", {
            required: true,
            onChange: "update",
        }),
        apiKeySecret: string(
            "The key of the `WorkspaceSecret` that holds the provider's API key (`OPENAI_API_KEY`): the configuration names it, never holds the key. Updated in place.",
            { required: true, onChange: "update" },
        ),
        baseUrl: string("Where the provider's API is, when not its default (a proxy, a compatible server). Updated in place.", { onChange: "update" }),
        settings: map(
            "The model's settings (`temperature`, `max_tokens`, ...), as the provider's LangChain chat model takes them. Updated in place.",
            any("A setting."),
            {
                onChange: "update",
            },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ModelConfigurationInputs = Inputs<typeof modelConfiguration>;
export type ModelConfigurationOutputs = Outputs<typeof modelConfiguration>;
