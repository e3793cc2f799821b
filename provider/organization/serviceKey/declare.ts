/**
 * The ServiceKey, declared once (kit/declare.ts): an organization's service key (docs/service.md R7 "Service
 * keys"), the `lsv2_sk_...` API key CI and other stacks authenticate with. Its description, scope (the
 * organization, or `workspaceIds`) and expiry are fixed at creation: a change makes a new key, created before
 * the old one is deleted (a rotation). Its roles change in place. The secret `key` is shown once by the
 * service, in the create's answer: it is a secret output, kept encrypted in the state. provider.ts holds what a
 * table cannot say (roles by name, the lost answer, the identical key).
 */
import { asSet, instant } from "../../kit/diff";
import { list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { UNKNOWN } from "../../kit/unknown";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** Whether a key's inputs make it organization-scoped: no `workspaceIds` (a list not known yet may be empty: it passes until known). */
export const organizationScoped = (i: Record<string, unknown>): boolean =>
    i.workspaceIds === UNKNOWN || !Array.isArray(i.workspaceIds) || i.workspaceIds.length === 0;

/** A list of ids as the set it is (sorted, lower case): the service keeps no order and no duplicate. */
export const serviceKey = resource({
    name: "ServiceKey",
    description:
        "A LangSmith service key (`lsv2_sk_...`): an API key of the organization for CI and other programs, scoped to the organization or to some workspaces. The key is the secret output `key`, shown once by the service and kept encrypted in the state. A change of `description`, `workspaceIds` or `expiresAt` makes a new key, created before the old one is deleted (a rotation); the roles change in place.",
    inputs: {
        description: string("What the key is for (`ci-deploy`). Shown in LangSmith's list of keys. A change makes a new key (a rotation).", {
            required: true,
            onChange: "replace",
        }),
        workspaceIds: list(
            "The workspaces (ids) the key may act in: a workspace-scoped key. Left out, the key is organization-scoped (every workspace, and `orgRoleId` in the organization). A change makes a new key.",
            string("A workspace id (a uuid)."),
            { onChange: "replace", compareAs: asSet({ unique: true, caseless: true }) },
        ),
        roleId: string(
            "The key's workspace role: a role's id (a uuid: a custom role's), or a built-in role's name, `WORKSPACE_ADMIN` (the default), `WORKSPACE_USER` (Editor) or `WORKSPACE_VIEWER`. Changed in place.",
            { default: "WORKSPACE_ADMIN", onChange: "update" },
        ),
        orgRoleId: string(
            "The key's organization role, for an organization-scoped key only: a role's id, or `ORGANIZATION_ADMIN`, `ORGANIZATION_OPERATOR`, `ORGANIZATION_USER` (the default) or `ORGANIZATION_VIEWER`. Changed in place.",
            {
                default: "ORGANIZATION_USER",
                onChange: "update",
                appliesIf: { when: organizationScoped, to: "organization-scoped keys (without workspaceIds): a workspace-scoped key has no organization role" },
            },
        ),
        expiresAt: string(
            "When the key stops working: an ISO 8601 timestamp with a zone (`2027-01-01T00:00:00Z`), in the future. Left out, it never expires. A change makes a new key: set a later one to rotate.",
            { onChange: "replace", compareAs: instant },
        ),
    },
    outputs: {
        key: string(
            "The key itself (`lsv2_sk_...`), secret: what a program sends as `X-API-Key` / `LANGSMITH_API_KEY`. The service shows it once, at creation; a key taken in by `pulumi import` has none (empty) until it is rotated.",
            { secret: true, nullable: true, stable: true },
        ),
        shortKey: string("The key's redacted form (`lsv2_sk_...abcd`), as LangSmith's list of keys shows it.", { stable: true }),
        accessScope: string("`organization` or `workspace`.", { stable: true }),
        workspaceNames: list("The names of the workspaces of a workspace-scoped key, as the service answers them.", string("A workspace name."), {
            nullable: true,
            stable: true,
        }),
        createdAt: string("When it was made.", { nullable: true, stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ServiceKeyInputs = Inputs<typeof serviceKey>;
export type ServiceKeyOutputs = Outputs<typeof serviceKey>;
