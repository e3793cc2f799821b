/**
 * `getDataPlane`: a data plane of the organization looked up by id or by name, for programs whose `Listener`s and
 * `Deployment`s run in a data plane another stack requested (their `dataPlaneId`). One implementation behind both
 * front doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 */
import type { DataPlanesClient } from "../../api/dataPlanes";
import { oneOf } from "../../kit/check";
import { list, lookup, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";

export const getDataPlaneFunction = lookup({
    name: "getDataPlane",
    description:
        "Looks up a data plane of the organization by id or by name (one of them); fails naming it when there is none. Needs an organization-admin key.",
    args: { id: string("The data plane's id."), name: string("The data plane's name.") },
    result: {
        id: string("The data plane's id (a `Listener`'s or `Deployment`'s `dataPlaneId`).", { required: true }),
        name: string("Its name.", { required: true }),
        region: string("The AWS region it is in.", { required: true }),
        status: string("Its status (`active` when listeners and deployments may use it).", { required: true }),
        apiUrl: string("Its API URL, once provisioned."),
        workspaceIds: list("The workspaces that use it.", string("A workspace id."), { required: true }),
        createdAt: string("When it was requested."),
    },
});

export type GetDataPlaneArgs = FunctionInputs<typeof getDataPlaneFunction>;

export async function getDataPlane(dp: DataPlanesClient, args: GetDataPlaneArgs): Promise<FunctionResult<typeof getDataPlaneFunction>> {
    const { by, value } = oneOf("getDataPlane", args, "id", "name");
    const d = by === "id" ? await dp.tryGet(value) : await dp.findByName(value);
    if (!d) throw new Error(`getDataPlane: the organization has no data plane ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    return {
        id: d.id,
        name: d.name,
        region: d.region,
        status: d.status,
        apiUrl: d.api_url ?? undefined,
        workspaceIds: (d.workspaces ?? []).map((w) => w.id),
        createdAt: d.created_at,
    };
}
