/**
 * The WorkspaceSecret's dynamic provider (its fields: declare.ts). A create lists the workspace's keys first:
 * the service's PUT overwrites silently, so a key the workspace already holds is refused (unless
 * LANGSMITH_ADOPT_IDS names it, as `<workspaceId>/<key>`) rather than its value replaced; then one PUT, an idempotent upsert, so a
 * lost answer retried does no harm. The resource's id is the key. The value is never readable: refresh
 * finds the key (gone when the workspace no longer lists it) and keeps the value of the state. `read`
 * with only an id is `pulumi import` (`<key>` or `<workspaceId>/<key>`): the value is then unknown, and the
 * first `up` sets the program's.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { checkWorkspaceId, located, noneInGoneWorkspace, withWorkspaces, workspaceAdmins } from "../../kit/workspaceAdmin";
import { SCHEMA_VERSION, workspaceSecret, type WorkspaceSecretInputs, type WorkspaceSecretOutputs } from "./declare";

export const WORKSPACE_SECRET_DIFF = diffTableOf(workspaceSecret.inputs);

export interface WorkspaceSecretProviderOptions {
    /** The administration client of a workspace (default: the configured service's, `X-Tenant-Id` = that workspace). */
    admin?: (workspaceId: string) => OrganizationClient;
}

/** The check of a secret's arguments; `providerWorkspace`: the configured workspace, if any. */
export function checkWorkspaceSecret(news: Record<string, unknown>, providerWorkspace: string | undefined) {
    const c = new Checker();
    const inputs = c.declaration("WorkspaceSecret", workspaceSecret.inputs, news);
    const key = news.key;
    if (typeof key === "string" && known(key) && key !== "" && key.trim() !== key)
        c.fail("key", `key ${JSON.stringify(key)} must not begin or end with spaces`);
    checkWorkspaceId(c, news.workspaceId, providerWorkspace, "WorkspaceSecret");
    return c.done(inputs);
}

export function createWorkspaceSecretProvider(o: WorkspaceSecretProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const configured = () => service.config().workspaceId;
    const admin = workspaceAdmins(() => service, "WorkspaceSecret", o.admin);
    const provider: ProviderOf<typeof workspaceSecret> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check((cfg) => checkWorkspaceSecret(news, cfg.workspaceId), "organization");
        },
        async diff(_id, olds, news) {
            const [o, n] = withWorkspaces(olds, news, configured);
            const { changes, replaces, updates } = diffByTable(WORKSPACE_SECRET_DIFF, o, n);
            return { changes, replaces, updates };
        },
        async create(inputs) {
            const { ws, client } = admin(inputs.workspaceId);
            // Adopted as `<workspaceId>/<key>`: a key alone would name that key in every workspace of the program.
            if ((await client.listSecretKeys()).includes(inputs.key) && !adoptionAsked(`${ws}/${inputs.key}`)) {
                throw new Error(
                    alreadyExistsMessage({
                        what: `WorkspaceSecret: workspace ${ws} already holds a secret named ${JSON.stringify(inputs.key)}`,
                        existing: "keys are unique in a workspace, and setting one overwrites its value",
                        id: `${ws}/${inputs.key}`,
                        ifTheirs: "give this one another key",
                        why: "the service keeps no mark of who set a secret (and never answers its value), so the provider cannot tell one this stack's interrupted run set from another's; its value was left as it is.",
                    }),
                );
            }
            await client.putSecret(inputs.key, inputs.value);
            return { id: inputs.key, outs: outputs(inputs, ws) };
        },
        async read(id, props) {
            const at = located(id, props && { ...props, name: props.key });
            const { ws, client } = admin(at.workspaceId);
            const keys = await client.listSecretKeys().catch(noneInGoneWorkspace<string>);
            if (!keys.includes(at.name)) return {};
            // The value is never answered: the state's stands (none on import: the first `up` sets it).
            const inputs = prune({
                key: at.name,
                value: props?.value,
                workspaceId: at.named ? at.workspaceId : props?.workspaceId,
            }) as WorkspaceSecretInputs;
            return { id, props: outputs(inputs, ws), inputs };
        },
        async update(_id, olds, news) {
            const { ws, client } = admin(olds.tenantId ?? news.workspaceId);
            if (!sameValue(olds.value, news.value)) await client.putSecret(news.key, news.value);
            return { outs: outputs(news, ws) };
        },
        async delete(id, props) {
            const at = located(id, props && { ...props, name: props.key });
            await admin(at.workspaceId).client.deleteSecret(at.name);
        },
    };
    return provider;
}

function outputs(i: WorkspaceSecretInputs, tenantId: string): WorkspaceSecretOutputs {
    return { ...i, tenantId, schemaVersion: SCHEMA_VERSION };
}

export const workspaceSecretProvider = createWorkspaceSecretProvider();
