/**
 * The ApiKey's dynamic provider (its fields: declare.ts; what every token does: tokens/provider.ts). A workspace's
 * keys are made, listed and deleted in that workspace (`X-Tenant-Id`: `workspaceId`, else the provider's, docs/
 * service.md R21.3); a role given by name is the organization's role of that name (ServiceKey's roles.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ApiKey } from "../../api/schemas/tokens";
import type { TokensClient } from "../../api/tokens";
import { UUID_RE } from "../../api/values";
import { prune } from "../../kit/diff";
import type { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { roleIdFor, roleSpellingProblem } from "../serviceKey/roles";
import { createTokenProvider, type TokenSpec } from "../tokens/provider";
import { apiKey } from "./declare";

/** The workspace of a key: its own `workspaceId`, else the provider's (the check has said when there is none). */
const workspaceOf = (i: Record<string, any>, fallback: () => string | undefined): string => {
    const ws = i.workspaceId ?? fallback();
    if (!ws) throw new Error("ApiKey: no workspace: set workspaceId or the provider's langsmith:workspaceId.");
    return ws;
};

export function apiKeySpec(workspace: () => string | undefined, org: () => ReturnType<Service["organization"]>): TokenSpec<ApiKey> {
    return {
        name: "ApiKey",
        declaration: apiKey,
        secretName: "key",
        serviceExpiry: true,
        check(c, news) {
            const ws = news.workspaceId;
            if (typeof ws === "string" && known(ws) && !UUID_RE.test(ws))
                c.fail("workspaceId", `workspaceId must be a workspace id (a uuid), not ${JSON.stringify(ws)}`);
            if (ws === undefined && !workspace())
                c.fail("workspaceId", "no workspace: set workspaceId, or the provider's langsmith:workspaceId (LANGSMITH_WORKSPACE_ID)");
            const role = news.roleId;
            const problem = typeof role === "string" && known(role) ? roleSpellingProblem("roleId", role, "workspace") : undefined;
            if (problem) c.fail("roleId", problem);
        },
        async maxDays(client) {
            const days = (await client.withDeadline(Date.now() + 3_000).maxExpiryDays())?.max_api_key_expiry_days;
            return days ? { days, name: "max_api_key_expiry_days" } : undefined;
        },
        list: (client, i) => client.listApiKeys(workspaceOf(i, workspace)),
        async create(client, i, expiresAt) {
            const role = i.roleId === undefined ? undefined : roleIdFor(await org().listRoles(), "roleId", i.roleId, "workspace", "ApiKey");
            return client.createApiKey(workspaceOf(i, workspace), prune({ description: i.description, expires_at: expiresAt, role_id: role }));
        },
        remove: (client, id, i) => client.deleteApiKey(workspaceOf(i, workspace), id),
        // A key of another workspace is another key: a replacement (new before old), not a rotation in place (docs/service.md R21.7).
        replaceOn: ["workspaceId"],
        short: (t) => t.short_key,
        secret: (t) => t.key,
        shown: (t) => ({ shortKey: t.short_key }),
        imported: (t) => prune({ description: t.description, expiresAt: t.expires_at ?? undefined }),
    };
}

export function createApiKeyProvider(o: { tokens?: () => TokensClient } = {}): pulumi.dynamic.ResourceProvider {
    return createTokenProvider(
        (service) =>
            apiKeySpec(
                () => service().config().workspaceId,
                () => service().organization(),
            ),
        o,
    );
}

export const apiKeyProvider = createApiKeyProvider();
