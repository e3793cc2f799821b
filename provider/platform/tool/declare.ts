/**
 * The Tool, declared once (kit/declare.ts): a tool of the workspace's platform tool registry (docs/service.md R18.1),
 * known by its handle (unique in the workspace, fixed: a change of it replaces the tool). Its name, description, JSON
 * schemas, metadata and whether it is enabled change in place (the service's PATCH by id). provider.ts holds what a
 * table cannot say (a handle the service would refuse, a schema that is no JSON-schema object, a 409 on create).
 */
import { any, boolean, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { canonicalJson } from "../../kit/diff";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const onChange = "update" as const;
/** A JSON object compared by its content, not its key order. */
const asJson = (v: unknown): unknown => (v === undefined ? v : canonicalJson(v));

export const tool = resource({
    name: "Tool",
    description:
        "A tool of the workspace's platform tool registry (the tools its agents and Fleet call), known by its handle, unique in the workspace. A change of the handle replaces the tool; everything else changes in place. Deleting it removes it from the registry.",
    inputs: {
        handle: string(
            "The tool's handle (`search-orders`): lower-case letters, digits, `-` and `_`, 1 to 64 characters, unique in the workspace. A change replaces the tool (the service cannot rename one).",
            { required: true, onChange: "replace" },
        ),
        name: string("The name shown for it (`Search orders`). Changed in place.", { required: true, onChange }),
        description: string("What it does, as a model reads it when choosing a tool. Changed in place.", { required: true, onChange }),
        parameters: map(
            'The JSON schema of its arguments, an object schema (`{type: "object", properties: {...}, required: [...]}`). Compared by content. Changed in place.',
            any("A JSON-schema keyword's value."),
            { required: true, onChange, compareAs: asJson },
        ),
        returns: map("The JSON schema of what it returns; absent: not said. Compared by content. Changed in place.", any("A JSON-schema keyword's value."), {
            onChange,
            compareAs: asJson,
        }),
        metadata: map("Metadata of the tool (owner, version...). Changed in place.", any("A value."), { onChange, compareAs: asJson }),
        enabled: boolean("Whether agents may call it. Default true. Changed in place.", { default: true, onChange }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ToolInputs = Inputs<typeof tool>;
export type ToolOutputs = Outputs<typeof tool>;
