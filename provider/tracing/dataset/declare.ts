/**
 * The Dataset, declared once (kit/declare.ts): a LangSmith dataset (docs/service.md R5), what evaluations
 * run over. Its name is unique in a workspace and changes in place; its data type is fixed at creation. Its
 * examples are data, not infrastructure: the SDKs write them (and tag their versions). provider.ts holds what
 * a table cannot say.
 */
import { DATA_TYPES } from "../../api/schemas/datasets";
import { any, map, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField, workspaceObjectOutputs } from "../../kit/workspace";
import { tagsField } from "../../kit/tags";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const jsonSchema = (what: string) =>
    map(
        `A JSON Schema (an object, e.g. \`{type: "object", properties: {...}, required: [...]}\`) every example's ${what} must match. Updated in place.`,
        any("A keyword of the schema."),
        {
            onChange: "update",
        },
    );

export const dataset = resource({
    name: "Dataset",
    description:
        "A LangSmith dataset: what evaluations and experiments run over. Renamed in place; its data type is fixed at creation (a change replaces it). Its examples are data the SDKs write, not managed here. `pulumi refresh` shows changes made in the UI.",
    inputs: {
        name: string(
            "The dataset's name, unique in the workspace. Renamed in place. Optional: left out, the dataset is named after the resource (`evals-3f9c2a1`) and keeps that name.",
            { filled: true, autoname: {}, onChange: "update" },
        ),
        description: string("What the dataset holds.", { onChange: "update" }),
        dataType: string(
            "What its examples hold: `kv` (default: key-value inputs and outputs), `llm` (a prompt and a completion) or `chat` (messages). A change replaces the dataset.",
            {
                values: DATA_TYPES,
                default: "kv",
                onChange: "replace",
            },
        ),
        inputsSchema: { ...jsonSchema("inputs"), wire: "inputs_schema_definition" },
        outputsSchema: { ...jsonSchema("outputs"), wire: "outputs_schema_definition" },
        metadata: map("Metadata of the dataset.", any("A value."), { onChange: "update" }),
        tags: tagsField,
        workspaceId: workspaceIdField,
    },
    outputs: workspaceObjectOutputs,
});

export type DatasetInputs = Inputs<typeof dataset>;
export type DatasetOutputs = Outputs<typeof dataset>;
