/**
 * The WorkspaceSecret, declared once (kit/declare.ts): a secret of a workspace (docs/service.md R7), what
 * evaluators, the playground and model configurations read by its key. The service never answers a value: the
 * state keeps the program's, so a value changed elsewhere is not seen. provider.ts holds what a table cannot say.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const workspaceSecret = resource({
    name: "WorkspaceSecret",
    description:
        "A secret of a LangSmith workspace (evaluators, the playground and model configurations read it by its key). Its value changes in place; another key replaces it. The service never answers a value: a change made elsewhere is not seen by refresh.",
    inputs: {
        key: string("The secret's name in the workspace (e.g. `OPENAI_API_KEY`). A change replaces it (the old key is deleted).", {
            required: true,
            onChange: "replace",
        }),
        value: string("The secret's value. Secret in the state and every output; changed in place (one PUT). Never read back.", {
            required: true,
            secret: true,
            onChange: "update",
        }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        tenantId: string("The workspace that holds it (the given `workspaceId`, else the provider's).", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type WorkspaceSecretInputs = Inputs<typeof workspaceSecret>;
export type WorkspaceSecretOutputs = Outputs<typeof workspaceSecret>;
