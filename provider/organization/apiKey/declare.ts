/**
 * The ApiKey, declared once (kit/declare.ts): a workspace's API key (docs/service.md R21 "Workspace API keys"),
 * made by `POST /api/v1/api-key` in the provider's workspace (`X-Tenant-Id`), with a workspace role. Everything
 * is fixed at creation: a change makes a new key, made in place, the old one revoked by the next `pulumi up` (a rotation). The secret
 * `key` is shown once.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { lifetimeInputs, secretOutput, tokenOutputs, unrotated } from "../tokens/fields";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const apiKey = resource({
    name: "ApiKey",
    description:
        "A LangSmith workspace API key: a key of one workspace (the provider's `workspaceId`, or `workspaceId`), with a workspace role. The key is the secret output `key`, shown once by the service and kept encrypted in the state. A change of any input makes a new key, made in place (a rotation: the resource's id stays, the old one works until the next `pulumi up` of this resource revokes it); an expired one is rotated by the next `pulumi up` when its lifetime is `expiresInDays`.",
    inputs: {
        description: string("What the key is for (`tracing-prod`), not blank. A change makes a new key.", { required: true, onChange: "replace" }),
        workspaceId: string("The workspace (its id) the key belongs to; default: the provider's `langsmith:workspaceId`. A change makes a new key.", {
            onChange: "replace",
        }),
        roleId: string(
            "The key's workspace role: a role's id (a uuid), or `WORKSPACE_ADMIN` (the service's default), `WORKSPACE_USER` (Editor) or `WORKSPACE_VIEWER`. A change makes a new key.",
            { onChange: "replace" },
        ),
        ...lifetimeInputs("key", "the organization's `max_api_key_expiry_days`"),
    },
    outputs: {
        key: secretOutput("key", "lsv2_"),
        shortKey: string("The key's redacted form, as LangSmith's list shows it.", { stable: unrotated }),
        ...tokenOutputs("key"),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ApiKeyInputs = Inputs<typeof apiKey>;
export type ApiKeyOutputs = Outputs<typeof apiKey>;
