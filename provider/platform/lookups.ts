/**
 * The platform's look-ups (docs/functions.md): `getTool`, a tool of the workspace's registry by handle or id, and
 * `getMcpServer`, a Fleet MCP server by name or id, for programs that name what another stack or the UI made. A
 * server's URL, header values and OAuth provider are secrets (docs/service.md R18.2): the look-up answers none of them,
 * only the header names. Nothing is changed.
 */
import type { PlatformClient } from "../api/platform";
import { oneOf } from "../kit/check";
import { any, boolean, list, lookup, map, string, type FunctionInputs, type FunctionResult } from "../kit/declare";
import { lookupWorkspaceIdField } from "../kit/workspace";
import { inputsOf as mcpInputsOf } from "./mcpServer/provider";
import { inputsOf as toolInputsOf } from "./tool/provider";

export const getToolFunction = lookup({
    name: "getTool",
    description: "Looks up a tool of the workspace's platform tool registry by its handle or its id (one of them). Fails naming it when there is none.",
    args: { handle: string("The tool's handle (`search-orders`)."), id: string("The tool's id."), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The tool's id.", { required: true }),
        handle: string("Its handle.", { required: true }),
        name: string("Its name.", { required: true }),
        description: string("What it does.", { required: true }),
        parameters: map("The JSON schema of its arguments.", any("A JSON-schema keyword's value."), { required: true }),
        returns: map("The JSON schema of what it returns, if said.", any("A JSON-schema keyword's value.")),
        metadata: map("Its metadata.", any("A value.")),
        enabled: boolean("Whether agents may call it.", { required: true }),
        createdAt: string("When it was made."),
    },
});

export type GetToolArgs = FunctionInputs<typeof getToolFunction>;
export type GetToolResult = FunctionResult<typeof getToolFunction>;

export async function getTool(pc: PlatformClient, args: GetToolArgs): Promise<GetToolResult> {
    const { by, value } = oneOf("getTool", args, "handle", "id");
    const t = by === "id" ? await pc.tryTool(value) : await pc.toolByHandle(value);
    if (!t) throw new Error(`getTool: the workspace's tool registry holds no tool ${by === "id" ? "of id" : "of handle"} ${JSON.stringify(value)}`);
    const { workspaceId: _, ...read } = toolInputsOf(t);
    return { id: t.id, ...read, createdAt: t.created_at ?? undefined };
}

export const getMcpServerFunction = lookup({
    name: "getMcpServer",
    description:
        "Looks up a Fleet MCP server of the workspace by its name or its id (one of them). Its URL, header values and OAuth provider are secrets and are not answered; its header names are. Fails naming it when there is none.",
    args: { name: string("The server's name (`orders-mcp`)."), id: string("The server's id."), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The server's id.", { required: true }),
        name: string("Its name.", { required: true }),
        authType: string("`headers` or `oauth`.", { required: true }),
        oauthMode: string("With `oauth`: `legacy_shared_provider` or `per_user_dynamic_client`."),
        headerNames: list("The names of the headers sent to it (their values are secrets, never answered).", string("A header's name."), { required: true }),
        vendorId: string("The MCP vendor it is an instance of, if any."),
        externalSystemId: string("The external system it stands for, if any."),
        canInvoke: boolean("Whether the API key's identity may call it now (an OAuth server with a per-user client: once that user registered one)."),
        createdAt: string("When it was registered."),
    },
});

export type GetMcpServerArgs = FunctionInputs<typeof getMcpServerFunction>;
export type GetMcpServerResult = FunctionResult<typeof getMcpServerFunction>;

export async function getMcpServer(pc: PlatformClient, args: GetMcpServerArgs): Promise<GetMcpServerResult> {
    const { by, value } = oneOf("getMcpServer", args, "name", "id");
    const s = by === "id" ? await pc.tryMcpServer(value) : await pc.mcpServerByName(value);
    if (!s) throw new Error(`getMcpServer: the workspace holds no MCP server ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    const i = mcpInputsOf(s);
    return {
        id: s.id,
        name: s.name,
        authType: i.authType,
        oauthMode: i.oauthMode,
        headerNames: Object.keys(i.headers ?? {}),
        vendorId: i.vendorId,
        externalSystemId: i.externalSystemId,
        canInvoke: s.can_invoke ?? undefined,
        createdAt: s.created_at ?? undefined,
    };
}
