/**
 * The Workspace's dynamic provider (its fields: declare.ts). A create carries an id made here (a lost answer
 * is looked up by it, never sent twice); a display name another live workspace of the organization has is
 * refused with that workspace's id unless LANGSMITH_ADOPT_IDS names it, so a `pulumi up` killed after the
 * service made the workspace never leads to a second one. A rename is one PATCH. A delete the service refuses
 * (the workspace still holds objects) fails with the service's words, which name them. `read` with only an id
 * is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { WORKSPACE_NAME, type Workspace } from "../../api/schemas/organization";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, leftOutKept, sameValue } from "../../kit/diff";
import { alreadyExistsMessage, adoptionAsked, takenOverWarning } from "../../kit/interrupted";
import { known } from "../../kit/unknown";
import { Service } from "../../kit/service";
import { warn } from "../../kit/warn";
import { SCHEMA_VERSION, workspace, type WorkspaceInputs, type WorkspaceOutputs } from "./declare";

export const WORKSPACE_DIFF = diffTableOf(workspace.inputs);

export function checkWorkspace(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("Workspace", workspace.inputs, news);
    const name = news.displayName;
    if (typeof name === "string" && known(name) && name.trim() === "") c.fail("displayName", "displayName must not be empty");
    else if (typeof name === "string" && known(name) && !WORKSPACE_NAME.test(name))
        c.fail("displayName", `displayName ${JSON.stringify(name)} may hold only letters, digits, spaces and - _ ' @ ( ) (the service refuses anything else)`);
    const handle = news.tenantHandle;
    if (typeof handle === "string" && known(handle) && handle.trim() === "") c.fail("tenantHandle", "tenantHandle must not be empty: leave it out instead");
    return c.done(inputs);
}

export function createWorkspaceProvider(o: { organization?: () => OrganizationClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const organization = o.organization ?? (() => service.organization());
    const provider: ProviderOf<typeof workspace> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkWorkspace(news), "organization");
        },
        async diff(_id, olds, news) {
            // A handle left out is not compared (one the service gave, or an import read): docs/workspace.md.
            const { changes, replaces, updates } = diffByTable(WORKSPACE_DIFF, olds, leftOutKept(olds, news, ["tenantHandle"]));
            // A new workspace under the same name would be refused beside the old one (create keeps names unique): delete first.
            return { changes, replaces, updates, deleteBeforeReplace: sameValue(olds.displayName, news.displayName) };
        },
        async create(inputs) {
            const org = organization();
            const holder = (await org.listWorkspaces()).find((w) => !w.is_deleted && w.display_name === inputs.displayName);
            const w = holder
                ? await takeOver(holder, inputs)
                : await org.createWorkspace({ display_name: inputs.displayName, tenant_handle: inputs.tenantHandle });
            return { id: w.id, outs: outputs(inputs, w) };
        },
        async read(id, props) {
            const w = await organization().tryGetWorkspace(id);
            if (!w) return {};
            const inputs = inputsOf(w, props);
            return { id, props: outputs(inputs, w), inputs };
        },
        async update(id, olds, news) {
            const org = organization();
            if (olds.displayName !== news.displayName) await refuseTakenName(org, id, news.displayName);
            const w = olds.displayName === news.displayName ? await org.tryGetWorkspace(id) : await org.updateWorkspace(id, news.displayName);
            if (!w) throw new Error(`Workspace ${id} is gone: run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to make it again`);
            return { outs: outputs(news, w) };
        },
        async delete(id) {
            await organization().deleteWorkspace(id);
        },
    };
    return provider;
}

/** A rename to the name of another live workspace, refused before it is sent: names stay unique (as create relies on). */
async function refuseTakenName(org: OrganizationClient, id: string, displayName: string): Promise<void> {
    const other = (await org.listWorkspaces()).find((w) => w.id !== id && !w.is_deleted && w.display_name === displayName);
    if (other) {
        throw new Error(
            `Workspace ${id}: cannot be renamed ${JSON.stringify(displayName)}: workspace ${other.id} of the organization has that name, and this provider keeps workspace names unique (a stopped \`pulumi up\` is found again by its name). Nothing was changed: choose another displayName.`,
        );
    }
}

/**
 * The workspace of the same display name the organization holds: taken in when LANGSMITH_ADOPT_IDS names it (its
 * handle must match: it is fixed), refused otherwise (a killed `pulumi up` may have made it, or someone else).
 */
async function takeOver(holder: Workspace, inputs: WorkspaceInputs): Promise<Workspace> {
    const what = `Workspace: the organization already holds workspace ${holder.id} named ${JSON.stringify(holder.display_name)} (created ${holder.created_at})`;
    if (!adoptionAsked(holder.id)) {
        throw new Error(
            alreadyExistsMessage({
                what,
                existing: "this provider keeps workspace names unique, so that a `pulumi up` stopped after the service made one never makes a second",
                id: holder.id,
                ifTheirs: "give this one another displayName",
                why: "the service keeps no mark of which stack made a workspace.",
            }),
        );
    }
    if ((holder.tenant_handle ?? undefined) !== inputs.tenantHandle && inputs.tenantHandle !== undefined) {
        throw new Error(
            `${what}: its tenantHandle is ${JSON.stringify(holder.tenant_handle ?? null)}, fixed at creation; the program asks for ${JSON.stringify(inputs.tenantHandle)}`,
        );
    }
    await warn(takenOverWarning(`Workspace ${holder.id}`, "as LANGSMITH_ADOPT_IDS names it"));
    return holder;
}

/**
 * The inputs as the service says them (refresh, import). A handle the program never gave is left out on refresh
 * (should the service give every workspace one, it would otherwise replace the workspace); import reads it.
 */
function inputsOf(w: Workspace, stored: Partial<WorkspaceOutputs> | undefined): WorkspaceInputs {
    const handle = w.tenant_handle && (isImport(stored) || stored?.tenantHandle !== undefined) ? { tenantHandle: w.tenant_handle } : {};
    return { displayName: w.display_name, ...handle };
}

function outputs(i: WorkspaceInputs, w: Workspace): WorkspaceOutputs {
    return {
        ...i,
        organizationId: w.organization_id ?? null,
        createdAt: w.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

export const workspaceProvider = createWorkspaceProvider();
