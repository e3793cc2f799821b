/**
 * The DefaultModel, declared once (kit/declare.ts): the model a LangSmith feature of the workspace uses unless the
 * user picks another, and the models it may not use (docs/service.md R18.3). It exists once per (workspace, feature):
 * two resources of a program for one feature are refused at preview. Everything but the feature changes in place
 * (the service's PUTs); destroy is the service's DELETE, which puts the feature back to the service's own default.
 */
import { MODEL_FEATURES } from "../../api/schemas/platform";
import { list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** A set of model names, compared as a set. */
const asSet = (v: unknown): unknown => (Array.isArray(v) ? [...new Set(v)].sort() : v);

export const defaultModel = resource({
    name: "DefaultModel",
    description:
        "The default model of a LangSmith feature in a workspace (the model Polly, Fleet, Insights, the playground or evaluators use unless the user picks another) and the models that feature may not use. Once per workspace and feature. Destroy puts the feature back to the service's own default and re-enables the models this disabled.",
    inputs: {
        feature: string(`The feature: ${MODEL_FEATURES.map((f) => `\`${f}\``).join(", ")}. A change replaces it (another feature's setting).`, {
            required: true,
            values: MODEL_FEATURES,
            onChange: "replace",
        }),
        model: string("The default model (`openai:gpt-4.1-mini`, or a `ModelConfiguration`'s id). Not among `disabledModels`. Changed in place.", {
            required: true,
            onChange: "update",
        }),
        disabledModels: list("Models the feature may not use (compared as a set). Default none. Changed in place.", string("A model's name."), {
            default: [],
            onChange: "update",
            compareAs: asSet,
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type DefaultModelInputs = Inputs<typeof defaultModel>;
export type DefaultModelOutputs = Outputs<typeof defaultModel>;
