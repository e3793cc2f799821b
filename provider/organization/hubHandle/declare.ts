/**
 * The HubHandle, declared once (kit/declare.ts): a workspace's prompt hub handle (docs/service.md R20.3), the owner
 * in `handle/prompt` names, which the service sets once and cannot rename. provider.ts holds what a table cannot say.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const hubHandle = resource({
    name: "HubHandle",
    description:
        "The prompt hub handle of a LangSmith workspace (the owner in `handle/prompt-name`), for a workspace made without one (the default workspace, or a `Workspace` with no `tenantHandle`). The service sets it once and cannot rename it: a change is refused at preview. Deleting the resource leaves the handle on the workspace (warned at preview).",
    inputs: {
        handle: string(
            "The handle: lowercase letters, digits, `-` and `_`, starting with a letter or a digit, at most 64 characters; unique across the service. Set once: a change is refused at preview.",
            { required: true, onChange: "replace" },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        tenantId: string("The workspace whose handle it is (the given `workspaceId`, else the provider's).", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type HubHandleInputs = Inputs<typeof hubHandle>;
export type HubHandleOutputs = Outputs<typeof hubHandle>;
