/**
 * `getListener`: a listener of the workspace (a hybrid installation's cluster) looked up by id or by its compute id,
 * for programs whose `Deployment`s run on a listener another stack registered (its `listenerId`). One implementation
 * behind both front doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 */
import type { ControlPlaneClient } from "../../api/controlPlane";
import { oneOf } from "../../kit/check";
import { list, lookup, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { inputsOf } from "./provider";

export const getListenerFunction = lookup({
    name: "getListener",
    description: "Looks up a listener of the workspace by id or by the cluster's compute id (one of them); fails naming it when there is none.",
    args: { id: string("The listener's id."), computeId: string("The cluster's compute id."), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The listener's id (a `Deployment`'s `listenerId`).", { required: true }),
        computeType: string("The kind of compute (`k8s`).", { required: true }),
        computeId: string("The cluster's id.", { required: true }),
        k8sNamespaces: list("The namespaces deployments on it may run in.", string("A namespace."), { required: true }),
        dataPlaneId: string("The organization's data plane the cluster belongs to, if any."),
        version: string("The listener's version, as the service answers it."),
        createdAt: string("When it was registered."),
    },
});

export type GetListenerArgs = FunctionInputs<typeof getListenerFunction>;

export async function getListener(cp: ControlPlaneClient, args: GetListenerArgs): Promise<FunctionResult<typeof getListenerFunction>> {
    const { by, value } = oneOf("getListener", args, "id", "computeId");
    const l = by === "id" ? await cp.tryGetListener(value) : (await cp.listListeners()).find((x) => x.compute_id === value);
    if (!l) throw new Error(`getListener: the workspace has no listener ${by === "id" ? "of id" : "for compute"} ${JSON.stringify(value)}`);
    const { workspaceId: _, ...read } = inputsOf(l);
    return { id: l.id, ...read, version: l.version ?? undefined, createdAt: l.created_at };
}
