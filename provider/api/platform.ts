/**
 * The workspace's platform objects (docs/service.md R18): tools of the platform registry (by handle and by id), Fleet
 * MCP servers and the features' models, under `/api/v1/platform/...` with `X-API-Key` and `X-Tenant-Id`. Every
 * create is sent once: a lost answer is looked up by what the object is known by (a tool's handle, a server's name)
 * instead of sending it again. A server's URL, header values and OAuth provider are secrets: never in an error.
 */
import { z } from "zod";
import type { HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    FeatureConfigSchema,
    McpServerSchema,
    RegisterOAuthProviderResponseSchema,
    ToolListSchema,
    ToolSchema,
    type FeatureConfig,
    type McpServer,
    type McpServerCreateRequest,
    type McpServerUpdateRequest,
    type Tool,
    type ToolCreateRequest,
    type ToolUpdateRequest,
} from "./schemas/platform";
import { TracingApiClient, at, tracingHttp } from "./tracingApi";

const TOOLS = "/api/v1/platform/tools";
const SERVERS = "/api/v1/platform/fleet/mcp-servers";
const FEATURES = "/api/v1/platform/features";
const Nothing = z.unknown();
/** The most tools one list page answers (the description's limit). */
const PAGE = 100;

/** The secret values a server's body holds: its URL, its header values and its OAuth provider. */
const secretsOf = (b: McpServerUpdateRequest): string[] =>
    [b.url, b.oauth_provider_id, ...(b.headers ?? []).map((h) => h.value)].filter((s): s is string => !!s);

export class PlatformClient extends TracingApiClient {
    /** A client of the API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): PlatformClient {
        return new PlatformClient(tracingHttp(o));
    }

    /** The workspace's tools whose handle or name holds `query` (every tool without one), page by page. */
    async tools(query?: string): Promise<Tool[]> {
        const all: Tool[] = [];
        for (let offset = 0; ; offset += PAGE) {
            const page = await this.get(TOOLS, ToolListSchema, { limit: String(PAGE), offset: String(offset), ...(query ? { query } : {}) });
            all.push(...(page.tools ?? []));
            if (page.next_offset == null || !page.tools?.length) return all;
        }
    }

    /** The tool of handle `handle`, if the workspace holds one. */
    toolByHandle(handle: string): Promise<Tool | undefined> {
        return this.get(at(TOOLS, handle), ToolSchema).catch(undefinedOn404);
    }

    tryTool(id: string): Promise<Tool | undefined> {
        return this.get(at(TOOLS, "id", id), ToolSchema).catch(undefinedOn404);
    }

    /** Makes a tool; a 409 (the handle taken) is the caller's to word, unless the create's own first answer was lost. */
    async createTool(body: ToolCreateRequest): Promise<Tool> {
        const { value } = await createOnce(
            () => this.send("POST", TOOLS, body, ToolSchema),
            () => this.toolByHandle(body.handle),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    updateTool(id: string, body: ToolUpdateRequest): Promise<Tool> {
        return this.send("PATCH", at(TOOLS, "id", id), body, ToolSchema, { idempotent: true });
    }

    deleteTool(id: string): Promise<void> {
        return this.remove(at(TOOLS, "id", id));
    }

    /** The workspace's MCP servers (`can_invoke` as the key sees it: the list's `X-Ls-User-Id` is not sent). */
    mcpServers(): Promise<McpServer[]> {
        return this.get(SERVERS, z.array(McpServerSchema));
    }

    tryMcpServer(id: string): Promise<McpServer | undefined> {
        return this.get(at(SERVERS, id), McpServerSchema).catch(undefinedOn404);
    }

    async mcpServerByName(name: string): Promise<McpServer | undefined> {
        return (await this.mcpServers()).find((s) => s.name === name);
    }

    private sendSecret(method: string, p: string, body: McpServerUpdateRequest, o: { idempotent?: boolean } = {}): Promise<McpServer> {
        const secrets = secretsOf(body);
        return this.http.request(method, p, { body, schema: McpServerSchema, expect: [200, 201], deadline: this.deadline, secrets, ...o }).then((r) => r.data);
    }

    async createMcpServer(body: McpServerCreateRequest): Promise<McpServer> {
        const { value } = await createOnce(
            () => this.sendSecret("POST", SERVERS, body),
            () => this.mcpServerByName(body.name),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    /** Changes a server in place: a new URL, headers or OAuth provider is the service's rotation of its credentials. */
    updateMcpServer(id: string, body: McpServerUpdateRequest): Promise<McpServer> {
        return this.sendSecret("PATCH", at(SERVERS, id), body, { idempotent: true });
    }

    deleteMcpServer(id: string): Promise<void> {
        return this.remove(at(SERVERS, id));
    }

    /** Registers user `userId`'s own OAuth client of a `per_user_dynamic_client` server: its id. */
    async registerOAuthUser(id: string, userId: string): Promise<string> {
        return (await this.send("POST", at(SERVERS, id, "oauth-provider"), { ls_user_id: userId }, RegisterOAuthProviderResponseSchema)).oauth_provider_id;
    }

    /** Every feature's models in the workspace. */
    features(): Promise<FeatureConfig[]> {
        return this.get(FEATURES, z.array(FeatureConfigSchema));
    }

    async feature(feature: string): Promise<FeatureConfig | undefined> {
        return (await this.features()).find((f) => f.feature === feature);
    }

    /** A PUT of `{model}` (a feature's default, or a model it may not use), answered 204. */
    private async putModel(p: string, model: string): Promise<void> {
        await this.http.request("PUT", p, { body: { model }, schema: Nothing, expect: [200, 204], deadline: this.deadline, idempotent: true });
    }

    setDefaultModel(feature: string, model: string): Promise<void> {
        return this.putModel(at(FEATURES, feature, "default-model"), model);
    }

    /** Puts the service's own default model back. */
    async deleteDefaultModel(feature: string): Promise<void> {
        await this.remove(at(FEATURES, feature, "default-model"));
    }

    disableModel(feature: string, model: string): Promise<void> {
        return this.putModel(at(FEATURES, feature, "disabled-models"), model);
    }

    async enableModel(feature: string, model: string): Promise<void> {
        await this.remove(at(FEATURES, feature, "disabled-models", model));
    }
}
