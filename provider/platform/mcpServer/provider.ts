/**
 * The McpServer's dynamic provider (its fields: declare.ts). Refused at preview, naming the field: a URL that is not
 * https (http only for localhost), headers with `authType` `oauth`, an OAuth server without `oauthMode`, a shared
 * provider without `oauthProviderId`, a header named twice (docs/service.md R18.2). A create beside a server of the
 * same name (the service's 409) is refused with its id unless LANGSMITH_ADOPT_IDS names it. A change of the URL,
 * headers or OAuth provider is one PATCH (the service's rotation; the server keeps its id). Refresh compares what the
 * service answers: the URL, the auth type, the OAuth mode and provider, and the header names; it cannot see header
 * values (never answered), so the state's are kept while the names agree. No secret is ever in an error or a log:
 * the client scrubs them (api/platform.ts) and the messages here name fields, never values.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConflictError } from "../../api/errors";
import type { PlatformClient } from "../../api/platform";
import type { McpHeader, McpServer, McpServerCreateRequest, McpServerUpdateRequest } from "../../api/schemas/platform";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { isObject } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, mcpServer, type McpServerInputs, type McpServerOutputs } from "./declare";

export const MCP_SERVER_DIFF = diffTableOf(mcpServer.inputs);

const LOCAL = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/;

/** Whether `url` is one the service takes: https, or http on this machine. Never says the URL (a secret). */
export const serviceTakesUrl = (url: string): boolean => {
    try {
        return new URL(url).protocol === "https:" || LOCAL.test(url);
    } catch {
        return false;
    }
};

export function checkMcpServer(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("McpServer", mcpServer.inputs, news);
    const url = news.url;
    if (typeof url === "string" && known(url) && url !== "" && !serviceTakesUrl(url))
        c.fail("url", "url must be an https URL (http only for localhost): the service refuses any other (the value is a secret, so it is not shown here)");
    const auth = news.authType ?? "headers";
    const headers = isObject(news.headers) ? Object.keys(news.headers) : [];
    if (auth === "oauth" && headers.length)
        c.fail("headers", 'headers apply only to authType "headers": an OAuth server authenticates through its OAuth provider');
    if (auth === "oauth" && news.oauthMode === undefined)
        c.fail("oauthMode", 'oauthMode is required with authType "oauth": legacy_shared_provider (with oauthProviderId) or per_user_dynamic_client');
    if (auth === "oauth" && news.oauthMode === "legacy_shared_provider" && news.oauthProviderId === undefined)
        c.fail("oauthProviderId", 'oauthProviderId is required with oauthMode "legacy_shared_provider": the provider holding the server\'s client credentials');
    if (auth === "headers" && news.oauthMode !== undefined) c.fail("oauthMode", 'oauthMode applies only to authType "oauth"');
    const lower = headers.map((h) => h.toLowerCase());
    const twice = headers.find((h, i) => lower.indexOf(h.toLowerCase()) !== i);
    if (twice !== undefined) c.fail(`headers.${twice}`, `headers name ${twice} twice (header names are compared without case): keep one`);
    return c.done(inputs);
}

export function createMcpServerProvider(o: { platform?: () => PlatformClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const platform = o.platform ?? (() => service.platform());
    const provider: ProviderOf<typeof mcpServer> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkMcpServer(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(MCP_SERVER_DIFF, olds, news);
        },
        async create(inputs) {
            const pc = platform();
            const held = await pc.mcpServerByName(inputs.name);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            const s = held
                ? await pc.updateMcpServer(held.id, changes(inputs))
                : await pc.createMcpServer(createBody(inputs)).catch(async (e: unknown) => {
                      const now = e instanceof ConflictError ? await pc.mcpServerByName(inputs.name) : undefined;
                      throw now ? new Error(refusal(inputs, now)) : e;
                  });
            return { id: s.id, outs: outputs(inputs, s) };
        },
        async read(id, props) {
            const s = await platform().tryMcpServer(id);
            if (!s) return {};
            const inputs = prune({ ...inputsOf(s, props?.headers), workspaceId: props?.workspaceId }) as McpServerInputs;
            return { id, props: outputs(inputs, s), inputs };
        },
        async update(id, _olds, news) {
            return { outs: outputs(news, await platform().updateMcpServer(id, changes(news))) };
        },
        async delete(id) {
            await platform().deleteMcpServer(id);
        },
    };
    return provider;
}

function refusal(i: McpServerInputs, held: McpServer): string {
    return alreadyExistsMessage({
        what: `McpServer: the workspace already holds MCP server ${held.id} named ${JSON.stringify(i.name)}`,
        existing: "server names are unique in a workspace (the service answers 409)",
        id: held.id,
        ifTheirs: "give this one another name",
        why: "the service keeps no mark of which stack registered a server.",
    });
}

const headerList = (h: Record<string, string> | undefined): McpHeader[] => Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

function createBody(i: McpServerInputs): McpServerCreateRequest {
    return prune({
        name: i.name,
        url: i.url,
        auth_type: i.authType,
        headers: i.authType === "headers" ? headerList(i.headers) : undefined,
        oauth_mode: i.oauthMode,
        oauth_provider_id: i.oauthProviderId,
        vendor_id: i.vendorId,
        external_system_id: i.externalSystemId,
    }) as McpServerCreateRequest;
}

/** What a PATCH sets, whole: the URL, the auth type, every header (none: cleared), the OAuth provider. */
function changes(i: McpServerInputs): McpServerUpdateRequest {
    return prune({
        url: i.url,
        auth_type: i.authType,
        headers: i.authType === "headers" ? headerList(i.headers) : [],
        oauth_provider_id: i.oauthProviderId,
    });
}

/**
 * The inputs as the service says them (refresh, import, getMcpServer). Header values are never answered: while the
 * service's header names are the recorded ones, the recorded values stand; a header the state does not hold reads
 * `""` (shown as a change, which the next `up` puts back).
 */
export function inputsOf(s: McpServer, recorded?: Record<string, string>): McpServerInputs {
    const names = (s.headers ?? []).map((h) => String(h.name ?? h.key ?? "")).filter((n) => n !== "");
    return prune({
        name: s.name,
        url: s.url ?? "",
        headers: names.length ? Object.fromEntries(names.map((n) => [n, recorded?.[n] ?? ""])) : undefined,
        authType: (s.auth_type ?? "headers") as McpServerInputs["authType"],
        oauthMode: (s.oauth_mode ?? undefined) as McpServerInputs["oauthMode"],
        oauthProviderId: s.oauth_provider_id || undefined,
        vendorId: s.vendor_id || undefined,
        externalSystemId: s.external_system_id || undefined,
    }) as McpServerInputs;
}

function outputs(i: McpServerInputs, s: McpServer): McpServerOutputs {
    return { ...i, createdAt: s.created_at ?? "", schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const mcpServerProvider = inItsWorkspace(createMcpServerProvider());
