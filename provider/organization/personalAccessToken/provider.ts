/**
 * The PersonalAccessToken's dynamic provider (its fields: declare.ts; what every token does: tokens/provider.ts).
 * A service account's token is made by the provider's key with the account named (`X-Service-Account-Id`,
 * docs/service.md R21.2); the list the service answers is the organization's, so a token is found there by id.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ApiKey } from "../../api/schemas/tokens";
import type { TokensClient } from "../../api/tokens";
import { UUID_RE } from "../../api/values";
import { prune } from "../../kit/diff";
import { known } from "../../kit/unknown";
import { createTokenProvider, type TokenSpec } from "../tokens/provider";
import { personalAccessToken } from "./declare";

export const PERSONAL_ACCESS_TOKEN: TokenSpec<ApiKey> = {
    name: "PersonalAccessToken",
    declaration: personalAccessToken,
    secretName: "key",
    serviceExpiry: true,
    check(c, news) {
        for (const p of ["serviceAccountId", "defaultWorkspaceId"] as const) {
            const v = news[p];
            if (typeof v === "string" && known(v) && !UUID_RE.test(v)) c.fail(p, `${p} must be an id (a uuid), not ${JSON.stringify(v)}`);
        }
    },
    async maxDays(client) {
        const days = (await client.withDeadline(Date.now() + 3_000).maxExpiryDays())?.max_pat_expiry_days;
        return days ? { days, name: "max_pat_expiry_days" } : undefined;
    },
    // The list answers no token's account or default workspace (docs/service.md R21.8).
    twinnable: (i) => i.serviceAccountId === undefined && i.defaultWorkspaceId === undefined,
    list: (client) => client.listPersonalAccessTokens(),
    create: (client, i, expiresAt) =>
        client.createPersonalAccessToken(
            prune({ description: i.description, expires_at: expiresAt, default_workspace_id: i.defaultWorkspaceId }),
            i.serviceAccountId,
        ),
    remove: (client, id) => client.deletePersonalAccessToken(id),
    short: (t) => t.short_key,
    secret: (t) => t.key,
    shown: (t) => ({ shortKey: t.short_key }),
    imported: (t) => prune({ description: t.description, expiresAt: t.expires_at ?? undefined }),
};

export const createPersonalAccessTokenProvider = (o: { tokens?: () => TokensClient } = {}): pulumi.dynamic.ResourceProvider =>
    createTokenProvider(() => PERSONAL_ACCESS_TOKEN, o);

export const personalAccessTokenProvider = createPersonalAccessTokenProvider();
