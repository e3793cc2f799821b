/**
 * The wire contract of the workspace's platform objects (docs/service.md R18): tools of the platform registry
 * (`/v1/platform/tools`: `tools.CreateToolPayload`, `tools.UpdateToolPayload`, `tools.Tool`), Fleet MCP servers
 * (`/v1/platform/fleet/mcp-servers`: `CreateMcpServerPayload`, `UpdateMcpServerPayload`, `McpServer`) and the
 * features' models (`/v1/platform/features[/{feature}/default-model|disabled-models]`). Requests are strict (the
 * emulator refuses what they do not say); answers tolerant of fields this provider does not read.
 */
import { z } from "zod";

/** A tool's handle (decided: docs/service.md R18.1): lower-case letters, digits, `-` and `_`, 1 to 64, starting with a letter or digit. */
export const TOOL_HANDLE_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const JsonObject = z.record(z.string(), z.unknown());

export const ToolCreateRequestSchema = z
    .object({
        handle: z.string(),
        name: z.string().min(1),
        description: z.string(),
        parameters: JsonObject,
        returns: JsonObject.optional(),
        metadata: JsonObject.optional(),
        enabled: z.boolean().optional(),
    })
    .strict();
export type ToolCreateRequest = z.infer<typeof ToolCreateRequestSchema>;

/** PATCH a tool: absent fields stay; the handle is fixed. */
export const ToolUpdateRequestSchema = ToolCreateRequestSchema.omit({ handle: true }).partial().strict();
export type ToolUpdateRequest = z.infer<typeof ToolUpdateRequestSchema>;

export const ToolSchema = z
    .object({
        id: z.string(),
        handle: z.string(),
        name: z.string(),
        description: z.string().nullish(),
        parameters: JsonObject.nullish(),
        returns: JsonObject.nullish(),
        metadata: JsonObject.nullish(),
        enabled: z.boolean().nullish(),
        tenant_id: z.string().nullish(),
        created_at: z.string().nullish(),
        updated_at: z.string().nullish(),
    })
    .passthrough();
export type Tool = z.infer<typeof ToolSchema>;

export const ToolListSchema = z.object({ tools: z.array(ToolSchema).nullish(), total: z.number().nullish(), next_offset: z.number().nullish() }).passthrough();

export const MCP_AUTH_TYPES = ["headers", "oauth"] as const;
export const MCP_OAUTH_MODES = ["legacy_shared_provider", "per_user_dynamic_client"] as const;

/** One header of a server, on the wire (decided: docs/service.md R18.2): its name and value; the answers name it only. */
export const McpHeaderSchema = z.object({ name: z.string().min(1), value: z.string() });
export type McpHeader = z.infer<typeof McpHeaderSchema>;

export const McpServerCreateRequestSchema = z
    .object({
        name: z.string().min(1),
        url: z.string().min(1),
        auth_type: z.enum(MCP_AUTH_TYPES).optional(),
        headers: z.array(McpHeaderSchema).optional(),
        oauth_mode: z.enum(MCP_OAUTH_MODES).optional(),
        oauth_provider_id: z.string().optional(),
        vendor_id: z.string().optional(),
        external_system_id: z.string().optional(),
    })
    .strict();
export type McpServerCreateRequest = z.infer<typeof McpServerCreateRequestSchema>;

/** PATCH a server: the URL, the auth type, the headers (the whole list) and the OAuth provider; absent fields stay. */
export const McpServerUpdateRequestSchema = McpServerCreateRequestSchema.pick({ url: true, auth_type: true, headers: true, oauth_provider_id: true })
    .partial()
    .strict();
export type McpServerUpdateRequest = z.infer<typeof McpServerUpdateRequestSchema>;

export const McpServerSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        url: z.string().nullish(),
        auth_type: z.string().nullish(),
        headers: z.array(z.record(z.string(), z.unknown())).nullish(),
        oauth_mode: z.string().nullish(),
        oauth_provider_id: z.string().nullish(),
        vendor_id: z.string().nullish(),
        mcp_vendor_id: z.string().nullish(),
        external_system_id: z.string().nullish(),
        can_invoke: z.boolean().nullish(),
        tenant_id: z.string().nullish(),
        created_at: z.string().nullish(),
        updated_at: z.string().nullish(),
    })
    .passthrough();
export type McpServer = z.infer<typeof McpServerSchema>;

export const RegisterOAuthProviderRequestSchema = z.object({ ls_user_id: z.string().min(1) }).strict();
export const RegisterOAuthProviderResponseSchema = z.object({ oauth_provider_id: z.string() }).passthrough();

/** The features whose model a workspace chooses (decided: docs/service.md R18.3, from the model-configurations page). */
export const MODEL_FEATURES = ["playground", "evaluators", "fleet", "polly", "insights_thinking", "insights_summarization"] as const;

export const ModelRequestSchema = z.object({ model: z.string().min(1) }).strict();

export const FeatureConfigSchema = z
    .object({ feature: z.string(), default_model: z.string().nullish(), disabled_models: z.array(z.string()).nullish() })
    .passthrough();
export type FeatureConfig = z.infer<typeof FeatureConfigSchema>;
