/**
 * The Listener's dynamic provider (its fields: declare.ts). A create lists the workspace's listeners first: a
 * `computeId` another listener holds is refused, naming it (unless LANGSMITH_ADOPT_IDS names its id: then its
 * namespaces are set to the program's); a lost answer is looked up by the `computeId` (api/controlPlane.ts).
 * The namespaces change by `PATCH /v2/listeners/{id}` and a delete is `DELETE /v2/listeners/{id}` (both
 * **decided**: docs/service.md R12); the service refuses (409) to delete a listener deployments still use, or
 * to drop a namespace one runs in, naming them, and the error keeps its words. `dataPlaneId`, sent at the create
 * only, names the organization's data plane the cluster belongs to (docs/service.md R17.1). `read` with only an id is
 * `pulumi import` (the listener's id).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ControlPlaneClient } from "../../api/controlPlane";
import { ConflictError } from "../../api/errors";
import type { Listener } from "../../api/schemas/listeners";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, listener, type ListenerInputs, type ListenerOutputs } from "./declare";

export const LISTENER_DIFF = diffTableOf(listener.inputs);

export interface ListenerProviderOptions {
    /** The control-plane client (default: the configured service's, in the resource's workspace). */
    client?: () => ControlPlaneClient;
}

/** A Kubernetes namespace's name: a DNS label (RFC 1123). */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function checkListener(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("Listener", listener.inputs, news);
    const id = news.computeId;
    if (typeof id === "string" && known(id) && id.trim() !== id) c.fail("computeId", `computeId ${JSON.stringify(id)} must not begin or end with spaces`);
    const names = Array.isArray(news.k8sNamespaces) ? news.k8sNamespaces : undefined;
    if (names && names.length === 0) c.fail("k8sNamespaces", "k8sNamespaces must name at least one namespace: a deployment on the listener runs in one");
    names?.forEach((n, i) => {
        if (typeof n !== "string" || !known(n)) return;
        if (!NAMESPACE.test(n))
            c.fail(
                `k8sNamespaces[${i}]`,
                `${JSON.stringify(n)} is no Kubernetes namespace name (lowercase letters, digits and -, at most 63, starting and ending with a letter or digit)`,
            );
        else if (names.indexOf(n) !== i) c.fail(`k8sNamespaces[${i}]`, `k8sNamespaces names ${n} twice`);
    });
    return c.done(inputs);
}

const body = (i: ListenerInputs) =>
    prune({ compute_type: i.computeType, compute_id: i.computeId, compute_config: { k8s_namespaces: i.k8sNamespaces }, data_plane_id: i.dataPlaneId });

/** A service refusal (409) of a write, said of the listener in the service's words. */
async function refusedWhileUsed<T>(id: string, write: Promise<T>): Promise<T> {
    return write.catch((e: unknown) => {
        if (e instanceof ConflictError) throw new Error(`Listener ${id}: the service refuses while deployments use it: ${e.detail} Nothing was changed.`);
        throw e;
    });
}

export function createListenerProvider(o: ListenerProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.controlPlane());
    const provider: ProviderOf<typeof listener> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkListener(news), "controlPlane");
        },
        async diff(_id, olds, news) {
            return diffByTable(LISTENER_DIFF, olds, news);
        },
        async create(inputs) {
            const cp = client();
            const held = (await cp.listListeners()).find((l) => l.compute_id === inputs.computeId);
            if (held && !adoptionAsked(held.id))
                throw new Error(
                    alreadyExistsMessage({
                        what: `Listener: the workspace already has listener ${held.id} for compute ${JSON.stringify(inputs.computeId)}`,
                        existing: "a computeId is registered once in a workspace",
                        id: held.id,
                        ifTheirs: "leave it to what manages it, or take it into this stack with `pulumi import` (docs/listener.md)",
                        why: "the service keeps no mark of which stack registered a listener, so the provider cannot tell one this stack's interrupted run made from another's.",
                    }),
                );
            const l = held ? await cp.patchListener(held.id, { compute_config: body(inputs).compute_config }) : await cp.createListener(body(inputs));
            return { id: l.id, outs: outputs(inputs, l) };
        },
        async read(id, props) {
            const l = await client().tryGetListener(id);
            if (!l) return {};
            const inputs = inputsOf(l, isImport(props) ? undefined : props?.workspaceId);
            return { id, props: outputs(inputs, l), inputs };
        },
        async update(id, _olds, news) {
            return { outs: outputs(news, await refusedWhileUsed(id, client().patchListener(id, { compute_config: body(news).compute_config }))) };
        },
        async delete(id) {
            await refusedWhileUsed(id, client().deleteListener(id));
        },
    };
    return provider;
}

/** The inputs as the service says them (refresh, import, getListener). */
export function inputsOf(l: Listener, workspaceId?: string): ListenerInputs {
    return prune({
        computeType: l.compute_type,
        computeId: l.compute_id,
        k8sNamespaces: l.compute_config.k8s_namespaces ?? [],
        dataPlaneId: l.data_plane_id ?? undefined,
        workspaceId,
    }) as ListenerInputs;
}

function outputs(i: ListenerInputs, l: Listener): ListenerOutputs {
    return { ...i, version: l.version ?? null, createdAt: l.created_at, schemaVersion: SCHEMA_VERSION };
}

export const listenerProvider = inItsWorkspace(createListenerProvider());
