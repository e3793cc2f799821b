/**
 * The PersonalAccessToken, declared once (kit/declare.ts): an `lsv2_pt_...` token of the organization
 * (docs/service.md R21 "Personal access tokens"), with the permissions of the identity it belongs to: the
 * provider's own (the caller's), or a `ServiceAccount`'s (`serviceAccountId`). Everything is fixed at creation:
 * a change makes a new token, made in place, the old one revoked by the next `pulumi up` (a rotation). The secret `key` is shown once.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { lifetimeInputs, secretOutput, tokenOutputs, unrotated } from "../tokens/fields";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const personalAccessToken = resource({
    name: "PersonalAccessToken",
    description:
        "A LangSmith personal access token (`lsv2_pt_...`), of a `ServiceAccount` (`serviceAccountId`) or of the identity whose key the provider uses. The token is the secret output `key`, shown once by the service and kept encrypted in the state. A change of any input makes a new token, made in place (a rotation: the resource's id stays, the old one works until the next `pulumi up` of this resource revokes it); an expired one is rotated by the next `pulumi up` when its lifetime is `expiresInDays`.",
    inputs: {
        description: string("What the token is for (`ci-2027`), not blank. Shown in LangSmith's list of tokens. A change makes a new token.", {
            required: true,
            onChange: "replace",
        }),
        serviceAccountId: string(
            "The `ServiceAccount` (its id) the token belongs to: requests with it act as that account, with its workspaces and roles. Left out, the token is the provider's own identity's. A change makes a new token.",
            { onChange: "replace" },
        ),
        defaultWorkspaceId: string("The workspace (its id) the token speaks to when a request names none. A change makes a new token.", {
            onChange: "replace",
        }),
        ...lifetimeInputs("token", "the organization's `max_pat_expiry_days`"),
    },
    outputs: {
        key: secretOutput("token", "lsv2_pt_"),
        shortKey: string("The token's redacted form (`lsv2_pt_...abcd`), as LangSmith's list shows it.", { stable: unrotated }),
        ...tokenOutputs("token"),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type PersonalAccessTokenInputs = Inputs<typeof personalAccessToken>;
export type PersonalAccessTokenOutputs = Outputs<typeof personalAccessToken>;
