/**
 * The Workspace, declared once (kit/declare.ts): a LangSmith workspace of the organization (docs/service.md
 * R7), what deployments, tracing projects, datasets and exports live in (their `workspaceId`). Made, renamed
 * and deleted with an organization-scoped API key. Its handle is fixed at creation. The service keeps no
 * description of a workspace, so none is offered: it could never be read back. provider.ts holds what a table
 * cannot say.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const workspace = resource({
    name: "Workspace",
    description:
        "A LangSmith workspace of the organization: what deployments, tracing projects, datasets and exports live in (give its `id` as their `workspaceId`). Needs an organization-scoped API key. Renamed in place; its handle is fixed at creation; `pulumi destroy` deletes it once it holds nothing (the service refuses before, naming what it holds).",
    inputs: {
        displayName: string(
            "The workspace's name, as the UI shows it. Renamed in place. A name another workspace of the organization has is refused at creation.",
            {
                required: true,
                onChange: "update",
            },
        ),
        tenantHandle: string("A short handle for the workspace (URLs of the UI). Fixed at creation: a change replaces the workspace.", {
            onChange: "replace",
        }),
    },
    outputs: {
        organizationId: string("The organization that holds it.", { stable: true, nullable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type WorkspaceInputs = Inputs<typeof workspace>;
export type WorkspaceOutputs = Outputs<typeof workspace>;
