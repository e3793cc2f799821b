/**
 * The wire contract of the organization's non-human identities and their tokens (docs/service.md R21): service
 * accounts (`/api/v1/service-accounts`), personal access tokens (`/api/v1/orgs/current/personal-access-tokens`),
 * workspace API keys (`/api/v1/api-key`) and SCIM tokens (`/v1/platform/orgs/current/scim/tokens`), as the
 * description has them. Requests are strict (the emulator refuses what the service would not take); answers are
 * tolerant of fields this provider does not read. A token's secret is in its create's answer only.
 */
import { z } from "zod";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");
const nullableString = z.string().nullish();

/** The header a personal access token's create names its service account by (decided: docs/service.md R21.2). */
export const SERVICE_ACCOUNT_HEADER = "X-Service-Account-Id";

/** A service account's membership of one workspace (`ServiceAccountWorkspaceAssignment`). */
export const ServiceAccountWorkspaceSchema = z.object({ workspace_id: uuid, role_id: uuid.nullish() }).strict();

/** POST /api/v1/service-accounts body (`ServiceAccountCreateRequest`). */
export const ServiceAccountCreateRequestSchema = z
    .object({
        // Any string, as the description has it (a blank one is the emulator's 400, in words: tokenRoutes.ts).
        name: z.string(),
        workspaces: z.array(ServiceAccountWorkspaceSchema).default([]),
    })
    .strict();
export type ServiceAccountCreateRequest = z.input<typeof ServiceAccountCreateRequestSchema>;

/** A service account as listed and deleted (`ServiceAccount`); the create's answer adds `organization_identity_id`. */
export const ServiceAccountSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        organization_id: z.string(),
        default_workspace_id: nullableString,
        created_at: z.string(),
        updated_at: z.string(),
        organization_identity_id: z.string().optional(),
    })
    .passthrough();
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

/** POST body of a personal access token or a workspace API key (`APIKeyCreateRequest`). */
export const ApiKeyCreateRequestSchema = z
    .object({
        // Any string, as the description has it; the resources refuse a blank one at preview.
        description: z.string().default("Default API key"),
        read_only: z.boolean().nullish(),
        expires_at: nullableString,
        workspaces: z.array(uuid).nullish(),
        role_id: uuid.nullish(),
        org_role_id: uuid.nullish(),
        default_workspace_id: uuid.nullish(),
    })
    .strict();
export type ApiKeyCreateRequest = z.input<typeof ApiKeyCreateRequestSchema>;

/** A token as listed (`APIKeyGetResponse`); the create's answer adds `key`, shown that once. */
export const ApiKeySchema = z
    .object({
        id: z.string(),
        description: z.string(),
        short_key: z.string(),
        created_at: nullableString,
        last_used_at: nullableString,
        expires_at: nullableString,
        workspace_names: z.array(z.string()).nullish(),
        default_workspace_name: nullableString,
        key: z.string().optional(),
    })
    .passthrough();
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** POST and PATCH body of a SCIM token: its description only. */
export const ScimTokenRequestSchema = z.object({ description: z.string().optional() }).strict();
export type ScimTokenRequest = z.infer<typeof ScimTokenRequestSchema>;

/** A SCIM token as listed (`scim.ScimTokenResponse`); the create's answer (`scim.ScimTokenSensitiveResponse`) adds `token`. */
export const ScimTokenSchema = z
    .object({
        id: z.string(),
        description: z.string().optional(),
        short_token: z.string().optional(),
        created_at: z.string().optional(),
        updated_at: z.string().optional(),
        last_used_at: z.string().optional(),
        token: z.string().optional(),
    })
    .passthrough();
export type ScimToken = z.infer<typeof ScimTokenSchema>;
