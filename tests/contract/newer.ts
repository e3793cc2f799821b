/**
 * What the service does that is newer than its descriptions (descriptions/, May 2026), each with the public
 * material that says so (docs/service.md cites the same): operations our clients may call although the
 * description lacks them, and statuses an operation of the description now answers. The contract check
 * (check.ts) takes these as known, and nothing else: a request to any other undescribed operation is a violation.
 */

export interface NewerOperation {
    method: string;
    /** The path, `{name}` for a segment. */
    path: string;
    why: string;
}

export const NEWER_OPERATIONS: readonly NewerOperation[] = [
    {
        method: "POST",
        path: "/gateway/{provider}/v1/chat/completions",
        why: "the LLM gateway's OpenAI-compatible chat completion (docs/service.md R19.2): a host of its own on the service (gateway.smith.langchain.com/{provider}/v1), under /gateway on the emulator; GatewayPolicyCheck sends it",
    },
    { method: "POST", path: "/v2/listeners", why: "listeners of hybrid installations (docs/service.md R12): real-service-notes §9, the official clients" },
    { method: "GET", path: "/v2/listeners", why: "listeners (docs/service.md R12)" },
    { method: "GET", path: "/v2/listeners/{listener_id}", why: "listeners (docs/service.md R12)" },
    { method: "PATCH", path: "/v2/listeners/{listener_id}", why: "a listener's namespaces changed: decided (docs/service.md R12), as the rest of /v2" },
    { method: "DELETE", path: "/v2/listeners/{listener_id}", why: "a listener deleted: decided (docs/service.md R12), as the rest of /v2" },
    {
        method: "PUT",
        path: "/api/v1/workspaces/current/secrets/{key}",
        why: "per-key secret writes (docs/service.md R7.6): the service's docs and official clients, autumn 2026; installations without it take the POST upsert",
    },
    {
        method: "DELETE",
        path: "/api/v1/workspaces/current/secrets/{key}",
        why: "per-key secret deletes (docs/service.md R7.6), beside the POST upsert with a null value",
    },
    {
        method: "PATCH",
        path: "/api/v1/workspaces/current/members/{identity_id}/pending",
        why: "a pending invitation's role changed in place (docs/service.md R7.5), autumn 2026",
    },
    {
        method: "PATCH",
        path: "/api/v1/orgs/current/service-keys/{key_id}",
        why: "a service key's roles changed in place (docs/service.md R7), as the official Terraform provider's service_key resource does",
    },
    {
        method: "DELETE",
        path: "/api/v1/bulk-exports/destinations/{destination_id}",
        why: "destination deletes (docs/service.md 3.1), late September 2026",
    },
    {
        method: "POST",
        path: "/v2/deployments/{deployment_id}/revisions",
        why: "a revision made by its own POST, as the official Terraform provider does (docs/service.md 2.9); the description makes them by PATCH",
    },
    {
        method: "PATCH",
        path: "/api/v1/platform/orgs/current/access-policies/{id}",
        why: "an access policy changed in place (docs/service.md R13.8): the description has its GET and DELETE, not its PATCH; real-service-notes §9",
    },
    {
        method: "GET",
        path: "/api/v1/platform/orgs/current/roles/{role_id}/access-policies",
        why: "an access policy attached to a role (docs/service.md R13.8, decided: the attachment path appears in two shapes in public sources)",
    },
    {
        method: "DELETE",
        path: "/api/v1/platform/orgs/current/roles/{role_id}/access-policies/{id}",
        why: "an access policy attached to a role (docs/service.md R13.8, decided: the attachment path appears in two shapes in public sources)",
    },
    {
        method: "GET",
        path: "/api/v1/orgs/current/data-planes/{data_plane_id}",
        why: "a data plane read by id (docs/service.md R17.1, decided): real-service-notes §9 lists `/api/v1/orgs/current/data-planes[/{id}]`; the description has the collection only",
    },
    {
        method: "DELETE",
        path: "/api/v1/orgs/current/data-planes/{data_plane_id}",
        why: "a data plane deleted (docs/service.md R17.1, decided): real-service-notes §9 (deletable only when active or failed)",
    },
];

/**
 * Fields and values newer than the description, in the operations it has: a violation of `side` whose message
 * matches, in one of `operations` (`METHOD template`), is the service being newer, not the emulator or a client wrong.
 */
export interface NewerField {
    operations: readonly string[];
    side: "request" | "answer";
    message: RegExp;
    why: string;
}

const EXPORTS = [
    "POST /api/v1/bulk-exports",
    "GET /api/v1/bulk-exports",
    "GET /api/v1/bulk-exports/{bulk_export_id}",
    "PATCH /api/v1/bulk-exports/{bulk_export_id}",
];
const DEPLOYMENTS = ["POST /v2/deployments", "GET /v2/deployments", "GET /v2/deployments/{deployment_id}", "PATCH /v2/deployments/{deployment_id}"];

export const NEWER_FIELDS: readonly NewerField[] = [
    {
        operations: EXPORTS,
        side: "request",
        message: /^body \/: must have required property 'session_id'$/,
        why: "an export of every experiment sends `all_experiments: true` and no `session_id` (docs/service.md R5)",
    },
    {
        operations: EXPORTS,
        side: "answer",
        message: /^answer (\/\d+)?\/session_id: must be string, got null$/,
        why: "an export of every experiment names no session (docs/service.md R5)",
    },
    {
        operations: DEPLOYMENTS,
        side: "request",
        message: /\/source_config\/deployment_type: must be (equal to one of the allowed values|null), got "(dev_zero|dev_free_zero|serverless)"$/,
        why: "deployment types newer than the description's three (docs/service.md R2: an open set)",
    },
    {
        operations: DEPLOYMENTS,
        side: "answer",
        message: /\/source_config\/deployment_type: must be (equal to one of the allowed values|null), got "(dev_zero|dev_free_zero|serverless)"$/,
        why: "deployment types newer than the description's three (docs/service.md R2: an open set)",
    },
];

/** Statuses newer than the description, by `METHOD template` of the description's operation. */
export const NEWER_STATUSES: Readonly<Record<string, { statuses: number[]; why: string }>> = {
    "DELETE /api/v1/sessions/{session_id}": {
        statuses: [202],
        why: "a tracing project's delete is accepted and finishes later (docs/service.md R5), newer than May 2026",
    },
};

const compiled = NEWER_OPERATIONS.map((n) => ({
    ...n,
    pattern: new RegExp(`^${n.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/** The listed newer operation `method path` targets, if any (the path as sent, or under `/api/v1`). */
export function newerOperation(method: string, path: string): NewerOperation | undefined {
    return compiled.find((n) => n.method === method && (n.pattern.test(path) || n.pattern.test(`/api/v1${path}`)));
}

/** The listed newer field a violation is, if any. */
export function newerField(operation: string, side: "request" | "answer", message: string): NewerField | undefined {
    return NEWER_FIELDS.find((n) => n.side === side && n.operations.includes(operation) && n.message.test(message));
}

export function newerStatus(operationKey: string, status: number): boolean {
    return NEWER_STATUSES[operationKey]?.statuses.includes(status) ?? false;
}
