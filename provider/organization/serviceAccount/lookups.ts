/**
 * `getServiceAccount`: a service account of the organization looked up by id or by its exact name (one of them;
 * docs/service.md R21.1), failing naming what it looked for when there is none, or when several share the name.
 * Nothing here changes anything on the service.
 */
import type { TokensClient } from "../../api/tokens";
import { oneOf } from "../../kit/check";
import { lookup, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";

export const getServiceAccountFunction = lookup({
    name: "getServiceAccount",
    description:
        "Looks up a service account of the organization by id or by its exact name (one of them); fails naming it when there is none. A `PersonalAccessToken`'s `serviceAccountId` takes its id.",
    args: { id: string("The account's id."), name: string("Its exact name.") },
    result: {
        id: string("The account's id.", { required: true }),
        name: string("Its name.", { required: true }),
        organizationId: string("The organization that holds it.", { required: true }),
        defaultWorkspaceId: string("Its default workspace, if any."),
        createdAt: string("When it was made.", { required: true }),
        updatedAt: string("When it last changed.", { required: true }),
    },
});

export async function getServiceAccount(
    tokens: TokensClient,
    args: FunctionInputs<typeof getServiceAccountFunction>,
): Promise<FunctionResult<typeof getServiceAccountFunction>> {
    const { by, value } = oneOf("getServiceAccount", args, "id", "name");
    const found = (await tokens.listServiceAccounts()).filter((a) => (by === "id" ? a.id.toLowerCase() === value.toLowerCase() : a.name === value));
    if (!found.length)
        throw new Error(`getServiceAccount: the organization has no service account ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    if (found.length > 1)
        throw new Error(
            `getServiceAccount: ${found.length} service accounts are named ${JSON.stringify(value)} (${found.map((a) => a.id).join(", ")}): look one up by id`,
        );
    const a = found[0];
    return {
        id: a.id,
        name: a.name,
        organizationId: a.organization_id,
        defaultWorkspaceId: a.default_workspace_id ?? undefined,
        createdAt: a.created_at,
        updatedAt: a.updated_at,
    };
}
