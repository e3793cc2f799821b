/**
 * The ScimToken's dynamic provider (its fields: declare.ts; what every token does: tokens/provider.ts). The
 * service keeps no expiry of a SCIM token (docs/service.md R21.4): its lifetime is the provider's, recorded in
 * `validUntil` at creation and compared at refresh and `up`. The description is the one thing changed in place.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ScimToken } from "../../api/schemas/tokens";
import type { TokensClient } from "../../api/tokens";
import { createTokenProvider, type TokenSpec } from "../tokens/provider";
import { scimToken } from "./declare";

export const SCIM_TOKEN: TokenSpec<ScimToken> = {
    name: "ScimToken",
    declaration: scimToken,
    secretName: "token",
    serviceExpiry: false,
    list: (client) => client.listScimTokens(),
    create: (client, i) => client.createScimToken(i.description),
    remove: (client, id) => client.deleteScimToken(id),
    short: (t) => t.short_token,
    secret: (t) => t.token,
    shown: (t, client) => ({ shortToken: t.short_token ?? "", scimUrl: client.scimUrl }),
    imported: (t) => ({ description: t.description ?? "" }),
    update: (client, id, news) => client.updateScimToken(id, news.description),
};

export const createScimTokenProvider = (o: { tokens?: () => TokensClient } = {}): pulumi.dynamic.ResourceProvider => createTokenProvider(() => SCIM_TOKEN, o);

export const scimTokenProvider = createScimTokenProvider();
