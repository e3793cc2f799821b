/**
 * The ScimToken, declared once (kit/declare.ts): the bearer token an identity provider (Okta, Entra ID) sends to
 * the organization's SCIM API (docs/service.md R21 "SCIM tokens"). The service keeps no expiry for it:
 * `expiresInDays` / `expiresAt` are the provider's, which rotates the token in place once they pass (the old one revoked by the next `pulumi up`).
 * The description changes in place; the secret `token` is shown once.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { lifetimeInputs, secretOutput, tokenOutputs, unrotated } from "../tokens/fields";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const scimToken = resource({
    name: "ScimToken",
    description:
        "A SCIM bearer token of the LangSmith organization, for the identity provider that provisions its users and groups. The token is the secret output `token`, shown once by the service and kept encrypted in the state. The description changes in place; a new lifetime makes a new token in place (a rotation: the resource's id stays, the old one works until the next `pulumi up` of this resource revokes it). The service keeps no expiry of its own: once `expiresInDays` (or `expiresAt`) has passed, refresh shows it expired and the next `pulumi up` rotates it.",
    inputs: {
        description: string("What the token is for (`okta`), not blank. Changed in place.", { required: true, onChange: "update" }),
        ...lifetimeInputs("token", "no maximum of the service's"),
    },
    outputs: {
        token: secretOutput("token", ""),
        shortToken: string("The token's redacted form, as LangSmith's list shows it.", { stable: unrotated }),
        scimUrl: string("The organization's SCIM base URL the identity provider is given with the token.", { stable: true }),
        ...tokenOutputs("token"),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ScimTokenInputs = Inputs<typeof scimToken>;
export type ScimTokenOutputs = Outputs<typeof scimToken>;
