/**
 * The HubHandle's dynamic provider (its fields: declare.ts). A workspace's prompt hub handle is set once and the service
 * cannot rename it (docs/service.md R20.3): a change of `handle` is refused at preview with that reason; a create on a
 * workspace that already has this handle takes it (nothing is sent: it is the same fact), one that has another is
 * refused naming it. A delete leaves the handle on the workspace (there is no call that removes one): the preview of a
 * create says so. `read` with only an id (the workspace's) is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { OrgSettingsClient } from "../../api/orgSettings";
import { HUB_HANDLE_RE } from "../../api/schemas/orgSettings";
import { withoutIdentity } from "../../kit/autoname";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { onlyOnePerScope } from "../../kit/scope";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { given } from "../../kit/workspace";
import { checkWorkspaceId, withWorkspaces, workspaceAdmins, workspaceOf } from "../../kit/workspaceAdmin";
import { SCHEMA_VERSION, hubHandle, type HubHandleInputs, type HubHandleOutputs } from "./declare";

export const HUB_HANDLE_DIFF = diffTableOf(hubHandle.inputs);

/** Why a handle is refused, before any call. */
function handleProblems(c: Checker, olds: Record<string, unknown> | undefined, news: Record<string, unknown>, providerWorkspace: string | undefined): void {
    const h = news.handle;
    if (typeof h === "string" && known(h) && h !== "" && !HUB_HANDLE_RE.test(h))
        c.fail(
            "handle",
            `handle ${JSON.stringify(h)} is not a handle the hub takes: lowercase letters, digits, - and _, starting with a letter or a digit, at most 64 characters${/[A-Z]/.test(h) && HUB_HANDLE_RE.test(h.toLowerCase()) ? ` (write ${JSON.stringify(h.toLowerCase())})` : ""}`,
        );
    if (isImport(olds) || !known(h) || olds?.handle === undefined || olds.handle === h) return;
    const sameWorkspace = workspaceOf(olds.workspaceId, providerWorkspace) === workspaceOf(news.workspaceId, providerWorkspace);
    if (sameWorkspace && known(news.workspaceId))
        c.fail(
            "handle",
            `handle ${JSON.stringify(olds.handle)} -> ${JSON.stringify(h)}: the service sets a workspace's hub handle once and cannot rename it (its prompts are pulled as ${olds.handle}/<name>); keep ${JSON.stringify(olds.handle)}, or give the new handle to another workspace`,
        );
}

export function checkHubHandle(olds: Record<string, unknown> | undefined, args: Record<string, unknown>, providerWorkspace: string | undefined) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("HubHandle", hubHandle.inputs, news);
    checkWorkspaceId(c, news.workspaceId, providerWorkspace, "HubHandle");
    const ws = workspaceOf(news.workspaceId, providerWorkspace);
    onlyOnePerScope(c, {
        resource: "HubHandle",
        identity,
        parts: [ws],
        property: given(news.workspaceId) ? "workspaceId" : "",
        what: `the hub handle of workspace ${ws}`,
        exists: "a workspace has one",
    });
    handleProblems(c, olds, news, providerWorkspace);
    if (isImport(olds) && typeof news.handle === "string" && known(news.handle))
        c.warn(
            "handle",
            `The hub handle ${JSON.stringify(news.handle)} is set once: \`pulumi destroy\` (or removing this resource) leaves it on the workspace, since the service can neither rename nor remove it.`,
        );
    return c.done(inputs);
}

export function createHubHandleProvider(o: { admin?: (workspaceId: string) => OrganizationClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const configured = () => service.config().workspaceId;
    const admin = workspaceAdmins(() => service, "HubHandle", o.admin);
    const settings = (workspaceId?: string) => {
        const { ws, client } = admin(workspaceId);
        return { ws, client: OrgSettingsClient.of(client) };
    };
    const provider: ProviderOf<typeof hubHandle> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(olds, news) {
            return service.check((cfg) => checkHubHandle(olds, news, cfg.workspaceId), "organization");
        },
        async diff(_id, olds, news) {
            const [ol, nw] = withWorkspaces(olds, news, configured);
            return diffByTable(HUB_HANDLE_DIFF, ol, nw);
        },
        async create(inputs) {
            const { ws, client } = settings(inputs.workspaceId);
            const held = (await client.tenant()).tenant_handle;
            if (held && held !== inputs.handle)
                throw new Error(
                    `HubHandle: workspace ${ws} already has the hub handle ${JSON.stringify(held)}, which the service cannot rename: write handle ${JSON.stringify(held)} to manage it, or name another workspace.`,
                );
            if (!held) await client.setHandle(inputs.handle);
            return { id: ws, outs: outputs(inputs, ws) };
        },
        async read(id, props) {
            const imported = isImport(props);
            const { ws, client } = settings(props?.tenantId ?? id);
            const handle = (await client.tenant()).tenant_handle;
            if (!handle) return {};
            const inputs = prune({ handle, workspaceId: imported ? id : props?.workspaceId }) as HubHandleInputs;
            return { id, props: outputs(inputs, ws), inputs };
        },
        async update(_id, olds, news) {
            // Nothing to send: a change of the handle is refused at preview, and one of the workspace replaces.
            return { outs: outputs(news, olds.tenantId) };
        },
        async delete() {
            // The handle stays on the workspace (said at the create's preview): the service has no call that removes one.
        },
    };
    return provider;
}

function outputs(i: HubHandleInputs, tenantId: string): HubHandleOutputs {
    return { ...i, tenantId, schemaVersion: SCHEMA_VERSION };
}

export const hubHandleProvider = createHubHandleProvider();
