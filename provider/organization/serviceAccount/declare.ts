/**
 * The ServiceAccount, declared once (kit/declare.ts): a non-human identity of the organization (docs/service.md
 * R21 "Service accounts"), made by `POST /api/v1/service-accounts` with its workspaces and their roles. The
 * service publishes no update: every change makes a new account. Its tokens are `PersonalAccessToken`s naming
 * it by `serviceAccountId`.
 */
import { list, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const assignment = object("ServiceAccountWorkspace", "A workspace the service account is a member of, with its role there.", {
    workspaceId: string("The workspace's id (a uuid).", { required: true }),
    roleId: string(
        "Its workspace role there: a role's id (a uuid: a custom role's), or `WORKSPACE_ADMIN`, `WORKSPACE_USER` (Editor, the default) or `WORKSPACE_VIEWER`.",
    ),
});

export const serviceAccount = resource({
    name: "ServiceAccount",
    description:
        "A LangSmith service account: a non-human identity of the organization, a member of some workspaces with a role in each. Its tokens are `PersonalAccessToken` resources naming it by `serviceAccountId`. The service has no update: a change of `name` or `workspaces` makes a new account (and new tokens).",
    inputs: {
        name: string("The account's name (`ci-bot`), not blank. A change makes a new account.", { required: true, onChange: "replace" }),
        workspaces: list("The workspaces it is a member of, each with its role. Left out, none. A change makes a new account.", assignment, {
            onChange: "replace",
        }),
    },
    outputs: {
        organizationId: string("The organization that holds it.", { stable: true }),
        organizationIdentityId: string("Its identity in the organization (as a member), as the create answers it.", { nullable: true, stable: true }),
        defaultWorkspaceId: string("Its default workspace, as the service answers it.", { nullable: true, stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ServiceAccountInputs = Inputs<typeof serviceAccount>;
export type ServiceAccountOutputs = Outputs<typeof serviceAccount>;
