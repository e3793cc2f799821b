/**
 * The McpServer, declared once (kit/declare.ts): a remote MCP server registered in the workspace's Fleet
 * (docs/service.md R18.2). Its URL, its headers and its OAuth provider are secrets: never in plain text in the state,
 * an output, a log or an error. A change of them is the service's rotation (a PATCH of the server, in place, never a
 * replace); its name, OAuth mode, vendor and external system are fixed at creation (a change replaces it).
 */
import { MCP_AUTH_TYPES, MCP_OAUTH_MODES } from "../../api/schemas/platform";
import { map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const fixed = "Fixed at creation: a change replaces the server.";
const rotated = "Secret. A change is sent to the service in place (its rotation of the server's credentials), never a replace.";

export const mcpServer = resource({
    name: "McpServer",
    description:
        "A remote MCP server registered in the workspace's Fleet, its tools offered to the workspace's agents. Its URL, headers and OAuth provider are secrets (never in plain text in the state or a log); changing them rotates the server's credentials in place. Refresh sees the name, URL, auth type, OAuth mode and provider and the header names; header values the service does not answer cannot be compared.",
    inputs: {
        name: string(`The server's name, unique in the workspace (\`orders-mcp\`). ${fixed}`, { required: true, onChange: "replace" }),
        url: string(`The server's URL (\`https://mcp.example.com/mcp\`), https (http only for localhost). ${rotated}`, {
            required: true,
            secret: true,
            onChange: "update",
        }),
        headers: map(
            `Headers sent with every request to the server, by name (\`{Authorization: "Bearer ..."}\`); only with \`authType\` \`headers\`. Their values are secrets. ${rotated}`,
            string("A header's value.", { required: true, neverReturned: "header values" }),
            { secret: true, onChange: "update" },
        ),
        authType: string(
            "How the server is authenticated: `headers` (the `headers` above) or `oauth` (an OAuth provider). Default `headers`. Changed in place.",
            {
                values: MCP_AUTH_TYPES,
                default: "headers",
                onChange: "update",
            },
        ),
        oauthMode: string(
            `With \`authType\` \`oauth\`: \`legacy_shared_provider\` (one provider, \`oauthProviderId\`, for every user) or \`per_user_dynamic_client\` (each user registers their own). ${fixed}`,
            { values: MCP_OAUTH_MODES, onChange: "replace" },
        ),
        oauthProviderId: string(`With \`authType\` \`oauth\`: the OAuth provider holding the server's client credentials. ${rotated}`, {
            secret: true,
            onChange: "update",
        }),
        vendorId: string(`The MCP vendor it is an instance of, if any. ${fixed}`, { onChange: "replace" }),
        externalSystemId: string(`The external system it stands for, if any. ${fixed}`, { onChange: "replace" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was registered.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type McpServerInputs = Inputs<typeof mcpServer>;
export type McpServerOutputs = Outputs<typeof mcpServer>;
