/**
 * The Listener, declared once (kit/declare.ts): the compute of a hybrid installation (a Kubernetes cluster)
 * registered with the control plane (docs/service.md R12), which `Deployment`s of `external_docker` images name
 * by `listenerId`. provider.ts holds what a table cannot say.
 */
import { COMPUTE_TYPES } from "../../api/schemas/listeners";
import { list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const listener = resource({
    name: "Listener",
    description:
        "A listener of a hybrid LangSmith installation: the Kubernetes cluster (`computeId`) and namespaces that deployments of `external_docker` images run in; a `Deployment` names it by `listenerId`. The namespaces change in place; deleting it is refused while deployments use it, naming them.",
    inputs: {
        computeType: string("The kind of compute: `k8s` (the only one). Fixed once made: a change replaces the listener.", {
            values: COMPUTE_TYPES,
            default: "k8s",
            onChange: "replace",
        }),
        computeId: string("The cluster's id, unique in the workspace (checked by the service). Fixed once made: a change replaces the listener.", {
            required: true,
            onChange: "replace",
        }),
        k8sNamespaces: list(
            "The Kubernetes namespaces deployments on it may run in (at least one; each a DNS label: lowercase letters, digits and `-`, checked at preview). Changed in place; the service refuses to drop one a deployment uses.",
            string("A namespace."),
            { required: true, onChange: "update" },
        ),
        dataPlaneId: string(
            "The organization's data plane (a `DataPlane`'s id) the cluster belongs to, which must be `active` (checked by the service); absent: none. Fixed once made: a change replaces the listener.",
            { onChange: "replace" },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        version: string("The listener's version, as the service answers it.", { nullable: true }),
        createdAt: string("When it was registered.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ListenerInputs = Inputs<typeof listener>;
export type ListenerOutputs = Outputs<typeof listener>;
